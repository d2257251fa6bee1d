import type {
  PaymentConnectionCheck,
  PaymentSettings,
  UpdatePaymentSettingsBody,
} from '../../../contract/auth/index.js';
import type { Ctx } from '../context.js';
import { ApiError, invalid, invalidState } from '../errors.js';
import { isSandbox } from '../settings.js';
import * as queries from './connection.queries.js';
import type { PaymentProvider, ProviderName } from './provider.js';
import { stripeProvider, type StripePaymentProvider } from './stripe.js';
import { testProvider } from './test-provider.js';
import { publicBaseUrl } from '../../config.js';

type Connection = Awaited<ReturnType<typeof queries.findConnection>>;

/**
 * The payment provider a business connected (docs/decisions.md D270), from its connection row: a
 * sandbox without one is connected to the built-in `test` provider, a live business to none.
 */
async function providerNamed(ctx: Ctx, row: Connection): Promise<ProviderName | null> {
  if (row) return row.provider;
  return (await isSandbox(ctx)) ? 'test' : null;
}

export async function paymentSettings(ctx: Ctx): Promise<PaymentSettings> {
  const row = await queries.findConnection(ctx.db, ctx.businessId);
  return {
    provider: await providerNamed(ctx, row),
    secret_key_hint: row?.secret_key_hint ?? null,
    webhook_secret_set: row?.webhook_secret_sealed != null,
  };
}

/**
 * Connects a provider, replacing the one before and its secrets: the test provider only in a sandbox
 * or where the service allows it; Stripe with its secret key and webhook signing secret, sealed.
 */
export async function connectProvider(ctx: Ctx, body: UpdatePaymentSettingsBody): Promise<PaymentSettings> {
  if (body.provider === 'stripe') {
    if (!body.secret_key) {
      throw invalid('secret_key', "Stripe needs the account's secret key (sk_live_... or sk_test_...)");
    }
    if (!body.webhook_secret) {
      throw invalid(
        'webhook_secret',
        `Stripe needs the signing secret (whsec_...) of a webhook endpoint for ${stripeWebhookUrl(ctx)}`,
      );
    }
    await queries.upsertConnection(ctx.db, {
      business_id: ctx.businessId,
      provider: 'stripe',
      secret_key_sealed: ctx.secrets.seal(body.secret_key),
      secret_key_hint: body.secret_key.slice(-4),
      webhook_secret_sealed: ctx.secrets.seal(body.webhook_secret),
      updated_at: ctx.clock.now(),
    });
    return paymentSettings(ctx);
  }
  if (body.secret_key !== undefined || body.webhook_secret !== undefined) {
    throw invalid(
      body.secret_key !== undefined ? 'secret_key' : 'webhook_secret',
      'The test provider takes no keys',
    );
  }
  if (body.provider === 'test' && !ctx.config.PAYMENTS_TEST_PROVIDER && !(await isSandbox(ctx))) {
    throw new ApiError(
      'VALIDATION_ERROR',
      'The test provider takes no real payments: try it in the sandbox, where it is connected already',
      [
        {
          field: 'provider',
          message:
            'The test provider is for sandboxes (switch to the sandbox to try payments), or for a server started ' +
            'with PAYMENTS_TEST_PROVIDER=true',
        },
      ],
    );
  }
  await queries.upsertConnection(ctx.db, {
    business_id: ctx.businessId,
    provider: body.provider,
    secret_key_sealed: null,
    secret_key_hint: null,
    webhook_secret_sealed: null,
    updated_at: ctx.clock.now(),
  });
  return paymentSettings(ctx);
}

/**
 * Stripe clients by the sealed secrets they were made from: a webhook or a checkout reuses the
 * client (and its kept-alive connections) rather than opening the secrets and making one each time.
 * New keys are new sealed text, so a changed connection never finds an old client. Bounded: the
 * oldest made goes first.
 */
const stripeClients = new Map<string, StripePaymentProvider>();
const STRIPE_CLIENTS_KEPT = 500;

/** The Stripe account of a connection row, or null when the row is of another provider, or none. */
function stripeFrom(ctx: Ctx, row: Connection): StripePaymentProvider | null {
  if (row?.provider !== 'stripe' || !row.secret_key_sealed || !row.webhook_secret_sealed) return null;
  const key = `${ctx.config.STRIPE_API_BASE ?? ''} ${row.secret_key_sealed} ${row.webhook_secret_sealed}`;
  const kept = stripeClients.get(key);
  if (kept) return kept;
  const made = stripeProvider({
    secretKey: ctx.secrets.open(row.secret_key_sealed),
    webhookSecret: ctx.secrets.open(row.webhook_secret_sealed),
    apiBase: ctx.config.STRIPE_API_BASE,
  });
  if (stripeClients.size >= STRIPE_CLIENTS_KEPT) stripeClients.delete(stripeClients.keys().next().value!);
  stripeClients.set(key, made);
  return made;
}

/** The business's Stripe account, or null when it connected another provider or none. */
export const stripeOf = async (ctx: Ctx): Promise<StripePaymentProvider | null> =>
  stripeFrom(ctx, await queries.findConnection(ctx.db, ctx.businessId));

/** The address the business's Stripe webhooks come to. */
export const stripeWebhookUrl = (ctx: Ctx) =>
  `${publicBaseUrl(ctx.config)}/v1/payments/webhooks/stripe/${ctx.businessId}`;

/** `POST /v1/business/payments/check`: the connected provider asked whether the connection works. */
export async function checkConnection(ctx: Ctx): Promise<PaymentConnectionCheck> {
  const provider = await providerOf(ctx);
  if (!provider) {
    throw invalidState(
      'No payment provider is connected: connect one with PUT /v1/business/payments (Settings, Payments)',
    );
  }
  const checks = await provider.checkConnection(stripeWebhookUrl(ctx));
  return { provider: provider.name, ok: checks.every((c) => c.result !== 'failed'), checks };
}

/** The provider the business's checkouts open with, or null when it connected none. */
export async function providerOf(ctx: Ctx): Promise<PaymentProvider | null> {
  const row = await queries.findConnection(ctx.db, ctx.businessId);
  const name = await providerNamed(ctx, row);
  if (name === 'test') return testProvider(ctx.secrets);
  return stripeFrom(ctx, row);
}
