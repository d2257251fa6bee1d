import { currencyExponent } from '../../contract/common/currencies.js';
import { invalid } from '../errors.js';

/**
 * Major-unit decimals at the edge, integer minor units inside. Arithmetic on scaled integers
 * (BigInt) so that no binary-float error reaches a rounding decision.
 */

/** Exact decimal digits of a JS number as [integer digits, fraction digits]. */
function decimalParts(value: number): [string, string] {
  if (!Number.isFinite(value)) throw new Error('Not a finite number');
  let text = Math.abs(value).toString();
  if (text.includes('e')) text = Math.abs(value).toFixed(20).replace(/0+$/, '');
  const [whole, fraction = ''] = text.split('.');
  return [whole, fraction];
}

/** Scales a decimal number by 10^places exactly; null when it has more decimals than that. */
export function toScaledInteger(value: number, places: number): bigint | null {
  const [whole, fraction] = decimalParts(value);
  if (fraction.length > places) return null;
  const scaled = BigInt(whole + fraction.padEnd(places, '0'));
  return value < 0 ? -scaled : scaled;
}

/** 19.99 USD -> 1999; refuses an amount with more decimals than the currency has (422 on `field`). */
export function toMinor(amount: number, currency: string, field: string): number {
  const exp = currencyExponent(currency);
  const scaled = toScaledInteger(amount, exp);
  if (scaled === null) {
    throw invalid(field, `${currency} amounts take at most ${exp} decimal${exp === 1 ? '' : 's'}`);
  }
  return Number(scaled);
}

/** 1999 USD -> 19.99 */
export function toMajor(minor: number, currency: string): number {
  const exp = currencyExponent(currency);
  return exp === 0 ? minor : minor / 10 ** exp;
}

/** numerator / denominator rounded half-up (away from zero), for non-negative operands. */
export function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = (n * 2n + d) / (d * 2n);
  return negative ? -q : q;
}

export const QUANTITY_PLACES = 4;
export const TAX_RATE_PLACES = 3;

export interface LineAmounts {
  totalMinor: number;
  taxMinor: number;
  /** The unrounded tax as numerator over TAX_DENOMINATOR, summed before the invoice rounds once. */
  taxExact: bigint;
}

export const TAX_DENOMINATOR = 100n * 10n ** BigInt(TAX_RATE_PLACES);

/** Line total = quantity x unit price, rounded half-up; tax = total x rate / 100. */
export function lineAmounts(quantity: number, unitPriceMinor: number, taxRate: number): LineAmounts {
  const q = toScaledInteger(quantity, QUANTITY_PLACES);
  const r = toScaledInteger(taxRate, TAX_RATE_PLACES);
  if (q === null || r === null) throw new Error('quantity or tax_rate has too many decimals');
  const total = divideHalfUp(q * BigInt(unitPriceMinor), 10n ** BigInt(QUANTITY_PLACES));
  const taxExact = total * r;
  return { totalMinor: Number(total), taxMinor: Number(divideHalfUp(taxExact, TAX_DENOMINATOR)), taxExact };
}

/** The invoice tax: the exact item taxes summed, then rounded half-up once. */
export function invoiceTax(lines: LineAmounts[]): number {
  const exact = lines.reduce((sum, l) => sum + l.taxExact, 0n);
  return Number(divideHalfUp(exact, TAX_DENOMINATOR));
}
