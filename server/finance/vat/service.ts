import { sweep } from '../../platform/sweep.js';
import type {
  CreateVatThresholdBody,
  MarkRegisteredBody,
  UpdateVatThresholdBody,
  VatBlock,
  VatThreshold,
} from '../../../contract/finance/index.js';
import { fromBase } from '../../../contract/common/exchange.js';
import { today } from '../../platform/calendar.js';
import { jobCtx, type Ctx, type CtxSource, type TxCtx, inTransaction } from '../../platform/context.js';
import { isUniqueViolation } from '../../platform/db/errors.js';
import { conflict, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { queueMail } from '../../platform/mail.js';
import { percentOf, toMajor } from '../../platform/money.js';
import { baseCurrency } from '../../platform/settings.js';
import {
  addDays,
  endOfQuarter,
  endOfYear,
  rollingYearStart,
  startOfQuarter,
  startOfYear,
} from '../reports/periods.js';
import { rateOn } from '../exchange-rates/service.js';
import * as queries from './queries.js';

type Row = queries.ThresholdRow;

/** The window of a period type ending on `on`: its first day, its key, and its last day (none when rolling). */
export function windowOf(periodType: Row['period_type'], on: string) {
  if (periodType === 'annual') return { start: startOfYear(on), key: on.slice(0, 4), end: endOfYear(on) };
  if (periodType === 'quarterly') {
    const start = startOfQuarter(on);
    return {
      start,
      key: `${on.slice(0, 4)}-Q${Math.floor((Number(on.slice(5, 7)) - 1) / 3) + 1}`,
      end: endOfQuarter(on),
    };
  }
  return { start: rollingYearStart(on), key: 'rolling', end: null };
}

export interface ThresholdStatus {
  currentRevenue: bigint;
  percentageReached: number;
  projectedCrossingDate: string | null;
  windowKey: string;
}

/** Every window ending `on`, for `queries.findThreshold`. */
const windowStarts = (on: string): queries.WindowStarts => ({
  rolling: rollingYearStart(on),
  year: startOfYear(on),
  quarter: startOfQuarter(on),
  recent: addDays(on, -89),
  on,
});

const SALES_OF: Record<Row['period_type'], keyof queries.WindowSales> = {
  annual: 'sales_annual',
  quarterly: 'sales_quarterly',
  rolling_12_months: 'sales_rolling',
};

type ReadCtx = Pick<Ctx, 'db' | 'businessId' | 'state'>;

/**
 * The configuration of the business with its revenue over the windows ending `on`, in its currency.
 * Every sale counts, whatever its currency, at its amount in the base currency (tax authorities count
 * all turnover: docs/decisions.md D278). A configuration in another currency has those sums converted
 * to its own at the latest rate on or before `on`; without one, only the sales in its currency count.
 */
async function findThreshold(ctx: ReadCtx, on: string, forUpdate = false): Promise<Row | undefined> {
  const starts = windowStarts(on);
  const row = await queries.findThreshold(ctx.db, ctx.businessId, starts, 'base', forUpdate);
  if (!row) return undefined;
  const base = await baseCurrency(ctx);
  if (row.currency === base) return row;
  const rate = await rateOn(ctx, row.currency, on);
  if (!rate) return queries.findThreshold(ctx.db, ctx.businessId, starts, 'own', forUpdate);
  const converted = (sum: string) => fromBase(BigInt(sum), row.currency, base, rate.rate).toString();
  return {
    ...row,
    sales_annual: converted(row.sales_annual),
    sales_quarterly: converted(row.sales_quarterly),
    sales_rolling: converted(row.sales_rolling),
    sales_recent: converted(row.sales_recent),
  };
}

/**
 * Revenue over the configuration's window ending `on` (read with the row), its share of the
 * threshold, and the day the window would reach it at the average daily revenue of the 90 days
 * ending `on`.
 */
export function statusOf(row: Row, on: string): ThresholdStatus {
  const window = windowOf(row.period_type, on);
  const threshold = BigInt(row.threshold_amount);
  const revenue = BigInt(row[SALES_OF[row.period_type]]);
  let projectedCrossingDate: string | null = null;
  if (!row.registered && revenue < threshold) {
    const recent = BigInt(row.sales_recent);
    if (recent > 0n) {
      // ceil(remaining / (recent / 90)) days from `on`.
      const days = ((threshold - revenue) * 90n + recent - 1n) / recent;
      if (days <= 366_000n) {
        const date = addDays(on, Number(days));
        if (window.end === null || date <= window.end) projectedCrossingDate = date;
      }
    }
  }
  return {
    currentRevenue: revenue,
    percentageReached: percentOf(revenue, threshold),
    projectedCrossingDate,
    windowKey: window.key,
  };
}

function toThreshold(row: Row, status: ThresholdStatus): VatThreshold {
  return {
    publicId: row.public_id,
    country: row.country,
    thresholdAmount: row.threshold_amount,
    currency: row.currency,
    periodType: row.period_type,
    alertAtPercentage: row.alert_at_percentage,
    alertEmail: row.alert_email,
    registered: row.registered,
    registrationDate: row.registration_date,
    registrationNumber: row.registration_number,
    currentRevenue: Number(status.currentRevenue),
    percentageReached: status.percentageReached,
    projectedCrossingDate: status.projectedCrossingDate,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

/** The VAT block of the reports, over the window ending `on`. */
export async function vatBlock(ctx: ReadCtx, on: string): Promise<VatBlock | null> {
  const row = await findThreshold(ctx, on);
  if (!row) return null;
  const status = statusOf(row, on);
  return {
    configured: true,
    thresholdAmount: row.threshold_amount,
    currentRevenue: Number(status.currentRevenue),
    percentageReached: status.percentageReached,
    registered: row.registered,
    registrationNumber: row.registration_number,
    projectedCrossingDate: status.projectedCrossingDate,
  };
}

export const NO_VAT_BLOCK: VatBlock = {
  configured: false,
  thresholdAmount: 0,
  currentRevenue: 0,
  percentageReached: 0,
  registered: false,
  registrationNumber: null,
  projectedCrossingDate: null,
};

/** The configuration as the API answers it, with its status today. */
async function answer(ctx: Ctx): Promise<VatThreshold | null> {
  const on = await today(ctx);
  const row = await findThreshold(ctx, on);
  return row ? toThreshold(row, statusOf(row, on)) : null;
}

/** `answer` for a configuration the caller has just written. */
async function answerWritten(ctx: TxCtx): Promise<VatThreshold> {
  const threshold = await answer(ctx);
  if (!threshold) throw new Error(`The VAT threshold of ${ctx.businessId} vanished in its own transaction`);
  return threshold;
}

export const getVatThreshold = (ctx: Ctx): Promise<VatThreshold | null> => answer(ctx);

export async function createVatThreshold(ctx: Ctx, input: CreateVatThresholdBody): Promise<VatThreshold> {
  const currency = input.currency ?? (await baseCurrency(ctx));
  try {
    return await inTransaction(ctx, async (ctx) => {
      const now = ctx.clock.now();
      await queries.insertThreshold(ctx.db, {
        business_id: ctx.businessId,
        public_id: newId('vat'),
        country: input.country,
        threshold_amount: input.thresholdAmount,
        currency,
        period_type: input.periodType,
        alert_at_percentage: input.alertAtPercentage,
        alert_email: input.alertEmail,
        alerted_level_window: null,
        alerted_full_window: null,
        created_at: now,
        updated_at: now,
      });
      await checkVatAlerts(ctx);
      return answerWritten(ctx);
    });
  } catch (err) {
    if (isUniqueViolation(err, 'finance_vat_thresholds_pkey')) {
      throw conflict('The business already has a VAT threshold configuration; update it instead');
    }
    throw err;
  }
}

async function ownThreshold(ctx: TxCtx, publicId: string): Promise<Row> {
  const row = await findThreshold(ctx, await today(ctx), true);
  if (!row || row.public_id !== publicId) throw notFound('VAT threshold');
  return row;
}

/** Partial update; a new amount or alert percentage re-arms the alerts. */
export async function updateVatThreshold(
  ctx: Ctx,
  publicId: string,
  input: UpdateVatThresholdBody,
): Promise<VatThreshold> {
  return inTransaction(ctx, async (ctx) => {
    const current = await ownThreshold(ctx, publicId);
    const rearm =
      (input.thresholdAmount !== undefined && input.thresholdAmount !== current.threshold_amount) ||
      (input.alertAtPercentage !== undefined && input.alertAtPercentage !== current.alert_at_percentage) ||
      (input.periodType !== undefined && input.periodType !== current.period_type) ||
      (input.currency !== undefined && input.currency !== current.currency);
    await queries.updateThreshold(ctx.db, ctx.businessId, {
      ...(input.country !== undefined && { country: input.country }),
      ...(input.thresholdAmount !== undefined && { threshold_amount: input.thresholdAmount }),
      ...(input.currency !== undefined && { currency: input.currency }),
      ...(input.periodType !== undefined && { period_type: input.periodType }),
      ...(input.alertAtPercentage !== undefined && { alert_at_percentage: input.alertAtPercentage }),
      ...(input.alertEmail !== undefined && { alert_email: input.alertEmail }),
      ...(rearm && { alerted_level_window: null, alerted_full_window: null }),
      updated_at: ctx.clock.now(),
    });
    await checkVatAlerts(ctx);
    return answerWritten(ctx);
  });
}

export async function markVatRegistered(
  ctx: Ctx,
  publicId: string,
  input: MarkRegisteredBody,
): Promise<VatThreshold> {
  return inTransaction(ctx, async (ctx) => {
    await ownThreshold(ctx, publicId);
    await queries.updateThreshold(ctx.db, ctx.businessId, {
      registered: true,
      registration_date: input.registrationDate,
      registration_number: input.registrationNumber,
      updated_at: ctx.clock.now(),
    });
    return answerWritten(ctx);
  });
}

/**
 * Sends the alerts the configuration is due, in the caller's transaction: one when revenue over the
 * window reaches alertAtPercentage, one when it reaches 100%, each once per window (a rolling window
 * re-arms when revenue falls back below the level); none once registered. The common case, nothing
 * due, is one statement that locks nothing; a due alert is decided again under the row lock.
 */
export async function checkVatAlerts(ctx: TxCtx): Promise<number> {
  const on = await today(ctx);
  const seen = await findThreshold(ctx, on);
  if (!seen || seen.registered || !dueAlerts(seen, on).changed) return 0;
  const row = await findThreshold(ctx, on, true);
  if (!row || row.registered) return 0;
  const due = dueAlerts(row, on);
  if (!due.changed) return 0;
  await queries.updateThreshold(ctx.db, ctx.businessId, {
    alerted_level_window: due.levelWindow,
    alerted_full_window: due.fullWindow,
  });
  const amount = (minor: bigint) => `${toMajor(Number(minor), row.currency)} ${row.currency}`;
  const window = row.period_type.replace(/_/g, ' ');
  for (const level of due.send) {
    await queueMail(ctx, {
      to: row.alert_email,
      subject:
        level === 100
          ? `VAT registration threshold reached (${row.country})`
          : `VAT registration threshold: ${level}% reached (${row.country})`,
      text:
        `Net revenue over the ${window} window ending ${on} is ${amount(due.status.currentRevenue)}, ` +
        `${due.status.percentageReached}% of the ${amount(BigInt(row.threshold_amount))} threshold` +
        (level === 100
          ? '. The business may have to register for VAT.\n'
          : due.status.projectedCrossingDate
            ? `; at the pace of the last 90 days it will be reached on ${due.status.projectedCrossingDate}.\n`
            : '.\n'),
    });
  }
  return due.send.length;
}

function dueAlerts(row: Row, on: string) {
  const status = statusOf(row, on);
  const threshold = BigInt(row.threshold_amount);
  const levelReached = status.currentRevenue * 100n >= threshold * BigInt(row.alert_at_percentage);
  const fullReached = status.currentRevenue >= threshold;
  const key = status.windowKey;
  let levelWindow = row.alerted_level_window;
  let fullWindow = row.alerted_full_window;
  const send: number[] = [];
  if (fullReached && fullWindow !== key) {
    // Reaching 100% says everything the lower alert would: one email.
    send.push(100);
    fullWindow = key;
    levelWindow = key;
  } else if (levelReached && levelWindow !== key) {
    send.push(row.alert_at_percentage);
    levelWindow = key;
  }
  // Falling back below a level (a rolling window moving on, a void) re-arms it.
  if (!levelReached && levelWindow === key) levelWindow = null;
  if (!fullReached && fullWindow === key) fullWindow = null;
  const changed = levelWindow !== row.alerted_level_window || fullWindow !== row.alerted_full_window;
  return { status, send, levelWindow, fullWindow, changed };
}

const JOB = 'vat threshold alerts';
const BATCH = 100;

/** The business's check at the time of `deps.clock` (a sandbox's test clock moving on). */
export const checkBusinessVatThreshold = (deps: CtxSource, businessId: string): Promise<number> =>
  inTransaction(jobCtx(deps, businessId, JOB), checkVatAlerts);

/**
 * Whether the business's alerts may come due: it has a configuration not registered. Windows move
 * every day, so such a business is checked at every step of an advance.
 */
export const vatAlertsPending = (deps: CtxSource, businessId: string): Promise<boolean> =>
  queries.hasUnregistered(deps.db, businessId);

/** The periodic check of every configuration not registered (alerts that no invoice issue caught). */
export async function checkAllVatThresholds(deps: CtxSource): Promise<number> {
  let sent = 0;
  let after: string | undefined;
  for (;;) {
    const batch = await queries.unregisteredBusinesses(deps.db, BATCH, after);
    sent += await sweep(
      deps,
      batch,
      { message: 'VAT threshold check failed', describe: (businessId) => ({ businessId }) },
      (businessId) => inTransaction(jobCtx(deps, businessId, JOB), checkVatAlerts),
    );
    if (batch.length < BATCH) break;
    after = batch.at(-1);
  }
  return sent;
}
