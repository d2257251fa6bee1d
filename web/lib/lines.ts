import { toMajor, toMinor } from '../../client/index.js';

/**
 * The totals of an invoice or quote as it is typed, computed as the service prices it: each line's
 * total is quantity x unit price rounded half-up to the currency's minor unit, each line's tax is
 * kept exact and the document's tax is their sum rounded half-up once. Integers of minor units
 * (BigInt) throughout, read from the decimal text as typed, so no binary-float error creeps in. The
 * service's answer still decides: this only shows what it will say.
 */

/** Decimals a quantity and a tax rate may have (the service's columns). */
const QUANTITY_PLACES = 4;
const TAX_RATE_PLACES = 3;
const TAX_DENOMINATOR = 100n * 10n ** BigInt(TAX_RATE_PLACES);

/** A line as typed in the form: text, not numbers. */
export interface LineText {
  quantity: string;
  unit_price: string;
  tax_rate: string;
}

export interface LineAmounts {
  totalMinor: bigint;
  taxMinor: bigint;
  /** The unrounded tax over TAX_DENOMINATOR, summed before the document rounds once. */
  taxExact: bigint;
}

export interface DocumentTotals {
  subtotalMinor: bigint;
  taxMinor: bigint;
  totalMinor: bigint;
}

/** `1.25` with 4 places as 12500n; null for anything but a non-negative decimal with at most `places` decimals. */
export function scaledDecimal(text: string, places: number): bigint | null {
  const m = /^(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (!m || (!m[1] && !m[2])) return null;
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  if (fraction.length > places) return null;
  return BigInt((m[1] || '0') + fraction.padEnd(places, '0'));
}

/** numerator / denominator rounded half-up, both non-negative. */
const divideHalfUp = (numerator: bigint, denominator: bigint): bigint =>
  (numerator * 2n + denominator) / (denominator * 2n);

/** A unit price as typed, in minor units of `currency`; null when it is not one (too many decimals included). */
export function priceMinor(text: string, currency: string): bigint | null {
  const trimmed = text.trim();
  if (!/^\d*(\.\d*)?$/.test(trimmed) || trimmed === '' || trimmed === '.') return null;
  try {
    return BigInt(toMinor(trimmed, currency));
  } catch {
    return null;
  }
}

/** One line's total and tax; null while a field is empty or not a valid amount. */
export function lineAmounts(line: LineText, currency: string): LineAmounts | null {
  const quantity = scaledDecimal(line.quantity, QUANTITY_PLACES);
  const rate = line.tax_rate.trim() === '' ? 0n : scaledDecimal(line.tax_rate, TAX_RATE_PLACES);
  const price = priceMinor(line.unit_price, currency);
  if (quantity === null || quantity === 0n || rate === null || price === null) return null;
  if (rate > 100n * 10n ** BigInt(TAX_RATE_PLACES)) return null;
  const totalMinor = divideHalfUp(quantity * price, 10n ** BigInt(QUANTITY_PLACES));
  const taxExact = totalMinor * rate;
  return { totalMinor, taxMinor: divideHalfUp(taxExact, TAX_DENOMINATOR), taxExact };
}

/** The document's subtotal, tax and total; null while any line cannot be priced. */
export function documentTotals(lines: LineText[], currency: string): DocumentTotals | null {
  let subtotal = 0n;
  let taxExact = 0n;
  for (const line of lines) {
    const amounts = lineAmounts(line, currency);
    if (!amounts) return null;
    subtotal += amounts.totalMinor;
    taxExact += amounts.taxExact;
  }
  const tax = divideHalfUp(taxExact, TAX_DENOMINATOR);
  return { subtotalMinor: subtotal, taxMinor: tax, totalMinor: subtotal + tax };
}

/** Minor units back in major units for `format.money`; null beyond what a number holds exactly. */
export function majorOf(minor: bigint, currency: string): number | null {
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  return toMajor(minor, currency);
}

/** The number of decimals of `currency` (USD 2, JPY 0, KWD 3). */
export const exponentOf = (currency: string): number => String(toMinor(1, currency)).length - 1;

/** An amount in major units as the text a price field holds, in the currency's decimals: `24.50`, `1250`. */
export function decimalText(major: number, currency: string): string {
  const exponent = exponentOf(currency);
  const minor = toMinor(major, currency);
  const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
  const sign = minor < 0 ? '-' : '';
  return exponent === 0
    ? `${sign}${digits}`
    : `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
}

/** `YYYY-MM-DD` plus `days` calendar days. */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number);
  const at = new Date(Date.UTC(y!, m! - 1, d! + days));
  return at.toISOString().slice(0, 10);
}
