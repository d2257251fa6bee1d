import { currencyExponent } from '../../../../contract/common/currencies.js';
import { MAX_MINOR, maxMajorText } from '../../../platform/money.js';
import type { DateFormat } from './types.js';

/*
 * Amounts and dates as a bank writes them, read exactly (docs/decisions.md D272): decimal text is
 * scaled to minor units on its digits, never through a binary float, and a value that could be read
 * two ways is refused with what to send instead, never guessed.
 */

/** A value read from a file, or why it could not be. */
export type Read<T> = { value: T } | { reason: string };

const DECIMAL = /^([+-]?)(\d+)(?:\.(\d*))?$|^([+-]?)\.(\d+)$/;

/**
 * How `text` fails to be a plain decimal, in words a person can act on. Thousands separators are
 * never read: `1,250` is 1250 in one country and 1.25 in another.
 */
function whyNotDecimal(what: string, text: string, decimalComma: boolean): string {
  const shown = `${what} \`${text}\``;
  if (/^\(.*\)$/.test(text)) return `${shown} is in parentheses: write money out with a minus sign (-12.50)`;
  const digitsAndMarks = /^[+-]?[\d.,' \u00a0\u202f]+$/.test(text);
  if (digitsAndMarks && (/[ '\u00a0\u202f]/.test(text) || (text.includes(',') && text.includes('.')))) {
    return `${shown} has a thousands separator: remove it (1250.00, not 1,250.00 or 1.250,00)`;
  }
  if (digitsAndMarks && text.includes(',')) {
    return decimalComma
      ? `${shown} has more than one decimal mark: write it without thousands separators (1250.00)`
      : `${shown} has a comma: write decimals after a point and no thousands separator (12.50, 1250.00)`;
  }
  if (digitsAndMarks) return `${shown} is not a number: write digits with one decimal point (-12.50)`;
  return `${shown} is not a number: write only digits, a minus sign and a decimal point (-12.50)`;
}

export interface AmountOptions {
  /** What the amount is called in a refusal (`amount`, `debit`, `TRNAMT`). */
  what: string;
  /** OFX allows a comma as the decimal mark (it has no thousands separators). */
  decimalComma?: boolean;
}

/**
 * Decimal text in major units of `currency` to integer minor units, or the reason it cannot be:
 * `-12.50` GBP is -1250, `1500` JPY is 1500, `1.250` KWD is 1250. Decimals beyond the currency's are
 * refused unless they are zeros (`1500.00` JPY is exactly 1500, as the same number in JSON is).
 */
export function readAmount(text: string, currency: string, options: AmountOptions): Read<number> {
  const trimmed = text.trim();
  if (trimmed === '') return { reason: `${options.what} is empty: write the amount (-12.50)` };
  const normal =
    options.decimalComma && !trimmed.includes('.') && trimmed.split(',').length === 2
      ? trimmed.replace(',', '.')
      : trimmed;
  const match = DECIMAL.exec(normal);
  if (!match) return { reason: whyNotDecimal(options.what, trimmed, options.decimalComma ?? false) };
  const sign = match[1] ?? match[4] ?? '';
  const whole = match[2] ?? '0';
  const fraction = match[3] ?? match[5] ?? '';
  const exponent = currencyExponent(currency);
  const kept = fraction.slice(0, exponent);
  if (/[^0]/.test(fraction.slice(exponent))) {
    const most = exponent === 0 ? 'no decimals' : `at most ${exponent} decimal${exponent === 1 ? '' : 's'}`;
    const has = `${fraction.length} decimal${fraction.length === 1 ? '' : 's'}`;
    return {
      reason: `${options.what} \`${trimmed}\` has ${has} and ${currency} takes ${most}: send the amount in ${currency} as the bank booked it`,
    };
  }
  const scaled = BigInt(whole + kept.padEnd(exponent, '0'));
  if (scaled > BigInt(MAX_MINOR)) {
    return {
      reason: `${options.what} \`${trimmed}\` exceeds the largest amount the service holds (${maxMajorText(currency)} ${currency})`,
    };
  }
  const minor = Number(scaled);
  return { value: sign === '-' && minor !== 0 ? -minor : minor };
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isCalendarDate(year: number, month: number, day: number): boolean {
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!;
  return day <= days;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** YYYY-MM-DD of a year, month and day, or the reason they are no date. */
function calendarDate(what: string, text: string, year: number, month: number, day: number): Read<string> {
  if (!isCalendarDate(year, month, day)) return { reason: `${what} \`${text}\` is not a calendar date` };
  return { value: `${String(year).padStart(4, '0')}-${pad(month)}-${pad(day)}` };
}

/*
 * A day and a month may be written with one digit (3/11/2026), since the format says which is
 * which; the year always has four, so 03/11/26 is refused rather than read as 1926 or 2026.
 */
const CSV_DATE_PATTERNS: Record<
  DateFormat,
  { pattern: RegExp; order: [number, number, number]; example: string }
> = {
  'YYYY-MM-DD': { pattern: /^(\d{4})-(\d{1,2})-(\d{1,2})$/, order: [1, 2, 3], example: '2026-11-03' },
  'DD/MM/YYYY': { pattern: /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/, order: [3, 2, 1], example: '03/11/2026' },
  'MM/DD/YYYY': { pattern: /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/, order: [3, 1, 2], example: '11/03/2026' },
  'DD.MM.YYYY': { pattern: /^(\d{1,2})\.(\d{1,2})\.(\d{4})$/, order: [3, 2, 1], example: '03.11.2026' },
};

/** A CSV date cell read strictly in `format`: YYYY-MM-DD, or the reason it cannot be. */
export function readCsvDate(text: string, format: DateFormat): Read<string> {
  const trimmed = text.trim();
  if (trimmed === '')
    return { reason: `date is empty: write the day (${CSV_DATE_PATTERNS[format].example})` };
  const { pattern, order, example } = CSV_DATE_PATTERNS[format];
  const match = pattern.exec(trimmed);
  if (!match) {
    return {
      reason: `date \`${trimmed}\` is not ${format} (${example} is 3 November 2026): send the date_format the file uses`,
    };
  }
  const [y, m, d] = order.map((i) => Number(match[i]));
  return calendarDate('date', trimmed, y!, m!, d!);
}

/**
 * An OFX date-time, `YYYYMMDD[HHMMSS[.XXX]][[+-]h[:TZ]]`: the day as the bank wrote it, its time
 * and zone left aside (the statement's day is the bank's, not UTC's).
 */
const OFX_DATE = /^(\d{4})(\d{2})(\d{2})(?:\d{2}){0,3}(?:\.\d{1,6})?(?:\[[^\]]*\])?$/;

export function readOfxDate(what: string, text: string): Read<string> {
  const trimmed = text.trim();
  if (trimmed === '') return { reason: `${what} is empty: write the date (YYYYMMDD, e.g. 20261103)` };
  const match = OFX_DATE.exec(trimmed);
  if (!match) return { reason: `${what} \`${trimmed}\` is not an OFX date (YYYYMMDD, e.g. 20261103)` };
  return calendarDate(what, trimmed, Number(match[1]), Number(match[2]), Number(match[3]));
}

/** An ISO 8601 date or date-time (CAMT's Dt and DtTm): its date part as written. */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(?:$|[T ]|Z$|[+-]\d{2}:\d{2}$)/;

export function readIsoDate(what: string, text: string): Read<string> {
  const trimmed = text.trim();
  const match = ISO_DATE.exec(trimmed);
  if (!match) return { reason: `${what} \`${trimmed}\` is not an ISO date (2026-11-03)` };
  return calendarDate(what, trimmed, Number(match[1]), Number(match[2]), Number(match[3]));
}

/** Runs of whitespace (line breaks of multi-line cells included) as one space. */
export const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
