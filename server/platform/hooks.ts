import type { TxCtx } from './context.js';

/** An invoice as other domains see it: amounts in integer minor units of its currency. */
export interface InvoiceFacts {
  id: string;
  number: string;
  customerId: string;
  currency: string;
  /** The rate it was given to post at (docs/decisions.md D278); null: the rate of its issue date. */
  exchangeRate: string | null;
  /** `YYYY-MM-DD`; set once the invoice is issued. */
  issueDate: string | null;
  subtotalMinor: number;
  taxMinor: number;
  totalMinor: number;
  amountPaidMinor: number;
  /** What credit notes took off what the invoice owes. */
  amountCreditedMinor: number;
  /** The part of amountPaidMinor the customer's credit balance paid (payments with method `credit`). */
  creditAppliedMinor: number;
}

/** A credit note as other domains see it: amounts in integer minor units of its currency. */
export interface CreditNoteFacts {
  id: string;
  number: string;
  invoiceId: string;
  invoiceNumber: string;
  customerId: string;
  currency: string;
  /** `YYYY-MM-DD`. */
  issueDate: string;
  subtotalMinor: number;
  taxMinor: number;
  totalMinor: number;
  creditMinor: number;
  refundMinor: number;
  /** How the refund was paid back; null without one. */
  refundMethod: string | null;
  /** A card refund a provider has yet to confirm: it posts nothing until `cardRefundSettled`. */
  refundPending: boolean;
  customerCreditMinor: number;
}

/** A payment recorded against an invoice, in minor units of the invoice's currency. */
export interface InvoicePaymentFacts {
  id: string;
  amountMinor: number;
  /** The spec's payment method (`cash`, `bank_transfer`, `card`, `mobile_money`, ...). */
  method: string;
  /** `YYYY-MM-DD`. */
  paymentDate: string;
  /** The payment provider that took it (a card payment made online); null for one recorded by hand. */
  provider: string | null;
  /** The bank account the money reached, when named: its chart account takes the payment. */
  bankAccountId: string | null;
  /** The rate it was given to post at (docs/decisions.md D278); null: the rate of its date. */
  exchangeRate: string | null;
}

/**
 * Changes one domain announces and other domains follow in the same transaction (docs/decisions.md D48).
 * `general` announces the invoice hooks; finance posts them to the ledger and checks the VAT
 * threshold; loyalty earns points on `invoicePaid`. `general` also announces `customerDeleting`, so
 * that a domain whose rows name the customer can refuse the deletion (loyalty, for a member).
 * Webhook events are a separate, public vocabulary (the outbox); these are internal and typed.
 */
export interface HookPayloads {
  /** A draft became binding (`unpaid`); `issueDate` is set. */
  invoiceIssued: { invoice: InvoiceFacts };
  /** A payment was recorded (announced before `invoicePaid` when it completes the invoice). */
  invoicePaymentRecorded: { invoice: InvoiceFacts; payment: InvoicePaymentFacts };
  /**
   * Money a customer paid that went to their credit balance instead of an invoice (paid online
   * beyond what the invoice still owed); `sourceId` is the provider's id of the payment.
   */
  customerCreditReceived: {
    customerId: string;
    currency: string;
    amountMinor: number;
    /** `YYYY-MM-DD`. */
    date: string;
    sourceId: string;
    description: string;
    provider: string;
  };
  /** A payment a bank match recorded was taken back as the match was undone; reversed on `date`. */
  invoicePaymentReversed: { invoice: InvoiceFacts; paymentId: string; date: string };
  /** Payments now cover the invoice's total. */
  invoicePaid: { invoice: InvoiceFacts };
  /** A credit note was issued against an issued invoice (announced after the invoice changed). */
  creditNoteIssued: { creditNote: CreditNoteFacts };
  /** A provider confirmed a credit note's card refund: the money left the provider's balance on `date`. */
  cardRefundSettled: {
    creditNoteId: string;
    creditNoteNumber: string;
    currency: string;
    amountMinor: number;
    /** `YYYY-MM-DD`. */
    date: string;
  };
  /** A provider paid the business's money it held into the business's bank account on `date`. */
  providerPayoutPaid: {
    provider: string;
    payoutId: string;
    currency: string;
    amountMinor: number;
    /** `YYYY-MM-DD`. */
    date: string;
  };
  /** A credit note with nothing refunded or used was voided; `voidedOn` is the void's date. */
  creditNoteVoided: { creditNote: CreditNoteFacts; voidedOn: string };
  /** A draft or unpaid invoice without payments was voided; `voidedOn` is the void's date. */
  invoiceVoided: { invoice: InvoiceFacts; wasIssued: boolean; voidedOn: string };
  /**
   * A customer is about to be deleted (its row locked, nothing deleted yet). A subscriber whose
   * domain still references the customer refuses by throwing an `ApiError` (`RESOURCE_IN_USE`).
   */
  customerDeleting: { customerId: string };
}

export type HookName = keyof HookPayloads;

/** The context a subscriber runs in: the announcing request's or job's, on its transaction. */
export type HookCtx = TxCtx;

/** What a domain module subscribes to. A subscriber that throws rolls the whole change back. */
export type Subscriptions = {
  [K in HookName]?: (ctx: HookCtx, payload: HookPayloads[K]) => Promise<void>;
};

/** The subscribers of every domain module, called in the order the modules are listed. */
export class Hooks {
  constructor(private readonly subscriptions: readonly Subscriptions[]) {}

  async announce<K extends HookName>(ctx: TxCtx, name: K, payload: HookPayloads[K]): Promise<void> {
    for (const subscription of this.subscriptions) {
      const subscriber = subscription[name];
      if (subscriber) await subscriber(ctx, payload);
    }
  }
}
