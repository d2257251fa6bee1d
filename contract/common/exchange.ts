import { currencyExponent } from './currencies.js';

/**
 * Exchange rates and conversion to the base currency, the one rule the server and the dashboard
 * share (docs/decisions.md D278). A rate is how many units of the base currency one unit of the
 * other currency buys (base = amount x rate), a positive decimal of at most 10 significant digits.
 * Conversion is exact: decimal digits in BigInt, never a float, rounded once, half away from zero,
 * to the base currency's minor unit.
 */

/** Significant digits a rate may carry. */
export const RATE_DIGITS = 10;

/** A rate as an integer and a power of ten: value = digits / 10^scale. */
interface Decimal {
  digits: bigint;
  scale: number;
}

const RATE_TEXT = /^(\d+)(?:\.(\d+))?$/;

/** Why `text` is not a rate, or null when it is one. */
export function rateProblem(text: string): string | null {
  const match = RATE_TEXT.exec(text);
  if (!match) return 'Must be a positive decimal such as "1.0842" (digits, one optional point)';
  const digits = `${match[1]}${match[2] ?? ''}`.replace(/^0+/, '');
  if (digits === '' || /^0*$/.test(digits)) return 'Must be greater than 0';
  const significant = digits.replace(/0+$/, '').length;
  if (significant > RATE_DIGITS) return `Must have at most ${RATE_DIGITS} significant digits`;
  if (text.length > 40) return 'Must be at most 40 characters';
  return null;
}

function parse(rate: string): Decimal {
  const problem = rateProblem(rate);
  if (problem !== null) throw new Error(`Not an exchange rate: ${rate} (${problem})`);
  const [whole, fraction = ''] = rate.split('.') as [string, string?];
  return { digits: BigInt(`${whole}${fraction}`), scale: fraction.length };
}

/** The rate written plainly: no trailing zeros after the point, no leading zeros before it. */
export function normaliseRate(rate: string): string {
  const { digits, scale } = parse(rate);
  return format(digits, scale);
}

/** A stored rate (a `numeric` read back as text or a number) written plainly; null stays null. */
export const rateOrNull = (rate: string | number | null): string | null =>
  rate === null ? null : normaliseRate(String(rate));

function format(digits: bigint, scale: number): string {
  const text = digits.toString().padStart(scale + 1, '0');
  const whole = text.slice(0, text.length - scale);
  const fraction = text.slice(text.length - scale).replace(/0+$/, '');
  return fraction === '' ? whole : `${whole}.${fraction}`;
}

/** numerator / denominator rounded half away from zero to an integer. */
function divideRounded(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const quotient = (2n * n + d) / (2n * d);
  return negative ? -quotient : quotient;
}

/**
 * `amount` minor units of `currency` in minor units of `base` at `rate`, rounded once, half away
 * from zero. 12.345 KWD (12345) at 2.5 GBP a dinar is 30.86 GBP (3086.25 rounds to 3086).
 */
export function toBase(amount: number, currency: string, base: string, rate: string): number {
  if (!Number.isSafeInteger(amount)) throw new Error(`Not an amount in minor units: ${amount}`);
  const { digits, scale } = parse(rate);
  const shift = currencyExponent(base) - currencyExponent(currency) - scale;
  const product = BigInt(amount) * digits;
  const result = shift >= 0 ? product * 10n ** BigInt(shift) : divideRounded(product, 10n ** BigInt(-shift));
  const converted = Number(result);
  if (!Number.isSafeInteger(converted)) throw new Error(`Converted amount out of range: ${result}`);
  return converted;
}

/**
 * `amount` minor units of `base` in minor units of `currency` at `rate` (units of base per unit of
 * `currency`), rounded once, half away from zero: the way back of `toBase`, for sums (BigInt).
 * 30.86 GBP (3086) at 2.5 GBP a dinar is 12.344 KWD (12344).
 */
export function fromBase(amount: bigint, currency: string, base: string, rate: string): bigint {
  const { digits, scale } = parse(rate);
  // amount / 10^exp(base) / (digits / 10^scale) * 10^exp(currency)
  const shift = currencyExponent(currency) - currencyExponent(base) + scale;
  return shift >= 0
    ? divideRounded(amount * 10n ** BigInt(shift), digits)
    : divideRounded(amount, digits * 10n ** BigInt(-shift));
}

/**
 * A rate quoted against a third currency turned into a rate to the base, to 10 significant digits
 * (half away from zero): the ECB quotes units per euro, so a currency's rate to the base is the
 * base's units per euro over the currency's. `perPivotOfBase` / `perPivotOfCurrency`.
 */
export function crossRate(perPivotOfBase: string, perPivotOfCurrency: string): string {
  const b = parse(perPivotOfBase);
  const c = parse(perPivotOfCurrency);
  // value = (b.digits / 10^b.scale) / (c.digits / 10^c.scale); find a scale giving 10 significant digits.
  const numerator = b.digits * 10n ** BigInt(c.scale);
  const denominator = c.digits * 10n ** BigInt(b.scale);
  // Integer digits of the quotient decide how many decimals leave 10 significant ones.
  let scale = RATE_DIGITS;
  const whole = numerator / denominator;
  if (whole > 0n) scale = Math.max(0, RATE_DIGITS - whole.toString().length);
  else {
    // Leading zeros after the point: count them so the 10 digits are significant ones.
    let probe = numerator * 10n;
    let zeros = 0;
    while (probe < denominator) {
      probe *= 10n;
      zeros += 1;
    }
    scale = RATE_DIGITS + zeros;
  }
  let digits = divideRounded(numerator * 10n ** BigInt(scale), denominator);
  // Rounding up may add a digit (9.999999999x to 10): drop one decimal to stay at 10.
  if (digits.toString().replace(/0+$/, '').length > RATE_DIGITS && scale > 0) {
    scale -= 1;
    digits = divideRounded(numerator * 10n ** BigInt(scale), denominator);
  }
  return format(digits, scale);
}

/** The rate that turns base back into `currency`, to 10 significant digits (1 / rate). */
export function inverseRate(rate: string): string {
  return crossRate('1', rate);
}
