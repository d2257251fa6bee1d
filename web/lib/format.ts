import { toMajor } from '../../client/index.js';
import { businessNow, businessTimeZone } from './session.js';

/** Money, dates and numbers in the browser's locale, money in its currency's own exponent. */

const moneyFormats = new Map<string, Intl.NumberFormat>();

function moneyFormat(currency: string): Intl.NumberFormat {
  let format = moneyFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat(undefined, { style: 'currency', currency });
    moneyFormats.set(currency, format);
  }
  return format;
}

/** An amount in major units (the general group's, `19.99`) in its currency: `$19.99`, `¥1,250`, `KWD 1.234`. */
export function money(major: number | string | null | undefined, currency: string): string {
  if (major === null || major === undefined || major === '') return '—';
  return moneyFormat(currency).format(Number(major));
}

/** An amount in integer minor units (finance, loyalty: `1999`) in its currency. */
export function minorMoney(minor: number | null | undefined, currency: string): string {
  if (minor === null || minor === undefined) return '—';
  return moneyFormat(currency).format(toMajor(minor, currency));
}

const codeFormats = new Map<string, Intl.NumberFormat>();

/**
 * An amount in integer minor units with its currency's code rather than its symbol (`EUR 1,000.00`,
 * `USD 1,050.00`): where amounts in two currencies stand side by side, so neither is taken for the other.
 */
export function minorMoneyCode(minor: number | null | undefined, currency: string): string {
  if (minor === null || minor === undefined) return '—';
  let format = codeFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat(undefined, { style: 'currency', currency, currencyDisplay: 'code' });
    codeFormats.set(currency, format);
  }
  return format.format(toMajor(minor, currency));
}

/** An exchange rate with both its currencies named: `1 EUR = 1.0842 USD` (the rate's exact digits). */
export const rateText = (currency: string, base: string, rate: string): string =>
  `1 ${currency} = ${rate} ${base}`;

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const dateTimeFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** A calendar date (`2026-11-26`) shown in the locale, without shifting it by a time zone. */
export function date(value: string | null | undefined): string {
  if (!value) return '—';
  const [y, m, d] = value.slice(0, 10).split('-').map(Number);
  if (!y || !m || !d) return value;
  return dateFormat.format(new Date(y, m - 1, d));
}

export function dateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? value : dateTimeFormat.format(at);
}

const numberFormat = new Intl.NumberFormat();
export const number = (value: number | null | undefined): string =>
  value === null || value === undefined ? '—' : numberFormat.format(value);

const percentFormat = new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 1 });
/** A ratio (0.25) as a percentage. */
export const percent = (ratio: number | null | undefined): string =>
  ratio === null || ratio === undefined ? '—' : percentFormat.format(ratio);

/**
 * The business's today, as `YYYY-MM-DD`: its clock (a sandbox's test clock) in its time zone, as the
 * service dates what it records; the browser's own today before sign-in.
 */
export function today(): string {
  const timeZone = businessTimeZone();
  const now = businessNow();
  if (timeZone) {
    try {
      return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
        .format(now)
        .slice(0, 10);
    } catch {
      // A zone this browser does not know: its own calendar below.
    }
  }
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

const monthFormats = {
  short: new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric' }),
  long: new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric' }),
};

/**
 * A report period by its key (`2025-12`, `2026-Q1`, `2026`) in the locale, always with its year:
 * `Dec 2025` (short) or `December 2025` (long), `Q1 2026`, `2026`.
 */
export function periodLabel(period: string, style: 'short' | 'long' = 'short'): string {
  const month = /^(\d{4})-(\d{2})$/.exec(period);
  if (month) return monthFormats[style].format(new Date(Number(month[1]), Number(month[2]) - 1, 1));
  const quarter = /^(\d{4})-Q([1-4])$/.exec(period);
  if (quarter) return `Q${quarter[2]} ${quarter[1]}`;
  return period;
}

/** The first day of the month `monthsBack` months before the business's this month, as `YYYY-MM-DD`. */
export function monthStart(monthsBack: number): string {
  const [year, month] = today().split('-').map(Number) as [number, number];
  const first = new Date(Date.UTC(year, month - 1 - monthsBack, 1));
  return first.toISOString().slice(0, 10);
}
