import type {
  CreateReminderBody,
  Reminder,
  Transaction,
  UpdateReminderBody,
} from '../../contract/loyalty/schemas.js';
import { today } from '../platform/clock.js';
import { newId } from '../platform/ids.js';
import { jobCtx, type CtxSource, type Ctx } from '../platform/context.js';
import { inTransaction, type Executor } from '../platform/db/database.js';
import { invalid, invalidState, notFound } from '../platform/errors.js';
import { emit } from '../platform/outbox.js';
import { queueMail } from '../platform/mail.js';
import { post } from './ledger.js';
import { toMember, toReminder, toTransaction } from './mappers.js';
import { findMemberView } from './queries.js';

const JOB = 'service reminders';
const BATCH = 500;

/** `YYYY-MM-DD` that many days after the date `YYYY-MM-DD`. */
function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

const findReminder = (db: Executor, businessId: string, id: string) =>
  db
    .selectFrom('loyalty_reminders')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();

export async function listReminders(ctx: Ctx, isActive?: boolean): Promise<Reminder[]> {
  let query = ctx.db
    .selectFrom('loyalty_reminders')
    .selectAll()
    .where('business_id', '=', ctx.businessId)
    .where('deleted_at', 'is', null);
  if (isActive !== undefined) query = query.where('is_active', '=', isActive);
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  return rows.map(toReminder);
}

export async function createReminder(ctx: Ctx, input: CreateReminderBody): Promise<Reminder> {
  const now = ctx.clock.now();
  const row = await ctx.db
    .insertInto('loyalty_reminders')
    .values({
      business_id: ctx.businessId,
      id: newId('rem'),
      name: input.name,
      description: input.description ?? null,
      interval_days: input.intervalDays,
      bonus_points: input.bonusPoints ?? 0,
      is_active: input.isActive ?? true,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toReminder(row);
}

/** Partial update; an empty one changes nothing (but an unknown reminder is still 404). */
export async function updateReminder(ctx: Ctx, id: string, input: UpdateReminderBody): Promise<void> {
  const changes = {
    ...(input.name !== undefined && { name: input.name }),
    ...(input.description !== undefined && { description: input.description }),
    ...(input.intervalDays !== undefined && { interval_days: input.intervalDays }),
    ...(input.bonusPoints !== undefined && { bonus_points: input.bonusPoints }),
    ...(input.isActive !== undefined && { is_active: input.isActive }),
  };
  if (Object.keys(changes).length === 0) {
    if (!(await findReminder(ctx.db, ctx.businessId, id))) throw notFound('Reminder');
    return;
  }
  const res = await ctx.db
    .updateTable('loyalty_reminders')
    .set({ ...changes, updated_at: ctx.clock.now() })
    .where('business_id', '=', ctx.businessId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) throw notFound('Reminder');
}

/** Soft delete: members' schedules of the reminder stay on record but are no longer reminded. */
export async function deleteReminder(ctx: Ctx, id: string): Promise<void> {
  const now = ctx.clock.now();
  const res = await ctx.db
    .updateTable('loyalty_reminders')
    .set({ deleted_at: now, updated_at: now })
    .where('business_id', '=', ctx.businessId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) throw notFound('Reminder');
}

/**
 * Records a completed service: the bonus (if any) is earned and the member's next due date is
 * intervalDays after today, in one transaction.
 */
export async function completeReminder(
  ctx: Ctx,
  reminderId: string,
  memberId: string,
): Promise<{ transaction: Transaction | null; nextDueDate: string }> {
  return inTransaction(ctx.db, async (trx) => {
    const reminder = await findReminder(trx, ctx.businessId, reminderId);
    if (!reminder) throw notFound('Reminder');
    // Locked first, as every balance change does, so the status cannot change underneath.
    const member = await trx
      .selectFrom('loyalty_members')
      .select('status')
      .where('business_id', '=', ctx.businessId)
      .where('id', '=', memberId)
      .where('deleted_at', 'is', null)
      .forUpdate()
      .executeTakeFirst();
    if (!member) throw invalid('memberId', 'Unknown member');
    if (!reminder.is_active) throw invalidState('The reminder is not active');
    if (member.status !== 'active') throw invalidState(`The member is ${member.status}`);

    let transaction: Transaction | null = null;
    if (reminder.bonus_points > 0) {
      const posted = await post(trx, ctx, memberId, {
        type: 'earn',
        points: reminder.bonus_points,
        description: `Completed ${reminder.name}`,
        referenceType: 'reminder',
        referenceId: reminderId,
        field: 'memberId',
      });
      transaction = toTransaction(posted.transaction);
    }

    const nextDueDate = addDays(today(ctx.clock), reminder.interval_days);
    const now = ctx.clock.now();
    await trx
      .insertInto('loyalty_member_reminders')
      .values({
        business_id: ctx.businessId,
        reminder_id: reminderId,
        member_id: memberId,
        due_date: nextDueDate,
        last_completed_at: now,
        notified_for: null,
      })
      .onConflict((oc) =>
        oc
          .columns(['business_id', 'reminder_id', 'member_id'])
          .doUpdateSet({ due_date: nextDueDate, last_completed_at: now, notified_for: null }),
      )
      .execute();
    return { transaction, nextDueDate };
  });
}

type ScheduleKey = { business_id: string; reminder_id: string; member_id: string };

/**
 * Schedule rows that are due and not yet notified for their due date, of an active reminder and an
 * active member with an email, in businesses whose active program sends notifications.
 */
function dueSchedules(db: Executor, day: string) {
  return db
    .selectFrom('loyalty_member_reminders as s')
    .innerJoin('loyalty_reminders as r', (j) =>
      j.onRef('r.business_id', '=', 's.business_id').onRef('r.id', '=', 's.reminder_id'),
    )
    .innerJoin('loyalty_members as m', (j) =>
      j.onRef('m.business_id', '=', 's.business_id').onRef('m.id', '=', 's.member_id'),
    )
    .innerJoin('customers as c', (j) =>
      j.onRef('c.business_id', '=', 'm.business_id').onRef('c.id', '=', 'm.customer_id'),
    )
    .innerJoin('loyalty_programs as p', (j) =>
      j.onRef('p.business_id', '=', 's.business_id').on('p.is_active', '=', true),
    )
    .where('s.due_date', '<=', day)
    .where((eb) => eb('s.notified_for', 'is distinct from', eb.ref('s.due_date')))
    .where('r.is_active', '=', true)
    .where('r.deleted_at', 'is', null)
    .where('m.status', '=', 'active')
    .where('m.deleted_at', 'is', null)
    .where('c.email', 'is not', null)
    .where('p.auto_notify', '=', true);
}

/**
 * Emails every member whose service is due (once per due date) and announces it
 * (loyalty.reminder_sent). Each reminder is sent in its own transaction with its schedule row
 * locked, so concurrent workers never send one twice. Returns how many were sent.
 */
export async function sendDueReminders(deps: CtxSource): Promise<number> {
  const day = today(deps.clock);
  let sent = 0;
  let after: ScheduleKey | undefined;
  for (;;) {
    let query = dueSchedules(deps.db, day).select(['s.business_id', 's.reminder_id', 's.member_id']);
    if (after) {
      const last = after;
      query = query.where((eb) =>
        eb(
          eb.refTuple('s.business_id', 's.reminder_id', 's.member_id'),
          '>',
          eb.tuple(last.business_id, last.reminder_id, last.member_id),
        ),
      );
    }
    const batch = await query
      .orderBy('s.business_id')
      .orderBy('s.reminder_id')
      .orderBy('s.member_id')
      .limit(BATCH)
      .execute();
    for (const key of batch) {
      try {
        if (await sendOne(deps, key, day)) sent++;
      } catch (err) {
        // One reminder that cannot be sent must not hold up the others; the next run retries it.
        deps.log.error({ err, ...key }, 'service reminder failed');
      }
    }
    if (batch.length < BATCH) break;
    after = batch.at(-1);
  }
  if (sent > 0) deps.log.info({ sent }, 'service reminders sent');
  return sent;
}

async function sendOne(deps: CtxSource, key: ScheduleKey, day: string): Promise<boolean> {
  return inTransaction(deps.db, async (trx) => {
    // Re-checked under the row lock: another worker may have sent it, or things changed since.
    const row = await dueSchedules(trx, day)
      .select(['s.due_date', 'c.email'])
      .where('s.business_id', '=', key.business_id)
      .where('s.reminder_id', '=', key.reminder_id)
      .where('s.member_id', '=', key.member_id)
      .forUpdate('s')
      .skipLocked()
      .executeTakeFirst();
    if (!row?.email) return false;
    const ctx = jobCtx({ ...deps, db: trx }, key.business_id, JOB);
    const reminder = await findReminder(trx, key.business_id, key.reminder_id);
    const member = await findMemberView(trx, key.business_id, key.member_id);
    if (!reminder || !member) return false;

    const dueDate = row.due_date;
    await queueMail(trx, ctx, {
      to: row.email,
      subject: `${reminder.name} is due`,
      text:
        `Hello ${member.customer_name},\n\n` +
        `your ${reminder.name} is due on ${dueDate}.` +
        (reminder.description ? `\n\n${reminder.description}` : '') +
        (reminder.bonus_points > 0
          ? `\n\nCompleting it earns you ${reminder.bonus_points} bonus points.`
          : '') +
        '\n',
    });
    await emit(trx, ctx, 'loyalty.reminder_sent', {
      reminder: toReminder(reminder),
      member: toMember(member),
      dueDate,
    });
    await trx
      .updateTable('loyalty_member_reminders')
      .set({ notified_for: dueDate })
      .where('business_id', '=', key.business_id)
      .where('reminder_id', '=', key.reminder_id)
      .where('member_id', '=', key.member_id)
      .execute();
    return true;
  });
}
