import { toBase } from '../../../contract/common/exchange.js';
import { type TxCtx } from '../../platform/context.js';
import type { CreditNoteFacts, InvoiceFacts } from '../../platform/hooks.js';
import { baseCurrency } from '../../platform/settings.js';
import { postedRate } from '../ledger/queries.js';
import { addToSalesDay } from './queries.js';

/** One of the 16 rows of a day, picked by the invoice, so an invoice's issue and void meet one row. */
function slotOf(id: string): number {
  let h = 0;
  for (let i = 0; i < id.length; i++) h = (h * 31 + id.charCodeAt(i)) | 0;
  return Math.abs(h) % 16;
}

/**
 * A document's net in the base currency at the rate its own posting converted at, read after it
 * posted (docs/decisions.md D278): a void takes out exactly what the issue counted, whatever the
 * rates of the void's day. The base currency's documents count at 1, as does one that posted nothing
 * (its amounts are 0).
 */
async function baseAmount(
  ctx: TxCtx,
  document: { type: 'invoice' | 'credit_note'; id: string; currency: string },
  amount: number,
): Promise<number> {
  const base = await baseCurrency(ctx);
  if (document.currency === base) return amount;
  const rate = await postedRate(ctx.db, ctx.businessId, document.type, document.id);
  return toBase(amount, document.currency, base, rate ?? '1');
}

/**
 * Counts an invoice in (sign 1, when issued) or out of (sign -1, when voided) the net revenue of its
 * issue date, in its currency and in the base currency, in the transaction that changes it.
 */
export async function countSale(ctx: TxCtx, invoice: InvoiceFacts, sign: 1 | -1): Promise<void> {
  if (!invoice.issueDate) throw new Error(`Invoice ${invoice.id} has no issue date`);
  const base = await baseAmount(
    ctx,
    { type: 'invoice', id: invoice.id, currency: invoice.currency },
    invoice.subtotalMinor,
  );
  await addToSalesDay(
    ctx.db,
    {
      businessId: ctx.businessId,
      currency: invoice.currency,
      date: invoice.issueDate,
      slot: slotOf(invoice.id),
    },
    { revenue: sign * invoice.subtotalMinor, baseRevenue: sign * base, invoices: sign },
  );
}

/**
 * Takes a credit note's net off the revenue of its issue date (sign -1, when issued) or puts it back
 * (sign 1, when voided), counting no invoice (docs/decisions.md D248). In the base currency at the
 * rate of its own posting, which is its invoice's (docs/decisions.md D278).
 */
export async function countCreditNote(ctx: TxCtx, creditNote: CreditNoteFacts, sign: 1 | -1): Promise<void> {
  const base = await baseAmount(
    ctx,
    { type: 'credit_note', id: creditNote.id, currency: creditNote.currency },
    creditNote.subtotalMinor,
  );
  await addToSalesDay(
    ctx.db,
    {
      businessId: ctx.businessId,
      currency: creditNote.currency,
      date: creditNote.issueDate,
      slot: slotOf(creditNote.id),
    },
    { revenue: sign * creditNote.subtotalMinor, baseRevenue: sign * base, invoices: 0 },
  );
}
