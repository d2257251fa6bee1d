import type { ListCustomersQuery } from '../../../contract/general/customers.js';
import { likePattern, offsetOf, parseSort } from '../../platform/pagination.js';
import type { Executor, Trx } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import { sql } from 'kysely';
import type { CustomerRow, CustomerUpdate, NewCustomer } from '../../platform/db/types.js';

export async function findCustomer(db: Executor, businessId: string, id: string, forUpdate = false) {
  let q = db.selectFrom('customers').selectAll().where('business_id', '=', businessId).where('id', '=', id);
  if (forUpdate) q = q.forUpdate();
  return q.executeTakeFirst();
}

/** The customer with this email, compared as the unique key `customers_email_key` does (lower). */
export async function findCustomerByEmail(db: Executor, businessId: string, email: string) {
  return db
    .selectFrom('customers')
    .selectAll()
    .where('business_id', '=', businessId)
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
}

/** Many new customers in one statement, in order. */
export async function insertCustomers(db: Executor, values: readonly NewCustomer[]) {
  return db.insertInto('customers').values(values).returningAll().execute();
}

/** The ids of the customers with these emails (lower-cased), by lower-cased email. */
export async function customerIdsByEmail(db: Executor, businessId: string, emails: readonly string[]) {
  return db
    .selectFrom('customers')
    .select(['id', (eb) => eb.fn<string>('lower', ['email']).as('email')])
    .where('business_id', '=', businessId)
    .where((eb) => eb(eb.fn('lower', ['email']), 'in', emails))
    .execute();
}

export async function insertCustomer(db: Executor, values: NewCustomer) {
  return db.insertInto('customers').values(values).returningAll().executeTakeFirstOrThrow();
}

/**
 * Inserts the customer unless its email is taken (a concurrent creation included): undefined then.
 * The conflict target is left out because the key is an expression index (`lower(email)`); the
 * random id cannot collide, so only the email key can conflict.
 */
export async function insertCustomerUnlessTaken(db: Executor, values: NewCustomer) {
  return db
    .insertInto('customers')
    .values(values)
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
}

/** The business's customers with these ids, locked for an update. */
export async function lockCustomers(db: Executor, businessId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db
    .selectFrom('customers')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', 'in', ids)
    .forUpdate()
    .execute();
}

/** Every column an update may change, `address` and `attributes` as JSON text. */
export interface CustomerValues {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  company: string | null;
  address: string | null;
  first_name: string | null;
  last_name: string | null;
  attributes: string;
  unsubscribed: boolean;
  updated_at: Date;
}

/** Many customers' new values in one statement (UPDATE ... FROM VALUES); the rows as they now are. */
export async function updateCustomers(db: Executor, businessId: string, values: readonly CustomerValues[]) {
  if (values.length === 0) return [];
  const rows = values.map(
    (v) =>
      sql`(${v.id}, ${v.name}, ${v.email}, ${v.phone}, ${v.company}, ${v.address}::jsonb, ${v.first_name}, ${v.last_name}, ${v.attributes}::jsonb, ${v.unsubscribed}::boolean, ${v.updated_at}::timestamptz)`,
  );
  const { rows: updated } = await sql<CustomerRow>`
    UPDATE customers AS c
       SET name = v.name, email = v.email, phone = v.phone, company = v.company, address = v.address,
           first_name = v.first_name, last_name = v.last_name, attributes = v.attributes,
           unsubscribed = v.unsubscribed, updated_at = v.updated_at
      FROM (VALUES ${sql.join(rows)})
        AS v (id, name, email, phone, company, address, first_name, last_name, attributes, unsubscribed, updated_at)
     WHERE c.business_id = ${businessId} AND c.id = v.id
    RETURNING c.*`.execute(db);
  return updated;
}

export async function updateCustomer(db: Executor, businessId: string, id: string, changes: CustomerUpdate) {
  return db
    .updateTable('customers')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
}

export async function deleteCustomer(db: Executor, businessId: string, id: string): Promise<void> {
  await db.deleteFrom('customers').where('business_id', '=', businessId).where('id', '=', id).execute();
}

export async function listCustomers(db: Executor, businessId: string, query: ListCustomersQuery) {
  let base = db.selectFrom('customers').where('business_id', '=', businessId);
  if (query.email) base = base.where((eb) => eb(eb.fn('lower', ['email']), '=', query.email!.toLowerCase()));
  if (query.search) {
    const pattern = likePattern(query.search);
    base = base.where((eb) =>
      eb.or([eb('name', 'ilike', pattern), eb('email', 'ilike', pattern), eb('company', 'ilike', pattern)]),
    );
  }
  const sort = parseSort(query.sort, { field: 'created_at', direction: 'desc' });
  return pageWithTotal(
    base.selectAll(),
    (q) => q.orderBy(sort.field, sort.direction).orderBy('id', sort.direction),
    { limit: query.limit, offset: offsetOf(query) },
  );
}

/** Whether invoices or recurring invoices reference the customer. */
export async function hasInvoices(db: Executor, businessId: string, customerId: string): Promise<boolean> {
  const row = await db
    .selectNoFrom((eb) => [
      eb
        .or([
          eb.exists(
            eb
              .selectFrom('invoices')
              .select('id')
              .where('business_id', '=', businessId)
              .where('customer_id', '=', customerId),
          ),
          eb.exists(
            eb
              .selectFrom('recurring_invoices')
              .select('id')
              .where('business_id', '=', businessId)
              .where('customer_id', '=', customerId),
          ),
        ])
        .as('referenced'),
    ])
    .executeTakeFirstOrThrow();
  return Boolean(row.referenced);
}

/** Adds to the customer's credit balance in `currency`, making the balance when it has none. */
export async function addCustomerCredit(
  trx: Trx,
  businessId: string,
  customerId: string,
  currency: string,
  amountMinor: number,
): Promise<void> {
  await trx
    .insertInto('customer_credit_balances')
    .values({ business_id: businessId, customer_id: customerId, currency, balance_minor: amountMinor })
    .onConflict((oc) =>
      oc.columns(['business_id', 'customer_id', 'currency']).doUpdateSet((eb) => ({
        balance_minor: eb('customer_credit_balances.balance_minor', '+', amountMinor),
      })),
    )
    .execute();
}

/**
 * Takes `amountMinor` from the customer's credit balance in `currency` in one relative update, only
 * when the balance holds it all; false (nothing taken) otherwise.
 */
export async function takeCustomerCredit(
  trx: Trx,
  businessId: string,
  customerId: string,
  currency: string,
  amountMinor: number,
): Promise<boolean> {
  const row = await trx
    .updateTable('customer_credit_balances')
    .set((eb) => ({ balance_minor: eb('balance_minor', '-', amountMinor) }))
    .where('business_id', '=', businessId)
    .where('customer_id', '=', customerId)
    .where('currency', '=', currency)
    .where('balance_minor', '>=', amountMinor)
    .returning('balance_minor')
    .executeTakeFirst();
  return row !== undefined;
}

/** Locks the customer's credit balance in `currency` and reads it; 0 when there is none. */
export async function lockCustomerCredit(
  trx: Trx,
  businessId: string,
  customerId: string,
  currency: string,
): Promise<number> {
  const row = await trx
    .selectFrom('customer_credit_balances')
    .select('balance_minor')
    .where('business_id', '=', businessId)
    .where('customer_id', '=', customerId)
    .where('currency', '=', currency)
    .forUpdate()
    .executeTakeFirst();
  return row ? Number(row.balance_minor) : 0;
}

/** The credit balances above zero of the customers, by customer and currency. */
export async function creditBalancesOf(db: Executor, businessId: string, customerIds: string[]) {
  if (customerIds.length === 0) return [];
  return db
    .selectFrom('customer_credit_balances')
    .select(['customer_id', 'currency', 'balance_minor'])
    .where('business_id', '=', businessId)
    .where('customer_id', 'in', customerIds)
    .where('balance_minor', '>', 0)
    .orderBy('customer_id')
    .orderBy('currency')
    .execute();
}
