import {
  MAX_WEBHOOKS_PER_BUSINESS,
  type CreateWebhookBody,
  type Delivery,
  type ListDeliveriesQuery,
  type UpdateWebhookBody,
  type Webhook,
} from '../../../contract/webhooks/index.js';
import { type Ctx, inTransaction } from '../../platform/context.js';
import { ApiError, invalid, invalidState, notFound } from '../../platform/errors.js';
import { QUEUES } from '../../platform/jobs.js';
import { lockBusiness } from '../../platform/settings.js';
import { checkWebhookUrl } from './address-guard.js';
import * as deliveries from '../deliveries/queries.js';
import type { DeliverJob } from '../deliveries/service.js';
import { toDelivery, toWebhook } from './mappers.js';
import { newWebhookSecret } from '../deliveries/signing.js';
import * as queries from './queries.js';

/** How long a rotated-out secret keeps signing `webhook-signature`. */
export const ROTATION_OVERLAP_MS = 24 * 60 * 60 * 1000;

async function requireSafeUrl(ctx: Ctx, url: string): Promise<void> {
  const check = await checkWebhookUrl(url, ctx.config.WEBHOOK_ALLOW_PRIVATE, ctx.dns, {
    development: ctx.config.NODE_ENV !== 'production',
  });
  if (!check.ok) throw invalid('url', check.reason);
}

async function webhookOrFail(ctx: Ctx, id: number) {
  const row = await queries.findWebhook(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Webhook');
  return row;
}

export async function createWebhook(
  ctx: Ctx,
  input: CreateWebhookBody,
): Promise<{ id: number; secret: string }> {
  await requireSafeUrl(ctx, input.url);
  const secret = newWebhookSecret();
  return inTransaction(ctx, async (ctx) => {
    // Serialises creates of one business so the limit holds under concurrency.
    await lockBusiness(ctx);
    if ((await queries.countWebhooks(ctx.db, ctx.businessId)) >= MAX_WEBHOOKS_PER_BUSINESS) {
      throw new ApiError(
        'LIMIT_EXCEEDED',
        `A business can register at most ${MAX_WEBHOOKS_PER_BUSINESS} webhooks`,
      );
    }
    const now = ctx.clock.now();
    const id = await queries.insertWebhook(ctx.db, {
      business_id: ctx.businessId,
      url: input.url,
      events: JSON.stringify(input.events),
      is_active: input.is_active ?? true,
      secret_sealed: ctx.secrets.seal(secret),
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
      failing_since: null,
      disabled_reason: null,
      created_at: now,
      updated_at: now,
    });
    return { id, secret };
  });
}

export async function listWebhooks(ctx: Ctx): Promise<Webhook[]> {
  const rows = await queries.listWebhooks(ctx.db, ctx.businessId);
  return rows.map(toWebhook);
}

export async function getWebhook(ctx: Ctx, id: number): Promise<Webhook> {
  return toWebhook(await webhookOrFail(ctx, id));
}

export async function updateWebhook(ctx: Ctx, id: number, input: UpdateWebhookBody): Promise<void> {
  if (input.url !== undefined) await requireSafeUrl(ctx, input.url);
  await inTransaction(ctx, async (ctx) => {
    await webhookOrFail(ctx, id);
    await queries.updateWebhook(ctx.db, ctx.businessId, id, {
      ...(input.url !== undefined && { url: input.url }),
      ...(input.events !== undefined && { events: JSON.stringify(input.events) }),
      ...(input.is_active !== undefined && { is_active: input.is_active }),
      // Turning a webhook back on starts its failure clock afresh.
      ...(input.is_active === true && { disabled_reason: null, failing_since: null }),
      updated_at: ctx.clock.now(),
    });
  });
}

export async function deleteWebhook(ctx: Ctx, id: number): Promise<void> {
  if ((await queries.deleteWebhook(ctx.db, ctx.businessId, id)) === 0) throw notFound('Webhook');
}

export async function listDeliveries(
  ctx: Ctx,
  id: number,
  query: ListDeliveriesQuery,
): Promise<{ deliveries: Delivery[]; total_count: number }> {
  await webhookOrFail(ctx, id);
  const { rows, total } = await deliveries.listDeliveries(ctx.db, ctx.businessId, id, query);
  const attempts = rows.length
    ? await deliveries.attemptsOf(
        ctx.db,
        ctx.businessId,
        rows.map((r) => r.id),
      )
    : [];
  return {
    deliveries: rows.map((row) =>
      toDelivery(
        row,
        attempts.filter((a) => a.delivery_id === row.id),
      ),
    ),
    total_count: total,
  };
}

/** A new attempt of the same delivery (same deliveryId), whatever its status. */
export async function redeliver(ctx: Ctx, id: number, deliveryId: string): Promise<void> {
  await inTransaction(ctx, async (ctx) => {
    const webhook = await webhookOrFail(ctx, id);
    const delivery = await deliveries.findDelivery(ctx.db, ctx.businessId, id, deliveryId);
    if (!delivery) throw notFound('Delivery');
    if (!webhook.is_active) throw invalidState('The webhook is inactive; activate it before redelivering');
    await ctx.jobs.send(ctx.db, QUEUES.deliverWebhook, {
      businessId: ctx.businessId,
      deliveryId,
      redelivery: true,
    } satisfies DeliverJob);
  });
}

/** A new secret; the old one keeps signing `webhook-signature` beside it for 24 hours. */
export async function rotateSecret(ctx: Ctx, id: number): Promise<string> {
  const secret = newWebhookSecret();
  await inTransaction(ctx, async (ctx) => {
    await webhookOrFail(ctx, id);
    const now = ctx.clock.now();
    await queries.rotateSecret(ctx.db, ctx.businessId, id, {
      secretSealed: ctx.secrets.seal(secret),
      previousExpiresAt: new Date(now.getTime() + ROTATION_OVERLAP_MS),
      at: now,
    });
  });
  return secret;
}
