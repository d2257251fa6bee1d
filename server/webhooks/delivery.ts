import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Clock } from '../common/clock.js';
import { newId } from '../common/ids.js';
import type { SecretBox } from '../common/secret-box.js';
import type { Config } from '../config.js';
import { inTransaction, type Db } from '../db/database.js';
import type { DeliveryRow, WebhookRow } from '../db/types.js';
import type { DispatchEventJob } from '../events/outbox.js';
import { QUEUES, type JobEngine } from '../jobs/engine.js';
import type { Logger } from '../logger.js';
import { queueMail } from '../mail/mailer.js';
import { postWebhook, type AttemptResult } from './sender.js';
import { deliveryHeaders } from './signing.js';

/** What the delivery engine needs; a worker process builds it from its runtime. */
export interface EngineDeps {
  db: Db;
  clock: Clock;
  jobs: JobEngine;
  log: Logger;
  secrets: SecretBox;
  config: Readonly<Config>;
}

export interface DeliverJob {
  businessId: string;
  deliveryId: string;
  /** A redelivery asked for by the business: one extra attempt, outside the retry schedule. */
  redelivery?: boolean;
}

/** Waits after the 1st, 2nd, ... failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
/** A webhook failing without a single success for this long is turned off. */
export const DISABLE_AFTER_MS = 5 * 24 * 60 * 60 * 1000;
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * The wait before the next attempt after `attempts` automatic attempts failed, or null when the
 * schedule is spent. Up to 10% jitter spreads retries out; a longer Retry-After (429/503) wins.
 */
export function retryDelayMs(
  attempts: number,
  retryAfterSeconds: number | null,
  random: () => number = Math.random,
): number | null {
  if (attempts >= MAX_ATTEMPTS) return null;
  const base = RETRY_DELAYS_SECONDS[attempts - 1] * 1000;
  const jittered = Math.round(base * (1 + 0.1 * random()));
  const asked = retryAfterSeconds === null ? 0 : Math.min(retryAfterSeconds * 1000, MAX_RETRY_AFTER_MS);
  return Math.max(jittered, asked);
}

/** One delivery per active subscribed webhook for the event; each enqueued in the same transaction. */
export async function fanOut(deps: EngineDeps, job: DispatchEventJob): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    const event = await trx
      .selectFrom('events')
      .select(['id', 'type', 'dispatched_at'])
      .where('business_id', '=', job.businessId)
      .where('id', '=', job.eventId)
      .forUpdate()
      .executeTakeFirst();
    if (!event || event.dispatched_at) return;
    const webhooks = await trx
      .selectFrom('webhooks')
      .select('id')
      .where('business_id', '=', job.businessId)
      .where('is_active', '=', true)
      .where(sql<boolean>`events @> ${JSON.stringify([event.type])}::jsonb`)
      .execute();
    if (webhooks.length > 0) {
      const created = await trx
        .insertInto('webhook_deliveries')
        .values(
          webhooks.map((w) => ({
            business_id: job.businessId,
            id: randomUUID(),
            webhook_id: w.id,
            event_id: event.id,
            event_type: event.type,
            status: 'pending' as const,
            next_attempt_at: null,
            locked_until: null,
            created_at: deps.clock.now(),
          })),
        )
        .onConflict((oc) => oc.columns(['business_id', 'webhook_id', 'event_id']).doNothing())
        .returning('id')
        .execute();
      for (const delivery of created) {
        await deps.jobs.send(trx, QUEUES.deliverWebhook, {
          businessId: job.businessId,
          deliveryId: delivery.id,
        } satisfies DeliverJob);
      }
    }
    await trx
      .updateTable('events')
      .set({ dispatched_at: deps.clock.now() })
      .where('business_id', '=', job.businessId)
      .where('id', '=', event.id)
      .execute();
  });
}

/** Takes a lease on the delivery so only one worker attempts it; null when someone else has it. */
async function claim(deps: EngineDeps, job: DeliverJob): Promise<DeliveryRow | undefined> {
  const now = deps.clock.now();
  const lease = new Date(now.getTime() + deps.config.WEBHOOK_TIMEOUT_MS + 15_000);
  let q = deps.db
    .updateTable('webhook_deliveries')
    .set({ locked_until: lease })
    .where('business_id', '=', job.businessId)
    .where('id', '=', job.deliveryId)
    .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]));
  if (!job.redelivery) q = q.where('status', '=', 'pending');
  return q.returningAll().executeTakeFirst();
}

/** One attempt of one delivery, then its outcome recorded. */
export async function deliver(deps: EngineDeps, job: DeliverJob): Promise<void> {
  const delivery = await claim(deps, job);
  if (!delivery) return;
  const [webhook, event] = await Promise.all([
    deps.db
      .selectFrom('webhooks')
      .selectAll()
      .where('business_id', '=', job.businessId)
      .where('id', '=', delivery.webhook_id)
      .executeTakeFirst(),
    deps.db
      .selectFrom('events')
      .selectAll()
      .where('business_id', '=', job.businessId)
      .where('id', '=', delivery.event_id)
      .executeTakeFirst(),
  ]);
  if (!webhook || !event) return;
  if (!webhook.is_active) {
    // An inactive webhook receives nothing; its pending deliveries end here.
    await deps.db
      .updateTable('webhook_deliveries')
      .set({
        ...(job.redelivery ? {} : { status: 'failed' as const, next_attempt_at: null }),
        locked_until: null,
      })
      .where('business_id', '=', job.businessId)
      .where('id', '=', delivery.id)
      .execute();
    return;
  }

  const startedAt = deps.clock.now();
  const body = JSON.stringify({
    event: event.type,
    data: event.data,
    timestamp: startedAt.toISOString(),
    deliveryId: delivery.id,
    occurredAt: event.occurred_at.toISOString(),
  });
  const previousSecret =
    webhook.previous_secret_sealed &&
    webhook.previous_secret_expires_at &&
    webhook.previous_secret_expires_at > startedAt
      ? deps.secrets.open(webhook.previous_secret_sealed)
      : null;
  const headers = deliveryHeaders({
    secret: deps.secrets.open(webhook.secret_sealed),
    previousSecret,
    deliveryId: delivery.id,
    event: event.type,
    body,
    timestamp: Math.floor(startedAt.getTime() / 1000),
  });
  const result = await postWebhook(webhook.url, body, headers, {
    timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS,
    allowPrivate: deps.config.WEBHOOK_ALLOW_PRIVATE,
  });
  await recordAttempt(deps, { delivery, webhook, result, startedAt, redelivery: Boolean(job.redelivery) });
}

interface Outcome {
  delivery: DeliveryRow;
  webhook: WebhookRow;
  result: AttemptResult;
  startedAt: Date;
  redelivery: boolean;
}

async function recordAttempt(
  deps: EngineDeps,
  { delivery, webhook, result, startedAt, redelivery }: Outcome,
): Promise<void> {
  const businessId = delivery.business_id;
  const now = deps.clock.now();
  await inTransaction(deps.db, async (trx) => {
    // The webhook as it is now, locked: attempts of one webhook finish concurrently, and only the
    // first to find it failing for 5 days may turn it off and email the business.
    const current = await trx
      .selectFrom('webhooks')
      .select(['is_active', 'failing_since'])
      .where('business_id', '=', businessId)
      .where('id', '=', webhook.id)
      .forUpdate()
      .executeTakeFirst();
    if (!current) return;
    await trx
      .insertInto('webhook_attempts')
      .values({
        business_id: businessId,
        id: newId('att'),
        delivery_id: delivery.id,
        attempted_at: startedAt,
        status_code: result.statusCode,
        duration_ms: result.durationMs,
        error_class: result.errorClass,
        redelivery,
      })
      .execute();
    const setDelivery = (patch: Partial<Pick<DeliveryRow, 'status' | 'next_attempt_at'>>) =>
      trx
        .updateTable('webhook_deliveries')
        .set((eb) => ({
          ...patch,
          locked_until: null,
          ...(redelivery ? {} : { attempt_count: eb('attempt_count', '+', 1) }),
        }))
        .where('business_id', '=', businessId)
        .where('id', '=', delivery.id)
        .execute();
    const setWebhook = (
      patch: Partial<Pick<WebhookRow, 'is_active' | 'failing_since' | 'disabled_reason'>>,
    ) =>
      trx
        .updateTable('webhooks')
        .set({ ...patch, updated_at: now })
        .where('business_id', '=', businessId)
        .where('id', '=', webhook.id)
        .execute();

    if (result.errorClass === null) {
      await setDelivery({ status: 'succeeded', next_attempt_at: null });
      if (current.failing_since) await setWebhook({ failing_since: null });
      return;
    }

    if (result.statusCode === 410) {
      await setDelivery(redelivery ? {} : { status: 'failed', next_attempt_at: null });
      await setWebhook({ is_active: false, disabled_reason: 'The receiver answered 410 Gone' });
      return;
    }

    if (redelivery) {
      await setDelivery({});
    } else {
      const delay = retryDelayMs(delivery.attempt_count + 1, result.retryAfterSeconds);
      await setDelivery(
        delay === null
          ? { status: 'failed', next_attempt_at: null }
          : { status: 'retrying', next_attempt_at: new Date(now.getTime() + delay) },
      );
    }

    const failingSince = current.failing_since ?? now;
    if (current.is_active && now.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS) {
      await setWebhook({
        is_active: false,
        failing_since: failingSince,
        disabled_reason: 'No successful delivery for 5 days',
      });
      const business = await trx
        .selectFrom('businesses')
        .select('email')
        .where('id', '=', businessId)
        .executeTakeFirstOrThrow();
      await queueMail(
        trx,
        { businessId, clock: deps.clock, jobs: deps.jobs },
        {
          to: business.email,
          subject: `Webhook disabled: ${webhook.url}`,
          text:
            `Webhook ${webhook.id} (${webhook.url}) has not accepted a delivery since ${failingSince.toISOString()}, ` +
            'so it has been turned off. Fix the endpoint, then set is_active to true (PUT /v1/webhooks/' +
            `${webhook.id}) and redeliver what it missed from GET /v1/webhooks/${webhook.id}/deliveries.`,
        },
      );
      deps.log.warn({ businessId, webhookId: webhook.id }, 'webhook disabled after 5 days of failures');
    } else if (!current.failing_since) {
      await setWebhook({ failing_since: failingSince });
    }
  });
}

/**
 * Moves retries that have come due, and attempts whose worker died holding the lease, back into
 * the queue. Runs every WEBHOOK_SWEEP_INTERVAL_MS in each worker; SKIP LOCKED keeps workers apart.
 */
export async function sweep(deps: EngineDeps): Promise<number> {
  const now = deps.clock.now();
  return inTransaction(deps.db, async (trx) => {
    const due = await trx
      .selectFrom('webhook_deliveries')
      .select(['business_id', 'id'])
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'retrying'), eb('next_attempt_at', '<=', now)]),
          eb.and([eb('status', '=', 'pending'), eb('locked_until', '<', now)]),
        ]),
      )
      .limit(500)
      .forUpdate()
      .skipLocked()
      .execute();
    for (const d of due) {
      await trx
        .updateTable('webhook_deliveries')
        .set({ status: 'pending', next_attempt_at: null, locked_until: null })
        .where('business_id', '=', d.business_id)
        .where('id', '=', d.id)
        .execute();
      await deps.jobs.send(trx, QUEUES.deliverWebhook, {
        businessId: d.business_id,
        deliveryId: d.id,
      } satisfies DeliverJob);
    }
    return due.length;
  });
}
