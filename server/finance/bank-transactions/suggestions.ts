import type { BankSuggestion } from '../../../contract/finance/index.js';
import type { Ctx } from '../../platform/context.js';
import { notFound } from '../../platform/errors.js';
import { ACCOUNTS } from '../ledger/service.js';
import * as queries from './queries.js';
import { invoicesByAmount, invoicesByNumber } from '../../general/index.js';
import type { Candidate } from '../../platform/db/closeness.js';
import * as found from './suggestions.queries.js';
import { journalLineId } from './service.js';

/*
 * What a statement line may have paid (docs/decisions.md D273), best first: documents owing the same
 * amount (surer still when the line names them), documents the line names, money already in the
 * ledger and not reconciled, the rule's account, then the nearest amounts within a tenth.
 */

const MAX_SUGGESTIONS = 10;
/** How far a near amount may be from the line's, as a fraction of it. */
const NEAR = 0.1;

/** Words of a line that could be document numbers: `INV-000012`, `inv000012`, `INV 12` read as written. */
export function documentNumbers(text: string): string[] {
  const words = new Set<string>();
  for (const [, prefix, digits] of text.toUpperCase().matchAll(/\b([A-Z]{2,6})[- #]?(\d{1,12})\b/g)) {
    words.add(`${prefix}-${digits!}`);
    words.add(`${prefix}-${digits!.padStart(6, '0')}`);
    words.add(`${prefix}${digits!}`);
  }
  return [...words].slice(0, 30);
}

const daysApart = (a: string, b: string) => Math.abs(Date.parse(a) - Date.parse(b)) / 86_400_000;

const suggestion = (
  s: Partial<BankSuggestion> & Pick<BankSuggestion, 'kind' | 'score' | 'reason' | 'amount' | 'label'>,
) => ({
  date: null,
  invoice_id: null,
  bill_id: null,
  journal_line_id: null,
  rule_id: null,
  account_code: null,
  ...s,
});

export async function suggestionsFor(ctx: Ctx, id: string): Promise<BankSuggestion[]> {
  const line = await queries.transactionWithAccount(ctx.db, ctx.businessId, id);
  if (!line) throw notFound('Bank transaction');
  if (line.status !== 'unmatched') return [];
  const account = line;
  const signed = Number(line.amount_minor);
  const amount = Math.abs(signed);
  const moneyIn = signed > 0;
  const text = `${line.description} ${line.reference ?? ''}`;
  const lower = text.toLowerCase();
  const numbers = new Set(documentNumbers(text));
  const { db, businessId } = ctx;
  const currency = account.currency;
  const byAmount = moneyIn ? invoicesByAmount : found.billsByAmount;
  const [equal, above, below, named, ledger, rule] = await Promise.all([
    byAmount(db, businessId, currency, amount, 'equal', 5),
    byAmount(db, businessId, currency, amount, 'above', 2),
    byAmount(db, businessId, currency, amount, 'below', 2),
    moneyIn ? invoicesByNumber(db, businessId, currency, [...numbers]) : Promise.resolve([]),
    found.unreconciledLines(db, businessId, [account.account_code, ACCOUNTS.bank], currency, signed, 5),
    line.rule_id ? found.ruleOf(db, businessId, line.rule_id) : Promise.resolve(undefined),
  ]);
  const kind = moneyIn ? ('invoice' as const) : ('bill' as const);
  const document = (c: Candidate, score: number, reason: string) =>
    suggestion({
      kind,
      score,
      reason,
      amount: c.due,
      date: c.date,
      label: c.label,
      ...(moneyIn ? { invoice_id: c.id } : { bill_id: c.id }),
    });
  // A document's number (an invoice's) or name (a bill's vendor) written on the line.
  const namedOnLine = (c: Candidate) =>
    moneyIn
      ? numbers.has(c.label.split(' · ')[0]!)
      : c.label.length >= 3 && lower.includes(c.label.toLowerCase());
  const out = new Map<string, BankSuggestion>();
  const add = (key: string, s: BankSuggestion) => {
    if (!out.has(key) || out.get(key)!.score < s.score) out.set(key, s);
  };
  for (const c of equal) {
    add(
      c.id,
      namedOnLine(c)
        ? document(
            c,
            95,
            moneyIn
              ? 'Same amount, and the line names the invoice'
              : 'Same amount, and the line names the vendor',
          )
        : document(c, 80, `Owes the same amount`),
    );
  }
  for (const c of named) {
    add(
      c.id,
      c.due === amount
        ? document(c, 95, 'Same amount, and the line names the invoice')
        : document(c, 60, 'The line names the invoice; it owes another amount'),
    );
  }
  for (const l of ledger) {
    const near = Math.max(0, 10 - Math.round(daysApart(l.date, line.date)));
    add(
      `${l.entry_id}:${l.line_no}`,
      suggestion({
        kind: 'journal_line',
        score: 70 + near,
        reason:
          l.account_code === ACCOUNTS.bank
            ? `Recorded to ${ACCOUNTS.bank} Bank for the same amount; matching moves it into this account`
            : 'Recorded to this account for the same amount, not yet reconciled',
        amount,
        date: l.date,
        label: l.description,
        journal_line_id: journalLineId(l.entry_id, l.line_no),
      }),
    );
  }
  if (rule) {
    add(
      `rule:${rule.id}`,
      suggestion({
        kind: 'rule',
        score: 65,
        reason: `The rule "${rule.description_contains}" books such lines to ${rule.account_code}`,
        amount,
        label: `${rule.account_code} ${rule.account_name}`,
        rule_id: rule.id,
        account_code: rule.account_code,
      }),
    );
  }
  for (const c of [...above, ...below]) {
    const off = Math.abs(c.due - amount) / amount;
    if (off > NEAR) continue;
    add(
      c.id,
      document(
        c,
        Math.max(20, 50 - Math.round(off * 300)),
        `Owes ${c.due > amount ? 'a little more' : 'a little less'}: a part payment, or a fee taken`,
      ),
    );
  }
  return [...out.values()]
    .sort((a, b) => b.score - a.score || (a.date ?? '').localeCompare(b.date ?? ''))
    .slice(0, MAX_SUGGESTIONS);
}
