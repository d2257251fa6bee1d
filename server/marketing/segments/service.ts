import type {
  Contact,
  CreateSegmentBody,
  ListSegmentsQuery,
  Segment,
  SegmentFilters,
  UpdateSegmentBody,
} from '../../../contract/marketing/index.js';
import { type Ctx, type TxCtx, inTransaction } from '../../platform/context.js';
import { type Executor } from '../../platform/db/database.js';
import { ApiError, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { usedByActiveCampaign } from '../campaigns/queries.js';
import type { SegmentDefinition } from './filters.queries.js';
import { toContact, toSegment } from './mappers.js';
import * as contacts from './contacts.queries.js';
import * as queries from './queries.js';

/** The most unknown ids one refusal names. */
const NAMED_UNKNOWN = 100;

const definitionOf = (row: queries.SegmentRow): SegmentDefinition => ({
  businessId: row.business_id,
  id: row.id,
  filters: (row.filters as SegmentFilters | null) ?? null,
  listed: Number(row.listed_contacts ?? 0),
});

async function withCount(db: Executor, row: queries.SegmentRow): Promise<Segment> {
  return toSegment(row, await contacts.countContacts(db, definitionOf(row)));
}

async function segmentOrFail(ctx: Ctx, id: string, forUpdate = false) {
  const row = await queries.findSegment(ctx.db, ctx.businessId, id, forUpdate ? 'update' : undefined);
  if (!row) throw notFound('Segment');
  return row;
}

/** Refuses contact ids that are not customers of the business, naming each. */
async function requireContacts(ctx: TxCtx, ids: readonly string[]): Promise<void> {
  const unknown = await contacts.unknownCustomers(ctx.db, ctx.businessId, ids);
  if (unknown.length === 0) return;
  throw new ApiError(
    'VALIDATION_ERROR',
    unknown.length === 1
      ? 'A contact id is not a customer of this business'
      : `${unknown.length} contact ids are not customers of this business`,
    unknown
      .slice(0, NAMED_UNKNOWN)
      .map((id) => ({ field: 'contact_ids', message: `No customer with id ${id}` })),
  );
}

export async function listSegments(
  ctx: Ctx,
  query: ListSegmentsQuery,
): Promise<{ segments: Segment[]; total_count: number }> {
  const { rows, total } = await queries.listSegments(ctx.db, ctx.businessId, query);
  const segments = await Promise.all(rows.map((row) => withCount(ctx.db, row)));
  return { segments, total_count: total };
}

export async function getSegment(ctx: Ctx, id: string): Promise<Segment> {
  return withCount(ctx.db, await segmentOrFail(ctx, id));
}

export async function createSegment(ctx: Ctx, input: CreateSegmentBody): Promise<Segment> {
  return inTransaction(ctx, async (ctx) => {
    const contactIds = input.contact_ids ?? [];
    await requireContacts(ctx, contactIds);
    const now = ctx.clock.now();
    const id = newId('seg');
    await queries.insertSegment(ctx.db, {
      business_id: ctx.businessId,
      id,
      name: input.name,
      description: input.description ?? null,
      status: 'active',
      filters: input.filters ? JSON.stringify(input.filters) : null,
      created_at: now,
      updated_at: now,
    });
    if (contactIds.length > 0) await queries.setListedContacts(ctx.db, ctx.businessId, id, contactIds);
    return withCount(ctx.db, await segmentOrFail(ctx, id));
  });
}

/** Partial update; `contact_ids` replaces the listed contacts, `filters: null` removes the filters. */
export async function updateSegment(ctx: Ctx, id: string, input: UpdateSegmentBody): Promise<Segment> {
  return inTransaction(ctx, async (ctx) => {
    await segmentOrFail(ctx, id, true);
    if (input.contact_ids !== undefined) {
      await requireContacts(ctx, input.contact_ids);
      await queries.setListedContacts(ctx.db, ctx.businessId, id, input.contact_ids);
    }
    await queries.updateSegment(ctx.db, ctx.businessId, id, {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.description !== undefined && { description: input.description }),
      ...(input.filters !== undefined && { filters: input.filters ? JSON.stringify(input.filters) : null }),
      ...(input.status !== undefined && { status: input.status }),
      updated_at: ctx.clock.now(),
    });
    return withCount(ctx.db, await segmentOrFail(ctx, id));
  });
}

/** Soft delete (campaigns keep naming it); the contacts stay. */
export async function deleteSegment(ctx: Ctx, id: string): Promise<void> {
  await inTransaction(ctx, async (ctx) => {
    // The row lock first, then the look for active campaigns: a campaign starting to send holds
    // the row FOR SHARE (campaigns.lockParts), so one waits for the other and sees what it did.
    await segmentOrFail(ctx, id, true);
    if (await usedByActiveCampaign(ctx.db, ctx.businessId, { segmentId: id })) {
      throw new ApiError(
        'RESOURCE_IN_USE',
        'A scheduled, sending or paused campaign uses this segment; cancel it or let it finish first',
      );
    }
    const now = ctx.clock.now();
    await queries.updateSegment(ctx.db, ctx.businessId, id, { deleted_at: now, updated_at: now });
  });
}

export async function listSegmentContacts(
  ctx: Ctx,
  id: string,
  page: { limit: number; offset: number },
): Promise<{ contacts: Contact[]; total_count: number }> {
  const definition = definitionOf(await segmentOrFail(ctx, id));
  const { rows, total } = await contacts.contactsPage(ctx.db, definition, page);
  return { contacts: rows.map(toContact), total_count: total };
}
