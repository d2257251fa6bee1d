import { isSandbox } from '../../platform/settings.js';
import { randomUUID } from 'node:crypto';
import { jobCtx, type Ctx, type CtxSource, inTransaction } from '../../platform/context.js';
import { withTransaction, type Trx } from '../../platform/db/database.js';
import type { DeliveryRow, WebhookRow } from '../../platform/db/types.js';
import { newId } from '../../platform/ids.js';
import { QUEUES, type JobPayloads } from '../../platform/jobs.js';
import { queueMail } from '../../platform/mail.js';
import { countWebhookDelivery } from '../../platform/metrics.js';
import { outboxEvent, type OutboxEvent } from '../../platform/outbox.js';
import { businessEmail } from '../../platform/settings.js';
import * as deliveries from './queries.js';
import { postWebhook, type AttemptResult } from './sender.js';
import { deliveryHeaders } from './signing.js';
import * as webhooks from '../endpoints/queries.js';

export type DeliverJob = JobPayloads['webhooks.deliver'];

/** Waits after the 1st, 2nd, ... failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 14 h, 20 h, 24 h. */
export const RETRY_DELAYS_SECONDS = [5, 300, 1800, 7200, 18_000, 36_000, 50_400, 72_000, 86_400] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;
/** A webhook failing without a single success for this long is turned off. */
export const DISABLE_AFTER_MS = 5 * 24 * 60 * 60 * 1000;
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;
/**
 * A pending delivery still unleased this long after its job was queued is taken to have lost that
 * job to a worker that died between fetching it and leasing the delivery (pg-boss would only expire
 * the job after 15 minutes), and is queued again. A job merely waiting behind a busy worker may get
 * a duplicate this way; deliver() makes the later of the two a no-op.
 */
export const UNLEASED_STALE_AFTER_MS = 30_000;
/** How many deliveries one sweep queues again at most. */
const SWEEP_BATCH = 500;

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
  const base = RETRY_DELAYS_SECONDS[attempts - 1]! * 1000;
  const jittered = Math.round(base * (1 + 0.1 * random()));
  const asked = retryAfterSeconds === null ? 0 : Math.min(retryAfterSeconds * 1000, MAX_RETRY_AFTER_MS);
  return Math.max(jittered, asked);
}

/**
 * Fans dispatched outbox events out, in the dispatching transaction: one delivery per active
 * webhook subscribed to each event, all written and enqueued in a handful of statements for the
 * whole batch. Re-running it is harmless: deliveries are unique per webhook and event.
 */
export async function fanOutIn(trx: Trx, deps: CtxSource, events: readonly OutboxEvent[]): Promise<void> {
  if (events.length === 0) return;
  const subscribers = await webhooks.activeWebhooksOf(trx, [...new Set(events.map((e) => e.business_id))]);
  const rows = events.flatMap((event) =>
    subscribers
      .filter((w) => w.business_id === event.business_id && w.events.includes(event.type))
      .map((w) => ({
        business_id: event.business_id,
        id: randomUUID(),
        webhook_id: w.id,
        event_id: event.id,
        event_type: event.type,
        status: 'pending' as const,
        next_attempt_at: null,
        locked_until: null,
        created_at: deps.clock.now(),
      })),
  );
  if (rows.length === 0) return;
  const created = await deliveries.insertDeliveries(trx, rows);
  await deps.jobs.sendMany(
    trx,
    QUEUES.deliverWebhook,
    created.map((d) => ({ businessId: d.business_id, deliveryId: d.id }) satisfies DeliverJob),
  );
}

/**
 * Takes a lease on the delivery so only one worker attempts it, and reads its webhook in the same
 * statement, then its event from the outbox; undefined when another worker holds it or it is not
 * due. This is what makes a job that runs twice (a sweep's duplicate, or pg-boss retrying the job of
 * a dead worker) safe: the second finds the lease held, or the delivery no longer pending, and does
 * nothing.
 */
async function claim(ctx: Ctx, job: DeliverJob) {
  const now = ctx.clock.now();
  const row = await deliveries.leaseDelivery(
    ctx.db,
    { businessId: job.businessId, deliveryId: job.deliveryId },
    {
      now,
      until: new Date(now.getTime() + ctx.config.WEBHOOK_TIMEOUT_MS + 15_000),
      // A redelivery is one more attempt whatever the delivery's status.
      anyStatus: Boolean(job.redelivery),
    },
  );
  if (!row) return undefined;
  const {
    url,
    is_active,
    secret_sealed,
    previous_secret_sealed,
    previous_secret_expires_at,
    failing_since,
    ...delivery
  } = row;
  // The delivery's foreign key keeps its event.
  const event = await outboxEvent(ctx, delivery.event_id);
  return {
    delivery: delivery,
    webhook: {
      id: delivery.webhook_id,
      url,
      is_active,
      secret_sealed,
      previous_secret_sealed,
      previous_secret_expires_at,
      failing_since,
    },
    event,
  };
}

/** One attempt of one delivery, then its outcome recorded. */
export async function deliver(deps: CtxSource, job: DeliverJob): Promise<void> {
  const ctx = jobCtx(deps, job.businessId, QUEUES.deliverWebhook);
  const claimed = await claim(ctx, job);
  if (!claimed) return;
  const { delivery, webhook, event } = claimed;
  if (!webhook.is_active) {
    // An inactive webhook receives nothing; its pending deliveries end here.
    await deliveries.updateDelivery(ctx.db, job.businessId, delivery.id, {
      ...(job.redelivery ? {} : { status: 'failed' as const, next_attempt_at: null }),
      countAttempt: false,
    });
    return;
  }

  const startedAt = ctx.clock.now();
  const body = JSON.stringify({
    event: event.type,
    data: event.data,
    timestamp: startedAt.toISOString(),
    deliveryId: delivery.id,
    occurredAt: event.occurred_at.toISOString(),
    livemode: !(await isSandbox(ctx)),
  });
  const previousSecret =
    webhook.previous_secret_sealed &&
    webhook.previous_secret_expires_at &&
    webhook.previous_secret_expires_at > startedAt
      ? ctx.secrets.open(webhook.previous_secret_sealed)
      : null;
  const headers = deliveryHeaders({
    secret: ctx.secrets.open(webhook.secret_sealed),
    previousSecret,
    deliveryId: delivery.id,
    event: event.type,
    body,
    timestamp: Math.floor(startedAt.getTime() / 1000),
  });
  const result = await postWebhook(webhook.url, body, headers, {
    timeoutMs: ctx.config.WEBHOOK_TIMEOUT_MS,
    allowPrivate: ctx.config.WEBHOOK_ALLOW_PRIVATE,
  });
  countWebhookDelivery(ctx.state, result.errorClass === null);
  await recordAttempt(ctx, { delivery, webhook, result, startedAt, redelivery: Boolean(job.redelivery) });
}

interface Outcome {
  delivery: DeliveryRow;
  webhook: Pick<WebhookRow, 'id' | 'url' | 'failing_since'>;
  result: AttemptResult;
  startedAt: Date;
  redelivery: boolean;
}

async function recordAttempt(
  ctx: Ctx,
  { delivery, webhook, result, startedAt, redelivery }: Outcome,
): Promise<void> {
  const businessId = delivery.business_id;
  const now = ctx.clock.now();
  const attempt = {
    business_id: businessId,
    id: newId('att'),
    delivery_id: delivery.id,
    attempted_at: startedAt,
    status_code: result.statusCode,
    duration_ms: result.durationMs,
    error_class: result.errorClass,
    redelivery,
  };
  const countAttempt = !redelivery;

  if (result.errorClass === null) {
    // The common case in one statement: the attempt and the delivery's new state together.
    await deliveries.recordAttemptAndUpdate(ctx.db, attempt, {
      status: 'succeeded',
      next_attempt_at: null,
      countAttempt,
    });
    if (webhook.failing_since) await webhooks.clearFailingSince(ctx.db, businessId, webhook.id, now);
    return;
  }

  await inTransaction(ctx, async (ctx) => {
    // A failure: the webhook as it is now, locked, since attempts of one webhook finish
    // concurrently and only the first to find it failing for 5 days may turn it off and email.
    const current = await webhooks.lockFailureState(ctx.db, businessId, webhook.id);
    if (!current) return;
    await deliveries.insertAttempt(ctx.db, attempt);
    const setDelivery = (patch: Partial<Pick<DeliveryRow, 'status' | 'next_attempt_at'>>) =>
      deliveries.updateDelivery(ctx.db, businessId, delivery.id, { ...patch, countAttempt });
    const setWebhook = (
      patch: Partial<Pick<WebhookRow, 'is_active' | 'failing_since' | 'disabled_reason'>>,
    ) => webhooks.updateWebhook(ctx.db, businessId, webhook.id, { ...patch, updated_at: now });

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
      const to = await businessEmail(ctx);
      if (to) {
        await queueMail(ctx, {
          to,
          subject: `Webhook disabled: ${webhook.url}`,
          text:
            `Webhook ${webhook.id} (${webhook.url}) has not accepted a delivery since ${failingSince.toISOString()}, ` +
            'so it has been turned off. Fix the endpoint, then set is_active to true (PUT /v1/webhooks/' +
            `${webhook.id}) and redeliver what it missed from GET /v1/webhooks/${webhook.id}/deliveries.`,
        });
      }
      ctx.log.warn({ businessId, webhookId: webhook.id }, 'webhook disabled after 5 days of failures');
    } else if (!current.failing_since) {
      await setWebhook({ failing_since: failingSince });
    }
  });
}

/**
 * Moves back into the queue retries that have come due, attempts whose worker died holding the
 * lease, and deliveries whose job a worker fetched and died before leasing them (see
 * UNLEASED_STALE_AFTER_MS). Runs every WEBHOOK_SWEEP_INTERVAL_MS in each worker; SKIP LOCKED keeps
 * workers apart.
 */
export async function sweep(deps: CtxSource): Promise<number> {
  const now = deps.clock.now();
  const staleBefore = new Date(now.getTime() - UNLEASED_STALE_AFTER_MS);
  return withTransaction(deps.db, async (trx) => {
    const due = await deliveries.lockDueDeliveries(trx, now, staleBefore, SWEEP_BATCH);
    if (due.length === 0) return 0;
    await deliveries.markRequeued(trx, due, now);
    await deps.jobs.sendMany(
      trx,
      QUEUES.deliverWebhook,
      due.map((d) => ({ businessId: d.business_id, deliveryId: d.id }) satisfies DeliverJob),
    );
    return due.length;
  });
}
