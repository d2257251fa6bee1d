import type { CreateTierBody, Tier, UpdateTierBody } from '../../../contract/loyalty/index.js';
import { newId } from '../../platform/ids.js';
import { toScaledInteger } from '../../platform/money.js';
import { membersChanged } from '../members/counts.js';
import { type Ctx, inTransaction } from '../../platform/context.js';

import { refuseDuplicates } from '../../platform/db/errors.js';
import { conflict, invalid, notFound } from '../../platform/errors.js';
import { setTier } from '../ledger/service.js';
import { toTier } from './mappers.js';
import { membersOfTier } from '../members/queries.js';
import { activeProgram } from '../program/queries.js';
import { tiersOf } from './queries.js';
import { requireProgram } from '../program/service.js';
import * as queries from './queries.js';

const tierClash = () => conflict('Another tier of the program has this name or minPoints');

/** The multiplier column holds 2 decimals; more (counted exactly, as sent) are refused, not rounded. */
function checkMultiplier(multiplier: number | undefined): void {
  if (multiplier !== undefined && toScaledInteger(multiplier, 2) === null) {
    throw invalid('multiplier', 'At most 2 decimals');
  }
}

const uniqueTier = <T>(work: () => Promise<T>): Promise<T> =>
  refuseDuplicates(work, { loyalty_tiers_name_key: tierClash, loyalty_tiers_min_key: tierClash });

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
  const row = await uniqueTier(() =>
    queries.insertTier(ctx.db, {
      business_id: ctx.businessId,
      id: newId('tier'),
      program_id: program.id,
      name: input.name,
      color: input.color ?? '#808080',
      min_points: input.minPoints,
      multiplier: input.multiplier ?? 1,
      sort_order: input.sortOrder ?? 0,
      created_at: ctx.clock.now(),
    }),
  );
  return toTier(row);
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
    if (!(await queries.tierExists(ctx.db, ctx.businessId, id))) throw notFound('Tier');
    return;
  }
  if (!(await uniqueTier(() => queries.updateTier(ctx.db, ctx.businessId, id, changes))))
    throw notFound('Tier');
}

/** Members of the deleted tier move to the next lower tier (none when it was the lowest). */
export async function deleteTier(ctx: Ctx, id: string): Promise<void> {
  await inTransaction(ctx, async (ctx) => {
    const tier = await queries.lockTier(ctx.db, ctx.businessId, id);
    if (!tier) throw notFound('Tier');
    const tiers = await tiersOf(ctx.db, ctx.businessId, tier.program_id);
    const lower = tiers.filter((t) => Number(t.min_points) < Number(tier.min_points)).at(-1) ?? null;
    for (const memberId of await membersOfTier(ctx.db, ctx.businessId, id))
      await setTier(ctx, memberId, tier, lower);
    await queries.deleteTier(ctx.db, ctx.businessId, id);
  });
  membersChanged(ctx);
}
