import type { CreditNote } from '../../../contract/general/credit-notes.js';
import type { CreditNoteFacts } from '../../platform/hooks.js';
import { toMajor } from '../../platform/money.js';
import type { Selectable } from 'kysely';
import type { CreditNotesTable } from '../../platform/db/types.js';
import { toLine } from '../documents/mappers.js';
import type { LineRow } from '../documents/queries.js';

export type CreditNoteRow = Selectable<CreditNotesTable>;
export type CreditNoteRowWithNames = CreditNoteRow & { customer_name: string; invoice_number: string };

export function toCreditNote(row: CreditNoteRowWithNames, items: LineRow[], hostedUrl: string): CreditNote {
  const money = (minor: number) => toMajor(Number(minor), row.currency);
  return {
    id: row.id,
    number: row.number,
    invoice_id: row.invoice_id,
    invoice_number: row.invoice_number,
    customer_id: row.customer_id,
    customer: { id: row.customer_id, name: row.customer_name },
    status: row.status,
    currency: row.currency,
    issue_date: row.issue_date,
    reason: row.reason,
    items: items.map((item) => toLine(item, row.currency)),
    subtotal: money(row.subtotal_minor),
    tax: money(row.tax_minor),
    total: money(row.total_minor),
    credit_amount: money(row.credit_minor),
    refund_amount: money(row.refund_minor),
    refund_method: row.refund_method,
    refund:
      row.refund_method && row.refund_status
        ? {
            amount: money(row.refund_minor),
            method: row.refund_method,
            status: row.refund_status,
            provider: row.refund_provider,
            provider_refund_id: row.refund_provider_id,
          }
        : null,
    customer_credit_amount: money(row.customer_credit_minor),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
    voided_at: row.voided_at ? row.voided_at.toISOString() : null,
    sent_at: row.sent_at ? row.sent_at.toISOString() : null,
    hosted_url: hostedUrl,
  };
}

/** The credit note as other domains see it through the hooks (minor units). */
export function factsOf(row: CreditNoteRow, invoiceNumber: string): CreditNoteFacts {
  return {
    id: row.id,
    number: row.number,
    invoiceId: row.invoice_id,
    invoiceNumber,
    customerId: row.customer_id,
    currency: row.currency,
    issueDate: row.issue_date,
    subtotalMinor: Number(row.subtotal_minor),
    taxMinor: Number(row.tax_minor),
    totalMinor: Number(row.total_minor),
    creditMinor: Number(row.credit_minor),
    refundMinor: Number(row.refund_minor),
    refundMethod: row.refund_method,
    refundPending: row.refund_status === 'pending',
    customerCreditMinor: Number(row.customer_credit_minor),
  };
}
