import { addDays, today } from '../../platform/calendar.js';
import type { DemoSeed } from '../../platform/module.js';
import { ACCOUNTS } from '../ledger/service.js';
import { createBankRule } from '../bank-rules/service.js';
import {
  listBankTransactions,
  matchBankTransaction,
  categoriseBankTransaction,
  journalLineId,
} from '../bank-transactions/service.js';
import { moneyLines } from '../bank-transactions/queries.js';
import { createBankAccount } from './service.js';
import { importStatement } from './statements.js';

/*
 * The demo's bank account (docs/decisions.md D273): the current account the business's transfers went
 * through, with the statement of its last six weeks imported, made of the payments recorded to
 * 1010 Bank and the bank's monthly fees. Its first half is reconciled (the payments matched and moved
 * into the account, the fees categorised) and the rest waits, each line with its suggestion, and a
 * rule that knows the fee.
 */

const WEEKS = 6;
const FEE = 'MONTHLY ACCOUNT FEE';

const csvCell = (text: string) => `"${text.replace(/"/g, '""')}"`;
const decimal = (minor: number, exponent: number) => (minor / 10 ** exponent).toFixed(exponent);

export async function seedBankDemo(seed: DemoSeed, currency: string, exponent: number): Promise<void> {
  const now = seed.at(seed.now);
  const end = await today(now);
  const start = addDays(end, -7 * WEEKS);
  const opened = seed.at(new Date(seed.now.getTime() - 7 * WEEKS * 86_400_000));
  const account = await createBankAccount(opened, {
    name: 'Business current account',
    currency,
    account_number_last4: '4821',
    opening_balance: 0,
    opening_date: start,
  });
  const recorded = (await moneyLines(now.db, now.businessId, ACCOUNTS.bank, start, end)).filter(
    (l) => l.debit !== l.credit,
  );
  const fee = 250 * 10 ** Math.max(0, exponent - 2);
  const fees = [addDays(start, 2), addDays(start, 30)].filter((d) => d <= end);
  const rows = [
    ...recorded.map((l) => ({
      date: l.date,
      details: l.description.toUpperCase(),
      amount: Number(l.debit) - Number(l.credit),
      line: journalLineId(l.entry_id, l.line_no),
    })),
    ...fees.map((date) => ({ date, details: FEE, amount: -fee, line: null })),
  ].sort((a, b) => a.date.localeCompare(b.date));
  if (rows.length === 0) return;
  const csv = [
    'Date,Details,Amount',
    ...rows.map((r) => `${r.date},${csvCell(r.details)},${decimal(r.amount, exponent)}`),
  ];
  await importStatement(
    now,
    account.id,
    { file: Buffer.from(csv.join('\n')) },
    { mapping: JSON.stringify({ date: 'Date', description: 'Details', amount: 'Amount' }) },
  );
  const { bank_transactions: lines } = await listBankTransactions(now, {
    bank_account_id: account.id,
    limit: 200,
    offset: 0,
  });
  // The first half reconciled, in the order of the statement.
  const half = Math.floor(lines.length / 2);
  let reconciled = 0;
  for (const [i, line] of lines.slice(0, half).entries()) {
    const row = rows[i]!;
    if (row.amount !== line.amount) continue;
    if (row.line === null) {
      await categoriseBankTransaction(now, line.id, {
        account_code: ACCOUNTS.expenses,
        description: 'Bank fees',
      });
    } else {
      await matchBankTransaction(now, line.id, {
        matches: [{ journal_line_id: row.line, amount: Math.abs(line.amount) }],
      });
    }
    reconciled++;
  }
  await createBankRule(now, {
    description_contains: 'account fee',
    direction: 'out',
    account_code: ACCOUNTS.expenses,
  });
  seed.count('bank_accounts', 1);
  seed.count('bank_transactions', lines.length);
  seed.count('bank_transactions_reconciled', reconciled);
}
