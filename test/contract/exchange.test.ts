import { describe, expect, it } from 'vitest';
import {
  crossRate,
  inverseRate,
  normaliseRate,
  rateProblem,
  toBase,
} from '../../contract/common/exchange.js';

/**
 * The conversion rule the server and the dashboard share (contract/common/exchange.ts, docs/decisions.md
 * D278): minor units times a decimal rate, in BigInt, rounded once half away from zero to the base
 * currency's minor unit.
 */

describe('toBase', () => {
  it.each([
    // amount, currency, base, rate, expected: the worked figure in the comment.
    [100000, 'EUR', 'USD', '1.05', 105000], // 1,000.00 EUR x 1.05 = 1,050.00 USD
    [10001, 'EUR', 'USD', '0.8642', 8643], // 100.01 x 0.8642 = 86.428642
    [12345, 'JPY', 'USD', '0.00658', 8123], // 12,345 JPY x 0.00658 = 81.2301 USD
    [12345, 'KWD', 'USD', '3.25', 4012], // 12.345 KWD x 3.25 = 40.12125 USD
    [100, 'USD', 'JPY', '150.5', 151], // 1.00 USD x 150.5 = 150.5 JPY: half away from zero
    [1, 'USD', 'KWD', '0.3075', 3], // 0.01 USD x 0.3075 = 0.003075 KWD: 3.075 fils
    [3, 'EUR', 'USD', '1.5', 5], // 0.03 x 1.5 = 0.045: half up
    [-3, 'EUR', 'USD', '1.5', -5], // and half away from zero below it
    [0, 'EUR', 'USD', '1.5', 0],
    [999_999_999_999_999, 'EUR', 'USD', '1', 999_999_999_999_999],
  ] as const)('%i %s in %s at %s is %i', (amount, currency, base, rate, expected) => {
    expect(toBase(amount, currency, base, rate)).toBe(expected);
  });

  it('refuses what is not a rate or not an amount in minor units, and a result past 2^53', () => {
    expect(() => toBase(100, 'EUR', 'USD', '1,05')).toThrow(/Not an exchange rate/);
    expect(() => toBase(1.5, 'EUR', 'USD', '1.05')).toThrow(/minor units/);
    expect(() => toBase(999_999_999_999_999, 'EUR', 'USD', '100')).toThrow(/out of range/);
  });
});

describe('rates written and refused', () => {
  it('writes a rate plainly', () => {
    expect(normaliseRate('1.0500')).toBe('1.05');
    expect(normaliseRate('007.25')).toBe('7.25');
    expect(normaliseRate('150')).toBe('150');
    expect(normaliseRate('0.000123400')).toBe('0.0001234');
  });

  it.each([
    ['1.05', null],
    ['0.0001234567891', null], // ten significant digits after the leading zeros
    ['1234567890', null],
    ['12345678900000', null], // trailing zeros are not significant
    ['0', 'Must be greater than 0'],
    ['0.000', 'Must be greater than 0'],
    ['1.23456789012', 'Must have at most 10 significant digits'],
    ['-1', 'Must be a positive decimal'],
    ['1,05', 'Must be a positive decimal'],
    ['1e-3', 'Must be a positive decimal'],
    ['.5', 'Must be a positive decimal'],
    ['', 'Must be a positive decimal'],
  ])('%s: %s', (text, problem) => {
    const found = rateProblem(text);
    if (problem === null) expect(found).toBeNull();
    else expect(found).toMatch(problem);
  });
});

describe('crossRate', () => {
  it('turns two quotes per euro into a rate to the base, to 10 significant digits', () => {
    // USD is the base: a pound is 1.1 / 0.85 dollars.
    expect(crossRate('1.1', '0.85')).toBe('1.294117647');
    // A yen in dollars: 1.1 / 160.
    expect(crossRate('1.1', '160')).toBe('0.006875');
    // A dollar in yen: 160 / 1.1 = 145.45454545...
    expect(crossRate('160', '1.1')).toBe('145.4545455');
    // A euro in pounds (the euro quotes 1 per euro).
    expect(crossRate('0.85', '1')).toBe('0.85');
    expect(crossRate('2', '3')).toBe('0.6666666667');
  });

  it('inverts a rate', () => {
    expect(inverseRate('0.8')).toBe('1.25');
    expect(inverseRate('3')).toBe('0.3333333333');
    expect(inverseRate('0.0001')).toBe('10000');
  });

  it('keeps ten significant digits however small the rate', () => {
    // 1 / 0.1000000001 = 9.99999999000000001...: ten digits, the last a zero.
    expect(crossRate('1', '0.1000000001')).toBe('9.99999999');
    // 0.85 / 160 = 0.00531250: the leading zeros are not counted.
    expect(crossRate('0.85', '160')).toBe('0.0053125');
    expect(crossRate('1', '7')).toBe('0.1428571429');
    expect(crossRate('1', '700')).toBe('0.001428571429');
  });
});
