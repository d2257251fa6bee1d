import { toBase } from '../../../contract/common/exchange.js';
import type { TxCtx } from '../../platform/context.js';
import type { Subscriptions } from '../../platform/hooks.js';
import { baseCurrency } from '../../platform/settings.js';
import { rateOn } from '../exchange-rates/service.js';
import { bankAccountCode } from '../bank-accounts/service.js';
import { postedRate } from './queries.js';
import { ACCOUNTS, cashAccountOf, post, reverse, settlementBase } from './service.js';
import { countCreditNote, countSale } from '../sales/service.js';
import { checkVatAlerts } from '../vat/service.js';

/**
 * `amount` of `currency` in the base currency at the rate of `date` (the table's), or null when the
 * table has none that day: money paid back is then taken at its invoice's rate, with no difference.
 */
async function moneyOfTheDay(
  ctx: TxCtx,
  currency: string,
  date: string,
  amount: number,
): Promise<number | null> {
  const base = await baseCurrency(ctx);
  if (currency === base) return null;
  const found = await rateOn(ctx, currency, date);
  return found === null ? null : toBase(amount, currency, base, found.rate);
}

/**
 * The general group's invoices in finance, followed in the transaction that changes them. On the
 * ledger: issued Dr 1200 total / Cr 4000 net / Cr 2200 tax on the issue date; a payment Dr cash /
 * Cr 1200 on its payment date (Dr 2300 for customer credit); a void of an issued invoice reverses its posting on the void's day.
 * In the sales totals: net revenue counted on the issue date and taken out by a void; an issue and a void
 * check the VAT threshold. A credit note posts its own entry (below) and takes its net off the revenue of
 * its issue date until it is voided (docs/decisions.md D248).
 */
export const invoiceSubscriptions: Subscriptions = {
  invoiceIssued: async (ctx, { invoice }) => {
    if (!invoice.issueDate) throw new Error(`Invoice ${invoice.id} was issued without an issue date`);
    await post(ctx, {
      date: invoice.issueDate,
      description: `Invoice ${invoice.number}`,
      currency: invoice.currency,
      rate: invoice.exchangeRate,
      source: { type: 'invoice', id: invoice.id },
      debits: [{ account: ACCOUNTS.receivable, amount: invoice.totalMinor }],
      credits: [
        { account: ACCOUNTS.sales, amount: invoice.subtotalMinor },
        { account: ACCOUNTS.vatPayable, amount: invoice.taxMinor },
      ],
    });
    await countSale(ctx, invoice, 1);
    await checkVatAlerts(ctx);
  },
  invoicePaymentRecorded: async (ctx, { invoice, payment }) => {
    // A payment naming a bank account goes to that account's chart code (docs/decisions.md D273).
    const bank =
      payment.bankAccountId === null
        ? null
        : await bankAccountCode(ctx, payment.bankAccountId, invoice.currency, 'bank_account_id');
    // Customer credit settles at the invoice's own rate; money received at the payment's, the
    // receivable at the invoice's: the difference is a realised gain or loss (docs/decisions.md D278).
    const settled = await settlementBase(ctx, {
      document: { type: 'invoice', id: invoice.id },
      currency: invoice.currency,
      before: invoice.amountPaidMinor + invoice.amountCreditedMinor - payment.amountMinor,
      amount: payment.amountMinor,
    });
    await post(ctx, {
      date: payment.paymentDate,
      description: `Payment of invoice ${invoice.number}`,
      currency: invoice.currency,
      rate: payment.method === 'credit' ? (settled?.rate ?? null) : payment.exchangeRate,
      source: { type: 'invoice_payment', id: payment.id },
      // Customer credit applied at issue comes out of 2300 Customer credit, not a cash account; a
      // card payment a provider took waits in 1030 for the provider's payout (docs/decisions.md D270).
      debits: [
        {
          account:
            payment.method === 'credit'
              ? ACCOUNTS.customerCredit
              : payment.provider
                ? ACCOUNTS.providerClearing
                : (bank ?? cashAccountOf(payment.method)),
          amount: payment.amountMinor,
        },
      ],
      credits: [
        { account: ACCOUNTS.receivable, amount: payment.amountMinor, ...(settled && { base: settled.base }) },
      ],
    });
  },
  // A payment a bank match recorded, taken back as the match is undone: its entry reversed.
  invoicePaymentReversed: async (ctx, { invoice, paymentId, date }) => {
    await reverse(
      ctx,
      { type: 'invoice_payment', id: paymentId },
      date,
      `Reversal of a payment of invoice ${invoice.number}`,
    );
  },
  // Paid online beyond what an invoice owed: Dr 1030 / Cr 2300 Customer credit.
  customerCreditReceived: async (ctx, received) => {
    await post(ctx, {
      date: received.date,
      description: received.description,
      currency: received.currency,
      source: { type: 'customer_credit', id: received.sourceId },
      debits: [{ account: ACCOUNTS.providerClearing, amount: received.amountMinor }],
      credits: [{ account: ACCOUNTS.customerCredit, amount: received.amountMinor }],
    });
  },
  // A credit note in one entry: Dr 4000 net and 2200 tax / Cr 1200 its total; its refund Dr 1200 /
  // Cr cash-or-bank; its customer credit Dr 1200 / Cr 2300. A void reverses the entry on its day. A
  // card refund a provider has yet to confirm is left out: it posts when settled (below).
  creditNoteIssued: async (ctx, { creditNote }) => {
    const refunded = creditNote.refundPending ? 0 : creditNote.refundMinor;
    const paidOut = refunded + creditNote.customerCreditMinor;
    // A correction of its invoice: at the invoice's rate. Money paid back leaves at the rate of the
    // day, and what that differs from the invoice's is a realised gain or loss (docs/decisions.md D278).
    const invoiceRate = await postedRate(ctx.db, ctx.businessId, 'invoice', creditNote.invoiceId);
    const refundBase =
      refunded > 0 && invoiceRate !== undefined
        ? await moneyOfTheDay(ctx, creditNote.currency, creditNote.issueDate, refunded)
        : null;
    await post(ctx, {
      date: creditNote.issueDate,
      description: `Credit note ${creditNote.number} for invoice ${creditNote.invoiceNumber}`,
      currency: creditNote.currency,
      rate: invoiceRate,
      source: { type: 'credit_note', id: creditNote.id },
      debits: [
        { account: ACCOUNTS.sales, amount: creditNote.subtotalMinor },
        { account: ACCOUNTS.vatPayable, amount: creditNote.taxMinor },
        { account: ACCOUNTS.receivable, amount: paidOut },
      ],
      credits: [
        { account: ACCOUNTS.receivable, amount: creditNote.totalMinor },
        ...(refunded > 0
          ? [
              {
                account: cashAccountOf(creditNote.refundMethod ?? ''),
                amount: refunded,
                ...(refundBase !== null && { base: refundBase }),
              },
            ]
          : []),
        { account: ACCOUNTS.customerCredit, amount: creditNote.customerCreditMinor },
      ],
    });
    await countCreditNote(ctx, creditNote, -1);
    // Revenue back under a level re-arms its alert now, so the next crossing is announced.
    await checkVatAlerts(ctx);
  },
  // A card refund the provider confirmed leaves its clearing balance: Dr 1200 / Cr 1030 (docs/decisions.md D271).
  // In another currency, the receivable at the rate its credit note (its invoice's) posted at and the
  // money at the day's: the difference realised.
  cardRefundSettled: async (ctx, refund) => {
    const noteRate = await postedRate(ctx.db, ctx.businessId, 'credit_note', refund.creditNoteId);
    const base = await baseCurrency(ctx);
    const receivableBase =
      noteRate !== undefined && refund.currency !== base
        ? toBase(refund.amountMinor, refund.currency, base, noteRate)
        : null;
    await post(ctx, {
      date: refund.date,
      description: `Card refund of credit note ${refund.creditNoteNumber}`,
      currency: refund.currency,
      source: { type: 'card_refund', id: refund.creditNoteId },
      debits: [
        {
          account: ACCOUNTS.receivable,
          amount: refund.amountMinor,
          ...(receivableBase !== null && { base: receivableBase }),
        },
      ],
      credits: [{ account: ACCOUNTS.providerClearing, amount: refund.amountMinor }],
    });
  },
  // What a provider held reaches the bank: Dr 1010 Bank / Cr 1030 clearing, on its arrival date.
  providerPayoutPaid: async (ctx, payout) => {
    await post(ctx, {
      date: payout.date,
      description: `Payout ${payout.payoutId} from ${payout.provider}`,
      currency: payout.currency,
      source: { type: 'payout', id: payout.payoutId },
      debits: [{ account: ACCOUNTS.bank, amount: payout.amountMinor }],
      credits: [{ account: ACCOUNTS.providerClearing, amount: payout.amountMinor }],
    });
  },
  creditNoteVoided: async (ctx, { creditNote, voidedOn }) => {
    await countCreditNote(ctx, creditNote, 1);
    await checkVatAlerts(ctx);
    await reverse(
      ctx,
      { type: 'credit_note', id: creditNote.id },
      voidedOn,
      `Void of credit note ${creditNote.number}`,
    );
  },
  invoiceVoided: async (ctx, { invoice, wasIssued, voidedOn }) => {
    if (!wasIssued) return;
    await countSale(ctx, invoice, -1);
    // Revenue back under a level re-arms its alert now, so the next crossing is announced.
    await checkVatAlerts(ctx);
    await reverse(ctx, { type: 'invoice', id: invoice.id }, voidedOn, `Void of invoice ${invoice.number}`);
  },
};
