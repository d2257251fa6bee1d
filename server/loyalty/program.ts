import type { CreateProgramBody, Program, UpdateProgramBody } from '../../contract/loyalty/schemas.js';
import { newId } from '../platform/ids.js';
import type { Ctx } from '../platform/context.js';
import { inTransaction } from '../platform/db/database.js';
import { isUniqueViolation } from '../platform/db/errors.js';
import { conflict, notFound } from '../platform/errors.js';
import { toProgram } from './mappers.js';
import { activeProgram } from './queries.js';

const secondProgram = () => conflict('The business already has an active loyalty program');

/** The active program, else the most recently deactivated one, else null. */
export async function getProgram(ctx: Ctx): Promise<Program | null> {
  const row = await ctx.db
    .selectFrom('loyalty_programs')
    .selectAll()
    .where('business_id', '=', ctx.businessId)
    .orderBy('is_active', 'desc')
    .orderBy('deactivated_at', (ob) => ob.desc().nullsLast())
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? toProgram(row) : null;
}

export async function requireProgram(ctx: Ctx) {
  const program = await activeProgram(ctx.db, ctx.businessId);
  if (!program) throw notFound('Active loyalty program');
  return program;
}

export async function createProgram(ctx: Ctx, input: CreateProgramBody): Promise<Program> {
  const now = ctx.clock.now();
  try {
    const row = await ctx.db
      .insertInto('loyalty_programs')
      .values({
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
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toProgram(row);
  } catch (err) {
    if (isUniqueViolation(err, 'loyalty_programs_one_active')) throw secondProgram();
    throw err;
  }
}

/**
 * Updates the active program, or the latest one (to reactivate it) when none is active. An empty
 * update changes nothing.
 */
export async function updateProgram(ctx: Ctx, input: UpdateProgramBody): Promise<void> {
  const now = ctx.clock.now();
  try {
    await inTransaction(ctx.db, async (trx) => {
      const current = await trx
        .selectFrom('loyalty_programs')
        .select(['id', 'is_active'])
        .where('business_id', '=', ctx.businessId)
        .orderBy('is_active', 'desc')
        .orderBy('created_at', 'desc')
        .limit(1)
        .forUpdate()
        .executeTakeFirst();
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
      await trx
        .updateTable('loyalty_programs')
        .set({ ...changes, updated_at: now })
        .where('business_id', '=', ctx.businessId)
        .where('id', '=', current.id)
        .execute();
    });
  } catch (err) {
    if (isUniqueViolation(err, 'loyalty_programs_one_active')) throw secondProgram();
    throw err;
  }
}

/** Deactivates the program and removes its tiers; members, transactions and redemptions stay. */
export async function deleteProgram(ctx: Ctx): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    const program = await activeProgram(trx, ctx.businessId);
    if (!program) throw notFound('Active loyalty program');
    await trx
      .deleteFrom('loyalty_tiers')
      .where('business_id', '=', ctx.businessId)
      .where('program_id', '=', program.id)
      .execute();
    await trx
      .updateTable('loyalty_programs')
      .set({ is_active: false, deactivated_at: ctx.clock.now(), updated_at: ctx.clock.now() })
      .where('business_id', '=', ctx.businessId)
      .where('id', '=', program.id)
      .execute();
  });
}
