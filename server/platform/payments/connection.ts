import type { PaymentSettings, UpdatePaymentSettingsBody } from '../../../contract/auth/index.js';
import type { Ctx } from '../context.js';
import { ApiError } from '../errors.js';
import { isSandbox } from '../settings.js';
import * as queries from './connection.queries.js';
import type { PaymentProvider, ProviderName } from './provider.js';
import { testProvider } from './test-provider.js';

/**
 * The payment provider a business connected (docs/decisions.md D270). A sandbox starts connected to
 * the built-in `test` provider; a live business to none until it connects one.
 */
async function connectedProvider(ctx: Ctx): Promise<ProviderName | null> {
  const row = await queries.findConnection(ctx.db, ctx.businessId);
  if (row) return row.provider;
  return (await isSandbox(ctx)) ? 'test' : null;
}

export async function paymentSettings(ctx: Ctx): Promise<PaymentSettings> {
  const row = await queries.findConnection(ctx.db, ctx.businessId);
  return {
    provider: (await connectedProvider(ctx)) as PaymentSettings['provider'],
    secret_key_hint: row?.secret_key_hint ?? null,
    webhook_secret_set: row?.webhook_secret_sealed != null,
  };
}

/** Connects a provider; the test provider only in a sandbox or where the service allows it. */
export async function connectProvider(ctx: Ctx, body: UpdatePaymentSettingsBody): Promise<PaymentSettings> {
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

/** The provider the business's checkouts open with, or null when it connected none. */
export async function providerOf(ctx: Ctx): Promise<PaymentProvider | null> {
  const name = await connectedProvider(ctx);
  if (name === 'test') return testProvider(ctx.secrets);
  return null;
}
