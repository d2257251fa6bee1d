import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { toMajor, toMinor } from '../../client/index.js';
import { CURRENCY_CODES, currencyExponent } from '../../contract/common/currencies.js';

// The SDK's money helpers (client/money.ts): major units (the general group) <-> minor units (the
// result-envelope groups) with each currency's ISO 4217 exponent, exactly.

describe('toMinor', () => {
  it('scales by the currency exponent: JPY 0, USD 2, KWD 3, CLF 4', () => {
    expect(toMinor(1250, 'JPY')).toBe(1250);
    expect(toMinor(19.99, 'USD')).toBe(1999);
    expect(toMinor(12.5, 'EUR')).toBe(1250);
    expect(toMinor(1.234, 'KWD')).toBe(1234);
    expect(toMinor(1.2345, 'CLF')).toBe(12345);
    expect(toMinor(0, 'USD')).toBe(0);
  });

  it('has no float drift where multiplying would: 19.99 * 100 is 1998.9999999999998', () => {
    expect(19.99 * 100).not.toBe(1999);
    expect(toMinor(19.99, 'USD')).toBe(1999);
    expect(1.005 * 1000).not.toBe(1005);
    expect(toMinor(1.005, 'KWD')).toBe(1005);
    expect(toMinor(4.35, 'USD')).toBe(435); // 4.35 * 100 is 434.99999999999994
    expect(toMinor(9_999_999_999_999.99, 'USD')).toBe(999_999_999_999_999);
  });

  it('takes decimal strings, signs, trailing zeros and exponent notation as written', () => {
    expect(toMinor('19.99', 'USD')).toBe(1999);
    expect(toMinor(' 19.90 ', 'USD')).toBe(1990);
    expect(toMinor('12.500', 'USD')).toBe(1250);
    expect(toMinor('.5', 'USD')).toBe(50);
    expect(toMinor('-3.25', 'USD')).toBe(-325);
    expect(toMinor(-3.25, 'USD')).toBe(-325);
    expect(toMinor('1e3', 'JPY')).toBe(1000);
    expect(toMinor('1.5e1', 'USD')).toBe(1500);
    expect(toMinor(1e21 / 1e8, 'JPY')).toBe(10_000_000_000_000);
    expect(toMinor(1e-2, 'USD')).toBe(1);
    expect(Object.is(toMinor('-0', 'USD'), 0)).toBe(true);
  });

  it('refuses more decimals than the currency has, an unknown currency, non-numbers and unsafe sizes (RangeError)', () => {
    expect(() => toMinor(19.999, 'USD')).toThrow(
      new RangeError('USD amounts take at most 2 decimals: 19.999'),
    );
    expect(() => toMinor(0.5, 'JPY')).toThrow(/JPY amounts take at most 0 decimals/);
    expect(() => toMinor(1e-7, 'KWD')).toThrow(RangeError);
    expect(() => toMinor(10, 'XYZ')).toThrow(new RangeError('Unknown ISO 4217 currency code: XYZ'));
    expect(() => toMinor(10, 'usd')).toThrow(RangeError);
    for (const bad of [
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '',
      '.',
      'abc',
      '1,5',
      '12.5 USD',
      '--1',
      '0x10',
    ]) {
      expect(() => toMinor(bad, 'USD'), String(bad)).toThrow(RangeError);
    }
    expect(() => toMinor(1e21, 'USD')).toThrow(/too large/);
    expect(() => toMinor('90071992547409.92', 'USD')).toThrow(/too large/);
    expect(toMinor('90071992547409.91', 'USD')).toBe(Number.MAX_SAFE_INTEGER);
  });
});

describe('toMajor', () => {
  it('divides by the currency exponent: JPY 0, USD 2, KWD 3', () => {
    expect(toMajor(1250, 'JPY')).toBe(1250);
    expect(toMajor(1999, 'USD')).toBe(19.99);
    expect(toMajor(5, 'USD')).toBe(0.05);
    expect(toMajor(1234, 'KWD')).toBe(1.234);
    expect(toMajor(-325, 'USD')).toBe(-3.25);
    expect(toMajor(0, 'KWD')).toBe(0);
    expect(toMajor(999_999_999_999_999n, 'USD')).toBe(9_999_999_999_999.99);
  });

  it('refuses fractions of a minor unit, unsafe integers and unknown currencies (RangeError)', () => {
    expect(() => toMajor(19.5, 'USD')).toThrow(RangeError);
    expect(() => toMajor(2 ** 53, 'USD')).toThrow(RangeError);
    expect(() => toMajor(100, 'ABC')).toThrow(/Unknown ISO 4217/);
  });

  it('round-trips every amount of every currency: toMinor(toMajor(m)) is m, and toMajor reads as JSON does', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...CURRENCY_CODES),
        fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 }),
        (currency, minor) => {
          const major = toMajor(minor, currency);
          expect(toMinor(major, currency)).toBe(minor);
          const exponent = currencyExponent(currency);
          const digits = String(Math.abs(minor)).padStart(exponent + 1, '0');
          const text = exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
          expect(major).toBe(JSON.parse(`${minor < 0 ? '-' : ''}${text}`));
        },
      ),
      { numRuns: 2000 },
    );
  });
});
