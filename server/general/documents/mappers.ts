import type { Invoice } from '../../../contract/general/invoices.js';
import { toMajor } from '../../platform/money.js';
import type { LineRow } from './queries.js';

/** A stored line as invoices and quotes show it, amounts in the document's currency. */
export const toLine = (row: LineRow, currency: string): Invoice['items'][number] => ({
  id: row.id,
  product_id: row.product_id,
  description: row.description,
  quantity: Number(row.quantity),
  unit_price: toMajor(Number(row.unit_price_minor), currency),
  tax_rate: Number(row.tax_rate),
  discount_percent: Number(row.discount_percent),
  total: toMajor(Number(row.total_minor), currency),
  tax: toMajor(Number(row.tax_minor), currency),
});
