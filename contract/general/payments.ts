import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { dataEnvelope } from '../common/envelopes.js';
import { generalErrors } from '../common/errors.js';
import { meta } from '../common/metadata.js';

const c = initContract();

export const ProviderWebhookAnswerSchema = extendApi(
  z.object({
    received: z.literal(true),
    outcome: z
      .enum(['recorded', 'already recorded', 'checkout ended', 'refunds settled', 'ignored'])
      .describe(
        '`recorded`: a payment, or a payout to the bank, was recorded; `already recorded`: it was recorded ' +
          'before (a retry); `checkout ended`: a checkout expired or failed, nothing recorded; `refunds ' +
          "settled`: credit notes' card refunds the event confirms or fails were settled; `ignored`: an event " +
          'the service does not act on, a payment of no checkout of the business, or a refund settled before.',
      ),
  }),
  { title: 'ProviderWebhookAnswer', example: { received: true, outcome: 'recorded' } },
);

/** Where payment providers confirm payments (docs/decisions.md D270). */
export const paymentsContract = c.router({
  receiveProviderWebhook: {
    method: 'POST',
    path: '/payments/webhooks/:provider/:business_id',
    summary: "Receive a payment provider's webhook",
    description:
      'The address a business gives its payment provider for events (Stripe: a webhook endpoint sending ' +
      '`checkout.session.completed`, `checkout.session.async_payment_succeeded`, ' +
      '`checkout.session.async_payment_failed` and `checkout.session.expired`). No credential: the ' +
      "provider's signature over the raw body, with the business's signing secret, is checked, and a " +
      'signature older than 5 minutes is refused (400), as is an unknown business or one not connected ' +
      'to that provider. A payment is recorded once however often it is delivered.',
    pathParams: z.object({
      provider: z.string().max(32).describe('The provider sending the event: `stripe` (any other: 404).'),
      business_id: z.string().min(1).max(64).describe('The business whose account sent it.'),
    }),
    body: z.object({}).passthrough().describe("The provider's event, as it sent it."),
    responses: { 200: dataEnvelope(ProviderWebhookAnswerSchema), ...generalErrors(404) },
    metadata: meta('none', 'Invoices'),
  },
});
