import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

const STATEMENTS = [
  // Trigram indexes make member search by name or email substring fast at scale.
  `CREATE EXTENSION IF NOT EXISTS pg_trgm`,
  `CREATE TABLE loyalty_programs (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    name text NOT NULL,
    points_name text NOT NULL,
    points_per_currency integer NOT NULL CHECK (points_per_currency > 0),
    currency text NOT NULL,
    enrollment_type text NOT NULL CHECK (enrollment_type IN ('automatic', 'manual')),
    points_expiry_days integer NOT NULL CHECK (points_expiry_days >= 0),
    is_active boolean NOT NULL,
    auto_notify boolean NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    deactivated_at timestamptz,
    PRIMARY KEY (business_id, id)
  )`,
  // One active program per business, enforced by the database.
  `CREATE UNIQUE INDEX loyalty_programs_one_active ON loyalty_programs (business_id) WHERE is_active`,
  `CREATE TABLE loyalty_tiers (
    business_id text NOT NULL,
    id text NOT NULL,
    program_id text NOT NULL,
    name text NOT NULL,
    color text NOT NULL,
    min_points bigint NOT NULL CHECK (min_points >= 0),
    multiplier numeric(6, 2) NOT NULL CHECK (multiplier > 0),
    sort_order integer NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, id),
    FOREIGN KEY (business_id, program_id) REFERENCES loyalty_programs (business_id, id) ON DELETE CASCADE
  )`,
  `CREATE UNIQUE INDEX loyalty_tiers_name_key ON loyalty_tiers (business_id, program_id, lower(name))`,
  `CREATE UNIQUE INDEX loyalty_tiers_min_key ON loyalty_tiers (business_id, program_id, min_points)`,
  `CREATE TABLE loyalty_members (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    customer_id text NOT NULL,
    tier_id text,
    status text NOT NULL CHECK (status IN ('active', 'inactive', 'suspended')),
    points_balance bigint NOT NULL DEFAULT 0 CHECK (points_balance >= 0),
    lifetime_points bigint NOT NULL DEFAULT 0 CHECK (lifetime_points >= 0),
    -- lower(name) || ' ' || lower(email) of the customer, kept in step by a trigger, so member
    -- search needs no join.
    search_text text NOT NULL DEFAULT '',
    enrolled_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    deleted_at timestamptz,
    PRIMARY KEY (business_id, id),
    FOREIGN KEY (business_id, customer_id) REFERENCES customers (business_id, id),
    FOREIGN KEY (business_id, tier_id) REFERENCES loyalty_tiers (business_id, id) ON DELETE SET NULL (tier_id)
  )`,
  `CREATE UNIQUE INDEX loyalty_members_customer_key ON loyalty_members (business_id, customer_id) WHERE deleted_at IS NULL`,
  `CREATE INDEX loyalty_members_list_idx ON loyalty_members (business_id, enrolled_at DESC, id DESC) WHERE deleted_at IS NULL`,
  `CREATE INDEX loyalty_members_tier_idx ON loyalty_members (business_id, tier_id) WHERE deleted_at IS NULL`,
  `CREATE INDEX loyalty_members_search_idx ON loyalty_members USING gin (search_text gin_trgm_ops) WHERE deleted_at IS NULL`,
  // A larger statistics sample keeps the planner choosing the trigram index for selective terms.
  `ALTER TABLE loyalty_members ALTER COLUMN search_text SET STATISTICS 1000`,
  `CREATE FUNCTION loyalty_member_search_text() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_TABLE_NAME = 'customers' THEN
       UPDATE loyalty_members SET search_text = lower(NEW.name) || ' ' || coalesce(lower(NEW.email), '')
       WHERE business_id = NEW.business_id AND customer_id = NEW.id;
     ELSE
       SELECT lower(c.name) || ' ' || coalesce(lower(c.email), '') INTO NEW.search_text
       FROM customers c WHERE c.business_id = NEW.business_id AND c.id = NEW.customer_id;
     END IF;
     RETURN NEW;
   END $$`,
  `CREATE TRIGGER loyalty_members_search_text BEFORE INSERT ON loyalty_members
     FOR EACH ROW EXECUTE FUNCTION loyalty_member_search_text()`,
  `CREATE TRIGGER customers_member_search_text AFTER UPDATE OF name, email ON customers
     FOR EACH ROW EXECUTE FUNCTION loyalty_member_search_text()`,
  // The ledger. Credits keep what is left of them (remaining) so debits and expiry can take the
  // oldest points first.
  `CREATE TABLE loyalty_transactions (
    business_id text NOT NULL,
    id text NOT NULL,
    member_id text NOT NULL,
    type text NOT NULL CHECK (type IN ('earn', 'redeem', 'adjust', 'expire')),
    points bigint NOT NULL CHECK (points <> 0),
    balance_after bigint NOT NULL CHECK (balance_after >= 0),
    description text,
    reference_type text,
    reference_id text,
    multiplier_applied numeric(6, 2) NOT NULL DEFAULT 1,
    counts_as_issued boolean NOT NULL,
    remaining bigint NOT NULL DEFAULT 0 CHECK (remaining >= 0 AND (points > 0 OR remaining = 0) AND remaining <= greatest(points, 0)),
    expires_at timestamptz,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, id),
    FOREIGN KEY (business_id, member_id) REFERENCES loyalty_members (business_id, id)
  )`,
  `CREATE INDEX loyalty_transactions_member_idx ON loyalty_transactions (business_id, member_id, created_at DESC, id DESC)`,
  `CREATE INDEX loyalty_transactions_list_idx ON loyalty_transactions (business_id, created_at DESC, id DESC)`,
  `CREATE INDEX loyalty_transactions_open_credit_idx ON loyalty_transactions (business_id, member_id, created_at, id) WHERE remaining > 0`,
  `CREATE INDEX loyalty_transactions_expiry_idx ON loyalty_transactions (expires_at) WHERE remaining > 0`,
  // Points are earned once per invoice (or public reference).
  `CREATE UNIQUE INDEX loyalty_transactions_reference_key ON loyalty_transactions (business_id, reference_type, reference_id)
     WHERE type = 'earn' AND reference_type IN ('invoice', 'public')`,
  `CREATE TABLE loyalty_rewards (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    name text NOT NULL,
    description text,
    points_cost bigint NOT NULL CHECK (points_cost > 0),
    reward_type text NOT NULL CHECK (reward_type IN ('discount', 'service', 'product', 'voucher')),
    discount_percent numeric(5, 2) CHECK (discount_percent IS NULL OR (discount_percent > 0 AND discount_percent <= 100)),
    is_active boolean NOT NULL,
    voucher_validity_days integer NOT NULL CHECK (voucher_validity_days > 0),
    total_redemptions integer NOT NULL DEFAULT 0,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    deleted_at timestamptz,
    PRIMARY KEY (business_id, id),
    CHECK ((reward_type = 'discount') = (discount_percent IS NOT NULL))
  )`,
  `CREATE TABLE loyalty_redemptions (
    business_id text NOT NULL,
    id text NOT NULL,
    member_id text NOT NULL,
    reward_id text NOT NULL,
    points_spent bigint NOT NULL CHECK (points_spent > 0),
    status text NOT NULL CHECK (status IN ('pending', 'fulfilled', 'cancelled', 'expired')),
    voucher_code text NOT NULL UNIQUE,
    notes text,
    redeemed_at timestamptz NOT NULL,
    fulfilled_at timestamptz,
    expires_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, id),
    FOREIGN KEY (business_id, member_id) REFERENCES loyalty_members (business_id, id),
    FOREIGN KEY (business_id, reward_id) REFERENCES loyalty_rewards (business_id, id)
  )`,
  `CREATE INDEX loyalty_redemptions_list_idx ON loyalty_redemptions (business_id, redeemed_at DESC, id DESC)`,
  `CREATE INDEX loyalty_redemptions_expiry_idx ON loyalty_redemptions (expires_at) WHERE status = 'pending'`,
  `CREATE TABLE loyalty_reminders (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    name text NOT NULL,
    description text,
    interval_days integer NOT NULL CHECK (interval_days > 0),
    bonus_points integer NOT NULL CHECK (bonus_points >= 0),
    is_active boolean NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    deleted_at timestamptz,
    PRIMARY KEY (business_id, id)
  )`,
  // When each member is next due for each reminder; set by completing the service.
  `CREATE TABLE loyalty_member_reminders (
    business_id text NOT NULL,
    reminder_id text NOT NULL,
    member_id text NOT NULL,
    due_date date NOT NULL,
    last_completed_at timestamptz NOT NULL,
    notified_for date,
    PRIMARY KEY (business_id, reminder_id, member_id),
    FOREIGN KEY (business_id, reminder_id) REFERENCES loyalty_reminders (business_id, id),
    FOREIGN KEY (business_id, member_id) REFERENCES loyalty_members (business_id, id)
  )`,
  `CREATE INDEX loyalty_member_reminders_due_idx ON loyalty_member_reminders (due_date)`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
