import { describe, expect, it } from 'vitest';
import {
  invoiceTax,
  invoiceTotals,
  lineAmounts,
  MAX_MINOR,
  maxMajorText,
  percentOf,
  TAX_DENOMINATOR,
  toMajor,
  toMinor,
} from '../../server/platform/money.js';
import { ApiError } from '../../server/platform/errors.js';

/** The amounts of an invoice line `items.0` of a USD invoice. */
const amounts = (quantity: number, unitPriceMinor: number, taxRate: number) =>
  lineAmounts(quantity, unitPriceMinor, taxRate, 'items.0', 'USD');

/** The ApiError `fn` throws, so its code, status and details can be asserted. */
function thrownBy(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('expected an ApiError to be thrown');
}

describe('toMinor', () => {
  it('scales by the ISO 4217 exponent: JPY 0, USD 2, KWD 3', () => {
    expect(toMinor(1500, 'JPY', 'amount')).toBe(1500);
    expect(toMinor(19.99, 'USD', 'amount')).toBe(1999);
    expect(toMinor(19.9, 'USD', 'amount')).toBe(1990);
    expect(toMinor(19, 'USD', 'amount')).toBe(1900);
    expect(toMinor(1.234, 'KWD', 'amount')).toBe(1234);
    expect(toMinor(1.2, 'KWD', 'amount')).toBe(1200);
    expect(toMinor(0, 'USD', 'amount')).toBe(0);
  });

  it('converts values whose float product is inexact without drift (19.99 -> 1999, 0.29 -> 29, 1.1 -> 110)', () => {
    // Each of these multiplied by 100 in binary floating point is off by a hair (19.99 * 100 = 1998.9999...).
    expect(19.99 * 100).not.toBe(1999);
    expect(toMinor(19.99, 'USD', 'amount')).toBe(1999);
    expect(0.29 * 100).not.toBe(29);
    expect(toMinor(0.29, 'USD', 'amount')).toBe(29);
    expect(1.1 * 100).not.toBe(110);
    expect(toMinor(1.1, 'USD', 'amount')).toBe(110);
    expect(toMinor(4.35, 'KWD', 'amount')).toBe(4350);
  });

  it('keeps the sign of negative amounts', () => {
    expect(toMinor(-19.99, 'USD', 'amount')).toBe(-1999);
    expect(toMinor(-3, 'JPY', 'amount')).toBe(-3);
  });

  it('handles large amounts exactly', () => {
    expect(toMinor(1_000_000_000_000, 'USD', 'amount')).toBe(100_000_000_000_000);
    expect(toMinor(123_456_789.12, 'USD', 'amount')).toBe(12_345_678_912);
  });

  it('refuses more decimals than the currency has with VALIDATION_ERROR naming the field', () => {
    const error = thrownBy(() => toMinor(1.005, 'USD', 'items.0.unit_price'));
    expect(error.code).toBe('VALIDATION_ERROR');
    expect(error.status).toBe(422);
    expect(error.details).toEqual([{ field: 'items.0.unit_price', message: expect.any(String) }]);
    expect(error.details?.[0]?.message).toContain('USD');
  });

  it('refuses 1.005 USD (100.5 cents) rather than rounding it', () => {
    expect(thrownBy(() => toMinor(1.005, 'USD', 'amount')).details?.[0]?.field).toBe('amount');
  });

  it('refuses the float 0.1 + 0.2 (0.30000000000000004), yet accepts 0.3', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(thrownBy(() => toMinor(0.1 + 0.2, 'USD', 'amount')).code).toBe('VALIDATION_ERROR');
    expect(toMinor(0.3, 'USD', 'amount')).toBe(30);
  });

  it('refuses any decimal for JPY and a fourth decimal for KWD', () => {
    expect(thrownBy(() => toMinor(1500.5, 'JPY', 'price')).details?.[0]?.field).toBe('price');
    expect(thrownBy(() => toMinor(1.2345, 'KWD', 'amount')).details?.[0]?.field).toBe('amount');
  });

  it('refuses tiny fractions written in exponent notation (1e-7)', () => {
    expect(String(1e-7)).toBe('1e-7');
    expect(thrownBy(() => toMinor(1e-7, 'USD', 'amount')).code).toBe('VALIDATION_ERROR');
  });
});

describe('toMajor', () => {
  it('scales back by the exponent: JPY 0, USD 2, KWD 3', () => {
    expect(toMajor(1500, 'JPY')).toBe(1500);
    expect(toMajor(1999, 'USD')).toBe(19.99);
    expect(toMajor(1, 'USD')).toBe(0.01);
    expect(toMajor(1234, 'KWD')).toBe(1.234);
    expect(toMajor(1, 'KWD')).toBe(0.001);
    expect(toMajor(0, 'USD')).toBe(0);
    expect(toMajor(-1999, 'USD')).toBe(-19.99);
  });

  it('round-trips with toMinor for every two-decimal amount', () => {
    for (const amount of [0.01, 0.07, 0.1, 0.29, 1.1, 19.99, 123_456.78, 999_999.99]) {
      expect(toMajor(toMinor(amount, 'USD', 'amount'), 'USD')).toBe(amount);
    }
    for (const amount of [0.001, 0.005, 1.234, 4.35, 99.999]) {
      expect(toMajor(toMinor(amount, 'KWD', 'amount'), 'KWD')).toBe(amount);
    }
  });
});

describe('percentOf', () => {
  it.each([
    [400n, 1650n, 24.24],
    [1n, 3n, 33.33],
    [2n, 3n, 66.67],
    [1n, 8n, 12.5],
    [1n, 800n, 0.13],
    [0n, 5n, 0],
    [5n, 5n, 100],
  ])('gives %i of %i as %d percent', (part, whole, percent) => {
    expect(percentOf(part, whole)).toBe(percent);
  });

  it.each([
    [5_669_757_953_339n, 6_441_076_913_762n, 88.02],
    [7_601_592_118_936n, 8_955_165_363_652n, 84.88],
  ])(
    'rounds %i of %i exactly (%d), where a float quotient lands on the half and rounds up',
    (part, whole, percent) => {
      expect(percentOf(part, whole)).toBe(percent);
      expect(Math.round((Number(part) * 10_000) / Number(whole)) / 100).not.toBe(percent);
    },
  );
});

describe('lineAmounts', () => {
  it('multiplies quantity by the unit price and taxes the line total', () => {
    const line = amounts(3, 15_000, 20);
    expect(line.totalMinor).toBe(45_000);
    expect(line.taxMinor).toBe(9_000);
    expect(line.taxExact).toBe(45_000n * 20_000n);
  });

  it('defaults to no tax at rate 0', () => {
    expect(amounts(2, 1250, 0)).toEqual({ totalMinor: 2500, taxMinor: 0, taxExact: 0n });
  });

  it('rounds the line total half-up: 1.005 x 1.00 is 100.5 cents -> 101 (float maths would give 100)', () => {
    expect(Math.round(1.005 * 100)).toBe(100);
    expect(amounts(1.005, 100, 0).totalMinor).toBe(101);
  });

  it('rounds 0.335 x 3.00 (100.5 cents) half-up to 101', () => {
    expect(amounts(0.335, 300, 0).totalMinor).toBe(101);
  });

  it('accepts quantities with four decimals and rounds their totals half-up', () => {
    expect(amounts(0.3333, 300, 0).totalMinor).toBe(100); // 99.99
    expect(amounts(1.2345, 1000, 0).totalMinor).toBe(1235); // 1234.5
    expect(amounts(1.2344, 1000, 0).totalMinor).toBe(1234); // 1234.4
    expect(amounts(2.5, 1, 0).totalMinor).toBe(3); // 2.5 yen
  });

  it('refuses a quantity with more than four decimals or a tax rate with more than three (422 naming it)', () => {
    expect(thrownBy(() => amounts(1.00001, 100, 0)).details).toEqual([
      { field: 'items.0.quantity', message: expect.any(String) },
    ]);
    expect(thrownBy(() => amounts(1, 100, 7.0001)).details).toEqual([
      { field: 'items.0.tax_rate', message: expect.any(String) },
    ]);
  });

  it('counts decimals exactly, without a float tolerance: 1.0000000000000002 has sixteen', () => {
    expect(1.0000000000000002).not.toBe(1);
    expect(thrownBy(() => amounts(1.0000000000000002, 100, 0)).details?.[0]?.field).toBe('items.0.quantity');
    expect(thrownBy(() => amounts(1, 100, 1.0000000000000002)).details?.[0]?.field).toBe('items.0.tax_rate');
    expect(thrownBy(() => amounts(1e-5, 100, 0)).details?.[0]?.field).toBe('items.0.quantity');
    expect(amounts(1e-4, 10_000, 0).totalMinor).toBe(1);
  });

  it('refuses a line total beyond MAX_MINOR (422 naming the line) and accepts one exactly at it', () => {
    expect(amounts(1, MAX_MINOR, 100)).toMatchObject({ totalMinor: MAX_MINOR, taxMinor: MAX_MINOR });
    const error = thrownBy(() => amounts(1_000_000, 1_000_000_000, 0));
    expect(error.details).toEqual([
      { field: 'items.0', message: expect.stringContaining('9999999999999.99 USD') },
    ]);
    expect(thrownBy(() => amounts(2, 500_000_000_000_000, 0)).details?.[0]?.field).toBe('items.0');
    expect(amounts(0.5, 1_999_999_999_999_998, 0).totalMinor).toBe(MAX_MINOR);
  });

  it('rounds the line tax half-up from the tax rate', () => {
    expect(amounts(1, 150, 5).taxMinor).toBe(8); // 7.5
    expect(amounts(1, 10, 5).taxMinor).toBe(1); // 0.5
    expect(amounts(1, 14, 10).taxMinor).toBe(1); // 1.4
    expect(amounts(1, 1000, 7.5).taxMinor).toBe(75); // 75 exactly
    expect(amounts(1, 1001, 7.25).taxMinor).toBe(73); // 72.5725
    expect(amounts(1, 100, 12.345).taxMinor).toBe(12); // 12.345
  });

  it('taxes the rounded line total, keeping the unrounded tax exact', () => {
    const line = amounts(1.005, 100, 50); // total 101 after rounding, tax 50.5 -> 51
    expect(line.totalMinor).toBe(101);
    expect(line.taxMinor).toBe(51);
    expect(line.taxExact).toBe(101n * 50_000n);
    expect(Number(line.taxExact) / Number(TAX_DENOMINATOR)).toBe(50.5);
  });
});

describe('MAX_MINOR: the largest amount in minor units', () => {
  it('is 15 nines, a safe integer whose major-unit decimal survives a float exactly', () => {
    expect(MAX_MINOR).toBe(999_999_999_999_999);
    expect(Number.isSafeInteger(MAX_MINOR)).toBe(true);
    expect(maxMajorText('USD')).toBe('9999999999999.99');
    expect(maxMajorText('JPY')).toBe('999999999999999');
    expect(maxMajorText('KWD')).toBe('999999999999.999');
    expect(maxMajorText('CLF')).toBe('99999999999.9999');
    for (const currency of ['USD', 'JPY', 'KWD', 'CLF']) {
      const major = toMajor(MAX_MINOR, currency);
      expect(String(major)).toBe(maxMajorText(currency));
      expect(toMinor(major, currency, 'amount')).toBe(MAX_MINOR);
    }
  });

  it('bounds toMinor: one minor unit more is refused (422 naming the field)', () => {
    expect(toMinor(9_999_999_999_999.99, 'USD', 'amount')).toBe(MAX_MINOR);
    const error = thrownBy(() => toMinor(10_000_000_000_000, 'USD', 'amount'));
    expect(error.details).toEqual([
      { field: 'amount', message: expect.stringContaining('9999999999999.99 USD') },
    ]);
    expect(thrownBy(() => toMinor(1_000_000_000_000, 'CLF', 'price')).details?.[0]?.field).toBe('price');
    expect(thrownBy(() => toMinor(1e21, 'JPY', 'price')).details?.[0]?.field).toBe('price');
  });
});

describe('invoiceTotals', () => {
  it('sums the lines exactly and taxes once', () => {
    const lines = [amounts(3, 15_000, 20), amounts(2, 1250, 7.5)];
    expect(invoiceTotals(lines, 'items', 'USD')).toEqual({
      subtotalMinor: 47_500,
      taxMinor: 9188,
      totalMinor: 56_688,
    });
  });

  it('refuses a total beyond MAX_MINOR, tax included (422 naming items), whatever the lines', () => {
    const half = amounts(1, 500_000_000_000_000, 0);
    expect(invoiceTotals([half, amounts(1, 499_999_999_999_999, 0)], 'items', 'USD').totalMinor).toBe(
      MAX_MINOR,
    );
    expect(thrownBy(() => invoiceTotals([half, half], 'items', 'USD')).details?.[0]?.field).toBe('items');
    const taxed = amounts(1, 900_000_000_000_000, 20);
    expect(thrownBy(() => invoiceTotals([taxed], 'items', 'USD')).details?.[0]?.field).toBe('items');
    // 200 lines at the limit: the exact sum, not a float one, is compared.
    const many = Array.from({ length: 200 }, () => amounts(1, MAX_MINOR, 0));
    expect(thrownBy(() => invoiceTotals(many, 'items', 'USD')).code).toBe('VALIDATION_ERROR');
  });
});

describe('invoiceTax', () => {
  it('sums exact item taxes and rounds once: two lines of 0.5 cents make 1 cent, not 2', () => {
    const lines = [amounts(1, 10, 5), amounts(1, 10, 5)];
    expect(lines.map((l) => l.taxMinor)).toEqual([1, 1]);
    expect(invoiceTax(lines)).toBe(1);
  });

  it('rounds the exact sum up where rounding each line would lose it: 3 x 1.4 cents is 4, not 3', () => {
    const lines = [amounts(1, 14, 10), amounts(1, 14, 10), amounts(1, 14, 10)];
    expect(lines.reduce((sum, l) => sum + l.taxMinor, 0)).toBe(3);
    expect(invoiceTax(lines)).toBe(4);
  });

  it('rounds an exact half of the sum up: 3 x 0.5 cents is 1.5 -> 2', () => {
    const lines = [amounts(1, 1, 50), amounts(1, 1, 50), amounts(1, 1, 50)];
    expect(invoiceTax(lines)).toBe(2);
  });

  it('agrees with the line tax for a single line and is 0 for no lines', () => {
    expect(invoiceTax([amounts(3, 15_000, 20)])).toBe(9_000);
    expect(invoiceTax([amounts(1, 150, 5)])).toBe(8);
    expect(invoiceTax([])).toBe(0);
  });

  it('mixes tax rates across lines', () => {
    // 45000 x 20% = 9000 and 2500 x 7.5% = 187.5 -> 9187.5 -> 9188
    expect(invoiceTax([amounts(3, 15_000, 20), amounts(2, 1250, 7.5)])).toBe(9188);
  });
});
