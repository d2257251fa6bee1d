import type { Quote } from '../../../contract/general/quotes.js';
import { toMajor } from '../../platform/money.js';
import { toLine } from '../documents/mappers.js';
import type { LineRow } from '../documents/queries.js';
import type { QuoteWithCustomer } from './queries.js';

/** `expired` is derived: a sent quote whose valid_until is before today. */
export const reportedStatus = (
  row: QuoteWithCustomer | { status: Quote['status']; valid_until: string },
  today: string,
) => (row.status === 'sent' && row.valid_until < today ? 'expired' : row.status);

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function toQuote(
  row: QuoteWithCustomer,
  items: LineRow[],
  today: string,
  hostedUrl: string | null,
): Quote {
  const money = (minor: number) => toMajor(Number(minor), row.currency);
  return {
    id: row.id,
    number: row.number,
    customer_id: row.customer_id,
    customer: { id: row.customer_id, name: row.customer_name },
    status: reportedStatus(row, today),
    currency: row.currency,
    valid_until: row.valid_until,
    notes: row.notes,
    items: items.map((item) => toLine(item, row.currency)),
    subtotal: money(row.subtotal_minor),
    tax: money(row.tax_minor),
    total: money(row.total_minor),
    invoice_id: row.invoice_id,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    sent_at: iso(row.sent_at),
    accepted_at: iso(row.accepted_at),
    declined_at: iso(row.declined_at),
    converted_at: iso(row.converted_at),
    hosted_url: hostedUrl,
    viewed_at: iso(row.viewed_at),
  };
}
