import { currencyExponent } from '../../contract/common/currencies.js';
import {
  DISCOUNT_PLACES,
  divideHalfUp,
  FULL_DISCOUNT_SCALED,
  priceDocument,
  priceLine,
  QUANTITY_PLACES,
  TAX_DENOMINATOR,
  TAX_RATE_PLACES,
} from '../../contract/common/pricing.js';
import { invalid } from './errors.js';

/**
 * Major-unit decimals at the edge, integer minor units inside. Arithmetic on scaled integers
 * (BigInt) so that no binary-float error reaches a rounding decision.
 */

/**
 * The decimal digits of a JS number as [integer digits, fraction digits], read from its shortest
 * decimal form (what a client's JSON said), exponent notation included: 1e-7 is ['0', '0000001'],
 * 1.0000000000000002 keeps all sixteen decimals, 1e21 is ['1000000000000000000000', ''].
 */
function decimalParts(value: number): [string, string] {
  if (!Number.isFinite(value)) throw new Error('Not a finite number');
  const [mantissa = '', exponent = '0'] = Math.abs(value).toString().split('e');
  const [whole = '', fraction = ''] = mantissa.split('.');
  const digits = whole + fraction;
  const point = whole.length + Number(exponent);
  if (point <= 0) return ['0', '0'.repeat(-point) + digits];
  if (point >= digits.length) return [digits + '0'.repeat(point - digits.length), ''];
  return [digits.slice(0, point), digits.slice(point)];
}

/**
 * A number as the exact decimal it reads as: `digits` x 10^-`scale`, so 9.99999 is 999999 and 5,
 * not the binary approximation, and 1e21 is 10^21 and 0.
 */
export function exactDecimal(value: number): { digits: bigint; scale: number } {
  const [whole, fraction] = decimalParts(value);
  const digits = BigInt(whole + fraction);
  return { digits: value < 0 ? -digits : digits, scale: fraction.length };
}

/** Scales a decimal number by 10^places exactly; null when it has more decimals than that. */
export function toScaledInteger(value: number, places: number): bigint | null {
  const [whole, fraction] = decimalParts(value);
  if (fraction.length > places) return null;
  const scaled = BigInt(whole + fraction.padEnd(places, '0'));
  return value < 0 ? -scaled : scaled;
}

/**
 * The largest amount held in minor units: 15 digits (9,999,999,999,999.99 USD, 999,999,999,999,999
 * JPY, 999,999,999,999.999 KWD). Every such amount fits a bigint column and is a safe integer, and
 * its major-unit decimal (what the general group's JSON carries) has at most 15 significant digits,
 * so it survives the trip through a binary float exactly. Inputs and computed totals beyond it are
 * refused (422), never stored rounded or overflowed.
 */
export const MAX_MINOR = 999_999_999_999_999;

/** MAX_MINOR in major units of `currency`, as the decimal text a refusal shows. */
export function maxMajorText(currency: string): string {
  const exp = currencyExponent(currency);
  const digits = String(MAX_MINOR);
  return exp === 0 ? digits : `${digits.slice(0, -exp)}.${digits.slice(-exp)}`;
}

const tooLarge = (field: string, what: string, currency: string) =>
  invalid(
    field,
    `${what} exceeds the largest amount the service holds (${maxMajorText(currency)} ${currency})`,
  );

/**
 * 19.99 USD -> 1999; refuses (422 on `field`) an amount with more decimals than the currency has
 * or beyond MAX_MINOR.
 */
export function toMinor(amount: number, currency: string, field: string): number {
  const exp = currencyExponent(currency);
  const scaled = toScaledInteger(amount, exp);
  if (scaled === null) {
    throw invalid(
      field,
      `Major units of ${currency} take at most ${exp} decimal${exp === 1 ? '' : 's'} (12.50 is 12.50 USD, 1250 is 1,250 JPY)`,
    );
  }
  if (scaled > BigInt(MAX_MINOR) || scaled < -BigInt(MAX_MINOR))
    throw tooLarge(field, 'The amount', currency);
  return Number(scaled);
}

/** 1999 USD -> 19.99 */
export function toMajor(minor: number, currency: string): number {
  const exp = currencyExponent(currency);
  return exp === 0 ? minor : minor / 10 ** exp;
}

export { divideHalfUp, QUANTITY_PLACES, TAX_DENOMINATOR };

/** `part` as a percentage of `whole`, two decimals, half up. */
export const percentOf = (part: bigint, whole: bigint): number =>
  Number(divideHalfUp(part * 10_000n, whole)) / 100;

export interface LineAmounts {
  totalMinor: number;
  taxMinor: number;
  /** The unrounded tax as numerator over TAX_DENOMINATOR, summed before the invoice rounds once. */
  taxExact: bigint;
}

/**
 * Line total = quantity x unit price less the discount, rounded half-up once; tax = total x rate / 100
 * (`priceLine`, the rule in contract/common/pricing.ts, which the dashboard shows while typing).
 * Refuses (422) a quantity, tax rate or discount with more decimals than its column holds
 * (`<line>.quantity`, `<line>.tax_rate`, `<line>.discount_percent`), a discount outside 0-100, and a
 * line total beyond MAX_MINOR (`<line>`, e.g. `items.0`).
 */
export function lineAmounts(
  quantity: number,
  unitPriceMinor: number,
  taxRate: number,
  line: string,
  currency: string,
  discountPercent = 0,
): LineAmounts {
  const q = toScaledInteger(quantity, QUANTITY_PLACES);
  if (q === null) throw invalid(`${line}.quantity`, `At most ${QUANTITY_PLACES} decimals`);
  const r = toScaledInteger(taxRate, TAX_RATE_PLACES);
  if (r === null) throw invalid(`${line}.tax_rate`, `At most ${TAX_RATE_PLACES} decimals`);
  const d = toScaledInteger(discountPercent, DISCOUNT_PLACES);
  if (d === null) throw invalid(`${line}.discount_percent`, `At most ${DISCOUNT_PLACES} decimals`);
  if (d < 0n || d > FULL_DISCOUNT_SCALED) throw invalid(`${line}.discount_percent`, 'From 0 to 100');
  const { totalMinor, taxMinor, taxExact } = priceLine(q, BigInt(unitPriceMinor), r, d);
  if (totalMinor > BigInt(MAX_MINOR))
    throw tooLarge(line, 'The line total (quantity x unit_price)', currency);
  return { totalMinor: Number(totalMinor), taxMinor: Number(taxMinor), taxExact };
}

const documentPrice = (lines: LineAmounts[]) =>
  priceDocument(lines.map((l) => ({ totalMinor: BigInt(l.totalMinor), taxExact: l.taxExact })));

/** The invoice tax: the exact item taxes summed, then rounded half-up once. */
export function invoiceTax(lines: LineAmounts[]): number {
  return Number(documentPrice(lines).taxMinor);
}

/**
 * Subtotal (the line totals), tax (invoiceTax) and total of an invoice, summed exactly; a total
 * beyond MAX_MINOR is refused (422 naming `field`).
 */
export function invoiceTotals(
  lines: LineAmounts[],
  field: string,
  currency: string,
): { subtotalMinor: number; taxMinor: number; totalMinor: number } {
  const totals = documentPrice(lines);
  if (totals.totalMinor > BigInt(MAX_MINOR)) throw tooLarge(field, 'The invoice total', currency);
  return {
    subtotalMinor: Number(totals.subtotalMinor),
    taxMinor: Number(totals.taxMinor),
    totalMinor: Number(totals.totalMinor),
  };
}

/**
 * A sum of minor units as a JSON number; refused (422 on `field`) beyond Number.MAX_SAFE_INTEGER,
 * where a number would no longer be exact. Documents are capped at MAX_MINOR, so only sums over very
 * many of them can get there.
 */
export function exactSum(value: bigint, field: string): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw invalid(field, 'The totals are too large to report exactly; narrow the range or currency');
  }
  return Number(value);
}
