import { sql } from 'kysely';
import type { Executor } from '../../platform/db/database.js';

/**
 * Claims up to `limit` queued recipients that are due, while the campaign is sending: they become
 * `sending` (committed by the caller at once), so no other worker takes them, and a lease that a
 * crash leaves behind can be found by its `claimed_at`.
 */
export async function claimRecipients(
  db: Executor,
  businessId: string,
  campaignId: string,
  /** The claim's holder: only a statement naming it renews, records or releases the claim. */
  token: string,
  now: Date,
  limit: number,
  /** The business's time, which dates the recipients' change (`now` is the lease's, real time). */
  at: Date = now,
) {
  // The batch is chosen once, in a materialised CTE: a subquery joined into the UPDATE may be
  // evaluated again per row, and with SKIP LOCKED each evaluation can pick other rows.
  const { rows } = await sql<RecipientRow>`
    WITH batch AS MATERIALIZED (
      SELECT customer_id FROM marketing_recipients
      WHERE business_id = ${businessId} AND campaign_id = ${campaignId} AND status = 'queued'
        AND next_attempt_at <= ${now}
        AND EXISTS (
          SELECT 1 FROM marketing_campaigns c
          WHERE c.business_id = ${businessId} AND c.id = ${campaignId} AND c.status = 'sending'
        )
      ORDER BY next_attempt_at, customer_id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    UPDATE marketing_recipients r
    SET status = 'sending', claimed_at = ${now}, claim_token = ${token}, attempts = r.attempts + 1,
        updated_at = ${at}
    FROM batch
    WHERE r.business_id = ${businessId} AND r.campaign_id = ${campaignId} AND r.customer_id = batch.customer_id
      AND r.status = 'queued'
    RETURNING r.customer_id, r.email, r.fields, r.attempts
  `.execute(db);
  return rows;
}

export interface RecipientRow {
  customer_id: string;
  email: string;
  fields: unknown;
  attempts: number;
}

export async function campaignStatus(db: Executor, businessId: string, id: string) {
  const row = await db
    .selectFrom('marketing_campaigns')
    .select('status')
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.status;
}

/** Claimed recipients not attempted (the campaign stopped meanwhile) go back to the queue. */
export async function releaseClaims(
  db: Executor,
  businessId: string,
  campaignId: string,
  token: string,
  customerIds: readonly string[],
): Promise<void> {
  await db
    .updateTable('marketing_recipients')
    .set((eb) => ({
      status: 'queued',
      claimed_at: null,
      claim_token: null,
      attempts: eb('attempts', '-', 1),
    }))
    .where('business_id', '=', businessId)
    .where('campaign_id', '=', campaignId)
    .where('customer_id', 'in', customerIds)
    .where('status', '=', 'sending')
    .where('claim_token', '=', token)
    .execute();
}

/**
 * The claims a live worker still holds stay its own: their lease starts again at `now` (only while
 * they are still claimed under its `token`; `updated_at` is the recipient's, not the lease's, and is
 * left alone). Returns the recipients renewed: a claim whose lease ran out and that another worker
 * took over carries that worker's token and is not renewed (docs/decisions.md D279).
 *
 * A row another statement holds is skipped, never waited for: it is a recipient whose outcome is
 * being recorded, which leaves `sending` anyway, and the next renewal (a third of a lease later)
 * takes it if it is still claimed. Waiting for it made a renewal and an outcome's record lock the
 * same rows in opposite orders: PostgreSQL ended one of them as a deadlock, and when that was the
 * record, messages the SMTP server had accepted were claimed again after the lease and sent twice
 * (docs/decisions.md D275).
 */
export async function renewClaims(
  db: Executor,
  businessId: string,
  campaignId: string,
  token: string,
  customerIds: readonly string[],
  now: Date,
): Promise<string[]> {
  if (customerIds.length === 0) return [];
  // An array, not an IN list: one statement text whatever the number of claims held.
  const { rows } = await sql<{ customer_id: string }>`
    UPDATE marketing_recipients r
    SET claimed_at = ${now}
    FROM (
      SELECT customer_id FROM marketing_recipients
      WHERE business_id = ${businessId} AND campaign_id = ${campaignId}
        AND customer_id = ANY(${customerIds}::text[]) AND status = 'sending' AND claim_token = ${token}
      FOR UPDATE SKIP LOCKED
    ) held
    WHERE r.business_id = ${businessId} AND r.campaign_id = ${campaignId}
      AND r.customer_id = held.customer_id
    RETURNING r.customer_id
  `.execute(db);
  return rows.map((r) => r.customer_id);
}

/**
 * Claimed recipients who can no longer be written to (the contact unsubscribed or was deleted, or
 * the address was suppressed, since sending started) become `skipped`; returns their ids.
 */
export async function skipUnreachable(
  db: Executor,
  businessId: string,
  campaignId: string,
  customerIds: readonly string[],
  now: Date,
): Promise<string[]> {
  if (customerIds.length === 0) return [];
  const { rows } = await sql<{ customer_id: string }>`
    UPDATE marketing_recipients r
    SET status = 'skipped', claimed_at = NULL, claim_token = NULL, updated_at = ${now}
    WHERE r.business_id = ${businessId} AND r.campaign_id = ${campaignId}
      AND r.customer_id = ANY(${customerIds}::text[]) AND r.status = 'sending'
      AND (
        NOT EXISTS (
          SELECT 1 FROM customer_directory c
          WHERE c.business_id = r.business_id AND c.id = r.customer_id AND NOT c.unsubscribed
        )
        OR EXISTS (
          SELECT 1 FROM marketing_suppressions s
          WHERE s.business_id = r.business_id AND s.email = lower(r.email)
        )
      )
    RETURNING r.customer_id
  `.execute(db);
  return rows.map((r) => r.customer_id);
}

/** What became of one claimed recipient after the SMTP server's answer. */
export interface Settlement {
  customerId: string;
  email: string;
  status: 'sent' | 'queued' | 'failed' | 'bounced';
  error: string | null;
  /** When queued again: the retry's time. */
  nextAttemptAt: Date | null;
  at: Date;
}

/**
 * Records the outcomes of claimed recipients in one statement: each recipient's state (only while
 * it is still claimed), one send attempt each, and the suppression of bounced addresses.
 */
export async function settleRecipients(
  db: Executor,
  businessId: string,
  campaignId: string,
  /** The claims' holder: an outcome of a claim another worker took over is not recorded. */
  token: string,
  outcomes: readonly Settlement[],
): Promise<void> {
  if (outcomes.length === 0) return;
  // Arrays, not a VALUES list: the statement's text is the same for any batch (planned once).
  const column = <T>(pick: (o: Settlement) => T) => outcomes.map(pick);
  await sql`
    WITH o AS (
      SELECT * FROM unnest(
        ${column((o) => o.customerId)}::text[], ${column((o) => o.email.toLowerCase())}::text[],
        ${column((o) => o.status)}::text[], ${column((o) => o.error)}::text[],
        ${column((o) => o.nextAttemptAt)}::timestamptz[], ${column((o) => o.at)}::timestamptz[]
      ) AS o (customer_id, email, status, error, next_attempt_at, at)
    ),
    settled AS (
      UPDATE marketing_recipients r
      SET status = o.status, error = o.error, claimed_at = NULL, claim_token = NULL, updated_at = o.at,
          sent_at = CASE WHEN o.status = 'sent' THEN o.at ELSE r.sent_at END,
          next_attempt_at = COALESCE(o.next_attempt_at, r.next_attempt_at)
      FROM o
      WHERE r.business_id = ${businessId} AND r.campaign_id = ${campaignId}
        AND r.customer_id = ANY(${column((o) => o.customerId)}::text[])
        AND r.customer_id = o.customer_id AND r.status = 'sending' AND r.claim_token = ${token}
      RETURNING r.customer_id
    ),
    suppressed AS (
      INSERT INTO marketing_suppressions (business_id, email, reason, campaign_id, created_at)
      SELECT DISTINCT ON (o.email) ${businessId}, o.email, 'hard_bounce', ${campaignId}, o.at
      FROM o WHERE o.status = 'bounced'
      ON CONFLICT (business_id, email) DO NOTHING
      RETURNING email
    )
    INSERT INTO marketing_send_attempts (business_id, campaign_id, ok, at)
    SELECT ${businessId}, ${campaignId}, o.status = 'sent', o.at FROM o
  `.execute(db);
}

/** Failed attempts and attempts among the last `n` of the campaign. */
export async function recentFailures(db: Executor, businessId: string, campaignId: string, n: number) {
  const row = await db
    .selectFrom(
      db
        .selectFrom('marketing_send_attempts')
        .select('ok')
        .where('business_id', '=', businessId)
        .where('campaign_id', '=', campaignId)
        .orderBy('id', 'desc')
        .limit(n)
        .as('last'),
    )
    .select([
      (eb) => eb.fn.countAll<number>().as('attempts'),
      sql<number>`count(*) FILTER (WHERE NOT ok)`.as('failed'),
    ])
    .executeTakeFirstOrThrow();
  return { attempts: Number(row.attempts), failed: Number(row.failed) };
}

/** Campaigns that are sending and have a queued recipient due (any business). */
export async function campaignsToSend(db: Executor, now: Date, limit: number) {
  return db
    .selectFrom('marketing_campaigns as c')
    .select(['c.business_id', 'c.id'])
    .where('c.status', '=', 'sending')
    .where((eb) =>
      eb.exists(
        eb
          .selectFrom('marketing_recipients as r')
          .select('r.customer_id')
          .whereRef('r.business_id', '=', 'c.business_id')
          .whereRef('r.campaign_id', '=', 'c.id')
          .where('r.status', '=', 'queued')
          .where('r.next_attempt_at', '<=', now),
      ),
    )
    .orderBy('c.started_at')
    .limit(limit)
    .execute();
}

/** Sending campaigns with no recipient queued or in flight: done. */
export async function finishedCampaigns(db: Executor) {
  return db
    .selectFrom('marketing_campaigns as c')
    .select(['c.business_id', 'c.id'])
    .where('c.status', '=', 'sending')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('marketing_recipients as r')
            .select('r.customer_id')
            .whereRef('r.business_id', '=', 'c.business_id')
            .whereRef('r.campaign_id', '=', 'c.id')
            .where('r.status', 'in', ['queued', 'sending']),
        ),
      ),
    )
    .execute();
}

/** Marks a sending campaign sent (when it still is). */
export async function markSent(db: Executor, businessId: string, id: string, now: Date): Promise<boolean> {
  const result = await db
    .updateTable('marketing_campaigns')
    .set({ status: 'sent', sent_at: now, updated_at: now })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('marketing_recipients as r')
            .select('r.customer_id')
            .where('r.business_id', '=', businessId)
            .where('r.campaign_id', '=', id)
            .where('r.status', 'in', ['queued', 'sending']),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Recipients whose claim is older than `before`: a live worker renews what it holds, so these
 * belong to a worker that died; queued again.
 */
export async function releaseStaleClaims(db: Executor, before: Date, now: Date): Promise<number> {
  const result = await db
    .updateTable('marketing_recipients')
    .set({ status: 'queued', claimed_at: null, claim_token: null, updated_at: now })
    .where('status', '=', 'sending')
    .where('claimed_at', '<', before)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Scheduled campaigns whose time has come (any business). */
export async function dueCampaigns(db: Executor, now: Date, limit: number, businessId?: string) {
  return db
    .selectFrom('marketing_campaigns')
    .select(['business_id', 'id'])
    .where('status', '=', 'scheduled')
    .where('scheduled_at', '<=', now)
    .$if(businessId !== undefined, (q) => q.where('business_id', '=', businessId!))
    .orderBy('scheduled_at')
    .limit(limit)
    .execute();
}

/**
 * Reserves `count` sending slots `intervalMs` apart for the business, shared by every process: the
 * first may start at `first` (the database's clock, never earlier than `catchUpMs` before its now),
 * and `now` is that clock when the slots were taken, to place them on the caller's own clock.
 */
export async function reserveSendSlots(
  db: Executor,
  businessId: string,
  count: number,
  intervalMs: number,
  catchUpMs: number,
) {
  const span = count * intervalMs;
  const { rows } = await sql<{ first: Date; now: Date }>`
    INSERT INTO marketing_send_pacing AS p (business_id, next_slot)
    VALUES (${businessId}, clock_timestamp() + make_interval(secs => ${span / 1000}::float8))
    ON CONFLICT (business_id) DO UPDATE
    SET next_slot = GREATEST(p.next_slot, clock_timestamp() - make_interval(secs => ${catchUpMs / 1000}::float8))
      + make_interval(secs => ${span / 1000}::float8)
    RETURNING p.next_slot - make_interval(secs => ${span / 1000}::float8) AS first, clock_timestamp() AS now
  `.execute(db);
  return rows[0]!;
}
