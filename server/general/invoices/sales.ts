import type { Ctx } from '../../platform/context.js';
import { today } from '../../platform/calendar.js';
import { reportedStatus } from './mappers.js';
import * as queries from './sales.queries.js';

/** An issued invoice as the finance reports list it: net amount in minor units. */
export interface SalesItem {
  invoiceId: string;
  invoiceNumber: string;
  clientName: string;
  issueDate: string;
  amount: number;
  currency: string;
  status: 'unpaid' | 'paid' | 'overdue';
}

/**
 * Issued, non-void invoices of a currency (null: of every currency, each in its own) issued in the
 * range, by issue date then number, paged.
 */
export async function salesItems(ctx: Ctx, query: queries.SalesItemsQuery): Promise<SalesItem[]> {
  const [on, rows] = await Promise.all([today(ctx), queries.salesItems(ctx.db, ctx.businessId, query)]);
  return rows.map((row) => ({
    invoiceId: row.id,
    invoiceNumber: row.number,
    clientName: row.customer_name,
    issueDate: row.issue_date ?? '',
    amount: row.subtotal_minor,
    currency: row.currency,
    status: reportedStatus(row, on),
  }));
}
