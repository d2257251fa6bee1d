import type { CreateProgramBody, Program, UpdateProgramBody } from '../../../contract/loyalty/index.js';
import { newId } from '../../platform/ids.js';
import { type Ctx, inTransaction } from '../../platform/context.js';

import { refuseDuplicates } from '../../platform/db/errors.js';
import type { ProgramRow } from '../../platform/db/types.js';
import { conflict, notFound } from '../../platform/errors.js';
import { toProgram } from './mappers.js';
import * as queries from './queries.js';
import { activeProgram } from './queries.js';
import { deleteTiersOfProgram } from '../tiers/queries.js';

const secondProgram = () => conflict('The business already has an active loyalty program');

/** A second active program is refused by the partial unique index `loyalty_programs_one_active`. */
const oneActiveProgram = <T>(work: () => Promise<T>): Promise<T> =>
  refuseDuplicates(work, { loyalty_programs_one_active: secondProgram });

/** The active program, else the most recently deactivated one, else null. */
export async function getProgram(ctx: Ctx): Promise<Program | null> {
  const row = await queries.currentOrLastProgram(ctx.db, ctx.businessId);
  return row ? toProgram(row) : null;
}

/** The active program's row, if any. */
export function findActiveProgram(ctx: Ctx): Promise<ProgramRow | undefined> {
  return activeProgram(ctx.db, ctx.businessId);
}

/** The active program, if any. */
export async function currentProgram(ctx: Ctx): Promise<Program | undefined> {
  const row = await activeProgram(ctx.db, ctx.businessId);
  return row && toProgram(row);
}

export async function requireProgram(ctx: Ctx) {
  const program = await activeProgram(ctx.db, ctx.businessId);
  if (!program) throw notFound('Active loyalty program');
  return program;
}

export async function createProgram(ctx: Ctx, input: CreateProgramBody): Promise<Program> {
  const now = ctx.clock.now();
  const row = await oneActiveProgram(() =>
    queries.insertProgram(ctx.db, {
      business_id: ctx.businessId,
      id: newId('prog'),
      name: input.name,
      points_name: input.pointsName,
      points_per_currency: input.pointsPerCurrency,
      currency: input.currency,
      enrollment_type: input.enrollmentType ?? 'automatic',
      points_expiry_days: input.pointsExpiryDays ?? 0,
      is_active: true,
      auto_notify: input.autoNotify ?? true,
      created_at: now,
      updated_at: now,
      deactivated_at: null,
    }),
  );
  return toProgram(row);
}

/**
 * Updates the active program, or the latest one (to reactivate it) when none is active. An empty
 * update changes nothing.
 */
export async function updateProgram(ctx: Ctx, input: UpdateProgramBody): Promise<void> {
  const now = ctx.clock.now();
  await oneActiveProgram(() =>
    inTransaction(ctx, async (ctx) => {
      const current = await queries.lockProgramToUpdate(ctx.db, ctx.businessId);
      if (!current) throw notFound('Loyalty program');
      const changes = {
        ...(input.name !== undefined && { name: input.name }),
        ...(input.pointsName !== undefined && { points_name: input.pointsName }),
        ...(input.pointsPerCurrency !== undefined && { points_per_currency: input.pointsPerCurrency }),
        ...(input.enrollmentType !== undefined && { enrollment_type: input.enrollmentType }),
        ...(input.pointsExpiryDays !== undefined && { points_expiry_days: input.pointsExpiryDays }),
        ...(input.autoNotify !== undefined && { auto_notify: input.autoNotify }),
        ...(input.isActive !== undefined && {
          is_active: input.isActive,
          deactivated_at: input.isActive ? null : now,
        }),
      };
      if (Object.keys(changes).length === 0) return;
      await queries.updateProgram(ctx.db, ctx.businessId, current.id, { ...changes, updated_at: now });
    }),
  );
}

/** Deactivates the program and removes its tiers; members, transactions and redemptions stay. */
export async function deleteProgram(ctx: Ctx): Promise<void> {
  await inTransaction(ctx, async (ctx) => {
    const program = await activeProgram(ctx.db, ctx.businessId);
    if (!program) throw notFound('Active loyalty program');
    await deleteTiersOfProgram(ctx.db, ctx.businessId, program.id);
    await queries.updateProgram(ctx.db, ctx.businessId, program.id, {
      is_active: false,
      deactivated_at: ctx.clock.now(),
      updated_at: ctx.clock.now(),
    });
  });
}
