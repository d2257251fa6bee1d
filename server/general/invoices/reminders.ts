import { sweep } from '../../platform/sweep.js';
import { todayByDate, todayOfEveryBusiness, type DaysByZone } from '../../platform/calendar.js';
import { inTransaction, jobCtx, type CtxSource } from '../../platform/context.js';
import { businessSettings } from '../../platform/settings.js';
import { mailReminder } from '../documents/delivery.js';
import { getInvoice } from './service.js';
import * as queries from './queries.js';
import type { ReminderKey } from './queries.js';

/**
 * Overdue-invoice reminders (docs/decisions.md D153): each business's schedule (on the due date, 7 and
 * 14 days after, until changed or switched off in `PATCH /v1/business`) run on its own clock, for
 * invoices that were mailed and are still unpaid. One mail per step per invoice, kept so by the
 * key of `invoice_reminders`; when several steps came at once (a clock moved, a worker that was
 * down), one mail goes, for the latest, and the earlier ones are recorded as passed. Payment and
 * void take the invoice out of `unpaid` and so stop them.
 */

const JOB = 'invoice reminders';
const BATCH = 500;

/**
 * Mails every reminder that is due, each in its own transaction with the invoice locked, so that
 * concurrent workers never send one twice and a payment in flight waits. Every business's, or only
 * `businessId`'s (a sandbox's test clock). Returns how many were mailed.
 */
export async function sendInvoiceReminders(deps: CtxSource, businessId?: string): Promise<number> {
  const days = businessId === undefined ? await todayOfEveryBusiness(deps) : await todayOf(deps, businessId);
  if (days.length === 0) return 0;
  let sent = 0;
  let after: ReminderKey | undefined;
  for (;;) {
    const batch = await queries.invoicesWithDueReminders(deps.db, days, BATCH, after, businessId);
    sent += await sweep(
      deps,
      batch,
      { message: 'invoice reminder failed', describe: (key) => key },
      async (key) => ((await remind(deps, key, days)) ? 1 : 0),
    );
    if (batch.length < BATCH) break;
    after = batch.at(-1);
  }
  if (sent > 0) deps.log.info({ sent }, 'invoice reminders sent');
  return sent;
}

const todayOf = async (deps: CtxSource, businessId: string): Promise<DaysByZone> =>
  todayByDate([(await businessSettings({ ...deps, businessId })).timezone], deps.clock.now());

/** Whether a reminder of the business is due by `deps.clock`'s today. */
export async function hasDueInvoiceReminders(deps: CtxSource, businessId: string): Promise<boolean> {
  const days = await todayOf(deps, businessId);
  return (await queries.invoicesWithDueReminders(deps.db, days, 1, undefined, businessId)).length > 0;
}

async function remind(deps: CtxSource, key: ReminderKey, days: DaysByZone): Promise<boolean> {
  return inTransaction(jobCtx(deps, key.business_id, JOB), async (ctx) => {
    // Re-checked under the lock: paid, voided or reminded since the batch was read.
    const steps = await queries.lockDueSteps(ctx.db, days, key);
    const latest = steps[0];
    if (!latest?.email) return false;
    await queries.recordReminders(
      ctx.db,
      key,
      steps.map((s) => s.days_after_due),
      ctx.clock.now(),
    );
    const invoice = await getInvoice(ctx, key.invoice_id);
    await mailReminder(ctx, { kind: 'invoice', document: invoice }, latest.email);
    return true;
  });
}
