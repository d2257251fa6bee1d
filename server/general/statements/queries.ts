import type { Executor } from '../../platform/db/database.js';
import { runPrepared } from '../../platform/db/prepared.js';

/** Whose statement, in which currency. */
export interface StatementScope {
  customerId: string;
  currency: string;
}

export type MoveType = 'invoice' | 'payment' | 'credit_applied' | 'credit_note' | 'refund';

/** One movement of a customer's balance, as a statement line before its running balance. */
export interface MoveRow {
  type: MoveType;
  date: string;
  document_id: string;
  number: string;
  /** The invoice a credit note credits; null on the other lines. */
  invoice_number: string | null;
  /** The payment or refund method; null on invoices and credit notes. */
  method: string | null;
  amount_minor: string | number;
}

/**
 * Every movement of the customer's balance in one currency whose date passes `dated`: issued invoices
 * (drafts and void ones left out: a void invoice nets to nothing), their payments (customer credit
 * applied apart), live credit notes and their refunds (a void credit note nets to nothing too; a card
 * refund the provider failed paid nothing back, so the customer keeps it to their credit).
 * `$1` is the business, `$2` the customer, `$3` the currency. Each branch reads its table through the
 * customer's rows; `rank` orders what was made at the same instant (an invoice before the credit
 * applied at its issue, a credit note before its refund).
 */
const moves = (dated: (column: string) => string) => `
    SELECT 'invoice' AS type, i.issue_date AS date, coalesce(i.issued_at, i.created_at) AS made_at, 0 AS rank,
           i.id AS document_id, i.number, NULL::text AS invoice_number, NULL::text AS method,
           i.total_minor AS amount_minor
    FROM invoices i
    WHERE i.business_id = $1 AND i.customer_id = $2 AND i.currency = $3
      AND i.status IN ('unpaid', 'paid') AND i.deleted_at IS NULL AND ${dated('i.issue_date')}
    UNION ALL
    SELECT CASE WHEN p.payment_method = 'credit' THEN 'credit_applied' ELSE 'payment' END, p.payment_date,
           p.created_at, 1, p.id, i.number, NULL, p.payment_method, p.amount_minor
    FROM invoices i
    JOIN payments p ON p.business_id = i.business_id AND p.invoice_id = i.id
    WHERE i.business_id = $1 AND i.customer_id = $2 AND i.currency = $3
      AND i.status IN ('unpaid', 'paid') AND i.deleted_at IS NULL AND ${dated('p.payment_date')}
    UNION ALL
    SELECT m.type, n.issue_date, n.created_at, m.rank, n.id, n.number, i.number,
           CASE WHEN m.type = 'refund' THEN n.refund_method END,
           CASE WHEN m.type = 'refund' THEN n.refund_minor ELSE n.total_minor END
    FROM credit_notes n
    JOIN invoices i ON i.business_id = n.business_id AND i.id = n.invoice_id
    CROSS JOIN (VALUES ('credit_note', 2), ('refund', 3)) AS m (type, rank)
    WHERE n.business_id = $1 AND n.customer_id = $2 AND n.currency = $3
      AND n.status = 'issued' AND (m.type = 'credit_note' OR (n.refund_minor > 0 AND n.refund_status <> 'failed'))
      AND ${dated('n.issue_date')}`;

// Fixed texts run as prepared statements: planning the three branches costs about as much as running
// them for a customer of a few hundred documents.
const BALANCE_BEFORE_SQL = `
  SELECT coalesce(sum(CASE m.type
                        WHEN 'invoice' THEN m.amount_minor
                        WHEN 'refund' THEN m.amount_minor
                        WHEN 'credit_applied' THEN 0
                        ELSE -m.amount_minor
                      END), 0)::text AS balance
  FROM (${moves((column) => `${column} < $4::date`)}) AS m`;

const MOVES_BETWEEN_SQL = `
  SELECT m.type, to_char(m.date, 'YYYY-MM-DD') AS date, m.document_id, m.number, m.invoice_number, m.method,
         m.amount_minor
  FROM (${moves((column) => `${column} BETWEEN $4::date AND $5::date`)}) AS m
  ORDER BY m.date, m.made_at, m.rank, m.document_id`;

/**
 * The balance of every movement dated before `before` (docs/decisions.md D247): invoices and refunds
 * add, payments and credit notes subtract, customer credit applied changes nothing. Decimal text.
 */
export async function balanceBefore(
  db: Executor,
  businessId: string,
  scope: StatementScope,
  before: string,
): Promise<string> {
  const [row] = await runPrepared<{ balance: string }>(db, 'statement-balance-before', BALANCE_BEFORE_SQL, [
    businessId,
    scope.customerId,
    scope.currency,
    before,
  ]);
  return row?.balance ?? '0';
}

/** The movements dated from `from` to `to`, by date, then in the order they were made. */
export async function movesBetween(
  db: Executor,
  businessId: string,
  scope: StatementScope,
  from: string,
  to: string,
): Promise<MoveRow[]> {
  return runPrepared<MoveRow>(db, 'statement-moves-between', MOVES_BETWEEN_SQL, [
    businessId,
    scope.customerId,
    scope.currency,
    from,
    to,
  ]);
}
