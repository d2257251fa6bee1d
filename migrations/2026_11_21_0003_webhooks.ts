import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

const STATEMENTS = [
  `CREATE TABLE webhooks (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id bigint GENERATED ALWAYS AS IDENTITY,
    url text NOT NULL,
    events jsonb NOT NULL,
    is_active boolean NOT NULL DEFAULT true,
    secret_sealed text NOT NULL,
    previous_secret_sealed text,
    previous_secret_expires_at timestamptz,
    failing_since timestamptz,
    disabled_reason text,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, id),
    UNIQUE (id)
  )`,
  `CREATE INDEX webhooks_active_idx ON webhooks (business_id) WHERE is_active`,
  `CREATE TABLE webhook_deliveries (
    business_id text NOT NULL,
    id text NOT NULL,
    webhook_id bigint NOT NULL,
    event_id text NOT NULL,
    event_type text NOT NULL,
    status text NOT NULL CHECK (status IN ('pending', 'retrying', 'succeeded', 'failed')),
    attempt_count integer NOT NULL DEFAULT 0,
    next_attempt_at timestamptz,
    locked_until timestamptz,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, id),
    UNIQUE (business_id, webhook_id, event_id),
    FOREIGN KEY (business_id, webhook_id) REFERENCES webhooks (business_id, id) ON DELETE CASCADE,
    FOREIGN KEY (business_id, event_id) REFERENCES events (business_id, id) ON DELETE CASCADE
  )`,
  `CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'retrying'`,
  `CREATE INDEX webhook_deliveries_stuck_idx ON webhook_deliveries (locked_until) WHERE status = 'pending'`,
  `CREATE INDEX webhook_deliveries_log_idx ON webhook_deliveries (business_id, webhook_id, created_at DESC, id DESC)`,
  `CREATE TABLE webhook_attempts (
    business_id text NOT NULL,
    id text NOT NULL,
    delivery_id text NOT NULL,
    attempted_at timestamptz NOT NULL,
    status_code integer,
    duration_ms integer NOT NULL,
    error_class text,
    redelivery boolean NOT NULL DEFAULT false,
    PRIMARY KEY (business_id, id),
    FOREIGN KEY (business_id, delivery_id) REFERENCES webhook_deliveries (business_id, id) ON DELETE CASCADE
  )`,
  `CREATE INDEX webhook_attempts_delivery_idx ON webhook_attempts (business_id, delivery_id, attempted_at)`,
  // Outgoing mail: written in the transaction that decides to send, sent by a job.
  `CREATE TABLE mail_messages (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    to_address text NOT NULL,
    subject text NOT NULL,
    body text NOT NULL,
    status text NOT NULL CHECK (status IN ('queued', 'sent', 'logged', 'failed')),
    created_at timestamptz NOT NULL,
    sent_at timestamptz,
    error text,
    PRIMARY KEY (business_id, id)
  )`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
