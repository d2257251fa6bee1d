import type { Executor } from '../platform/db/database.js';

/** The business's active program, if any. */
export const activeProgram = (db: Executor, businessId: string) =>
  db
    .selectFrom('loyalty_programs')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('is_active', '=', true)
    .executeTakeFirst();

/** Tiers of a program, lowest first. */
export const tiersOf = (db: Executor, businessId: string, programId: string) =>
  db
    .selectFrom('loyalty_tiers')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('program_id', '=', programId)
    .orderBy('min_points')
    .orderBy('id')
    .execute();

/** Members joined with their customer and tier, as the API shows them. */
export const memberView = (db: Executor, businessId: string) =>
  db
    .selectFrom('loyalty_members as m')
    .innerJoin('customers as c', (j) =>
      j.onRef('c.business_id', '=', 'm.business_id').onRef('c.id', '=', 'm.customer_id'),
    )
    .leftJoin('loyalty_tiers as t', (j) =>
      j.onRef('t.business_id', '=', 'm.business_id').onRef('t.id', '=', 'm.tier_id'),
    )
    .selectAll('m')
    .select([
      'c.name as customer_name',
      'c.email as customer_email',
      'c.phone as customer_phone',
      't.name as tier_name',
      't.color as tier_color',
    ])
    .where('m.business_id', '=', businessId)
    .where('m.deleted_at', 'is', null);

export const findMemberView = (db: Executor, businessId: string, id: string) =>
  memberView(db, businessId).where('m.id', '=', id).executeTakeFirst();

export type MemberViewRow = NonNullable<Awaited<ReturnType<typeof findMemberView>>>;
