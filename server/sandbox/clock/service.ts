import type { AdvanceClockBody, DueRun, SandboxClock } from '../../../contract/sandbox/index.js';
import { fixedClock } from '../../platform/clock.js';
import { inTransaction, type Ctx, type CtxSource, type TxCtx } from '../../platform/context.js';
import { allOrNothing, refreshStatistics } from '../../platform/db/database.js';
import { invalid } from '../../platform/errors.js';
import type { DueRule } from '../../platform/module.js';
import { lockClock, movedClocks, setClockOffset } from '../../platform/settings.js';
import { sandboxOnly } from '../guard.js';

const DAY_MS = 86_400_000;
/** The furthest one advance may move the clock: five years, leap days included. */
const MAX_ADVANCE_MS = 1826 * DAY_MS;

/**
 * The order the due rules run in at each step (docs/decisions.md D76): expiry, recurring documents
 * (before reminders, so an invoice made today is reminded of on later days), reminders, sends, alerts.
 */
const ORDER: readonly (keyof DueRun)[] = [
  'points_expired',
  'vouchers_expired',
  'invoices_recurred',
  'bills_recurred',
  'reminders_sent',
  'invoice_reminders_sent',
  'campaigns_started',
  'vat_alerts_sent',
  'revaluations_posted',
];

const noneRan = (): DueRun => ({
  points_expired: 0,
  vouchers_expired: 0,
  invoices_recurred: 0,
  bills_recurred: 0,
  reminders_sent: 0,
  invoice_reminders_sent: 0,
  campaigns_started: 0,
  vat_alerts_sent: 0,
  revaluations_posted: 0,
});

/** Every module's due rules, in the order the advance runs them. */
export function dueRules(rules: readonly DueRule[]): DueRule[] {
  return [...rules].sort((a, b) => ORDER.indexOf(a.counts) - ORDER.indexOf(b.counts));
}

const clockOf = (realNow: Date, offsetMs: number): SandboxClock => ({
  now: new Date(realNow.getTime() + offsetMs).toISOString(),
  advanced_by_seconds: Math.floor(offsetMs / 1000),
});

/**
 * The sandbox's clock. `ctx` runs on real time (the clock routes read the offset themselves, so
 * that one moved by a concurrent advance is read as it is now).
 */
export async function getClock(ctx: Ctx): Promise<SandboxClock> {
  await sandboxOnly(ctx);
  return inTransaction(ctx, async (tx) => {
    const clock = await lockClock(tx, false);
    return clockOf(tx.clock.now(), clock?.clockOffsetMs ?? 0);
  });
}

/** Runs every due rule once for the business at the time of `source.clock`, adding to `ran`. */
async function runDue(source: CtxSource, businessId: string, rules: readonly DueRule[], ran: DueRun) {
  for (const rule of rules) ran[rule.counts] += await rule.run(source, businessId);
}

/**
 * Moves the sandbox's clock forward to `advance_to` and runs what became due on the way, a day at a
 * time (each step runs every rule at that step's time), all in one transaction with the business's
 * row locked: a concurrent advance waits, then starts from where this one left the clock, so each
 * rule runs once. The advance is all or nothing (docs/decisions.md D264): what the rules do runs in
 * its transaction without savepoints, and a failure of any of it leaves the clock and the data as
 * they were; the jobs it sends are enqueued together at its end. `ctx` runs on real time.
 */
export async function advanceClock(
  ctx: Ctx,
  body: AdvanceClockBody,
  rules: readonly DueRule[],
): Promise<SandboxClock & { ran: DueRun }> {
  await sandboxOnly(ctx);
  const target = new Date(body.advance_to);
  return inTransaction(ctx, async (tx) => {
    const realNow = tx.clock.now().getTime();
    const offset = (await lockClock(tx, true))?.clockOffsetMs ?? 0;
    const from = realNow + offset;
    if (target.getTime() <= from) {
      throw invalid(
        'advance_to',
        `The test clock only moves forward: give a time after the sandbox's time, ${new Date(from).toISOString()} ` +
          '(POST /v1/sandbox/reset puts the clock back on real time)',
      );
    }
    if (target.getTime() - from > MAX_ADVANCE_MS) {
      throw invalid(
        'advance_to',
        `The test clock moves at most 5 years (1,826 days) a call: give a time no later than ` +
          `${new Date(from + MAX_ADVANCE_MS).toISOString()}, then advance again`,
      );
    }
    const asked = dueRules(rules).filter((rule) => !rule.askedBy || body[rule.askedBy] === true);
    const due = await rulesDueBy(tx, target, asked);
    const jobs = tx.jobs.held();
    const ran = await runSteps({ ...tx, db: allOrNothing(tx.db), jobs }, from, target.getTime(), due);
    await jobs.flush(tx.db);
    const newOffset = target.getTime() - realNow;
    await setClockOffset(tx, newOffset);
    return { ...clockOf(new Date(realNow), newOffset), ran };
  });
}

/** The rules with something due by `target` (every rule that cannot tell). */
async function rulesDueBy(tx: TxCtx, target: Date, rules: readonly DueRule[]): Promise<DueRule[]> {
  const at = { ...tx, clock: fixedClock(target) };
  const due: DueRule[] = [];
  for (const rule of rules) if (!rule.pending || (await rule.pending(at, tx.businessId))) due.push(rule);
  return due;
}

/** What a rule that grows tables has made when the advance first refreshes their statistics; then at each doubling. */
const FIRST_REFRESH = 500;

/**
 * Runs the due rules at each day's step from `from` (exclusive) to `to` (inclusive), refreshing the
 * statistics of the tables a rule grows as its count doubles (docs/decisions.md D264).
 */
async function runSteps(tx: TxCtx, from: number, to: number, rules: readonly DueRule[]): Promise<DueRun> {
  const ran = noneRan();
  if (rules.length === 0) return ran;
  const refreshAt = new Map(rules.map((rule) => [rule, FIRST_REFRESH]));
  for (let step = Math.min(from + DAY_MS, to); ; step = Math.min(step + DAY_MS, to)) {
    await runDue({ ...tx, clock: fixedClock(new Date(step)) }, tx.businessId, rules, ran);
    for (const [rule, at] of refreshAt) {
      if (!rule.grows || ran[rule.counts] < at) continue;
      await refreshStatistics(tx.db, rule.grows);
      refreshAt.set(rule, ran[rule.counts] * 2);
    }
    if (step >= to) return ran;
  }
}

const BATCH = 100;

/**
 * The periodic pass over the sandboxes whose clock runs ahead of real time: the workers' sweeps go
 * by real time, so what a moved clock has made due is run here, at each sandbox's own time.
 */
export async function runMovedClocks(
  deps: CtxSource & { modules: readonly { due?: readonly DueRule[] }[] },
): Promise<number> {
  const rules = dueRules(deps.modules.flatMap((m) => m.due ?? []));
  let after: string | undefined;
  let ran = 0;
  for (;;) {
    const batch = await movedClocks(deps, BATCH, after);
    for (const sandbox of batch) {
      const counts = noneRan();
      const clock = fixedClock(new Date(deps.clock.now().getTime() + Number(sandbox.clock_offset_ms)));
      try {
        await runDue({ ...deps, clock }, sandbox.id, rules, counts);
      } catch (err) {
        deps.log.error({ err, businessId: sandbox.id }, 'sandbox due rules failed');
      }
      ran += Object.values(counts).reduce((a, b) => a + b, 0);
    }
    if (batch.length < BATCH) break;
    after = batch.at(-1)?.id;
  }
  return ran;
}
