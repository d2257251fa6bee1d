import { CURRENCY_EXPONENTS } from '../contract/common/currencies.js';

/*
 * The general group (`/v1/invoices`, `/v1/customers`, `/v1/products`, `/v1/quotes`, ...) speaks major
 * units (19.99 USD); every other group integer minor units (1999). These convert between the two with
 * the currency's ISO 4217 exponent (JPY 0, USD 2, KWD 3), digit by digit on the decimal text, so no
 * binary-float error creeps in: 19.99 * 100 is 1998.9999999999998, toMinor(19.99, 'USD') is 1999.
 */

function exponentOf(currency: string): number {
  const exponent = CURRENCY_EXPONENTS[currency];
  if (exponent === undefined) throw new RangeError(`Unknown ISO 4217 currency code: ${currency}`);
  return exponent;
}

const DECIMAL = /^([+-]?)(\d*)(?:\.(\d*))?(?:e([+-]?\d+))?$/i;

/** A decimal as written (a number's shortest form, exponent notation included): sign, whole and fraction digits. */
function decimalParts(amount: number | string): { negative: boolean; whole: string; fraction: string } {
  if (typeof amount === 'number' && !Number.isFinite(amount))
    throw new RangeError(`Not a finite amount: ${amount}`);
  const text = typeof amount === 'number' ? String(amount) : amount.trim();
  const m = DECIMAL.exec(text);
  if (!m || (!m[2] && !m[3])) throw new RangeError(`Not a decimal amount: ${JSON.stringify(amount)}`);
  const [, sign = '', whole = '', fraction = '', exponent = '0'] = m;
  const digits = whole + fraction;
  const point = whole.length + Number(exponent);
  const shifted: [string, string] =
    point <= 0
      ? ['', '0'.repeat(-point) + digits]
      : point >= digits.length
        ? [digits + '0'.repeat(point - digits.length), '']
        : [digits.slice(0, point), digits.slice(point)];
  return { negative: sign === '-', whole: shifted[0], fraction: shifted[1].replace(/0+$/, '') };
}

/**
 * An amount in major units as an integer of minor units: `toMinor(19.99, 'USD')` is 1999,
 * `toMinor('1250', 'JPY')` is 1250, `toMinor(1.234, 'KWD')` is 1234. Exact: the amount is read as the
 * decimal it is written as. Throws a RangeError for an unknown currency, an amount with more decimals
 * than the currency has (the service refuses those too; round first), or one beyond
 * `Number.MAX_SAFE_INTEGER` minor units.
 */
export function toMinor(amount: number | string, currency: string): number {
  const exponent = exponentOf(currency);
  const { negative, whole, fraction } = decimalParts(amount);
  if (fraction.length > exponent) {
    throw new RangeError(
      `${currency} amounts take at most ${exponent} decimal${exponent === 1 ? '' : 's'}: ${String(amount)}`,
    );
  }
  const minor = BigInt((whole || '0') + fraction.padEnd(exponent, '0'));
  if (minor > BigInt(Number.MAX_SAFE_INTEGER))
    throw new RangeError(`${String(amount)} ${currency} is too large to hold exactly in minor units`);
  return negative && minor !== 0n ? -Number(minor) : Number(minor);
}

/**
 * An integer of minor units in major units: `toMajor(1999, 'USD')` is 19.99, `toMajor(1250, 'JPY')` is
 * 1250, `toMajor(1234, 'KWD')` is 1.234; the number nearest the exact decimal, as `JSON.parse` would read
 * it. Throws a RangeError for an unknown currency or a `minor` that is not a safe integer.
 */
export function toMajor(minor: number | bigint, currency: string): number {
  const exponent = exponentOf(currency);
  if (typeof minor === 'number' && !Number.isSafeInteger(minor))
    throw new RangeError(`Minor units are a whole number: ${minor}`);
  const value = BigInt(minor);
  const digits = (value < 0n ? -value : value).toString().padStart(exponent + 1, '0');
  const sign = value < 0n ? '-' : '';
  if (exponent === 0) return Number(`${sign}${digits}`);
  return Number(`${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`);
}
