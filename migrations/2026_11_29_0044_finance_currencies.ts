import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * Several currencies (docs/decisions.md D278):
 * - exchange rates per business (units of the base currency one unit of the currency buys, on a
 *   date), and the reference rates of the daily feed (per euro, shared by every business);
 * - every journal line carries its amount in the base currency beside its own, an entry balances in
 *   both, and an entry keeps the rate it was converted at; a line may be an exchange difference
 *   alone (amount 0, a base amount);
 * - the per-day, per-month and cash-flow totals add the base amounts too, so reports in the base
 *   currency read them across currencies;
 * - invoices, payments, bills and bill payments may carry their own rate;
 * - revaluations, one per business and day (the exchange accounts 4900, 4910, 5900 and 5910 join a
 *   business's chart the first time a posting needs them);
 * - the base currency is fixed once the journal holds an entry.
 *
 * The journal's lines written before this carry their own amount as their base amount: the
 * business's base currency for nearly all of them; an entry in another currency was converted at 1
 * (there were no rates), which a revaluation corrects for what is still open.
 */
const STATEMENTS = [
  `CREATE TABLE finance_exchange_rates (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    date date NOT NULL,
    rate numeric NOT NULL CHECK (rate > 0),
    source text NOT NULL CHECK (source IN ('manual', 'import', 'demo')),
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, currency, date)
  )`,
  `CREATE INDEX finance_exchange_rates_list_idx ON finance_exchange_rates (business_id, date DESC, currency)`,
  // Reference rates, quoted per euro as the European Central Bank publishes them: the same for everyone.
  `CREATE TABLE finance_reference_rates (
    currency text NOT NULL CHECK (currency ~ '^[A-Z]{3}$'),
    date date NOT NULL,
    per_euro numeric NOT NULL CHECK (per_euro > 0),
    fetched_at timestamptz NOT NULL,
    PRIMARY KEY (currency, date)
  )`,

  // Base amounts on lines. The immutability trigger is set aside for the backfill only.
  `ALTER TABLE finance_journal_lines ADD COLUMN base_debit bigint`,
  `ALTER TABLE finance_journal_lines ADD COLUMN base_credit bigint`,
  `ALTER TABLE finance_journal_lines DISABLE TRIGGER finance_journal_lines_immutable`,
  `UPDATE finance_journal_lines SET base_debit = debit, base_credit = credit`,
  `ALTER TABLE finance_journal_lines ENABLE TRIGGER finance_journal_lines_immutable`,
  `ALTER TABLE finance_journal_lines ALTER COLUMN base_debit SET NOT NULL`,
  `ALTER TABLE finance_journal_lines ALTER COLUMN base_credit SET NOT NULL`,
  `ALTER TABLE finance_journal_lines DROP CONSTRAINT finance_journal_lines_check`,
  // A line is a debit or a credit in both currencies, never both; an exchange difference has amount 0
  // and a base amount; a line of nothing at all is refused.
  `ALTER TABLE finance_journal_lines ADD CONSTRAINT finance_journal_lines_side CHECK (
     base_debit BETWEEN 0 AND 999999999999999 AND base_credit BETWEEN 0 AND 999999999999999
     AND NOT ((debit > 0 OR base_debit > 0) AND (credit > 0 OR base_credit > 0))
     AND debit + credit + base_debit + base_credit > 0)`,
  `ALTER TABLE finance_journal_entries ADD COLUMN exchange_rate numeric NOT NULL DEFAULT 1
     CHECK (exchange_rate > 0)`,
  `CREATE OR REPLACE FUNCTION finance_entry_check(business text, entry text) RETURNS void LANGUAGE plpgsql AS $$
   DECLARE
     expected integer;
     totals record;
   BEGIN
     SELECT line_count INTO expected FROM finance_journal_entries WHERE business_id = business AND id = entry;
     SELECT count(*) AS lines, coalesce(sum(debit), 0) AS debit, coalesce(sum(credit), 0) AS credit,
            coalesce(sum(base_debit), 0) AS base_debit, coalesce(sum(base_credit), 0) AS base_credit
       INTO totals
       FROM finance_journal_lines
      WHERE business_id = business AND entry_id = entry;
     IF totals.lines <> expected OR totals.debit <> totals.credit OR totals.base_debit <> totals.base_credit THEN
       RAISE EXCEPTION 'journal entry % does not balance or has lines added: debits %, credits %, base debits %, base credits %, % lines of %',
         entry, totals.debit, totals.credit, totals.base_debit, totals.base_credit, totals.lines, expected
         USING ERRCODE = '23514', CONSTRAINT = 'finance_journal_entries_balanced';
     END IF;
   END $$`,

  // The totals, in base amounts too.
  `ALTER TABLE finance_account_days ADD COLUMN base_debit numeric(30, 0) NOT NULL DEFAULT 0`,
  `ALTER TABLE finance_account_days ADD COLUMN base_credit numeric(30, 0) NOT NULL DEFAULT 0`,
  `UPDATE finance_account_days SET base_debit = debit, base_credit = credit`,
  `ALTER TABLE finance_account_months ADD COLUMN base_debit numeric(30, 0) NOT NULL DEFAULT 0`,
  `ALTER TABLE finance_account_months ADD COLUMN base_credit numeric(30, 0) NOT NULL DEFAULT 0`,
  `UPDATE finance_account_months SET base_debit = debit, base_credit = credit`,
  `ALTER TABLE finance_cash_flow_days ADD COLUMN base_amount numeric(30, 0) NOT NULL DEFAULT 0`,
  `UPDATE finance_cash_flow_days SET base_amount = amount`,
  // The days of every currency of one month, for the base-currency balance's last part.
  `CREATE INDEX finance_account_days_base_date_idx ON finance_account_days (business_id, date)`,
  `CREATE OR REPLACE FUNCTION finance_account_days_follow() RETURNS trigger LANGUAGE plpgsql AS $$
   DECLARE
     first_on_account integer := CASE WHEN EXISTS (
       SELECT 1 FROM finance_journal_lines
        WHERE business_id = NEW.business_id AND entry_id = NEW.entry_id
          AND account_code = NEW.account_code AND line_no < NEW.line_no
     ) THEN 0 ELSE 1 END;
     entry_slot smallint := hashtext(NEW.entry_id) & 15;
   BEGIN
     INSERT INTO finance_account_days AS d (business_id, account_code, currency, date, debit, credit,
                                            base_debit, base_credit, entries, slot)
     VALUES (NEW.business_id, NEW.account_code, NEW.currency, NEW.date, NEW.debit, NEW.credit,
             NEW.base_debit, NEW.base_credit, first_on_account, entry_slot)
     ON CONFLICT (business_id, currency, account_code, date, slot)
     DO UPDATE SET debit = d.debit + EXCLUDED.debit, credit = d.credit + EXCLUDED.credit,
                   base_debit = d.base_debit + EXCLUDED.base_debit, base_credit = d.base_credit + EXCLUDED.base_credit,
                   entries = d.entries + EXCLUDED.entries;
     INSERT INTO finance_account_months AS m (business_id, account_code, currency, month, debit, credit,
                                              base_debit, base_credit, slot)
     VALUES (NEW.business_id, NEW.account_code, NEW.currency, date_trunc('month', NEW.date)::date, NEW.debit,
             NEW.credit, NEW.base_debit, NEW.base_credit, entry_slot)
     ON CONFLICT (business_id, currency, month, account_code, slot)
     DO UPDATE SET debit = m.debit + EXCLUDED.debit, credit = m.credit + EXCLUDED.credit,
                   base_debit = m.base_debit + EXCLUDED.base_debit, base_credit = m.base_credit + EXCLUDED.base_credit;
     RETURN NULL;
   END $$`,
  `CREATE OR REPLACE FUNCTION finance_cash_flow_days_follow() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF EXISTS (
       SELECT 1 FROM finance_journal_lines
        WHERE business_id = NEW.business_id AND entry_id = NEW.entry_id
          AND line_no < NEW.line_no AND finance_is_cash(account_code)
     ) THEN
       RETURN NULL;
     END IF;
     INSERT INTO finance_cash_flow_days AS d (business_id, currency, account_code, date, amount, base_amount, slot)
     SELECT NEW.business_id, NEW.currency, account_code, NEW.date, sum(credit - debit), sum(base_credit - base_debit),
            hashtext(NEW.entry_id) & 15
       FROM finance_journal_lines
      WHERE business_id = NEW.business_id AND entry_id = NEW.entry_id AND NOT finance_is_cash(account_code)
      GROUP BY account_code
      ORDER BY account_code
     ON CONFLICT (business_id, currency, date, account_code, slot)
     DO UPDATE SET amount = d.amount + EXCLUDED.amount, base_amount = d.base_amount + EXCLUDED.base_amount;
     RETURN NULL;
   END $$`,

  `ALTER TABLE finance_journal_entries DROP CONSTRAINT finance_journal_entries_source_type_check`,
  `ALTER TABLE finance_journal_entries ADD CONSTRAINT finance_journal_entries_source_type_check
     CHECK (source_type IN ('bill', 'bill_payment', 'invoice', 'invoice_payment', 'credit_note', 'customer_credit',
                            'card_refund', 'payout', 'bank_opening', 'bank_transaction', 'revaluation', 'void',
                            'manual'))`,

  // Documents' own rates, which win over the table's.
  `ALTER TABLE invoices ADD COLUMN exchange_rate numeric CHECK (exchange_rate > 0)`,
  `ALTER TABLE payments ADD COLUMN exchange_rate numeric CHECK (exchange_rate > 0)`,
  `ALTER TABLE finance_bills ADD COLUMN exchange_rate numeric CHECK (exchange_rate > 0)`,
  `ALTER TABLE finance_bill_payments ADD COLUMN exchange_rate numeric CHECK (exchange_rate > 0)`,

  `CREATE TABLE finance_revaluations (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    as_of date NOT NULL,
    -- What the answer shows: the lines revalued, the net gain and loss, the entries posted.
    summary jsonb NOT NULL,
    created_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, id),
    UNIQUE (business_id, as_of)
  )`,

  // Base amounts are in the base currency: it cannot change under them.
  `CREATE FUNCTION finance_base_currency_fixed() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF NEW.base_currency IS DISTINCT FROM OLD.base_currency
        AND EXISTS (SELECT 1 FROM finance_journal_entries WHERE business_id = NEW.id) THEN
       RAISE EXCEPTION 'The base currency is %: the journal holds entries in it, so it cannot change', OLD.base_currency
         USING ERRCODE = 'P0001', CONSTRAINT = 'finance_base_currency_fixed', DETAIL = OLD.base_currency;
     END IF;
     RETURN NEW;
   END $$`,
  `CREATE TRIGGER businesses_base_currency_fixed BEFORE UPDATE OF base_currency ON businesses
     FOR EACH ROW EXECUTE FUNCTION finance_base_currency_fixed()`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
