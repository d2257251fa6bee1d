import type { Statement, StatementQuery } from '../../../contract/general/statements.js';
import { today } from '../../platform/calendar.js';
import type { Ctx } from '../../platform/context.js';
import { invalid, notFound } from '../../platform/errors.js';
import { toMajor } from '../../platform/money.js';
import { baseCurrency } from '../../platform/settings.js';
import { findCustomer } from '../customers/queries.js';
import { documentPdf } from '../documents/delivery.js';
import { changeOf, toStatementLine } from './mappers.js';
import * as queries from './queries.js';

/**
 * A customer's statement (docs/decisions.md D247): the balance before the range, every movement in it
 * with a running balance, and the balance at its end, in one currency.
 */
export async function customerStatement(
  ctx: Ctx,
  customerId: string,
  query: StatementQuery,
): Promise<Statement> {
  const end = query.end_date ?? (await today(ctx));
  const start = query.start_date ?? `${end.slice(0, 8)}01`;
  if (end < start) throw invalid('end_date', 'Must be on or after start_date');
  const currency = query.currency ?? (await baseCurrency(ctx));
  const customer = await findCustomer(ctx.db, ctx.businessId, customerId);
  if (!customer) throw notFound('Customer');
  const scope = { customerId, currency };
  const [opening, rows] = await Promise.all([
    queries.balanceBefore(ctx.db, ctx.businessId, scope, start),
    queries.movesBetween(ctx.db, ctx.businessId, scope, start, end),
  ]);
  let balance = BigInt(opening);
  const sums = { invoice: 0n, payment: 0n, credit_applied: 0n, credit_note: 0n, refund: 0n };
  const lines = rows.map((row) => {
    balance += changeOf(row);
    sums[row.type] += BigInt(row.amount_minor);
    return toStatementLine(row, balance, currency);
  });
  const money = (minor: bigint) => toMajor(Number(minor), currency);
  return {
    customer_id: customer.id,
    customer: { id: customer.id, name: customer.name },
    currency,
    start_date: start,
    end_date: end,
    opening_balance: money(BigInt(opening)),
    lines,
    totals: {
      invoiced: money(sums.invoice),
      paid: money(sums.payment),
      credit_applied: money(sums.credit_applied),
      credited: money(sums.credit_note),
      refunded: money(sums.refund),
    },
    closing_balance: money(balance),
  };
}

/** The statement as a PDF file. */
export async function customerStatementPdf(ctx: Ctx, customerId: string, query: StatementQuery) {
  return documentPdf(ctx, { kind: 'statement', document: await customerStatement(ctx, customerId, query) });
}
