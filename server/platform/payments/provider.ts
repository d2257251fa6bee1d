/**
 * Payment providers (docs/decisions.md D270): what the service asks of the company that takes a
 * customer's card. The service never sees a card number: it opens the provider's checkout for an
 * amount, and records the payment when the provider confirms it. `test` is built in (its checkout
 * is the service's own page); `stripe` talks to Stripe.
 */
export const PROVIDERS = ['test', 'stripe'] as const;
export type ProviderName = (typeof PROVIDERS)[number];

/** A checkout to open: what the customer pays, and where the provider sends them afterwards. */
export interface CheckoutRequest {
  /** The service's own id of the checkout (`chk_...`), which the provider hands back. */
  checkoutId: string;
  businessId: string;
  invoiceId: string;
  /** What the customer sees on the provider's page, e.g. `Invoice INV-000012 from Acme Ltd`. */
  description: string;
  amountMinor: number;
  currency: string;
  /** Where the customer lands after paying, and after turning back. */
  successUrl: string;
  cancelUrl: string;
}

/** A checkout the provider opened: its own id of it, and the page the customer pays on. */
export interface OpenedCheckout {
  session: string;
  url: string;
}

export interface PaymentProvider {
  readonly name: ProviderName;
  /** The origin of the provider's checkout pages, when not this service's own (`https://checkout.stripe.com`). */
  readonly checkoutOrigin?: string;
  /** Whether the provider takes payments in this currency (ISO 4217). */
  supportsCurrency(currency: string): boolean;
  createCheckout(request: CheckoutRequest): Promise<OpenedCheckout>;
  /**
   * Pays part or all of a payment back to the card it came from; the same `idempotencyKey` never
   * refunds twice. A refund the provider refuses outright throws `RefundRefusedError`.
   */
  refund(paymentId: string, amountMinor: number, idempotencyKey: string): Promise<StartedRefund>;
  /** Whether the business's connection works, asked of the provider; `webhookUrl` is where its events must go. */
  checkConnection(webhookUrl: string): Promise<ConnectionCheck[]>;
}

/** One check of a connection: `unknown` when the provider could not say. */
export interface ConnectionCheck {
  name: 'provider' | 'secret_key' | 'webhook_endpoint';
  result: 'passed' | 'failed' | 'unknown';
  message: string;
}

export type RefundStatus = 'pending' | 'succeeded' | 'failed';

/** A refund the provider took: its id of it, and whether the money is back on the card yet. */
export interface StartedRefund {
  refundId: string;
  status: RefundStatus;
}

/** The provider refused the refund itself (the payment is refunded already, disputed, ...): retrying changes nothing. */
export class RefundRefusedError extends Error {
  override readonly name = 'RefundRefusedError';
}

/** A payment a provider confirmed: the checkout it pays, the provider's id of it and what was paid. */
export interface ConfirmedPayment {
  provider: ProviderName;
  session: string;
  paymentId: string;
  amountMinor: number;
  currency: string;
}
