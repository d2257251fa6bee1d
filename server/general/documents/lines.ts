import type { InvoiceItemInput } from '../../../contract/general/invoices.js';
import { type TxCtx } from '../../platform/context.js';
import type { Executor } from '../../platform/db/database.js';
import { invalid } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { invoiceTotals, lineAmounts, toMajor, toMinor, type LineAmounts } from '../../platform/money.js';
import { findCustomer } from '../customers/queries.js';
import { findProducts } from '../products/queries.js';
import { itemsOf, replaceItems, type LineRow, type LineTable } from './queries.js';

/**
 * What invoices and quotes share: lines priced from their input (products filled in, prices in minor
 * units, each line rounded half up), written to the document's line table, the document's totals,
 * and the checks of its customer and dates.
 */

export interface PricedLine {
  product_id: string | null;
  description: string;
  quantity: number;
  unit_price_minor: number;
  tax_rate: number;
  discount_percent: number;
  amounts: LineAmounts;
}

export interface Totals {
  subtotal_minor: number;
  tax_minor: number;
  total_minor: number;
}

/** Fills lines from their products, converts prices to minor units and rounds each line half-up. */
export async function priceLines(
  ctx: TxCtx,
  items: InvoiceItemInput[],
  currency: string,
): Promise<PricedLine[]> {
  const productIds = [...new Set(items.flatMap((i) => (i.product_id ? [i.product_id] : [])))];
  const products = new Map((await findProducts(ctx.db, ctx.businessId, productIds)).map((p) => [p.id, p]));
  return items.map((item, index) => {
    const field = (name: string) => `items.${index}.${name}`;
    const product = item.product_id ? products.get(item.product_id) : undefined;
    if (item.product_id && !product) throw invalid(field('product_id'), 'Unknown product');
    const description = item.description ?? product?.name;
    if (!description) throw invalid(field('description'), 'Required unless product_id is given');
    let unitPriceMinor: number;
    if (item.unit_price !== undefined) {
      unitPriceMinor = toMinor(item.unit_price, currency, field('unit_price'));
    } else if (product) {
      if (product.currency !== currency) {
        throw invalid(
          field('unit_price'),
          `Required: the product is priced in ${product.currency}, the invoice in ${currency}`,
        );
      }
      unitPriceMinor = Number(product.price_minor);
    } else {
      throw invalid(field('unit_price'), 'Required unless product_id is given');
    }
    const taxRate = item.tax_rate ?? 0;
    const discount = item.discount_percent ?? 0;
    return {
      product_id: product?.id ?? null,
      description,
      quantity: item.quantity,
      unit_price_minor: unitPriceMinor,
      tax_rate: taxRate,
      discount_percent: discount,
      amounts: lineAmounts(item.quantity, unitPriceMinor, taxRate, `items.${index}`, currency, discount),
    };
  });
}

/** The invoice's totals; one beyond what an amount may be is refused (422 naming `items`). */
export function totalsOf(lines: PricedLine[], currency: string): Totals {
  const totals = invoiceTotals(
    lines.map((l) => l.amounts),
    'items',
    currency,
  );
  return { subtotal_minor: totals.subtotalMinor, tax_minor: totals.taxMinor, total_minor: totals.totalMinor };
}

export async function requireCustomer(db: Executor, businessId: string, customerId: string): Promise<void> {
  if (!(await findCustomer(db, businessId, customerId))) throw invalid('customer_id', 'Unknown customer');
}

export function checkDates(issueDate: string | null | undefined, dueDate: string): void {
  if (issueDate && dueDate < issueDate) throw invalid('due_date', 'Must not be before issue_date');
}

/** A line as invoices and quotes store it: minor units, its own rounded total and tax. */
export interface StoredLine {
  product_id: string | null;
  description: string;
  quantity: string;
  unit_price_minor: number;
  tax_rate: string;
  discount_percent: string;
  total_minor: number;
  tax_minor: number;
}

export const storedLines = (lines: PricedLine[]): StoredLine[] =>
  lines.map((line) => ({
    product_id: line.product_id,
    description: line.description,
    quantity: String(line.quantity),
    unit_price_minor: line.unit_price_minor,
    tax_rate: String(line.tax_rate),
    discount_percent: String(line.discount_percent),
    total_minor: line.amounts.totalMinor,
    tax_minor: line.amounts.taxMinor,
  }));

/** A stored line carried over as it is (an accepted quote's lines on its invoice). */
export const storedLineOf = (row: LineRow): StoredLine => ({
  product_id: row.product_id,
  description: row.description,
  quantity: row.quantity,
  unit_price_minor: row.unit_price_minor,
  tax_rate: row.tax_rate,
  discount_percent: row.discount_percent,
  total_minor: row.total_minor,
  tax_minor: row.tax_minor,
});

/** Replaces the document's lines with `lines`, numbered in their order. */
export async function writeLines(
  ctx: TxCtx,
  table: LineTable,
  documentId: string,
  lines: StoredLine[],
): Promise<void> {
  await replaceItems(
    ctx.db,
    ctx.businessId,
    table,
    documentId,
    lines.map((line, position) => ({ business_id: ctx.businessId, id: newId('item'), position, ...line })),
  );
}

/** A stored line as create input, so a currency change re-prices it through the same path. */
export function asInput(row: LineRow, currency: string): InvoiceItemInput {
  return {
    ...(row.product_id ? { product_id: row.product_id } : {}),
    description: row.description,
    quantity: Number(row.quantity),
    unit_price: toMajor(Number(row.unit_price_minor), currency),
    tax_rate: Number(row.tax_rate),
    discount_percent: Number(row.discount_percent),
  };
}

/**
 * A draft's lines after an update: with new `items`, or a new currency (its lines re-priced in it),
 * the lines are written in place of the old and their totals returned; otherwise nothing changes.
 */
export async function updateLines(
  ctx: TxCtx,
  table: LineTable,
  document: { id: string; currency: string },
  items: InvoiceItemInput[] | undefined,
  currency: string,
): Promise<Totals | undefined> {
  if (items === undefined && currency === document.currency) return undefined;
  const input =
    items ??
    (await itemsOf(ctx.db, ctx.businessId, table, [document.id])).map((row) =>
      asInput(row, document.currency),
    );
  const lines = await priceLines(ctx, input, currency);
  await writeLines(ctx, table, document.id, storedLines(lines));
  return totalsOf(lines, currency);
}
