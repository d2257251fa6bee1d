import { sweep } from '../../platform/sweep.js';
import type {
  CreateReminderBody,
  Reminder,
  Transaction,
  UpdateReminderBody,
} from '../../../contract/loyalty/index.js';
import {
  addDays,
  today,
  todayByDate,
  todayOfEveryBusiness,
  type DaysByZone,
} from '../../platform/calendar.js';
import { businessSettings } from '../../platform/settings.js';
import { newId } from '../../platform/ids.js';
import { jobCtx, type CtxSource, type Ctx, inTransaction } from '../../platform/context.js';
import { invalid, invalidState, notFound } from '../../platform/errors.js';
import { emit } from '../../platform/outbox.js';
import { queueMail } from '../../platform/mail.js';
import { post } from '../ledger/service.js';
import { toMember } from '../members/mappers.js';
import { toReminder } from './mappers.js';
import { toTransaction } from '../ledger/mappers.js';
import * as members from '../members/queries.js';
import { findMemberView } from '../members/queries.js';
import * as queries from './queries.js';
import type { ScheduleKey } from './queries.js';

const JOB = 'service reminders';
const BATCH = 500;

export async function listReminders(ctx: Ctx, isActive?: boolean): Promise<Reminder[]> {
  const rows = await queries.listReminders(ctx.db, ctx.businessId, isActive);
  return rows.map(toReminder);
}

export async function createReminder(ctx: Ctx, input: CreateReminderBody): Promise<Reminder> {
  const now = ctx.clock.now();
  const row = await queries.insertReminder(ctx.db, {
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
  });
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
    if (!(await queries.findReminder(ctx.db, ctx.businessId, id))) throw notFound('Reminder');
    return;
  }
  const updated = await queries.updateReminder(ctx.db, ctx.businessId, id, {
    ...changes,
    updated_at: ctx.clock.now(),
  });
  if (!updated) throw notFound('Reminder');
}

/** Soft delete: members' schedules of the reminder stay on record but are no longer reminded. */
export async function deleteReminder(ctx: Ctx, id: string): Promise<void> {
  const now = ctx.clock.now();
  if (!(await queries.updateReminder(ctx.db, ctx.businessId, id, { deleted_at: now, updated_at: now })))
    throw notFound('Reminder');
}

/**
 * Records a completed service: the bonus (if any) is earned and the member's next due date is
 * intervalDays after today (the business's), in one transaction.
 */
export async function completeReminder(
  ctx: Ctx,
  reminderId: string,
  memberId: string,
): Promise<{ transaction: Transaction | null; nextDueDate: string }> {
  return inTransaction(ctx, async (ctx) => {
    const reminder = await queries.findReminder(ctx.db, ctx.businessId, reminderId);
    if (!reminder) throw notFound('Reminder');
    // Locked first, as every balance change does, so the status cannot change underneath.
    const member = await members.lockMember(ctx.db, ctx.businessId, memberId);
    if (!member) throw invalid('memberId', 'Unknown member');
    if (!reminder.is_active) throw invalidState('The reminder is not active');
    if (member.status !== 'active') throw invalidState(`The member is ${member.status}`);

    let transaction: Transaction | null = null;
    if (reminder.bonus_points > 0) {
      const posted = await post(ctx, memberId, {
        type: 'earn',
        points: reminder.bonus_points,
        description: `Completed ${reminder.name}`,
        referenceType: 'reminder',
        referenceId: reminderId,
        field: 'memberId',
      });
      transaction = toTransaction(posted.transaction);
    }

    const nextDueDate = addDays(await today(ctx), reminder.interval_days);
    await queries.scheduleReminder(
      ctx.db,
      { business_id: ctx.businessId, reminder_id: reminderId, member_id: memberId },
      nextDueDate,
      ctx.clock.now(),
    );
    return { transaction, nextDueDate };
  });
}

/**
 * Emails every member whose service is due (once per due date) and announces it
 * (loyalty.reminder_sent). A service is due on its date in its business's time zone. Each reminder
 * is sent in its own transaction with its schedule row locked, so concurrent workers never send one
 * twice. Every business's, or only `businessId`'s (a sandbox's test clock). Returns how many were sent.
 */
export async function sendDueReminders(deps: CtxSource, businessId?: string): Promise<number> {
  const days = businessId === undefined ? await todayOfEveryBusiness(deps) : await todayOf(deps, businessId);
  if (days.length === 0) return 0;
  let sent = 0;
  let after: ScheduleKey | undefined;
  for (;;) {
    const batch = await queries.dueScheduleKeys(deps.db, days, BATCH, after, businessId);
    sent += await sweep(
      deps,
      batch,
      { message: 'service reminder failed', describe: (key) => key },
      async (key) => ((await sendOne(deps, key, days)) ? 1 : 0),
    );
    if (batch.length < BATCH) break;
    after = batch.at(-1);
  }
  if (sent > 0) deps.log.info({ sent }, 'service reminders sent');
  return sent;
}

/** The business's today as the sweeps take it. */
const todayOf = async (deps: CtxSource, businessId: string): Promise<DaysByZone> =>
  todayByDate([(await businessSettings({ ...deps, businessId })).timezone], deps.clock.now());

/** Whether a reminder of the business is due and not sent by `deps.clock`'s today. */
export async function hasDueReminders(deps: CtxSource, businessId: string): Promise<boolean> {
  const days = await todayOf(deps, businessId);
  return (await queries.dueScheduleKeys(deps.db, days, 1, undefined, businessId)).length > 0;
}

async function sendOne(deps: CtxSource, key: ScheduleKey, days: DaysByZone): Promise<boolean> {
  return inTransaction(jobCtx(deps, key.business_id, JOB), async (ctx) => {
    // Re-checked under the row lock: another worker may have sent it, or things changed since.
    const row = await queries.lockDueSchedule(ctx.db, days, key);
    if (!row?.email) return false;
    const reminder = await queries.findReminder(ctx.db, key.business_id, key.reminder_id);
    const member = await findMemberView(ctx.db, key.business_id, key.member_id);
    if (!reminder || !member) return false;

    const dueDate = row.due_date;
    await queueMail(ctx, {
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
    await emit(ctx, 'loyalty.reminder_sent', {
      reminder: toReminder(reminder),
      member: toMember(member),
      dueDate,
    });
    await queries.markNotified(ctx.db, key, dueDate);
    return true;
  });
}
