import { CreateVendorBodySchema, UpdateVendorBodySchema } from '../../../contract/finance/index.js';
import type { ImportTarget } from '../../platform/import-target.js';
import type {
  CreateVendorBody,
  ListVendorsQuery,
  UpdateVendorBody,
  Vendor,
} from '../../../contract/finance/index.js';
import type { Ctx } from '../../platform/context.js';
import { notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import * as queries from './queries.js';

const toVendor = (row: queries.VendorRow): Vendor => ({
  id: row.id,
  name: row.name,
  email: row.email,
  phone: row.phone,
  currency: row.currency,
  tax_id: row.tax_id,
  address: row.address ?? null,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

export async function listVendors(
  ctx: Ctx,
  query: ListVendorsQuery,
): Promise<{ vendors: Vendor[]; total_count: number }> {
  const { rows, total } = await queries.listVendors(ctx.db, ctx.businessId, query);
  return { vendors: rows.map(toVendor), total_count: total };
}

export async function getVendor(ctx: Ctx, id: string): Promise<Vendor> {
  const row = await queries.findVendor(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Vendor');
  return toVendor(row);
}

export async function createVendor(ctx: Ctx, input: CreateVendorBody): Promise<Vendor> {
  const now = ctx.clock.now();
  const row = await queries.insertVendor(ctx.db, {
    business_id: ctx.businessId,
    id: newId('ven'),
    name: input.name,
    email: input.email ?? null,
    phone: input.phone ?? null,
    currency: input.currency ?? null,
    tax_id: input.tax_id ?? null,
    address: input.address ? JSON.stringify(input.address) : null,
    created_at: now,
    updated_at: now,
  });
  return toVendor(row);
}

/** Partial update; `null` clears an optional field; an empty body changes nothing. */
export async function updateVendor(ctx: Ctx, id: string, input: UpdateVendorBody): Promise<Vendor> {
  const { address, ...fields } = input;
  const changes = {
    ...Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)),
    ...(address !== undefined && { address: address ? JSON.stringify(address) : null }),
  };
  if (Object.keys(changes).length === 0) return getVendor(ctx, id);
  const row = await queries.updateVendor(ctx.db, ctx.businessId, id, {
    ...changes,
    updated_at: ctx.clock.now(),
  });
  if (!row) throw notFound('Vendor');
  return toVendor(row);
}

/** Vendors, matched by email (the oldest vendor with it), created by `createVendor` or updated by `updateVendor` (docs/decisions.md D165). */
export const vendorImport: ImportTarget = {
  kind: 'vendors',
  create: CreateVendorBodySchema,
  update: UpdateVendorBodySchema,
  key: 'email',
  existing: async (ctx, keys) => {
    const rows = await queries.vendorIdsByEmail(ctx.db, ctx.businessId, keys);
    return new Map(rows.reverse().map((row) => [row.key, row.id]));
  },
  createOne: (ctx, body) => createVendor(ctx, body as CreateVendorBody),
  updateOne: (ctx, id, body) => updateVendor(ctx, id, body),
};
