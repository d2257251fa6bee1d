import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

const STATEMENTS = [
  `ALTER TABLE marketing_campaigns
     ADD COLUMN recipients_count integer NOT NULL DEFAULT 0,
     ADD COLUMN started_at timestamptz,
     ADD COLUMN paused_reason text`,
  `CREATE INDEX marketing_campaigns_list_idx ON marketing_campaigns (business_id, created_at DESC, id DESC)`,
  `CREATE INDEX marketing_campaigns_due_idx ON marketing_campaigns (scheduled_at) WHERE status = 'scheduled'`,

  // One row per eligible contact, made when sending starts: its own state, so a pause, a crash or a
  // restart continues exactly where each recipient is. Merge fields are kept as they were then.
  `CREATE TABLE marketing_recipients (
    business_id text NOT NULL,
    campaign_id text NOT NULL,
    customer_id text NOT NULL,
    email text NOT NULL,
    fields jsonb NOT NULL,
    status text NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'failed', 'bounced', 'skipped')),
    attempts smallint NOT NULL DEFAULT 0,
    next_attempt_at timestamptz NOT NULL,
    claimed_at timestamptz,
    sent_at timestamptz,
    opened_at timestamptz,
    clicked_at timestamptz,
    unsubscribed_at timestamptz,
    complained_at timestamptz,
    error text,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, campaign_id, customer_id),
    FOREIGN KEY (business_id, campaign_id) REFERENCES marketing_campaigns (business_id, id) ON DELETE CASCADE
  )`,
  // Claims take the due recipients in this order, from the index alone.
  `CREATE INDEX marketing_recipients_queue_idx
     ON marketing_recipients (business_id, campaign_id, next_attempt_at, customer_id) WHERE status = 'queued'`,
  `CREATE INDEX marketing_recipients_claimed_idx ON marketing_recipients (claimed_at) WHERE status = 'sending'`,
  `CREATE INDEX marketing_recipients_email_idx ON marketing_recipients (business_id, campaign_id, lower(email))`,

  // Every send attempt's outcome, for the automatic pause (the share failing among the last 100).
  `CREATE TABLE marketing_send_attempts (
    business_id text NOT NULL,
    campaign_id text NOT NULL,
    id bigint GENERATED ALWAYS AS IDENTITY,
    ok boolean NOT NULL,
    at timestamptz NOT NULL,
    PRIMARY KEY (business_id, campaign_id, id),
    FOREIGN KEY (business_id, campaign_id) REFERENCES marketing_campaigns (business_id, id) ON DELETE CASCADE
  )`,

  // Addresses no campaign of the business sends to again (hard bounces, complaints).
  `CREATE TABLE marketing_suppressions (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    email text NOT NULL CHECK (email = lower(email)),
    reason text NOT NULL CHECK (reason IN ('hard_bounce', 'complaint')),
    campaign_id text,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, email)
  )`,

  // Opens and clicks as they come (scanner prefetches recorded, not counted).
  `CREATE TABLE marketing_tracking_events (
    business_id text NOT NULL,
    campaign_id text NOT NULL,
    customer_id text NOT NULL,
    id bigint GENERATED ALWAYS AS IDENTITY,
    kind text NOT NULL CHECK (kind IN ('open', 'click')),
    counted boolean NOT NULL,
    url text,
    user_agent text,
    at timestamptz NOT NULL,
    PRIMARY KEY (business_id, campaign_id, id),
    FOREIGN KEY (business_id, campaign_id) REFERENCES marketing_campaigns (business_id, id) ON DELETE CASCADE
  )`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
