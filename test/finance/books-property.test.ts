import { afterEach, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../client/index.js';
import { updateBusiness } from '../support/auth.js';
import { registerTenant } from '../support/business.js';
import {
  billItem,
  CASH_ACCOUNT,
  createAccount,
  createBill,
  createEntry,
  createVendor,
  expectTrialBalance,
  move,
  payBill,
  voidBill,
  type Movements,
} from '../support/finance.js';
import { createCreditNote, invoiceLine, issuedInvoice, payInvoice, voidInvoice } from '../support/general.js';
import { useTestServer } from '../support/setup.js';

/**
 * A fixed-seed random run of every kind of posting on dates through the year; afterwards, on several
 * days, the balance sheet balances and agrees with the trial balance, its cash equals the cash-flow
 * statement's closing cash, and the trial balance holds exactly what the run posted.
 */

// Tokens outlive the clock moves below.
const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' }, worker: false });

afterEach(() => server().clock.reset());

/** mulberry32: a small seeded PRNG, so that every run makes the same sequence. */
function mulberry32(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const cents = (major: number) => Math.round(major * 100);
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

const CASH = (code: string) => ['1000', '1010', '1020'].includes(code) || /^11\d\d$/.test(code);
const MANUAL_ACCOUNTS = ['1000', '1010', '1020', '1500', '2600', '3100', '4000', '5000'];
const STEPS = 60;
const YEAR_START_MONTH = 7;

type Kind =
  | 'invoice'
  | 'invoice_payment'
  | 'credit_note'
  | 'invoice_void'
  | 'bill'
  | 'bill_payment'
  | 'bill_void'
  | 'manual'
  | 'bank_opening';
const KINDS: Kind[] = [
  'invoice',
  'invoice_payment',
  'credit_note',
  'invoice_void',
  'bill',
  'bill_payment',
  'bill_void',
  'manual',
  'bank_opening',
];

interface OpenInvoice {
  id: string;
  due: number;
  paid: number;
  refunded: number;
  touched: boolean;
  subtotal: number;
  tax: number;
  total: number;
  void: boolean;
}
interface OpenBill {
  id: string;
  due: number;
  paid: boolean;
  subtotal: number;
  tax: number;
  amount: number;
  void: boolean;
}

describe('the books after a random run of postings (seed 20261121)', () => {
  it('balance on every day, agree with the trial balance, and count the same cash as the cash flow', async () => {
    const random = mulberry32(20261121);
    const int = (min: number, max: number) => min + Math.floor(random() * (max - min + 1));
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;

    server().clock.set('2026-01-01T08:00:00.000Z');
    const t = await registerTenant(server());
    const c: Client = t.client;
    await updateBusiness(c, { financial_year_start_month: YEAR_START_MONTH });
    await createAccount(c, { code: '1500', name: 'Equipment', type: 'asset' });
    await createAccount(c, { code: '2600', name: 'Bank loan', type: 'liability' });
    await createAccount(c, { code: '3100', name: 'Owner capital', type: 'equity' });
    const vendor = await createVendor(c, { name: 'Globex' });

    /** What the run posted: each entry's date and its movements. */
    const posted: { date: string; moves: [string, 'debit' | 'credit', number][] }[] = [];
    const post = (date: string, ...moves: [string, 'debit' | 'credit', number][]) =>
      posted.push({ date, moves: moves.filter(([, , amount]) => amount !== 0) });
    const invoices: OpenInvoice[] = [];
    const bills: OpenBill[] = [];
    let bankAccounts = 0;
    const kinds: Kind[] = [];

    const days = Array.from({ length: STEPS }, () => addDays('2026-01-01', int(0, 324))).sort();
    for (const day of days) {
      server().clock.set(`${day}T12:00:00.000Z`);
      const payable = invoices.filter((i) => !i.void && i.due > 0);
      const voidable = invoices.filter((i) => !i.void && !i.touched);
      const owed = bills.filter((b) => !b.void && b.due > 0);
      const unpaid = bills.filter((b) => !b.void && !b.paid);
      let kind = pick(KINDS);
      if ((kind === 'invoice_payment' || kind === 'credit_note') && payable.length === 0) kind = 'invoice';
      if (kind === 'invoice_void' && voidable.length === 0) kind = 'invoice';
      if (kind === 'bill_payment' && owed.length === 0) kind = 'bill';
      if (kind === 'bill_void' && unpaid.length === 0) kind = 'bill';
      if (kind === 'bank_opening' && bankAccounts >= 3) kind = 'manual';
      kinds.push(kind);

      switch (kind) {
        case 'invoice': {
          const invoice = await issuedInvoice(c, {
            customer_id: t.customerId,
            issue_date: day,
            due_date: addDays(day, int(0, 60)),
            items: [
              invoiceLine({
                quantity: int(1, 3),
                unit_price: int(100, 50_000) / 100,
                tax_rate: pick([0, 10, 20]),
              }),
            ],
          });
          const [subtotal, tax, total] = [cents(invoice.subtotal), cents(invoice.tax), cents(invoice.total)];
          invoices.push({
            id: invoice.id,
            due: total,
            paid: 0,
            refunded: 0,
            touched: false,
            subtotal,
            tax,
            total,
            void: false,
          });
          post(day, ['1200', 'debit', total], ['4000', 'credit', subtotal], ['2200', 'credit', tax]);
          break;
        }
        case 'invoice_payment': {
          const invoice = pick(payable);
          const amount = random() < 0.4 ? invoice.due : int(1, invoice.due);
          const method = pick(['cash', 'bank_transfer', 'card', 'mobile_money'] as const);
          await payInvoice(c, invoice.id, amount / 100, { payment_method: method, payment_date: day });
          Object.assign(invoice, { due: invoice.due - amount, paid: invoice.paid + amount, touched: true });
          post(day, [CASH_ACCOUNT[method], 'debit', amount], ['1200', 'credit', amount]);
          break;
        }
        case 'credit_note': {
          const invoice = pick(payable);
          const credit = int(1, invoice.due);
          const refund =
            invoice.paid > invoice.refunded && random() < 0.5 ? int(1, invoice.paid - invoice.refunded) : 0;
          const method = pick(['cash', 'bank_transfer'] as const);
          const note = await createCreditNote(c, {
            invoice_id: invoice.id,
            issue_date: day,
            amount: (credit + refund) / 100,
            credit_amount: credit / 100,
            refund_amount: refund / 100,
            ...(refund > 0 ? { refund_method: method } : {}),
          });
          expect(cents(note.total)).toBe(credit + refund);
          Object.assign(invoice, {
            due: invoice.due - credit,
            refunded: invoice.refunded + refund,
            touched: true,
          });
          post(
            day,
            ['4000', 'debit', cents(note.subtotal)],
            ['2200', 'debit', cents(note.tax)],
            ['1200', 'credit', credit + refund],
            ['1200', 'debit', refund],
            [CASH_ACCOUNT[method], 'credit', refund],
          );
          break;
        }
        case 'invoice_void': {
          const invoice = pick(voidable);
          await voidInvoice(c, invoice.id);
          invoice.void = true;
          post(
            day,
            ['4000', 'debit', invoice.subtotal],
            ['2200', 'debit', invoice.tax],
            ['1200', 'credit', invoice.total],
          );
          break;
        }
        case 'bill': {
          const bill = await createBill(c, {
            vendor_id: vendor.id,
            issue_date: day,
            due_date: addDays(day, int(0, 60)),
            items: [billItem({ quantity: 1, unit_price: int(100, 80_000), tax_rate: pick([0, 5, 20]) })],
          });
          bills.push({
            id: bill.id,
            due: bill.amount,
            paid: false,
            subtotal: bill.subtotal,
            tax: bill.tax,
            amount: bill.amount,
            void: false,
          });
          expect(bill.subtotal + bill.tax).toBe(bill.amount);
          post(
            day,
            ['5000', 'debit', bill.subtotal],
            ['2210', 'debit', bill.tax],
            ['2000', 'credit', bill.amount],
          );
          break;
        }
        case 'bill_payment': {
          const bill = pick(owed);
          const amount = random() < 0.4 ? bill.due : int(1, bill.due);
          const method = pick(['cash', 'bank_transfer', 'check', 'mobile_money'] as const);
          await payBill(c, bill.id, amount, { payment_method: method, payment_date: day });
          Object.assign(bill, { due: bill.due - amount, paid: true });
          post(day, ['2000', 'debit', amount], [CASH_ACCOUNT[method], 'credit', amount]);
          break;
        }
        case 'bill_void': {
          const bill = pick(unpaid);
          await voidBill(c, bill.id);
          bill.void = true;
          post(
            day,
            ['2000', 'debit', bill.amount],
            ['5000', 'credit', bill.subtotal],
            ['2210', 'credit', bill.tax],
          );
          break;
        }
        case 'manual': {
          const debit = pick(MANUAL_ACCOUNTS);
          const credit = pick(MANUAL_ACCOUNTS.filter((a) => a !== debit));
          const amount = int(1, 300_000);
          await createEntry(c, {
            date: day,
            description: `Transfer ${debit} / ${credit}`,
            debits: [{ account: debit, amount }],
            credits: [{ account: credit, amount }],
          });
          post(day, [debit, 'debit', amount], [credit, 'credit', amount]);
          break;
        }
        case 'bank_opening': {
          const opening = int(1, 500_000) * (random() < 0.2 ? -1 : 1);
          const account = (
            await unwrap(
              c.finance.bankAccounts.createBankAccount({
                body: {
                  name: `Account ${bankAccounts}`,
                  currency: 'USD',
                  opening_balance: opening,
                  opening_date: day,
                },
              }),
            )
          ).bank_account;
          bankAccounts++;
          const [debit, credit] =
            opening > 0 ? [account.account_code, '3000'] : ['3000', account.account_code];
          post(day, [debit, 'debit', Math.abs(opening)], [credit, 'credit', Math.abs(opening)]);
          break;
        }
      }
    }
    // The run exercised every kind of posting.
    expect(new Set(kinds)).toEqual(new Set(KINDS));
    server().clock.set('2026-11-21T18:00:00.000Z');

    const movementsUpTo = (asOf: string): Movements => {
      const m: Movements = {};
      for (const entry of posted) {
        if (entry.date > asOf) continue;
        for (const [account, side, amount] of entry.moves) move(m, account, side, amount);
      }
      return m;
    };

    for (const asOf of ['2026-02-28', '2026-06-30', '2026-07-01', '2026-09-15', '2026-11-21', '2026-12-31']) {
      const tb = await expectTrialBalance(c, movementsUpTo(asOf), { as_of: asOf });
      const { data, lines } = await unwrap(c.finance.books.getBalanceSheet({ query: { as_of: asOf } }));
      expect(data.total_assets, asOf).toBe(data.total_liabilities_and_equity);

      // Each balance-sheet account is the trial balance's, on the same side; none is missing.
      const kept = tb.accounts.filter(
        (a) => ['asset', 'liability', 'equity'].includes(a.type) && (a.debit || a.credit),
      );
      expect(
        lines.filter((l) => l.code !== null).map((l) => [l.code, l.balance]),
        asOf,
      ).toEqual(expect.arrayContaining(kept.filter((a) => a.balance !== 0).map((a) => [a.code, a.balance])));
      const sum = (type: string) =>
        tb.accounts.filter((a) => a.type === type).reduce((total, a) => total + a.balance, 0);
      expect(data.total_assets, asOf).toBe(sum('asset'));
      expect(data.total_liabilities, asOf).toBe(sum('liability'));
      const profit = sum('revenue') - sum('expense');
      expect(data.current_year_earnings + data.retained_earnings, asOf).toBe(profit);
      expect(data.total_equity, asOf).toBe(sum('equity') + profit);

      // Retained earnings: the profit of the days before the financial year began (July).
      const yearStart =
        asOf.slice(5, 7) >= '07' ? `${asOf.slice(0, 4)}-07-01` : `${Number(asOf.slice(0, 4)) - 1}-07-01`;
      expect(data.financial_year_start).toBe(yearStart);
      const before = await expectTrialBalance(c, movementsUpTo(addDays(yearStart, -1)), {
        as_of: addDays(yearStart, -1),
      });
      const profitBefore =
        before.accounts.filter((a) => a.type === 'revenue').reduce((x, a) => x + a.balance, 0) -
        before.accounts.filter((a) => a.type === 'expense').reduce((x, a) => x + a.balance, 0);
      expect(data.retained_earnings, asOf).toBe(profitBefore);

      // The cash on the balance sheet is the cash flow's closing cash, from nothing on 1 January.
      const cash = lines.filter((l) => l.code !== null && CASH(l.code)).reduce((x, l) => x + l.balance, 0);
      const flow = await unwrap(
        c.finance.books.getCashFlow({ query: { start_date: '2026-01-01', end_date: asOf } }),
      );
      expect(flow.data.opening_cash).toBe(0);
      expect(flow.data.closing_cash, asOf).toBe(cash);
      expect(flow.data.net_change).toBe(flow.lines.reduce((x, l) => x + l.amount, 0));
      const { customers, suppliers, tax, other, total } = flow.data.operating;
      expect(total).toBe(customers + suppliers + tax + other);
      expect(flow.data.net_change).toBe(total + flow.data.investing + flow.data.financing);
      // From the year start, it opens on the cash of the day before.
      if (asOf >= yearStart) {
        const part = await unwrap(
          c.finance.books.getCashFlow({ query: { start_date: yearStart, end_date: asOf } }),
        );
        const opening = before.accounts.filter((a) => CASH(a.code)).reduce((x, a) => x + a.balance, 0);
        expect(part.data.opening_cash, asOf).toBe(opening);
        expect(part.data.closing_cash, asOf).toBe(cash);
      }
    }
  });
});
