import type { CreateTierBody, Tier, UpdateTierBody } from '../../contract/loyalty/schemas.js';
import { newId } from '../platform/ids.js';
import { toScaledInteger } from '../platform/money.js';
import { membersChanged } from './member-counts.js';
import type { Ctx } from '../platform/context.js';
import { inTransaction } from '../platform/db/database.js';
import { isUniqueViolation } from '../platform/db/errors.js';
import { conflict, invalid, notFound } from '../platform/errors.js';
import { setTier } from './ledger.js';
import { toTier } from './mappers.js';
import { activeProgram, tiersOf } from './queries.js';
import { requireProgram } from './program.js';

const tierClash = () => conflict('Another tier of the program has this name or minPoints');

/** The multiplier column holds 2 decimals; more (counted exactly, as sent) are refused, not rounded. */
function checkMultiplier(multiplier: number | undefined): void {
  if (multiplier !== undefined && toScaledInteger(multiplier, 2) === null) {
    throw invalid('multiplier', 'At most 2 decimals');
  }
}

async function uniqueTier<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (isUniqueViolation(err, 'loyalty_tiers_name_key') || isUniqueViolation(err, 'loyalty_tiers_min_key'))
      throw tierClash();
    throw err;
  }
}

export async function listTiers(ctx: Ctx): Promise<Tier[]> {
  const program = await activeProgram(ctx.db, ctx.businessId);
  if (!program) return [];
  const rows = await tiersOf(ctx.db, ctx.businessId, program.id);
  return rows
    .sort((a, b) => a.sort_order - b.sort_order || Number(a.min_points) - Number(b.min_points))
    .map(toTier);
}

export async function createTier(ctx: Ctx, input: CreateTierBody): Promise<Tier> {
  checkMultiplier(input.multiplier);
  const program = await requireProgram(ctx);
  return uniqueTier(async () => {
    const row = await ctx.db
      .insertInto('loyalty_tiers')
      .values({
        business_id: ctx.businessId,
        id: newId('tier'),
        program_id: program.id,
        name: input.name,
        color: input.color ?? '#808080',
        min_points: input.minPoints,
        multiplier: input.multiplier ?? 1,
        sort_order: input.sortOrder ?? 0,
        created_at: ctx.clock.now(),
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toTier(row);
  });
}

/** Partial update; an empty one changes nothing (but an unknown tier is still 404). */
export async function updateTier(ctx: Ctx, id: string, input: UpdateTierBody): Promise<void> {
  checkMultiplier(input.multiplier);
  const changes = {
    ...(input.name !== undefined && { name: input.name }),
    ...(input.color !== undefined && { color: input.color }),
    ...(input.minPoints !== undefined && { min_points: input.minPoints }),
    ...(input.multiplier !== undefined && { multiplier: input.multiplier }),
    ...(input.sortOrder !== undefined && { sort_order: input.sortOrder }),
  };
  if (Object.keys(changes).length === 0) {
    const tier = await ctx.db
      .selectFrom('loyalty_tiers')
      .select('id')
      .where('business_id', '=', ctx.businessId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!tier) throw notFound('Tier');
    return;
  }
  await uniqueTier(async () => {
    const res = await ctx.db
      .updateTable('loyalty_tiers')
      .set(changes)
      .where('business_id', '=', ctx.businessId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) === 0) throw notFound('Tier');
  });
}

/** Members of the deleted tier move to the next lower tier (none when it was the lowest). */
export async function deleteTier(ctx: Ctx, id: string): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    const tier = await trx
      .selectFrom('loyalty_tiers')
      .selectAll()
      .where('business_id', '=', ctx.businessId)
      .where('id', '=', id)
      .forUpdate()
      .executeTakeFirst();
    if (!tier) throw notFound('Tier');
    const tiers = await tiersOf(trx, ctx.businessId, tier.program_id);
    const lower = tiers.filter((t) => Number(t.min_points) < Number(tier.min_points)).at(-1) ?? null;
    const members = await trx
      .selectFrom('loyalty_members')
      .select('id')
      .where('business_id', '=', ctx.businessId)
      .where('tier_id', '=', id)
      .where('deleted_at', 'is', null)
      .execute();
    for (const member of members) await setTier(trx, ctx, member.id, tier, lower);
    await trx
      .deleteFrom('loyalty_tiers')
      .where('business_id', '=', ctx.businessId)
      .where('id', '=', id)
      .execute();
  });
  membersChanged(ctx.businessId);
}
