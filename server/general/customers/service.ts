import {
  CreateCustomerBodySchema,
  UpdateCustomerBodySchema,
  type CreateCustomerBody,
  type Customer,
  type ListCustomersQuery,
  type UpdateCustomerBody,
} from '../../../contract/general/customers.js';
import type { Pagination } from '../../../contract/common/pagination.js';
import { newId } from '../../platform/ids.js';
import { paginationOf } from '../../platform/pagination.js';
import { type Ctx, type TxCtx, inTransaction } from '../../platform/context.js';

import { refuseDuplicates } from '../../platform/db/errors.js';
import type { CustomerRow, CustomerUpdate, NewCustomer } from '../../platform/db/types.js';
import { ApiError, conflict, notFound } from '../../platform/errors.js';
import { emit, emitMany } from '../../platform/outbox.js';
import type { ImportTarget } from '../../platform/import-target.js';
import { creditByCustomer, toCustomer } from './mappers.js';
import * as queries from './queries.js';

/** `Ada King Lovelace` -> first `Ada`, last `King Lovelace`. */
function splitName(name: string): { first_name: string; last_name: string | null } {
  const at = name.indexOf(' ');
  return at < 0
    ? { first_name: name, last_name: null }
    : { first_name: name.slice(0, at), last_name: name.slice(at + 1).trim() || null };
}

const emailTaken = () => conflict('A customer with this email already exists');

/** The row of a new customer: name parts derived from `name` unless given. */
function newCustomer(ctx: Ctx, input: CreateCustomerBody): NewCustomer {
  const derived = splitName(input.name);
  const now = ctx.clock.now();
  return {
    business_id: ctx.businessId,
    id: newId('cus'),
    name: input.name,
    email: input.email ?? null,
    phone: input.phone ?? null,
    company: input.company ?? null,
    address: input.address ? JSON.stringify(input.address) : null,
    first_name: input.first_name !== undefined ? input.first_name : derived.first_name,
    last_name: input.last_name !== undefined ? input.last_name : derived.last_name,
    attributes: JSON.stringify(input.attributes ?? {}),
    unsubscribed: input.unsubscribed ?? false,
    created_at: now,
    updated_at: now,
  };
}

export async function createCustomer(ctx: Ctx, input: CreateCustomerBody): Promise<Customer> {
  return refuseDuplicates(
    () =>
      inTransaction(ctx, async (ctx) => {
        const customer = toCustomer(await queries.insertCustomer(ctx.db, newCustomer(ctx, input)));
        await emit(ctx, 'customer.created', customer);
        return customer;
      }),
    { customers_email_key: emailTaken },
  );
}

/**
 * The customer with this email (case-insensitive, as the unique key compares), created with `name`
 * when there is none, `customer.created` emitted as `createCustomer` does. A concurrent creation of
 * the same email is not an error: the insert yields to it and its customer is returned. Runs in the
 * caller's transaction when given one.
 */
export async function customerForEmail(
  ctx: Ctx,
  input: { email: string; name: string },
): Promise<{ id: string; created: boolean }> {
  return inTransaction(ctx, async (ctx) => {
    const existing = await queries.findCustomerByEmail(ctx.db, ctx.businessId, input.email);
    if (existing) return { id: existing.id, created: false };
    const row = await queries.insertCustomerUnlessTaken(ctx.db, newCustomer(ctx, input));
    if (!row) {
      // Another transaction created it since the read; the insert waited for it to commit.
      const winner = await queries.findCustomerByEmail(ctx.db, ctx.businessId, input.email);
      if (!winner) throw new Error(`The customer for ${input.email} vanished after a conflicting insert`);
      return { id: winner.id, created: false };
    }
    await emit(ctx, 'customer.created', toCustomer(row));
    return { id: row.id, created: true };
  });
}

/** The customers as the API shows them, each with its credit balance. */
async function withCredit(ctx: Ctx, rows: readonly CustomerRow[]): Promise<Customer[]> {
  const credit = creditByCustomer(
    await queries.creditBalancesOf(
      ctx.db,
      ctx.businessId,
      rows.map((r) => r.id),
    ),
  );
  return rows.map((row) => toCustomer(row, credit.get(row.id)));
}

const oneWithCredit = async (ctx: Ctx, row: CustomerRow): Promise<Customer> =>
  (await withCredit(ctx, [row]))[0]!;

export async function listCustomers(
  ctx: Ctx,
  query: ListCustomersQuery,
): Promise<{ data: Customer[]; pagination: Pagination }> {
  const { rows, total } = await queries.listCustomers(ctx.db, ctx.businessId, query);
  return { data: await withCredit(ctx, rows), pagination: paginationOf(query, total) };
}

export async function getCustomer(ctx: Ctx, id: string): Promise<Customer> {
  const row = await queries.findCustomer(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Customer');
  return oneWithCredit(ctx, row);
}

/**
 * The columns an update changes on `current`: a rename re-derives both name parts, a part given in
 * the same request wins; empty when it changes nothing.
 */
function customerChanges(current: CustomerRow, input: UpdateCustomerBody): CustomerUpdate {
  const renamed = input.name !== undefined && input.name !== current.name;
  const derived = renamed ? splitName(input.name!) : {};
  return {
    ...(input.name !== undefined && { name: input.name }),
    ...(input.email !== undefined && { email: input.email }),
    ...(input.phone !== undefined && { phone: input.phone }),
    ...(input.company !== undefined && { company: input.company }),
    ...(input.address !== undefined && {
      address: input.address ? JSON.stringify(input.address) : null,
    }),
    ...derived,
    ...(input.first_name !== undefined && { first_name: input.first_name }),
    ...(input.last_name !== undefined && { last_name: input.last_name }),
    ...(input.attributes !== undefined && { attributes: JSON.stringify(input.attributes) }),
    ...(input.unsubscribed !== undefined && { unsubscribed: input.unsubscribed }),
  };
}

/** Partial update; an empty one changes nothing and returns the customer as it is. */
export async function updateCustomer(ctx: Ctx, id: string, input: UpdateCustomerBody): Promise<Customer> {
  return refuseDuplicates(
    () =>
      inTransaction(ctx, async (ctx) => {
        const current = await queries.findCustomer(ctx.db, ctx.businessId, id, true);
        if (!current) throw notFound('Customer');
        const changes = customerChanges(current, input);
        if (Object.keys(changes).length === 0) return oneWithCredit(ctx, current);
        const row = await queries.updateCustomer(ctx.db, ctx.businessId, id, {
          ...changes,
          updated_at: ctx.clock.now(),
        });
        const customer = await oneWithCredit(ctx, row);
        await emit(ctx, 'customer.updated', customer);
        return customer;
      }),
    { customers_email_key: emailTaken },
  );
}

/**
 * Many updates at once, each as `updateCustomer` makes it (the same changes, `customer.updated` for
 * each customer an update changes, none for an empty one), in one statement to read and lock the
 * customers and one to write them.
 */
async function updateCustomers(
  ctx: TxCtx,
  updates: readonly { id: string; body: UpdateCustomerBody }[],
): Promise<string[]> {
  const current = new Map(
    (
      await queries.lockCustomers(
        ctx.db,
        ctx.businessId,
        updates.map((u) => u.id),
      )
    ).map((row) => [row.id, row]),
  );
  const now = ctx.clock.now();
  const changed: queries.CustomerValues[] = [];
  for (const { id, body } of updates) {
    const row = current.get(id);
    if (!row) throw notFound('Customer');
    const changes = customerChanges(row, body);
    if (Object.keys(changes).length === 0) continue;
    changed.push({
      id,
      name: row.name,
      email: row.email,
      phone: row.phone,
      company: row.company,
      address: row.address ? JSON.stringify(row.address) : null,
      first_name: row.first_name,
      last_name: row.last_name,
      attributes: JSON.stringify(row.attributes),
      unsubscribed: row.unsubscribed,
      ...(changes as Partial<queries.CustomerValues>),
      updated_at: now,
    });
  }
  const rows = new Map(
    (await queries.updateCustomers(ctx.db, ctx.businessId, changed)).map((r) => [r.id, r]),
  );
  await emitMany(
    ctx,
    'customer.updated',
    await withCredit(
      ctx,
      changed.map((c) => rows.get(c.id)!),
    ),
  );
  return updates.map((u) => u.id);
}

/**
 * Unsubscribes a contact (the link in a marketing email): `customer.updated` as any update; false
 * when there is no such customer. Idempotent.
 */
export async function unsubscribeCustomer(ctx: Ctx, id: string): Promise<boolean> {
  const current = await queries.findCustomer(ctx.db, ctx.businessId, id);
  if (!current) return false;
  if (!current.unsubscribed) await updateCustomer(ctx, id, { unsubscribed: true });
  return true;
}

/** The refusal to delete a customer that other rows still name (loyalty's subscriber says the same). */
const customerInUse = () =>
  new ApiError('RESOURCE_IN_USE', 'The customer has invoices or a loyalty membership and cannot be deleted');

export async function deleteCustomer(ctx: Ctx, id: string): Promise<Customer> {
  return inTransaction(ctx, async (ctx) => {
    const row = await queries.findCustomer(ctx.db, ctx.businessId, id, true);
    if (!row) throw notFound('Customer');
    if (await queries.hasInvoices(ctx.db, ctx.businessId, id)) throw customerInUse();
    // Other domains whose rows name the customer (a loyalty member) refuse the same way.
    await ctx.hooks.announce(ctx, 'customerDeleting', { customerId: id });
    await queries.deleteCustomer(ctx.db, ctx.businessId, id);
    const customer = toCustomer(row);
    await emit(ctx, 'customer.deleted', customer);
    return customer;
  });
}

/**
 * Customers from a CSV file (docs/decisions.md D165), matched by email: created as `createCustomer` makes
 * them or updated as `updateCustomer` does, a thousand to a statement (`customer.created` or
 * `customer.updated` for each), one by one only to name the rows the database refuses.
 */
export const customerImport: ImportTarget = {
  kind: 'customers',
  create: CreateCustomerBodySchema,
  update: UpdateCustomerBodySchema,
  key: 'email',
  existing: async (ctx, emails) =>
    new Map(
      (await queries.customerIdsByEmail(ctx.db, ctx.businessId, emails)).map((row) => [row.email, row.id]),
    ),
  createOne: (ctx, body) => createCustomer(ctx, body as CreateCustomerBody),
  updateOne: (ctx, id, body) => updateCustomer(ctx, id, body),
  updateMany: (ctx, updates) =>
    refuseDuplicates(() => updateCustomers(ctx, updates), { customers_email_key: emailTaken }),
  createMany: (ctx, bodies) =>
    refuseDuplicates(
      async () => {
        const rows = await queries.insertCustomers(
          ctx.db,
          bodies.map((body) => newCustomer(ctx, body as CreateCustomerBody)),
        );
        const customers = rows.map((row) => toCustomer(row));
        await emitMany(ctx, 'customer.created', customers);
        return customers.map((c) => c.id);
      },
      { customers_email_key: emailTaken },
    ),
};
