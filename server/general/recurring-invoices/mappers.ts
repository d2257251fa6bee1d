import type { RecurringInvoice } from '../../../contract/general/recurring-invoices.js';
import { toMajor } from '../../platform/money.js';
import { toLine } from '../documents/mappers.js';
import type { LineRow } from '../documents/queries.js';
import type { RecurringInvoiceWithName } from './queries.js';

export function toRecurringInvoice(row: RecurringInvoiceWithName, items: LineRow[]): RecurringInvoice {
  const money = (minor: number) => toMajor(Number(minor), row.currency);
  return {
    id: row.id,
    customer_id: row.customer_id,
    customer: { id: row.customer_id, name: row.customer_name },
    currency: row.currency,
    items: items.map((item) => toLine(item, row.currency)),
    subtotal: money(row.subtotal_minor),
    tax: money(row.tax_minor),
    total: money(row.total_minor),
    notes: row.notes,
    auto_send: row.auto_send,
    invoices_created: row.invoices_created,
    interval: row.interval,
    interval_count: row.interval_count,
    start_date: row.start_date,
    end_after_count: row.end_after_count,
    end_date: row.end_date,
    due_days: row.due_days,
    status: row.status,
    next_run_on: row.next_run_on,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    ended_at: row.ended_at ? row.ended_at.toISOString() : null,
  };
}
