import type { StatementLine } from '../../../contract/general/statements.js';
import { toMajor } from '../../platform/money.js';
import type { MoveRow } from './queries.js';

/** How a payment or refund method reads on a line: `bank_transfer` -> "bank transfer". */
const methodWords = (method: string | null) => (method ?? '').replaceAll('_', ' ');

function describe(row: MoveRow): string {
  switch (row.type) {
    case 'invoice':
      return `Invoice ${row.number}`;
    case 'payment':
      return `Payment on ${row.number} (${methodWords(row.method)})`;
    case 'credit_applied':
      return `Credit applied to ${row.number}`;
    case 'credit_note':
      return `Credit note ${row.number} on ${row.invoice_number ?? ''}`;
    case 'refund':
      return `Refund of ${row.number} (${methodWords(row.method)})`;
  }
}

/**
 * How a movement changes what the customer owes (docs/decisions.md D247): invoices and refunds add,
 * payments and credit notes subtract, customer credit applied changes nothing.
 */
export function changeOf(row: MoveRow): bigint {
  const amount = BigInt(row.amount_minor);
  if (row.type === 'invoice' || row.type === 'refund') return amount;
  return row.type === 'credit_applied' ? 0n : -amount;
}

export function toStatementLine(row: MoveRow, balanceMinor: bigint, currency: string): StatementLine {
  const money = (minor: bigint) => toMajor(Number(minor), currency);
  return {
    date: row.date,
    type: row.type,
    document_id: row.document_id,
    number: row.number,
    description: describe(row),
    amount: money(BigInt(row.amount_minor)),
    change: money(changeOf(row)),
    balance: money(balanceMinor),
  };
}
