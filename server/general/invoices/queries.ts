import { sql } from 'kysely';
import { amountCompared, amountOrder, type Candidate, type Closeness } from '../../platform/db/closeness.js';
import type { ListInvoicesQuery } from '../../../contract/general/invoices.js';
import { offsetOf, parseSort } from '../../platform/pagination.js';
import type { Insertable, Updateable } from 'kysely';
import type { DaysByZone } from '../../platform/calendar.js';
import type { Executor, Trx } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import type { InvoicesTable, PaymentsTable } from '../../platform/db/types.js';

export async function insertInvoice(trx: Trx, values: Insertable<InvoicesTable>): Promise<void> {
  await trx.insertInto('invoices').values(values).execute();
}

export async function updateInvoice(
  trx: Trx,
  businessId: string,
  id: string,
  patch: Updateable<InvoicesTable>,
) {
  return trx
    .updateTable('invoices')
    .set(patch)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The draft made unpaid with `patch` (its dates), answered with the customer's credit balance in the
 * invoice's currency as it stands, read without a lock: an issue with no credit to apply needs no
 * locked read of the balance (docs/decisions.md D265).
 */
export async function issueDraft(trx: Trx, businessId: string, id: string, patch: Updateable<InvoicesTable>) {
  return trx
    .updateTable('invoices as i')
    .set({ ...patch, status: 'unpaid' })
    .where('i.business_id', '=', businessId)
    .where('i.id', '=', id)
    .returningAll('i')
    .returning((eb) =>
      eb
        .selectFrom('customer_credit_balances as b')
        .select('b.balance_minor')
        .whereRef('b.business_id', '=', 'i.business_id')
        .whereRef('b.customer_id', '=', 'i.customer_id')
        .whereRef('b.currency', '=', 'i.currency')
        .as('credit_balance_minor'),
    )
    .executeTakeFirstOrThrow();
}

export async function insertPayment(trx: Trx, values: Insertable<PaymentsTable>) {
  return trx.insertInto('payments').values(values).returningAll().executeTakeFirstOrThrow();
}

/**
 * Adds a payment's amount to the invoice's amount paid in one relative update (never a value read
 * earlier), marking it paid at `now` when `fullyPaid`; a payment from the customer's credit counts in
 * `credit_applied_minor` too.
 */
export async function addPayment(
  trx: Trx,
  businessId: string,
  id: string,
  payment: { amountMinor: number; fullyPaid: boolean; fromCredit: boolean; now: Date },
) {
  const { amountMinor, now } = payment;
  return trx
    .updateTable('invoices')
    .set((eb) => ({
      amount_paid_minor: eb('amount_paid_minor', '+', amountMinor),
      ...(payment.fromCredit && { credit_applied_minor: eb('credit_applied_minor', '+', amountMinor) }),
      ...(payment.fullyPaid && { status: 'paid' as const, paid_at: now }),
      updated_at: now,
    }))
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Adds a credit note to the invoice in one relative update: its `creditMinor` to what credit notes
 * took off what it owes, its `totalMinor` to their totals; `status` moves it (paid when nothing is
 * left due, unpaid again when a void gives some back). The checks of the table refuse an over-credit.
 */
export async function addCredit(
  trx: Trx,
  businessId: string,
  id: string,
  change: { creditMinor: number; totalMinor: number; status?: 'paid' | 'unpaid' },
  now: Date,
) {
  return trx
    .updateTable('invoices')
    .set((eb) => ({
      amount_credited_minor: eb('amount_credited_minor', '+', change.creditMinor),
      credit_notes_minor: eb('credit_notes_minor', '+', change.totalMinor),
      ...(change.status === 'paid' && { status: 'paid' as const, paid_at: now }),
      ...(change.status === 'unpaid' && { status: 'unpaid' as const, paid_at: null }),
      updated_at: now,
    }))
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

const invoiceColumns = (db: Executor) =>
  db
    .selectFrom('invoices as i')
    .innerJoin('customers as c', (j) =>
      j.onRef('c.business_id', '=', 'i.business_id').onRef('c.id', '=', 'i.customer_id'),
    )
    .selectAll('i')
    .select('c.name as customer_name');

export type InvoiceWithCustomer = Awaited<ReturnType<typeof findInvoice>> & object;

export async function findInvoice(db: Executor, businessId: string, id: string) {
  return invoiceColumns(db)
    .where('i.business_id', '=', businessId)
    .where('i.id', '=', id)
    .where('i.deleted_at', 'is', null)
    .executeTakeFirst();
}

/** Locks the invoice row for a state change; read with its customer's name, as `findInvoice` reads it. */
export async function lockInvoice(trx: Trx, businessId: string, id: string) {
  return invoiceColumns(trx)
    .where('i.business_id', '=', businessId)
    .where('i.id', '=', id)
    .where('i.deleted_at', 'is', null)
    .forUpdate('i')
    .executeTakeFirst();
}

export async function paymentsOf(db: Executor, businessId: string, invoiceIds: string[]) {
  if (invoiceIds.length === 0) return [];
  return db
    .selectFrom('payments')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('invoice_id', 'in', invoiceIds)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

const SORT_COLUMNS = {
  due_date: 'i.due_date',
  created_at: 'i.created_at',
  total: 'i.total_minor',
  number: 'i.number',
} as const;

/**
 * `overdue` and `unpaid` are told apart by due_date against `today`, as the API reports them (the
 * rule of platform/due.ts, in SQL).
 */
export async function listInvoices(
  db: Executor,
  businessId: string,
  query: ListInvoicesQuery,
  today: string,
) {
  let base = invoiceColumns(db).where('i.business_id', '=', businessId).where('i.deleted_at', 'is', null);
  if (query.customer_id) base = base.where('i.customer_id', '=', query.customer_id);
  if (query.status === 'overdue')
    base = base.where('i.status', '=', 'unpaid').where('i.due_date', '<', today);
  else if (query.status === 'unpaid')
    base = base.where('i.status', '=', 'unpaid').where('i.due_date', '>=', today);
  else if (query.status) base = base.where('i.status', '=', query.status);
  const sort = parseSort(query.sort, { field: 'created_at', direction: 'desc' });
  return pageWithTotal(
    base,
    (q) => q.orderBy(SORT_COLUMNS[sort.field], sort.direction).orderBy('i.id', sort.direction),
    { limit: query.limit, offset: offsetOf(query) },
  );
}

/** Records the first view of the hosted page; later views change nothing. */
export async function markInvoiceViewed(
  db: Executor,
  businessId: string,
  id: string,
  at: Date,
): Promise<void> {
  await db
    .updateTable('invoices')
    .set({ viewed_at: at })
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('viewed_at', 'is', null)
    .execute();
}

export type ReminderKey = { business_id: string; invoice_id: string };

/**
 * Invoice reminder steps that have come: an unpaid invoice that was mailed, of a customer with an
 * email, in a business whose reminders are on, whose due date plus the step's days is on or before
 * the business's today (`days`: today for each zone businesses are in), not yet mailed, and after
 * the day the invoice was (last) sent, whose own mail covers the steps before it.
 */
function dueSteps(db: Executor, days: DaysByZone) {
  return db
    .selectFrom('invoices as i')
    .innerJoin('business_invoice_reminder_steps as s', 's.business_id', 'i.business_id')
    .innerJoin('customers as c', (j) =>
      j.onRef('c.business_id', '=', 'i.business_id').onRef('c.id', '=', 'i.customer_id'),
    )
    .where('i.status', '=', 'unpaid')
    .where('i.sent_at', 'is not', null)
    .where('i.deleted_at', 'is', null)
    .where('c.email', 'is not', null)
    .where((eb) =>
      eb.or(
        days.map(({ day, zones }) =>
          eb.and([
            eb('s.timezone', 'in', zones),
            eb(sql<string>`i.due_date + s.days_after_due`, '<=', sql<string>`${day}::date`),
          ]),
        ),
      ),
    )
    .where(sql<boolean>`(i.sent_at AT TIME ZONE s.timezone)::date < i.due_date + s.days_after_due`)
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('invoice_reminders as r')
            .select('r.days_after_due')
            .whereRef('r.business_id', '=', 'i.business_id')
            .whereRef('r.invoice_id', '=', 'i.id')
            .whereRef('r.days_after_due', '=', 's.days_after_due'),
        ),
      ),
    );
}

/** Up to `limit` invoices with a reminder step due by `days`, in key order after `after`. */
export async function invoicesWithDueReminders(
  db: Executor,
  days: DaysByZone,
  limit: number,
  after?: ReminderKey,
  businessId?: string,
): Promise<ReminderKey[]> {
  let query = dueSteps(db, days).select(['i.business_id', 'i.id as invoice_id']).distinct();
  if (businessId !== undefined) query = query.where('i.business_id', '=', businessId);
  if (after) {
    query = query.where((eb) =>
      eb(eb.refTuple('i.business_id', 'i.id'), '>', eb.tuple(after.business_id, after.invoice_id)),
    );
  }
  return query.orderBy('i.business_id').orderBy('i.id').limit(limit).execute();
}

/**
 * The invoice's due steps, latest first, its row locked so payment or void waits; none when it is
 * no longer due or another worker holds it (SKIP LOCKED).
 */
export async function lockDueSteps(db: Executor, days: DaysByZone, key: ReminderKey) {
  return dueSteps(db, days)
    .select(['s.days_after_due', 'c.email'])
    .where('i.business_id', '=', key.business_id)
    .where('i.id', '=', key.invoice_id)
    .orderBy('s.days_after_due', 'desc')
    .forUpdate('i')
    .skipLocked()
    .execute();
}

/** Records the steps as done; the key refuses a step twice. */
export async function recordReminders(
  db: Executor,
  key: ReminderKey,
  steps: readonly number[],
  at: Date,
): Promise<void> {
  await db
    .insertInto('invoice_reminders')
    .values(steps.map((days_after_due) => ({ ...key, days_after_due, sent_at: at })))
    .execute();
}

export const findPayment = (db: Executor, businessId: string, id: string) =>
  db
    .selectFrom('payments')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .executeTakeFirst();

export async function deletePayment(trx: Trx, businessId: string, id: string): Promise<void> {
  await trx.deleteFrom('payments').where('business_id', '=', businessId).where('id', '=', id).execute();
}

/* Open invoices by what they owe, for a bank line's suggestions (docs/decisions.md D273). */

/** What an open invoice still owes, as the index `invoices_open_due_idx` has it. */
const invoiceDue = sql<number>`(i.total_minor - i.amount_paid_minor - i.amount_credited_minor)`;

const openInvoices = (db: Executor, businessId: string, currency: string) =>
  db
    .selectFrom('invoices as i')
    .innerJoin('customers as c', (j) =>
      j.onRef('c.business_id', '=', 'i.business_id').onRef('c.id', '=', 'i.customer_id'),
    )
    .select(['i.id', 'i.due_date as date'])
    // \u00b7 (a middle dot): the service's bundle is kept to ASCII (scripts/bundle-server.ts).
    .select(sql<string>`i.number || ' \u00b7 ' || c.name`.as('label'))
    .select(invoiceDue.as('due'))
    .where('i.business_id', '=', businessId)
    .where('i.currency', '=', currency)
    .where('i.status', '=', 'unpaid')
    .where('i.deleted_at', 'is', null);

/** Open invoices of the currency by what they owe against `amount`, at most `limit`. */
export async function invoicesByAmount(
  db: Executor,
  businessId: string,
  currency: string,
  amount: number,
  closeness: Closeness,
  limit: number,
): Promise<Candidate[]> {
  const rows = await openInvoices(db, businessId, currency)
    .where(amountCompared(invoiceDue, closeness, amount))
    .orderBy(sql`${invoiceDue} ${amountOrder(closeness)}`)
    .orderBy('i.due_date')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ ...r, due: Number(r.due) }));
}

/** Open invoices whose number is among `numbers` (words of the line's description and reference). */
export async function invoicesByNumber(
  db: Executor,
  businessId: string,
  currency: string,
  numbers: string[],
): Promise<Candidate[]> {
  if (numbers.length === 0) return [];
  const rows = await openInvoices(db, businessId, currency)
    .where('i.number', 'in', numbers)
    .limit(5)
    .execute();
  return rows.map((r) => ({ ...r, due: Number(r.due) }));
}
