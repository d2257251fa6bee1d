import { type TxCtx } from '../../platform/context.js';
import type { CreditNoteFacts, InvoiceFacts } from '../../platform/hooks.js';
import { addToSalesDay } from './queries.js';

/** One of the 16 rows of a day, picked by the invoice, so an invoice's issue and void meet one row. */
function slotOf(id: string): number {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) | 0;
  return Math.abs(h) % 16;
}

/**
 * Counts an invoice in (sign 1, when issued) or out of (sign -1, when voided) the net revenue of its
 * issue date, in the transaction that changes it.
 */
export async function countSale(ctx: TxCtx, invoice: InvoiceFacts, sign: 1 | -1): Promise<void> {
  if (!invoice.issueDate) throw new Error(`Invoice ${invoice.id} has no issue date`);
  await addToSalesDay(
    ctx.db,
    {
      businessId: ctx.businessId,
      currency: invoice.currency,
      date: invoice.issueDate,
      slot: slotOf(invoice.id),
    },
    sign * invoice.subtotalMinor,
    sign,
  );
}

/**
 * Takes a credit note's net off the revenue of its issue date (sign -1, when issued) or puts it back
 * (sign 1, when voided), counting no invoice (docs/decisions.md D248).
 */
export async function countCreditNote(ctx: TxCtx, creditNote: CreditNoteFacts, sign: 1 | -1): Promise<void> {
  await addToSalesDay(
    ctx.db,
    {
      businessId: ctx.businessId,
      currency: creditNote.currency,
      date: creditNote.issueDate,
      slot: slotOf(creditNote.id),
    },
    sign * creditNote.subtotalMinor,
    0,
  );
}
