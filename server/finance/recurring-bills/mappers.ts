import type { RecurringBill } from '../../../contract/finance/index.js';
import type { RecurringBillRow } from './queries.js';

type ItemRow = {
  description: string;
  quantity: string;
  unit_price: number;
  amount: number;
  tax_rate: string;
  tax: number;
};

export const toRecurringBill = (row: RecurringBillRow, items: ItemRow[]): RecurringBill => ({
  id: row.id,
  vendor_id: row.vendor_id,
  vendor_name: row.vendor_name,
  currency: row.currency,
  items: items.map((item) => ({
    description: item.description,
    quantity: Number(item.quantity),
    unit_price: item.unit_price,
    amount: item.amount,
    tax_rate: Number(item.tax_rate),
    tax: item.tax,
  })),
  amount: row.amount,
  notes: row.notes,
  bills_created: row.bills_created,
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
});
