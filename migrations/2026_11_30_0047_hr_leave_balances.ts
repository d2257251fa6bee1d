import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * Leave a company can run (docs/decisions.md D280): leave types with their policy, an employee's own
 * entitlement, and public holidays.
 *
 * - A leave request names its type by name, as before: `hr_leaves.type` now refers to the business's
 *   `hr_leave_types (name)` (a rename follows into the requests), in place of the fixed list.
 * - Every business has the five default types, untracked: those of the businesses already here are
 *   written now, and a trigger writes them for each new business, whatever creates it.
 * - Holidays: one a date per business. The working days of leave requests already stored are left
 *   as they are: no business had holidays before.
 */
const DEFAULTS = `(VALUES ('annual', true), ('sick', true), ('unpaid', false), ('parental', true), ('other', true))`;

const STATEMENTS = [
  // The service's id (a prefix and a ULID: 48 bits of milliseconds, 80 random bits, Crockford's
  // base 32) made in the database, for the rows the database writes itself.
  `CREATE FUNCTION bms_new_id(prefix text) RETURNS text LANGUAGE plpgsql VOLATILE AS $$
   DECLARE
     alphabet constant text := '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
     ms bigint := floor(extract(epoch FROM clock_timestamp()) * 1000);
     random bytea := uuid_send(gen_random_uuid()) || uuid_send(gen_random_uuid());
     id text := '';
   BEGIN
     FOR i IN REVERSE 9..0 LOOP
       id := id || substr(alphabet, ((ms >> (5 * i)) & 31)::int + 1, 1);
     END LOOP;
     -- Bytes 0-5 and 9-15 of a version 4 UUID are random; 6 and 8 carry its version and variant.
     FOR i IN 0..15 LOOP
       id := id || substr(alphabet, (get_byte(random, CASE WHEN i < 6 THEN i ELSE i + 3 END) & 31) + 1, 1);
     END LOOP;
     RETURN prefix || '_' || id;
   END $$`,
  `CREATE TABLE hr_leave_types (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    name text NOT NULL CHECK (name = btrim(name) AND length(name) BETWEEN 1 AND 40),
    paid boolean NOT NULL DEFAULT true,
    allow_negative boolean NOT NULL DEFAULT false,
    days_per_year numeric(5, 2) CHECK (days_per_year BETWEEN 0 AND 366),
    accrual text CHECK (accrual IN ('yearly', 'monthly', 'none')),
    carry_over_max numeric(5, 2) CHECK (carry_over_max BETWEEN 0 AND 366),
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, id),
    UNIQUE (business_id, name),
    -- A policy is whole or absent: a tracked type has all three fields, an untracked one none.
    CONSTRAINT hr_leave_types_policy_check CHECK (
      (days_per_year IS NULL AND accrual IS NULL AND carry_over_max IS NULL)
      OR (days_per_year IS NOT NULL AND accrual IS NOT NULL AND carry_over_max IS NOT NULL)
    )
  )`,
  `CREATE UNIQUE INDEX hr_leave_types_name_idx ON hr_leave_types (business_id, lower(name))`,
  // What every business starts with: written here for a new business, for those already here, and
  // again after a sandbox reset empties the table.
  `CREATE FUNCTION hr_write_default_leave_types(business text) RETURNS void LANGUAGE sql AS $$
     INSERT INTO hr_leave_types (business_id, id, name, paid, created_at, updated_at)
     SELECT business, bms_new_id('lt'), d.name, d.paid, now(), now()
     FROM ${DEFAULTS} AS d (name, paid)
     ON CONFLICT DO NOTHING
   $$`,
  `SELECT hr_write_default_leave_types(id) FROM businesses`,
  `CREATE FUNCTION hr_leave_types_defaults() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     PERFORM hr_write_default_leave_types(NEW.id);
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER businesses_leave_types AFTER INSERT ON businesses
     FOR EACH ROW EXECUTE FUNCTION hr_leave_types_defaults()`,
  `ALTER TABLE hr_leaves DROP CONSTRAINT hr_leaves_type_check`,
  `ALTER TABLE hr_leaves ADD CONSTRAINT hr_leaves_type_fkey FOREIGN KEY (business_id, type)
     REFERENCES hr_leave_types (business_id, name) ON UPDATE CASCADE`,
  `CREATE INDEX hr_leaves_type_idx ON hr_leaves (business_id, type)`,
  `CREATE TABLE hr_leave_entitlements (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    employee_id text NOT NULL,
    leave_type_id text NOT NULL,
    days_per_year numeric(5, 2) NOT NULL CHECK (days_per_year BETWEEN 0 AND 366),
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, employee_id, leave_type_id),
    FOREIGN KEY (business_id, employee_id) REFERENCES hr_employees (business_id, id),
    FOREIGN KEY (business_id, leave_type_id) REFERENCES hr_leave_types (business_id, id) ON DELETE CASCADE
  )`,
  `CREATE TABLE hr_holidays (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    date date NOT NULL,
    name text NOT NULL,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, id),
    CONSTRAINT hr_holidays_date_key UNIQUE (business_id, date)
  )`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
