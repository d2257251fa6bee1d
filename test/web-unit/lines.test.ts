import { describe, expect, it } from 'vitest';
import {
  billMinor,
  billTotals,
  decimalText,
  documentTotals,
  exponentOf,
  itemMinor,
  lineAmounts,
  priceMinor,
  scaledDecimal,
} from '../../web/lib/lines.js';

/** The dashboard's live totals: what it reads from the text typed, priced by the shared rule. */

const line = (quantity: string, unit_price: string, tax_rate = '') => ({ quantity, unit_price, tax_rate });

describe('reading what is typed', () => {
  it('reads a decimal with at most the places given, trailing zeros aside', () => {
    expect(scaledDecimal('1.25', 4)).toBe(12_500n);
    expect(scaledDecimal(' 2 ', 4)).toBe(20_000n);
    expect(scaledDecimal('.5', 4)).toBe(5_000n);
    expect(scaledDecimal('1.50000', 4)).toBe(15_000n);
    expect(scaledDecimal('1.00001', 4)).toBeNull();
    expect(scaledDecimal('-1', 4)).toBeNull();
    expect(scaledDecimal('', 4)).toBeNull();
    expect(scaledDecimal('abc', 4)).toBeNull();
  });

  it("reads a price in the currency's minor unit (USD 2, JPY 0, KWD 3 decimals)", () => {
    expect(priceMinor('19.99', 'USD')).toBe(1999n);
    expect(priceMinor('1250', 'JPY')).toBe(1250n);
    expect(priceMinor('12.5', 'JPY')).toBeNull();
    expect(priceMinor('1.234', 'KWD')).toBe(1234n);
    expect(priceMinor('1.2345', 'KWD')).toBeNull();
    expect(priceMinor('.', 'USD')).toBeNull();
    expect([exponentOf('USD'), exponentOf('JPY'), exponentOf('KWD')]).toEqual([2, 0, 3]);
  });

  it('writes an amount back in the currency decimals', () => {
    expect(decimalText(24.5, 'USD')).toBe('24.50');
    expect(decimalText(1250, 'JPY')).toBe('1250');
    expect(decimalText(0.005, 'KWD')).toBe('0.005');
  });
});

describe('an invoice or quote as typed', () => {
  it('prices a line half up, with tax', () => {
    expect(lineAmounts(line('1.005', '1.00'), 'USD')).toEqual({
      totalMinor: 101n,
      taxMinor: 0n,
      taxExact: 0n,
    });
    expect(lineAmounts(line('1', '1.50', '5'), 'USD')?.taxMinor).toBe(8n);
  });

  it('shows nothing while a line cannot be priced: empty, zero, a rate above 100 %', () => {
    expect(lineAmounts(line('', '1.00'), 'USD')).toBeNull();
    expect(lineAmounts(line('0', '1.00'), 'USD')).toBeNull();
    expect(lineAmounts(line('1', '1.00', '100.001'), 'USD')).toBeNull();
    expect(documentTotals([line('1', '1.00'), line('1', '')], 'USD')).toBeNull();
  });

  it('rounds the summed tax once', () => {
    const tenCents = line('1', '0.10', '5');
    expect(documentTotals([tenCents, tenCents, tenCents], 'USD')).toEqual({
      subtotalMinor: 30n,
      taxMinor: 2n,
      totalMinor: 32n,
    });
  });
});

describe('a bill as typed', () => {
  it('prices each item half up and the bill from the exact sum', () => {
    const half = { quantity: '0.5', unit_price: '0.01' };
    expect(itemMinor(half, 'USD')).toBe(1n);
    expect(billMinor([half, half], 'USD')).toBe(1n);
    expect(billMinor([{ quantity: '2.5', unit_price: '1' }], 'JPY')).toBe(3n);
  });

  it('shows nothing while an item cannot be priced', () => {
    expect(itemMinor({ quantity: '1', unit_price: '1.001' }, 'USD')).toBeNull();
    expect(billMinor([{ quantity: '0', unit_price: '1' }], 'USD')).toBeNull();
  });

  it('prices input tax from the exact sum of the items, rounded half up once', () => {
    // 3 x 33.33 = 99.99 at 20 %: 19.998; 1 x 0.05 at 12.5 %: 0.00625. Subtotal 100.04; tax 20.00425,
    // rounded once: 20.00 (each item's tax alone: 20.00 and 0.01, which would sum to 20.01).
    const totals = billTotals(
      [
        { quantity: '3', unit_price: '33.33', tax_rate: '20' },
        { quantity: '1', unit_price: '0.05', tax_rate: '12.5' },
      ],
      'USD',
    );
    expect(totals).toEqual({
      subtotalMinor: 10004n,
      taxMinor: 2000n,
      totalMinor: 12004n,
      itemTaxes: [2000n, 1n],
    });
    // No rate typed is none: the subtotal is billMinor's amount.
    const half = { quantity: '0.5', unit_price: '0.01' };
    expect(billTotals([half, { ...half, tax_rate: '' }], 'USD')).toEqual({
      subtotalMinor: billMinor([half, half], 'USD'),
      taxMinor: 0n,
      totalMinor: 1n,
      itemTaxes: [0n, 0n],
    });
  });

  it('shows no totals while a tax rate is not one: above 100 %, more than 3 decimals, not a number', () => {
    for (const tax_rate of ['100.001', '7.1234', 'x', '-5'])
      expect(billTotals([{ quantity: '1', unit_price: '10', tax_rate }], 'USD')).toBeNull();
    expect(billTotals([{ quantity: '1', unit_price: '10', tax_rate: '100' }], 'USD')?.totalMinor).toBe(2000n);
  });
});
