import { sql } from 'kysely';
import {
  MAX_WEBHOOKS_PER_BUSINESS,
  type CreateWebhookBody,
  type Delivery,
  type ListDeliveriesQuery,
  type UpdateWebhookBody,
  type Webhook,
} from '../../contract/webhooks/schemas.js';
import type { SecretBox } from '../platform/secret-box.js';
import type { Ctx } from '../platform/context.js';
import { inTransaction, type Executor } from '../platform/db/database.js';
import { ApiError, invalid, invalidState, notFound } from '../platform/errors.js';
import { QUEUES } from '../platform/jobs.js';
import { checkWebhookUrl } from './address-guard.js';
import type { DeliverJob } from './delivery.js';
import { toDelivery, toWebhook } from './mappers.js';
import { newWebhookSecret } from './signing.js';

/** What webhook management needs beyond the request context. */
export interface WebhookSettings {
  secrets: SecretBox;
  allowPrivate: boolean;
}

/** How long a rotated-out secret keeps signing `webhook-signature`. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

async function requireSafeUrl(url: string, settings: WebhookSettings): Promise<void> {
  const check = await checkWebhookUrl(url, settings.allowPrivate);
  if (!check.ok) throw invalid('url', check.reason);
}

const findWebhook = (db: Executor, businessId: string, id: number) =>
  db
    .selectFrom('webhooks')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();

async function webhookOrFail(db: Executor, ctx: Ctx, id: number) {
  const row = await findWebhook(db, ctx.businessId, id);
  if (!row) throw notFound('Webhook');
  return row;
}

export async function createWebhook(
  ctx: Ctx,
  settings: WebhookSettings,
  input: CreateWebhookBody,
): Promise<{ id: number; secret: string }> {
  await requireSafeUrl(input.url, settings);
  const secret = newWebhookSecret();
  return inTransaction(ctx.db, async (trx) => {
    // Serialises creates of one business so the limit holds under concurrency.
    await trx.selectFrom('businesses').select('id').where('id', '=', ctx.businessId).forUpdate().execute();
    const { n } = await trx
      .selectFrom('webhooks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('business_id', '=', ctx.businessId)
      .executeTakeFirstOrThrow();
    if (Number(n) >= MAX_WEBHOOKS_PER_BUSINESS) {
      throw new ApiError(
        'LIMIT_EXCEEDED',
        `A business can register at most ${MAX_WEBHOOKS_PER_BUSINESS} webhooks`,
      );
    }
    const now = ctx.clock.now();
    const row = await trx
      .insertInto('webhooks')
      .values({
        business_id: ctx.businessId,
        url: input.url,
        events: JSON.stringify(input.events),
        is_active: input.is_active ?? true,
        secret_sealed: settings.secrets.seal(secret),
        previous_secret_sealed: null,
        previous_secret_expires_at: null,
        failing_since: null,
        disabled_reason: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: Number(row.id), secret };
  });
}

export async function listWebhooks(ctx: Ctx): Promise<Webhook[]> {
  const rows = await ctx.db
    .selectFrom('webhooks')
    .selectAll()
    .where('business_id', '=', ctx.businessId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map(toWebhook);
}

export async function getWebhook(ctx: Ctx, id: number): Promise<Webhook> {
  return toWebhook(await webhookOrFail(ctx.db, ctx, id));
}

export async function updateWebhook(
  ctx: Ctx,
  settings: WebhookSettings,
  id: number,
  input: UpdateWebhookBody,
): Promise<void> {
  if (input.url !== undefined) await requireSafeUrl(input.url, settings);
  await inTransaction(ctx.db, async (trx) => {
    await webhookOrFail(trx, ctx, id);
    await trx
      .updateTable('webhooks')
      .set({
        ...(input.url !== undefined && { url: input.url }),
        ...(input.events !== undefined && { events: JSON.stringify(input.events) }),
        ...(input.is_active !== undefined && { is_active: input.is_active }),
        // Turning a webhook back on starts its failure clock afresh.
        ...(input.is_active === true && { disabled_reason: null, failing_since: null }),
        updated_at: ctx.clock.now(),
      })
      .where('business_id', '=', ctx.businessId)
      .where('id', '=', id)
      .execute();
  });
}

export async function deleteWebhook(ctx: Ctx, id: number): Promise<void> {
  const res = await ctx.db
    .deleteFrom('webhooks')
    .where('business_id', '=', ctx.businessId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (Number(res.numDeletedRows) === 0) throw notFound('Webhook');
}

export async function listDeliveries(
  ctx: Ctx,
  id: number,
  query: ListDeliveriesQuery,
): Promise<{ deliveries: Delivery[]; total_count: number }> {
  await webhookOrFail(ctx.db, ctx, id);
  let base = ctx.db
    .selectFrom('webhook_deliveries')
    .where('business_id', '=', ctx.businessId)
    .where('webhook_id', '=', id);
  if (query.status) base = base.where('status', '=', query.status);
  const [rows, count] = await Promise.all([
    base
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(query.limit)
      .offset(query.offset)
      .execute(),
    base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
  ]);
  const attempts = rows.length
    ? await ctx.db
        .selectFrom('webhook_attempts')
        .selectAll()
        .where('business_id', '=', ctx.businessId)
        .where(
          'delivery_id',
          'in',
          rows.map((r) => r.id),
        )
        .orderBy('attempted_at')
        .orderBy('id')
        .execute()
    : [];
  return {
    deliveries: rows.map((row) =>
      toDelivery(
        row,
        attempts.filter((a) => a.delivery_id === row.id),
      ),
    ),
    total_count: Number(count.n),
  };
}

/** A new attempt of the same delivery (same deliveryId), whatever its status. */
export async function redeliver(ctx: Ctx, id: number, deliveryId: string): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    const webhook = await webhookOrFail(trx, ctx, id);
    const delivery = await trx
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('business_id', '=', ctx.businessId)
      .where('webhook_id', '=', id)
      .where('id', '=', deliveryId)
      .executeTakeFirst();
    if (!delivery) throw notFound('Delivery');
    if (!webhook.is_active) throw invalidState('The webhook is inactive; activate it before redelivering');
    await ctx.jobs.send(trx, QUEUES.deliverWebhook, {
      businessId: ctx.businessId,
      deliveryId,
      redelivery: true,
    } satisfies DeliverJob);
  });
}

/** A new secret; the old one keeps signing `webhook-signature` beside it for 24 hours. */
export async function rotateSecret(ctx: Ctx, settings: WebhookSettings, id: number): Promise<string> {
  const secret = newWebhookSecret();
  await inTransaction(ctx.db, async (trx) => {
    await webhookOrFail(trx, ctx, id);
    const now = ctx.clock.now();
    await trx
      .updateTable('webhooks')
      .set({
        previous_secret_sealed: sql<string>`secret_sealed`,
        previous_secret_expires_at: new Date(now.getTime() + ROTATION_OVERLAP_MS),
        secret_sealed: settings.secrets.seal(secret),
        updated_at: now,
      })
      .where('business_id', '=', ctx.businessId)
      .where('id', '=', id)
      .execute();
  });
  return secret;
}
