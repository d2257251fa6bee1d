import { sweep } from './sweep.js';
import {
  firstPeriodOnOrAfter,
  periodDate,
  periodWithinEnd,
  type ScheduleInterval,
  type ScheduleRule,
} from '../../contract/common/schedule.js';
import type { Selectable } from 'kysely';
import { addDays, today, todayByDate, todayOfEveryBusiness, type DaysByZone } from './calendar.js';
import { type Ctx, type CtxSource, type TxCtx, inTransaction, jobCtx } from './context.js';
import { invalid, invalidState, notFound } from './errors.js';
import * as queries from './recurring.queries.js';
import type {
  ScheduleChanges,
  ScheduleColumns,
  ScheduleCounter,
  ScheduleTable,
} from './recurring.queries.js';
import { businessSettings } from './settings.js';

/**
 * What recurring invoices and recurring bills share on the server (docs/decisions.md D251, D252): the
 * checks of a schedule's dates and ends, where it stands after a change, pausing, resuming and ending
 * it, and the run that makes each period's document. A domain gives its table and how it makes its
 * document (`Schedules`); the dates themselves come from the one rule of contract/common/schedule.ts.
 */

/** A schedule's columns, under either domain's names for how many documents it made (`made`). */
interface ScheduleState {
  interval: ScheduleInterval;
  interval_count: number;
  start_date: string;
  end_after_count: number | null;
  end_date: string | null;
  next_period: number;
  last_run_on: string | null;
  made: number;
}

const ruleOf = (s: Pick<ScheduleState, 'start_date' | 'interval' | 'interval_count'>): ScheduleRule => ({
  anchor: s.start_date,
  interval: s.interval,
  intervalCount: s.interval_count,
});

/** The date of the schedule's next document, or null when it has reached its end. */
function nextRunOf(s: ScheduleState): string | null {
  if (s.end_after_count !== null && s.made >= s.end_after_count) return null;
  const rule = ruleOf(s);
  if (!periodWithinEnd(rule, s.end_date, s.next_period)) return null;
  return periodDate(rule, s.next_period);
}

/** The date of period `n` of the schedule. */
const periodOf = (s: ScheduleState, n: number): string => periodDate(ruleOf(s), n);

/**
 * The refusals of a schedule's dates, each naming its field: a start date before the business's
 * today (when one is given), both ends, an end date before the start.
 */
export function checkSchedule(
  input: { start_date?: string; end_date?: string | null; end_after_count?: number | null },
  start: string,
  today: string,
): void {
  if (input.start_date !== undefined && input.start_date < today) {
    throw invalid('start_date', `Must be today (${today}) or later on the business's calendar`);
  }
  if (input.end_date != null && input.end_after_count != null) {
    throw invalid('end_date', 'Give end_after_count or end_date, not both');
  }
  if (input.end_date != null && input.end_date < start) {
    throw invalid('end_date', `Must be on or after start_date (${start})`);
  }
}

/**
 * The first period a schedule whose start or interval changed, or which was resumed, continues
 * with: the first on or after today that is after the last one made (so no period gets a second
 * document, whatever the new rule).
 */
function periodFrom(s: ScheduleState, today: string): number {
  const after = s.last_run_on !== null ? addDays(s.last_run_on, 1) : today;
  return firstPeriodOnOrAfter(ruleOf(s), after > today ? after : today);
}

// ---------------------------------------------------------------------------------------------
// The schedule engine.

/** A schedule's row as the engine reads it: the columns both tables share. */
export type ScheduleRow = Selectable<ScheduleColumns>;

/** What a domain gives the engine: its table, its words, and how it makes a period's document. */
export interface Schedules<R extends ScheduleRow> {
  table: ScheduleTable;
  /** The column counting the documents made. */
  counter: ScheduleCounter;
  made(row: R): number;
  /** The schedule's name in refusals: "Recurring invoice". */
  noun: string;
  /** The run's name in logs and the audit trail: "recurring invoices". */
  job: string;
  /**
   * Makes the document of the period dated `periodOn`, in the transaction that holds the schedule's
   * lock; the document's unique key of schedule and period date backs the lock.
   */
  make(ctx: TxCtx, row: R, periodOn: string): Promise<void>;
}

const stateOf = <R extends ScheduleRow>(s: Schedules<R>, row: R): ScheduleState => ({
  ...row,
  made: s.made(row),
});

/** Where the schedule stands: `ended` (with no next date) once its end is reached. */
function settle(
  state: ScheduleState,
  status: ScheduleRow['status'],
  now: Date,
): Pick<ScheduleRow, 'status' | 'next_run_on' | 'ended_at'> {
  const next = nextRunOf(state);
  if (next === null || status === 'ended') return { status: 'ended', next_run_on: null, ended_at: now };
  return { status, next_run_on: next, ended_at: null };
}

/** The schedule's row, locked for the rest of the transaction; 404 when there is none. */
export async function lockedSchedule<R extends ScheduleRow>(
  ctx: TxCtx,
  s: Schedules<R>,
  id: string,
): Promise<R> {
  const row = await queries.lockSchedule(ctx.db, s.table, ctx.businessId, id);
  if (!row) throw notFound(s.noun);
  return row as R;
}

const endedRefusal = (s: Schedules<never>, what: string) =>
  invalidState(`An ended ${s.noun.toLowerCase()} cannot be ${what}`);

/** A change of a schedule's dates and ends, as a client sends it; what is absent stays. */
export interface ScheduleChange {
  interval?: ScheduleInterval;
  interval_count?: number;
  start_date?: string;
  end_after_count?: number | null;
  end_date?: string | null;
}

/**
 * The columns a change of an active or paused schedule sets (after its refusals): giving one end
 * replaces the other, and a new start or interval continues with the first period on or after today
 * that is after the last one made. 409 on an ended schedule.
 */
export function changedSchedule<R extends ScheduleRow>(
  s: Schedules<R>,
  current: R,
  input: ScheduleChange,
  day: string,
  now: Date,
): ScheduleChanges {
  if (current.status === 'ended') throw endedRefusal(s, 'changed');
  const start = input.start_date ?? current.start_date;
  checkSchedule(input, start, day);
  const changes: ScheduleChanges = {};
  if (input.end_after_count !== undefined) {
    changes.end_after_count = input.end_after_count;
    if (input.end_after_count !== null) changes.end_date = null;
  }
  if (input.end_date !== undefined) {
    changes.end_date = input.end_date;
    if (input.end_date !== null) changes.end_after_count = null;
  }
  const next: ScheduleState = {
    ...stateOf(s, current),
    interval: input.interval ?? current.interval,
    interval_count: input.interval_count ?? current.interval_count,
    start_date: start,
    end_after_count:
      changes.end_after_count !== undefined ? changes.end_after_count : current.end_after_count,
    end_date: changes.end_date !== undefined ? changes.end_date : current.end_date,
  };
  // The end kept against a new start.
  checkSchedule({ end_date: next.end_date }, start, day);
  if (input.start_date !== undefined || input.interval !== undefined || input.interval_count !== undefined) {
    next.next_period = periodFrom(next, day);
    Object.assign(changes, {
      start_date: start,
      interval: next.interval,
      interval_count: next.interval_count,
      next_period: next.next_period,
    });
  }
  return { ...changes, ...settle(next, current.status, now), updated_at: now };
}

async function pauseSchedule<R extends ScheduleRow>(ctx: Ctx, s: Schedules<R>, id: string) {
  await inTransaction(ctx, async (ctx) => {
    const current = await lockedSchedule(ctx, s, id);
    if (current.status === 'ended') throw endedRefusal(s, 'paused');
    if (current.status === 'paused') return;
    await queries.updateSchedule(ctx.db, s.table, ctx.businessId, id, {
      status: 'paused',
      updated_at: ctx.clock.now(),
    });
  });
}

/** Continues with the first period on or after today: those that fell while paused are skipped. */
async function resumeSchedule<R extends ScheduleRow>(ctx: Ctx, s: Schedules<R>, id: string) {
  const day = await today(ctx);
  await inTransaction(ctx, async (ctx) => {
    const current = await lockedSchedule(ctx, s, id);
    if (current.status === 'ended') throw endedRefusal(s, 'resumed');
    if (current.status === 'active') return;
    const state = stateOf(s, current);
    state.next_period = Math.max(current.next_period, periodFrom(state, day));
    const now = ctx.clock.now();
    await queries.updateSchedule(ctx.db, s.table, ctx.businessId, id, {
      next_period: state.next_period,
      ...settle(state, 'active', now),
      updated_at: now,
    });
  });
}

/** Ends the schedule for good (ending an ended one changes nothing). */
async function endSchedule<R extends ScheduleRow>(ctx: Ctx, s: Schedules<R>, id: string) {
  await inTransaction(ctx, async (ctx) => {
    const current = await lockedSchedule(ctx, s, id);
    if (current.status === 'ended') return;
    const now = ctx.clock.now();
    await queries.updateSchedule(ctx.db, s.table, ctx.businessId, id, {
      status: 'ended',
      next_run_on: null,
      ended_at: now,
      updated_at: now,
    });
  });
}

/** What one turn of a schedule did: whether it made a document, and whether another is due by the same day. */
interface Turn {
  made: boolean;
  more: boolean;
}

/**
 * Makes the schedule's next document when its period has come by `day`, in one transaction under
 * the schedule's row lock. Nothing is made when nothing was due (or the schedule changed since it
 * was listed).
 */
async function makeNext<R extends ScheduleRow>(
  ctx: Ctx,
  s: Schedules<R>,
  id: string,
  day: string,
): Promise<Turn> {
  return inTransaction(ctx, async (ctx) => {
    const row = (await queries.lockSchedule(ctx.db, s.table, ctx.businessId, id)) as R | undefined;
    if (!row || row.status !== 'active' || row.next_run_on === null || row.next_run_on > day) {
      return { made: false, more: false };
    }
    const state = stateOf(s, row);
    const periodOn = periodOf(state, row.next_period);
    await s.make(ctx, row, periodOn);
    const made = { ...state, next_period: row.next_period + 1, made: state.made + 1 };
    const now = ctx.clock.now();
    const settled = settle(made, row.status, now);
    await queries.updateSchedule(ctx.db, s.table, ctx.businessId, id, {
      next_period: made.next_period,
      [s.counter]: made.made,
      last_run_on: periodOn,
      ...settled,
      updated_at: now,
    });
    return { made: true, more: settled.next_run_on !== null && settled.next_run_on <= day };
  });
}

const BATCH = 500;

const todayOf = async (deps: CtxSource, businessId: string): Promise<DaysByZone> =>
  todayByDate([(await businessSettings({ ...deps, businessId })).timezone], deps.clock.now());

/**
 * Makes every document whose period has come, periods missed while nothing ran included (each dated
 * in its own period): every business's (the worker, on real time) or only `businessId`'s (a
 * sandbox's test clock). Returns how many were made.
 */
async function makeDueDocuments<R extends ScheduleRow>(
  deps: CtxSource,
  s: Schedules<R>,
  businessId?: string,
): Promise<number> {
  const days = businessId === undefined ? await todayOfEveryBusiness(deps) : await todayOf(deps, businessId);
  if (days.length === 0) return 0;
  let made = 0;
  let after: queries.DueScheduleKey | undefined;
  for (;;) {
    const batch = await queries.dueSchedules(deps.db, s.table, days, BATCH, after, businessId);
    made += await sweep(
      deps,
      batch,
      { message: `${s.job}: a schedule failed`, describe: (key) => key },
      async (key) => {
        const ctx = jobCtx(deps, key.business_id, s.job);
        const day = await today(ctx);
        let count = 0;
        for (let turn: Turn = { made: false, more: true }; turn.more;) {
          turn = await makeNext(ctx, s, key.id, day);
          if (turn.made) count++;
        }
        return count;
      },
    );
    if (batch.length < BATCH) break;
    after = batch.at(-1);
  }
  if (made > 0) deps.log.info({ made }, `${s.job} made`);
  return made;
}

/** Whether a schedule of the business has a period due by `deps.clock`'s today. */
async function hasDueSchedules<R extends ScheduleRow>(
  deps: CtxSource,
  s: Schedules<R>,
  businessId: string,
): Promise<boolean> {
  const days = await todayOf(deps, businessId);
  return (await queries.dueSchedules(deps.db, s.table, days, 1, undefined, businessId)).length > 0;
}

/**
 * A domain's operations on its schedules: pause, resume and end, each answering the schedule as
 * `load` shows it; the run that makes the documents due; whether any is due.
 */
export function scheduleOperations<R extends ScheduleRow, V>(
  s: Schedules<R>,
  load: (ctx: Ctx, id: string) => Promise<V>,
) {
  const answering =
    (change: (ctx: Ctx, s: Schedules<R>, id: string) => Promise<void>) =>
    async (ctx: Ctx, id: string): Promise<V> => {
      await change(ctx, s, id);
      return load(ctx, id);
    };
  return {
    pause: answering(pauseSchedule),
    resume: answering(resumeSchedule),
    end: answering(endSchedule),
    makeDue: (deps: CtxSource, businessId?: string): Promise<number> => makeDueDocuments(deps, s, businessId),
    hasDue: (deps: CtxSource, businessId: string): Promise<boolean> => hasDueSchedules(deps, s, businessId),
  };
}
