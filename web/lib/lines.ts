import { pricing, toMajor, toMinor } from '../../client/index.js';
import { FIELD_MESSAGES } from './messages.js';

/**
 * The totals of an invoice, quote or bill as it is typed, computed by the service's own rule (the SDK's
 * `pricing`: each line's total is quantity x unit price less its discount, rounded half-up once to the currency's
 * minor unit,
 * each line's tax is kept exact and the document's tax is their sum rounded half-up once), from the
 * decimal text as typed, so no binary-float error creeps in. The service's answer still decides: this
 * only shows what it will say.
 */

const { DISCOUNT_PLACES, QUANTITY_PLACES, TAX_RATE_PLACES } = pricing;

/** A line as typed in the form: text, not numbers. */
export interface LineText {
  quantity: string;
  unit_price: string;
  tax_rate: string;
  /** The percent taken off the line before tax; empty is none. */
  discount_percent?: string;
}

export type LineAmounts = pricing.LinePrice;
export type DocumentTotals = pricing.DocumentPrice;

/** `1.25` with 4 places as 12500n; null for anything but a non-negative decimal with at most `places` decimals. */
export function scaledDecimal(text: string, places: number): bigint | null {
  const m = /^(\d*)(?:\.(\d*))?$/.exec(text.trim());
  if (!m || (!m[1] && !m[2])) return null;
  const fraction = (m[2] ?? '').replace(/0+$/, '');
  if (fraction.length > places) return null;
  return BigInt((m[1] || '0') + fraction.padEnd(places, '0'));
}

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

/** What is wrong with an amount as typed, before the service says it (empty is not this check's business). */
export function amountAdvice(text: string, currency: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || priceMinor(trimmed, currency) !== null) return undefined;
  if (!/^\d*(\.\d*)?$/.test(trimmed)) return FIELD_MESSAGES.amount(currency);
  return FIELD_MESSAGES.amountDecimals(currency);
}

/** Minor units as the text an amount field holds (`2999` USD: `29.99`). */
export function minorText(minor: number | bigint, currency: string): string {
  const exponent = exponentOf(currency);
  const value = BigInt(minor);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(exponent + 1, '0');
  const text = exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
  return negative ? `-${text}` : text;
}

/** Minor units (BigInt) shown in the currency; `—` beyond what a number holds exactly. */
export function showMinor(minor: bigint | null, currency: string, format: (n: number, c: string) => string) {
  if (minor === null || minor > BigInt(Number.MAX_SAFE_INTEGER) || minor < -BigInt(Number.MAX_SAFE_INTEGER))
    return '—';
  return format(Number(minor), currency);
}

/** One line's total (after its discount) and tax; null while a field is empty or not a valid amount. */
export function lineAmounts(line: LineText, currency: string): LineAmounts | null {
  const quantity = scaledDecimal(line.quantity, QUANTITY_PLACES);
  const rate = line.tax_rate.trim() === '' ? 0n : scaledDecimal(line.tax_rate, TAX_RATE_PLACES);
  const discountText = line.discount_percent?.trim() ?? '';
  const discount = discountText === '' ? 0n : scaledDecimal(discountText, DISCOUNT_PLACES);
  const price = priceMinor(line.unit_price, currency);
  if (quantity === null || quantity === 0n || rate === null || price === null || discount === null)
    return null;
  if (rate > pricing.MAX_TAX_RATE_SCALED || discount > pricing.FULL_DISCOUNT_SCALED) return null;
  return pricing.priceLine(quantity, price, rate, discount);
}

/** The document's subtotal, tax and total; null while any line cannot be priced. */
export function documentTotals(lines: LineText[], currency: string): DocumentTotals | null {
  const priced: LineAmounts[] = [];
  for (const line of lines) {
    const amounts = lineAmounts(line, currency);
    if (!amounts) return null;
    priced.push(amounts);
  }
  return pricing.priceDocument(priced);
}

/** A bill item as typed; an empty or absent tax rate is none. */
export interface ItemText {
  quantity: string;
  unit_price: string;
  tax_rate?: string;
}

export type BillTotals = ReturnType<typeof pricing.priceBillWithTax>;

/** A tax rate as typed, scaled by 10^TAX_RATE_PLACES (empty is 0); null when it is not a rate of 0 to 100 %. */
function scaledRate(text: string | undefined): bigint | null {
  const trimmed = text?.trim() ?? '';
  const rate = trimmed === '' ? 0n : scaledDecimal(trimmed, TAX_RATE_PLACES);
  return rate === null || rate > pricing.MAX_TAX_RATE_SCALED ? null : rate;
}

/** An item as scaled integers; null while not priceable. */
function scaledItem(item: ItemText, currency: string) {
  const quantityScaled = scaledDecimal(item.quantity, QUANTITY_PLACES);
  const unitPriceMinor = priceMinor(item.unit_price, currency);
  if (quantityScaled === null || quantityScaled === 0n || unitPriceMinor === null) return null;
  return { quantityScaled, unitPriceMinor };
}

/** One bill item's amount as the service prices it: quantity x unit price rounded half up; null while not priceable. */
export function itemMinor(item: ItemText, currency: string): bigint | null {
  const scaled = scaledItem(item, currency);
  return scaled && pricing.priceLine(scaled.quantityScaled, scaled.unitPriceMinor, 0n).totalMinor;
}

/** The bill's amount as the service computes it: the exact sum of the items, rounded half up once. */
export function billMinor(items: ItemText[], currency: string): bigint | null {
  const scaled = [];
  for (const item of items) {
    const one = scaledItem(item, currency);
    if (!one) return null;
    scaled.push(one);
  }
  return pricing.priceBill(scaled);
}

/**
 * The bill's subtotal, tax and total as the service computes them (each item's tax too): the exact
 * taxes of the items summed and rounded half up once; null while an item cannot be priced.
 */
export function billTotals(items: ItemText[], currency: string): BillTotals | null {
  const scaled = [];
  for (const item of items) {
    const one = scaledItem(item, currency);
    const rateScaled = scaledRate(item.tax_rate);
    if (!one || rateScaled === null) return null;
    scaled.push({ ...one, rateScaled });
  }
  return pricing.priceBillWithTax(scaled);
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
