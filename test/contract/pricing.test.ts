import { describe, expect, it } from 'vitest';
import { CURRENCY_EXPONENTS } from '../../contract/common/currencies.js';
import {
  divideHalfUp,
  priceBill,
  priceDocument,
  priceLine,
  QUANTITY_SCALE,
  TAX_DENOMINATOR,
} from '../../contract/common/pricing.js';

/**
 * The pricing rule the server, the SDK and the dashboard share (contract/common/pricing.ts). Quantities
 * are integers of 10^-4, rates of 10^-3 percent, prices and totals integers of minor units.
 */

const qty = (text: string) => {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole + fraction.padEnd(4, '0'));
};
const rate = (text: string) => {
  const [whole = '0', fraction = ''] = text.split('.');
  return BigInt(whole + fraction.padEnd(3, '0'));
};

describe('divideHalfUp', () => {
  it('divides exactly when there is no remainder', () => {
    expect(divideHalfUp(10n, 2n)).toBe(5n);
    expect(divideHalfUp(0n, 7n)).toBe(0n);
  });

  it('rounds below half down and above half up', () => {
    expect(divideHalfUp(14n, 10n)).toBe(1n);
    expect(divideHalfUp(16n, 10n)).toBe(2n);
    expect(divideHalfUp(1n, 3n)).toBe(0n);
    expect(divideHalfUp(2n, 3n)).toBe(1n);
  });

  it('rounds an exact half up, never to even (0.5 -> 1, 1.5 -> 2, 2.5 -> 3)', () => {
    expect(divideHalfUp(1n, 2n)).toBe(1n);
    expect(divideHalfUp(15n, 10n)).toBe(2n);
    expect(divideHalfUp(25n, 10n)).toBe(3n);
    expect(divideHalfUp(1005n, 10n)).toBe(101n);
    expect(divideHalfUp(1_004_999n, 10_000n)).toBe(100n);
  });

  it('rounds a negative exact half away from zero', () => {
    expect(divideHalfUp(-1n, 2n)).toBe(-1n);
    expect(divideHalfUp(-25n, 10n)).toBe(-3n);
    expect(divideHalfUp(25n, -10n)).toBe(-3n);
    expect(divideHalfUp(-14n, 10n)).toBe(-1n);
  });
});

describe('priceLine', () => {
  it('multiplies quantity by unit price and taxes the total at the rate (a percentage)', () => {
    expect(priceLine(qty('3'), 15_000n, rate('20'))).toEqual({
      totalMinor: 45_000n,
      taxMinor: 9_000n,
      taxExact: 45_000n * 20_000n,
    });
  });

  it('rounds a line total at exactly half a minor unit up: 1.005 x 1.00 USD is 101 cents', () => {
    expect(priceLine(qty('1.005'), 100n, 0n).totalMinor).toBe(101n);
    expect(priceLine(qty('0.335'), 300n, 0n).totalMinor).toBe(101n);
  });

  it('takes quantities with four decimals', () => {
    expect(priceLine(qty('0.3333'), 300n, 0n).totalMinor).toBe(100n); // 99.99
    expect(priceLine(qty('1.2345'), 1000n, 0n).totalMinor).toBe(1235n); // 1234.5
    expect(priceLine(qty('1.2344'), 1000n, 0n).totalMinor).toBe(1234n); // 1234.4
  });

  it('rounds a line tax at exactly half a minor unit up: 5 % of 1.50 is 8 cents', () => {
    const line = priceLine(qty('1'), 150n, rate('5'));
    expect(line.taxExact).toBe(150n * 5_000n);
    expect(line.taxMinor).toBe(8n);
  });

  it('keeps the tax exact over TAX_DENOMINATOR: 7.125 % of 10.00', () => {
    const line = priceLine(qty('1'), 1000n, rate('7.125'));
    expect(line.taxExact).toBe(1000n * 7125n);
    expect(Number(line.taxExact) / Number(TAX_DENOMINATOR)).toBe(71.25);
    expect(line.taxMinor).toBe(71n);
  });

  it('prices in the minor unit of the currency, whatever its exponent (JPY 0, KWD 3)', () => {
    expect(CURRENCY_EXPONENTS.JPY).toBe(0);
    expect(CURRENCY_EXPONENTS.KWD).toBe(3);
    // 2.5 x 1 JPY is 2.5 yen: 3 yen.
    expect(priceLine(qty('2.5'), 1n, 0n).totalMinor).toBe(3n);
    // 1.5 x 0.001 KWD is 1.5 fils: 2 fils; 10 % of 1.250 KWD is 125 fils.
    expect(priceLine(qty('1.5'), 1n, 0n).totalMinor).toBe(2n);
    expect(priceLine(qty('1'), 1250n, rate('10')).taxMinor).toBe(125n);
  });
});

describe('priceDocument', () => {
  it('sums the exact line taxes and rounds once, not line by line', () => {
    // Three lines of 5 % of 0.10 USD: 0.5 cent each, 1.5 cents together: 2 cents (rounded each: 3).
    const line = priceLine(qty('1'), 10n, rate('5'));
    expect(line.taxMinor).toBe(1n);
    expect(priceDocument([line, line, line])).toEqual({ subtotalMinor: 30n, taxMinor: 2n, totalMinor: 32n });
  });

  it('is zero for no lines', () => {
    expect(priceDocument([])).toEqual({ subtotalMinor: 0n, taxMinor: 0n, totalMinor: 0n });
  });

  it('adds the subtotal and the tax into the total', () => {
    const lines = [priceLine(qty('3'), 15_000n, rate('20')), priceLine(qty('2'), 1250n, rate('7.5'))];
    expect(priceDocument(lines)).toEqual({ subtotalMinor: 47_500n, taxMinor: 9188n, totalMinor: 56_688n });
  });
});

describe('priceBill', () => {
  it('sums the exact item amounts and rounds half up once', () => {
    // 0.5 cent + 0.5 cent: 1 cent (each rounded alone: 1 + 1).
    const half = { quantityScaled: qty('0.5'), unitPriceMinor: 1n };
    expect(priceBill([half, half])).toBe(1n);
    expect(priceBill([half])).toBe(1n);
  });

  it('takes quantities with decimals', () => {
    expect(priceBill([{ quantityScaled: qty('1.2345'), unitPriceMinor: 1000n }])).toBe(1235n);
    expect(QUANTITY_SCALE).toBe(10_000n);
  });

  it('is zero for no items', () => {
    expect(priceBill([])).toBe(0n);
  });
});

describe('priceLine with a discount', () => {
  const discount = (text: string) => {
    const [whole = '0', fraction = ''] = text.split('.');
    return BigInt(whole + fraction.padEnd(2, '0'));
  };

  it('takes the discount off the line before tax: 10 % off 3 x 150.00 at 20 % tax', () => {
    const line = priceLine(qty('3'), 15_000n, rate('20'), discount('10'));
    expect(line.totalMinor).toBe(40_500n);
    expect(line.taxMinor).toBe(8_100n);
  });

  it('rounds once, on the exact discounted amount: 33.33 % off 1.00 is 0.67 (0.6667)', () => {
    expect(priceLine(qty('1'), 100n, 0n, discount('33.33')).totalMinor).toBe(67n);
    // 1.005 x 1.00 at 50 % off: 0.5025, once: 50 cents (rounded first to 1.01, then halved: 51).
    expect(priceLine(qty('1.005'), 100n, 0n, discount('50')).totalMinor).toBe(50n);
  });

  it('rounds an exact half up: 12.5 % off 0.04 is 3.5 cents, 4', () => {
    expect(priceLine(qty('1'), 4n, 0n, discount('12.5')).totalMinor).toBe(4n);
  });

  it('is the whole line at 0 % and nothing at 100 %', () => {
    expect(priceLine(qty('2'), 999n, rate('20'), 0n)).toEqual(priceLine(qty('2'), 999n, rate('20')));
    expect(priceLine(qty('2'), 999n, rate('20'), discount('100'))).toEqual({
      totalMinor: 0n,
      taxMinor: 0n,
      taxExact: 0n,
    });
  });

  it('sums discounted lines into a subtotal after discounts', () => {
    const lines = [priceLine(qty('1'), 10_000n, rate('10'), discount('25')), priceLine(qty('1'), 5_000n, 0n)];
    expect(priceDocument(lines)).toEqual({ subtotalMinor: 12_500n, taxMinor: 750n, totalMinor: 13_250n });
  });
});
