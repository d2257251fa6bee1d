import type { InvoiceFacts } from '../../platform/hooks.js';
import type { Invoice, Payment } from '../../../contract/general/invoices.js';
import { rateOrNull } from '../../../contract/common/exchange.js';
import { isOverdue } from '../../platform/due.js';
import { toMajor } from '../../platform/money.js';
import type { InvoiceRow, PaymentRow } from '../../platform/db/types.js';
import { toLine } from '../documents/mappers.js';
import type { LineRow } from '../documents/queries.js';

export type InvoiceRowWithCustomer = InvoiceRow & { customer_name: string };

export const toPayment = (row: PaymentRow): Payment => ({
  id: row.id,
  invoice_id: row.invoice_id,
  amount: toMajor(Number(row.amount_minor), row.currency),
  currency: row.currency,
  payment_method: row.payment_method as Payment['payment_method'],
  payment_date: row.payment_date,
  reference: row.reference,
  bank_account_id: row.bank_account_id,
  exchange_rate: rateOrNull(row.exchange_rate),
  created_at: row.created_at.toISOString(),
});

/** What the invoice still owes: its total less payments and what credit notes took off it. */
export const amountDueOf = (row: InvoiceRow): number =>
  Number(row.total_minor) - Number(row.amount_paid_minor) - Number(row.amount_credited_minor);

/** `overdue` is derived: an unpaid invoice whose due date is before today. */
export const reportedStatus = <S extends InvoiceRow['status']>(
  row: { status: S; due_date: string },
  today: string,
): S | 'overdue' => (isOverdue(row.status, row.due_date, today, 'unpaid') ? 'overdue' : row.status);

export function toInvoice(
  row: InvoiceRowWithCustomer,
  items: LineRow[],
  payments: PaymentRow[],
  today: string,
  hostedUrl: string | null,
): Invoice {
  const money = (minor: number) => toMajor(Number(minor), row.currency);
  return {
    id: row.id,
    number: row.number,
    customer_id: row.customer_id,
    customer: { id: row.customer_id, name: row.customer_name },
    status: reportedStatus(row, today),
    currency: row.currency,
    exchange_rate: rateOrNull(row.exchange_rate),
    issue_date: row.issue_date,
    due_date: row.due_date,
    notes: row.notes,
    items: items.map((item) => toLine(item, row.currency)),
    subtotal: money(row.subtotal_minor),
    tax: money(row.tax_minor),
    total: money(row.total_minor),
    amount_paid: money(row.amount_paid_minor),
    amount_credited: money(row.amount_credited_minor),
    amount_due: money(amountDueOf(row)),
    credited: row.status === 'paid' && Number(row.amount_credited_minor) > 0,
    payments: payments.map(toPayment),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    issued_at: row.issued_at ? row.issued_at.toISOString() : null,
    paid_at: row.paid_at ? row.paid_at.toISOString() : null,
    voided_at: row.voided_at ? row.voided_at.toISOString() : null,
    sent_at: row.sent_at ? row.sent_at.toISOString() : null,
    recurring_invoice_id: row.recurring_invoice_id,
    hosted_url: hostedUrl,
    viewed_at: row.viewed_at ? row.viewed_at.toISOString() : null,
  };
}

/** The invoice as other domains see it through the hooks (minor units). */
export function factsOf(row: InvoiceRow): InvoiceFacts {
  return {
    id: row.id,
    number: row.number,
    customerId: row.customer_id,
    currency: row.currency,
    exchangeRate: rateOrNull(row.exchange_rate),
    issueDate: row.issue_date,
    subtotalMinor: Number(row.subtotal_minor),
    taxMinor: Number(row.tax_minor),
    totalMinor: Number(row.total_minor),
    amountPaidMinor: Number(row.amount_paid_minor),
    amountCreditedMinor: Number(row.amount_credited_minor),
    creditAppliedMinor: Number(row.credit_applied_minor),
  };
}
