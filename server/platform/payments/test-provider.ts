import type { SecretBox } from '../secret-box.js';
import type { CheckoutRequest, OpenedCheckout, PaymentProvider } from './provider.js';

/**
 * The built-in `test` provider (docs/decisions.md D270): its checkout is the service's own page at
 * `/pay/test/<session>`, with Succeed, Decline and Succeed-later buttons, as Stripe's test cards
 * are. The session names the business and the checkout and is signed, so it cannot be guessed or
 * altered. Its refunds succeed as soon as they are asked for. Every sandbox uses it; a live business only when `PAYMENTS_TEST_PROVIDER=true`.
 */
export const TEST_CHECKOUT_PATH = '/pay/test';

const signed = (payload: string) => `test checkout:${payload}`;

/** The session of a checkout: `<base64url(business:checkout)>.<signature>`. */
export function testSession(secrets: SecretBox, businessId: string, checkoutId: string): string {
  const payload = Buffer.from(`${businessId}:${checkoutId}`).toString('base64url');
  return `${payload}.${secrets.sign(signed(payload))}`;
}

/** The business and checkout a session names when the service signed it; null otherwise. */
export function readTestSession(
  secrets: SecretBox,
  session: string,
): { businessId: string; checkoutId: string } | null {
  const [payload = '', signature = '', extra] = session.split('.');
  if (extra !== undefined || !payload || payload.length > 200) return null;
  if (!secrets.verify(signed(payload), signature)) return null;
  const [businessId, checkoutId, rest] = Buffer.from(payload, 'base64url').toString('utf8').split(':');
  if (!businessId || !checkoutId || rest !== undefined) return null;
  return { businessId, checkoutId };
}

/**
 * The checkout's address is a path of the invoice page's own origin: the page's form is allowed to
 * lead nowhere else (CSP `form-action 'self'`), whatever address the service is reached by.
 */
export function testProvider(secrets: SecretBox): PaymentProvider {
  return {
    name: 'test',
    // Every currency the service knows: the test provider takes what the business invoices in.
    supportsCurrency: () => true,
    async createCheckout(request: CheckoutRequest): Promise<OpenedCheckout> {
      const session = testSession(secrets, request.businessId, request.checkoutId);
      return { session, url: `${TEST_CHECKOUT_PATH}/${session}` };
    },
    // Paid back at once: the refund's id is its key's, so asking again answers the same refund.
    async refund(_paymentId, _amountMinor, idempotencyKey) {
      return { refundId: `test_${idempotencyKey}`, status: 'succeeded' };
    },
    async checkConnection() {
      return [
        {
          name: 'provider',
          result: 'passed',
          message:
            'The test provider is built into the service: there is nothing to reach, and no money moves',
        },
      ];
    },
  };
}
