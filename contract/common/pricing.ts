/**
 * How the service prices a line, an invoice or quote, and a bill: one rule for the server (which
 * decides), the SDK and the dashboard (which shows while typing what the server will answer). Integers
 * throughout (BigInt): a quantity is read as an integer of 10^-QUANTITY_PLACES, a tax rate as one of
 * 10^-TAX_RATE_PLACES percent, prices and totals as integers of minor units, so no binary-float error
 * reaches a rounding decision. Reading the numbers (from JSON or from typed text) is each side's own.
 */

/** Decimals a line's quantity may have: the scale of its column. */
export const QUANTITY_PLACES = 4;
/** Decimals a line's tax rate (a percentage) may have: the scale of its column. */
export const TAX_RATE_PLACES = 3;
/** A quantity as an integer is this many times the quantity. */
export const QUANTITY_SCALE = 10n ** BigInt(QUANTITY_PLACES);
/** total x rate (rate scaled by 10^TAX_RATE_PLACES) over this is the tax: the rate is a percentage. */
export const TAX_DENOMINATOR = 100n * 10n ** BigInt(TAX_RATE_PLACES);
/** The highest tax rate, 100 %, as a scaled integer. */
export const MAX_TAX_RATE_SCALED = TAX_DENOMINATOR;
/** Decimals a line's discount (a percentage) may have: the scale of its column. */
export const DISCOUNT_PLACES = 2;
/** A whole line, 100 %, as a discount scaled by 10^DISCOUNT_PLACES. */
export const FULL_DISCOUNT_SCALED = 100n * 10n ** BigInt(DISCOUNT_PLACES);

/** numerator / denominator rounded half up: a half goes away from zero (-2.5 is -3, 2.5 is 3). */
export function divideHalfUp(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = (n * 2n + d) / (d * 2n);
  return negative ? -q : q;
}

/** A line priced: its total and tax in minor units, and the tax before rounding. */
export interface LinePrice {
  totalMinor: bigint;
  taxMinor: bigint;
  /** The unrounded tax as numerator over TAX_DENOMINATOR, summed before a document rounds once. */
  taxExact: bigint;
}

/**
 * Line total = quantity x unit price x (100 - discount) / 100, computed exactly and rounded half up
 * once to the minor unit (the discount is never rounded on its own); tax = total x rate / 100, kept
 * exact and rounded half up for the line alone. `quantityScaled` is the quantity x 10^4, `rateScaled`
 * the tax percentage x 10^3, `discountScaled` the discount percentage x 10^2 (none by default).
 */
export function priceLine(
  quantityScaled: bigint,
  unitPriceMinor: bigint,
  rateScaled: bigint,
  discountScaled = 0n,
): LinePrice {
  const totalMinor = divideHalfUp(
    quantityScaled * unitPriceMinor * (FULL_DISCOUNT_SCALED - discountScaled),
    QUANTITY_SCALE * FULL_DISCOUNT_SCALED,
  );
  const taxExact = totalMinor * rateScaled;
  return { totalMinor, taxMinor: divideHalfUp(taxExact, TAX_DENOMINATOR), taxExact };
}

/** A document's subtotal, tax and total in minor units. */
export interface DocumentPrice {
  subtotalMinor: bigint;
  taxMinor: bigint;
  totalMinor: bigint;
}

/**
 * An invoice's, quote's or credit note's totals: the line totals (after their discounts) summed, the
 * exact line taxes summed and rounded half up once.
 */
export function priceDocument(lines: readonly Pick<LinePrice, 'totalMinor' | 'taxExact'>[]): DocumentPrice {
  let subtotalMinor = 0n;
  let taxExact = 0n;
  for (const line of lines) {
    subtotalMinor += line.totalMinor;
    taxExact += line.taxExact;
  }
  const taxMinor = divideHalfUp(taxExact, TAX_DENOMINATOR);
  return { subtotalMinor, taxMinor, totalMinor: subtotalMinor + taxMinor };
}

/**
 * A bill's amount: each item's quantity x unit price summed exactly, rounded half up once (so it may
 * differ by a minor unit from the sum of the items as each is shown, rounded on its own).
 */
export function priceBill(items: readonly { quantityScaled: bigint; unitPriceMinor: bigint }[]): bigint {
  const exact = items.reduce((sum, item) => sum + item.quantityScaled * item.unitPriceMinor, 0n);
  return divideHalfUp(exact, QUANTITY_SCALE);
}

/**
 * A bill with input tax: its subtotal as `priceBill`, its tax the items' exact taxes (quantity x unit
 * price x rate, never rounded on the way) summed and rounded half up once, its total their sum. An item's
 * own tax (shown on its line) is its exact tax rounded on its own. `rateScaled` is the percentage x 10^3.
 */
export function priceBillWithTax(
  items: readonly { quantityScaled: bigint; unitPriceMinor: bigint; rateScaled: bigint }[],
): DocumentPrice & { itemTaxes: bigint[] } {
  const subtotalMinor = priceBill(items);
  const denominator = QUANTITY_SCALE * TAX_DENOMINATOR;
  let taxExact = 0n;
  const itemTaxes = items.map((item) => {
    const exact = item.quantityScaled * item.unitPriceMinor * item.rateScaled;
    taxExact += exact;
    return divideHalfUp(exact, denominator);
  });
  const taxMinor = divideHalfUp(taxExact, denominator);
  return { subtotalMinor, taxMinor, totalMinor: subtotalMinor + taxMinor, itemTaxes };
}
