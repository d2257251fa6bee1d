import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap, type finance } from '../../client/index.js';
import {
  raw,
  registerBusiness,
  registerTenant,
  type TestBusiness,
  type TestTenant,
} from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { expectApiError, expectError, expectResultError, itemAt } from '../support/expect.js';
import {
  billOf,
  createAccount,
  createVendor,
  entriesOf,
  entryOf,
  expectTrialBalance,
  getBill,
  journal,
  payBill,
} from '../support/finance.js';
import { getInvoice, invoiceLine, issuedInvoice, payInvoice } from '../support/general.js';
import { useTestServer } from '../support/setup.js';

/**
 * Reconciling statement lines (docs/decisions.md D273), end to end through the typed client: a line
 * is matched to the invoices or bills it paid (their payments recorded to the bank account on the
 * line's date) or to money the ledger holds already, categorised to an account, or excluded;
 * unmatching takes back exactly what the match wrote. Rules suggest accounts; the reconciliation
 * report explains the difference between the statement and the ledger item by item.
 */

// Tokens outlive the frozen clock.
const server = useTestServer({ worker: false, env: { DB_POOL_SIZE: '20', ACCESS_TOKEN_TTL: '3650d' } });

const where = onPostgres ? 'on PostgreSQL, under real concurrency' : 'on PGlite, serialised by the engine';

beforeEach(() => server().clock.set('2026-11-28T09:00:00.000Z'));
afterEach(() => server().clock.reset());

const tx = (biz: TestBusiness) => biz.client.finance.bankTransactions;
const rules = (biz: TestBusiness) => biz.client.finance.bankRules;

type CreateAccountBody = Parameters<
  TestBusiness['client']['finance']['bankAccounts']['createBankAccount']
>[0]['body'];
type ListQuery = NonNullable<
  Parameters<TestBusiness['client']['finance']['bankTransactions']['listBankTransactions']>[0]
>['query'];
type MatchItem = finance.MatchBankTransactionBody['matches'][number];
/** A statement row as the bank writes it: date, details (no commas), amount in decimals. */
type Row = readonly [date: string, details: string, amount: string];

const MAPPING = JSON.stringify({ date: 'Date', description: 'Details', amount: 'Amount' });

/** Imports `rows` as a CSV statement into the bank account; the import's lines in file order. */
async function importRows(biz: TestBusiness, bankAccountId: string, rows: readonly Row[]) {
  const csv = ['Date,Details,Amount', ...rows.map((r) => r.join(','))].join('\n') + '\n';
  const res = await raw(
    server(),
    'POST',
    `/v1/finance/bank-accounts/${bankAccountId}/statements?mapping=${encodeURIComponent(MAPPING)}`,
    { headers: { 'content-type': 'text/csv' }, body: csv, token: biz.accessToken },
  );
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const report = (res.body as { report: finance.StatementImportReport }).report;
  expect(report.counts).toMatchObject({ imported: rows.length, refused: 0, duplicates: 0 });
  const listed = await unwrap(
    tx(biz).listBankTransactions({ query: { bank_account_id: bankAccountId, limit: 200 } }),
  );
  const lines = listed.bank_transactions
    .filter((l) => l.import_id === report.import_id)
    .sort((a, b) => a.line - b.line);
  expect(lines.map((l) => l.line)).toEqual(rows.map((_, i) => i + 2));
  return { report, lines };
}

/**
 * A USD bank account (1100 for the business's first; no opening balance unless told, opened on
 * 2026-11-01) and a statement of `rows` imported into it: the account, the lines in file order and
 * the import's report.
 */
async function statementOf(
  biz: TestBusiness,
  rows: readonly Row[],
  account: Partial<CreateAccountBody> = {},
) {
  const body: CreateAccountBody = {
    name: 'Business current account',
    currency: 'USD',
    opening_balance: 0,
    opening_date: '2026-11-01',
    ...account,
  };
  const created = (await unwrap(biz.client.finance.bankAccounts.createBankAccount({ body }))).bank_account;
  const { report, lines } = await importRows(biz, created.id, rows);
  return { account: created, lines, report };
}

/** An issued USD invoice of the tenant's customer, dated 2026-11-01, of one line of `price` (major units). */
const invoiceOf = (t: TestTenant, price: number, extra: { currency?: string } = {}) =>
  issuedInvoice(t.client, {
    customer_id: t.customerId,
    issue_date: '2026-11-01',
    items: [invoiceLine({ unit_price: price })],
    ...extra,
  });

const match = (biz: TestBusiness, id: string, matches: MatchItem[]) =>
  tx(biz).matchBankTransaction({ params: { id }, body: { matches } });
const matched = async (biz: TestBusiness, id: string, matches: MatchItem[]) =>
  (await unwrap(match(biz, id, matches))).bank_transaction;
const categorise = (biz: TestBusiness, id: string, account_code: string, description?: string) =>
  tx(biz).categoriseBankTransaction({
    params: { id },
    body: { account_code, ...(description === undefined ? {} : { description }) },
  });
const unmatch = (biz: TestBusiness, id: string) => tx(biz).unmatchBankTransaction({ params: { id } });
const exclude = (biz: TestBusiness, id: string) => tx(biz).excludeBankTransaction({ params: { id } });
const suggestionsOf = async (biz: TestBusiness, id: string) =>
  (await unwrap(tx(biz).getBankTransactionSuggestions({ params: { id } }))).suggestions;
const lineOf = async (biz: TestBusiness, id: string) =>
  (await unwrap(tx(biz).getBankTransaction({ params: { id } }))).bank_transaction;
const reconciliationOf = async (biz: TestBusiness, id: string, as_of: string) =>
  (await unwrap(biz.client.finance.bankAccounts.getReconciliation({ params: { id }, query: { as_of } })))
    .reconciliation;

/** The only match of a matched line. */
const onlyMatch = (line: finance.BankTransaction) => {
  expect(line.matches).toHaveLength(1);
  return itemAt(line.matches, 0);
};

/** The entry a journal line id (`je_...:n`) names, read back from the journal. */
async function entryOfLine(biz: TestBusiness, journalLineId: string) {
  const id = journalLineId.split(':')[0];
  const found = (await journal(biz.client)).filter((e) => e.id === id);
  expect(found, `entry ${id}`).toHaveLength(1);
  return itemAt(found, 0);
}

const journalSize = async (biz: TestBusiness) => (await journal(biz.client)).length;

/** A suggestion exactly, with the fields its kind leaves null. */
const suggestion = (s: Partial<finance.BankSuggestion>) => ({
  date: null,
  invoice_id: null,
  bill_id: null,
  journal_line_id: null,
  rule_id: null,
  account_code: null,
  ...s,
});

/** A match exactly, with the fields its kind leaves null. */
const aMatch = (m: Partial<finance.BankMatch>) => ({
  invoice_id: null,
  bill_id: null,
  payment_id: null,
  account_code: null,
  journal_line_id: expect.stringMatching(/^je_[0-9A-Za-z]+:[1-9]$/),
  ...m,
});

describe('matching a line to invoices', () => {
  /** Four open invoices (120, 120, 126 and 300) and a statement of two lines of 120.00, one naming INV-000002. */
  async function fourInvoices() {
    const t = await registerTenant(server());
    const first = await invoiceOf(t, 120); // INV-000001
    const named = await invoiceOf(t, 120); // INV-000002
    const near = await invoiceOf(t, 126); // INV-000003: 5% more
    await invoiceOf(t, 300); // INV-000004: too far to be suggested
    const { account, lines } = await statementOf(t, [
      ['2026-11-05', 'ACME LTD INV-000002', '120.00'],
      ['2026-11-06', 'FASTER PAYMENT ADA', '120.00'],
    ]);
    return { t, first, named, near, account, paid: itemAt(lines, 0), other: itemAt(lines, 1) };
  }

  it('suggests the invoice owing the amount first, surer when the line names it, then near amounts', async () => {
    const { t, first, named, near, account, paid, other } = await fourInvoices();
    expect(paid).toMatchObject({
      bank_account_id: account.id,
      line: 2,
      date: '2026-11-05',
      description: 'ACME LTD INV-000002',
      amount: 12000,
      reference: null,
      status: 'unmatched',
      rule_id: null,
      matches: [],
    });
    expect(await suggestionsOf(t, paid.id)).toEqual([
      suggestion({
        kind: 'invoice',
        score: 95,
        reason: 'Same amount, and the line names the invoice',
        amount: 12000,
        date: '2026-12-21',
        label: 'INV-000002 · Ada Lovelace',
        invoice_id: named.id,
      }),
      suggestion({
        kind: 'invoice',
        score: 80,
        reason: 'Owes the same amount',
        amount: 12000,
        date: '2026-12-21',
        label: 'INV-000001 · Ada Lovelace',
        invoice_id: first.id,
      }),
      suggestion({
        kind: 'invoice',
        score: 35,
        reason: 'Owes a little more: a part payment, or a fee taken',
        amount: 12600,
        date: '2026-12-21',
        label: 'INV-000003 · Ada Lovelace',
        invoice_id: near.id,
      }),
    ]);
    // A line naming no invoice: both of the same amount, equally likely.
    const unnamed = await suggestionsOf(t, other.id);
    expect(unnamed.map((s) => s.score)).toEqual([80, 80, 35]);
    expect(
      unnamed
        .map((s) => s.invoice_id)
        .slice(0, 2)
        .sort(),
    ).toEqual([first.id, named.id].sort());
  });

  it('records the invoice payment a match names: Dr 1100 / Cr 1200 on the line date, to the bank account', async () => {
    const { t, first, named, near, account, paid, other } = await fourInvoices();
    const answer = await unwrap(match(t, paid.id, [{ invoice_id: named.id, amount: 12000 }]));
    expect(answer.message).toBe('Line matched');
    const line = answer.bank_transaction;
    expect(line.status).toBe('matched');
    const made = onlyMatch(line);
    expect(made).toEqual(
      aMatch({
        kind: 'invoice',
        amount: 12000,
        invoice_id: named.id,
        payment_id: expect.stringMatching(/^pay_/),
        recorded: 'payment',
      }),
    );
    expect(await lineOf(t, paid.id)).toEqual(line);

    const invoice = await getInvoice(t.client, named.id);
    expect(invoice).toMatchObject({ status: 'paid', amount_paid: 120, amount_due: 0 });
    expect(invoice.payments).toEqual([
      expect.objectContaining({
        id: made.payment_id,
        amount: 120,
        currency: 'USD',
        payment_method: 'bank_transfer',
        payment_date: '2026-11-05',
        reference: 'ACME LTD INV-000002',
        bank_account_id: account.id,
      }),
    ]);
    const entry = await entryOf(t.client, 'invoice_payment', made.payment_id!);
    expect(entry).toMatchObject({
      date: '2026-11-05',
      currency: 'USD',
      description: 'Payment of invoice INV-000002',
      debits: [{ account: '1100', amount: 12000 }],
      credits: [{ account: '1200', amount: 12000 }],
    });
    expect(made.journal_line_id).toBe(`${entry.id}:1`);

    // The matched line has nothing left to suggest; the other no longer sees the paid invoice, nor
    // the payment's ledger line (it is reconciled).
    expect(await suggestionsOf(t, paid.id)).toEqual([]);
    expect((await suggestionsOf(t, other.id)).map((s) => [s.invoice_id, s.score])).toEqual([
      [first.id, 80],
      [near.id, 35],
    ]);
    await expectTrialBalance(t.client, {
      '1100': { debit: 12000 },
      '1200': { debit: 66600, credit: 12000 },
      '4000': { credit: 66600 },
    });
  });

  it('splits one line between two invoices; refuses amounts that do not add up, another currency, more than owed and money out, recording nothing', async () => {
    const t = await registerTenant(server());
    const a = await invoiceOf(t, 100);
    const b = await invoiceOf(t, 50);
    const euro = await invoiceOf(t, 150, { currency: 'EUR' });
    const { lines } = await statementOf(t, [
      ['2026-11-10', 'ADA LOVELACE TWO INVOICES', '150.00'],
      ['2026-11-11', 'REFUND TO ADA', '-100.00'],
    ]);
    const [split, out] = [itemAt(lines, 0), itemAt(lines, 1)];

    const sum = expectResultError(
      await match(t, split.id, [
        { invoice_id: a.id, amount: 10000 },
        { invoice_id: b.id, amount: 4000 },
      ]),
      422,
      'VALIDATION_ERROR',
      'matches',
    );
    expect(sum.details?.[0]?.message).toMatch(/add up to 14000; the line is 15000/);
    const currency = expectResultError(
      await match(t, split.id, [{ invoice_id: euro.id, amount: 15000 }]),
      422,
      'VALIDATION_ERROR',
      'matches.0',
    );
    expect(currency.details?.[0]?.message).toMatch(/INV-000003 is in EUR; the bank account is in USD/);
    // The first invoice's payment is not kept when the second is refused.
    expectResultError(
      await match(t, split.id, [
        { invoice_id: a.id, amount: 10000 },
        { invoice_id: euro.id, amount: 5000 },
      ]),
      422,
      'VALIDATION_ERROR',
      'matches.1',
    );
    const over = expectResultError(
      await match(t, split.id, [{ invoice_id: b.id, amount: 15000 }]),
      422,
      'VALIDATION_ERROR',
      'matches.0',
    );
    expect(over.details?.[0]?.message).toMatch(/owes 5000/);
    expectResultError(
      await match(t, split.id, [
        { invoice_id: a.id, amount: 5000 },
        { invoice_id: b.id, amount: 10000 },
      ]),
      422,
      'VALIDATION_ERROR',
      'matches.1',
    );
    const moneyOut = expectResultError(
      await match(t, out.id, [{ invoice_id: a.id, amount: 10000 }]),
      422,
      'VALIDATION_ERROR',
      'matches.0',
    );
    expect(moneyOut.details?.[0]?.message).toMatch(/Money out pays bills/);
    expectResultError(
      await match(t, split.id, [{ invoice_id: 'inv_00000000000000000000000000', amount: 15000 }]),
      422,
      'VALIDATION_ERROR',
      'matches.0',
    );
    const both = await raw(server(), 'POST', `/v1/finance/bank-transactions/${split.id}/match`, {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ matches: [{ invoice_id: a.id, journal_line_id: 'je_1:1', amount: 15000 }] }),
      token: t.accessToken,
    });
    // Naming two things in one match is refused before anything is looked up.
    await expectApiError(both, 422, 'VALIDATION_ERROR');
    expectResultError(await match(t, split.id, []), 422, 'VALIDATION_ERROR', 'matches');

    expect((await getInvoice(t.client, a.id)).payments).toEqual([]);
    expect(await lineOf(t, split.id)).toMatchObject({ status: 'unmatched', matches: [] });
    expect((await journal(t.client)).filter((e) => e.source.type === 'invoice_payment')).toEqual([]);

    const line = await matched(t, split.id, [
      { invoice_id: a.id, amount: 10000 },
      { invoice_id: b.id, amount: 5000 },
    ]);
    expect(line.status).toBe('matched');
    expect(line.matches).toEqual([
      aMatch({
        kind: 'invoice',
        amount: 10000,
        invoice_id: a.id,
        payment_id: expect.stringMatching(/^pay_/),
        recorded: 'payment',
      }),
      aMatch({
        kind: 'invoice',
        amount: 5000,
        invoice_id: b.id,
        payment_id: expect.stringMatching(/^pay_/),
        recorded: 'payment',
      }),
    ]);
    for (const [invoice, amount] of [
      [a, 10000],
      [b, 5000],
    ] as const) {
      const got = await getInvoice(t.client, invoice.id);
      expect(got).toMatchObject({ status: 'paid', amount_due: 0, amount_paid: amount / 100 });
      const m = line.matches.find((x) => x.invoice_id === invoice.id)!;
      const entry = await entryOf(t.client, 'invoice_payment', m.payment_id!);
      expect(entry).toMatchObject({
        date: '2026-11-10',
        debits: [{ account: '1100', amount }],
        credits: [{ account: '1200', amount }],
      });
      expect(m.journal_line_id).toBe(`${entry.id}:1`);
    }
    expect(await getInvoice(t.client, euro.id)).toMatchObject({ status: 'unpaid', amount_paid: 0 });
    await expectTrialBalance(
      t.client,
      {
        '1100': { debit: 15000 },
        '1200': { debit: 15000, credit: 15000 },
        '4000': { credit: 15000 },
      },
      { currency: 'USD' },
    );
    await expectTrialBalance(
      t.client,
      { '1200': { debit: 15000 }, '4000': { credit: 15000 } },
      { currency: 'EUR' },
    );
  });
});

describe('matching a line to bills', () => {
  it('matches money out to the bill it paid: Dr 2000 / Cr 1100 on the line date; unmatching makes the bill owe it again', async () => {
    const t = await registerTenant(server());
    const acme = await createVendor(t.client, { name: 'Acme Supplies' });
    const northwind = await createVendor(t.client, { name: 'Northwind Paper' });
    const bill = await billOf(t.client, 11996, { vendor_id: acme.id, issue_date: '2026-11-01' });
    const other = await billOf(t.client, 11996, { vendor_id: northwind.id, issue_date: '2026-11-01' });
    const { account, lines } = await statementOf(t, [
      ['2026-11-12', 'DIRECT DEBIT ACME SUPPLIES', '-119.96'],
      ['2026-11-13', 'CARD REFUND', '119.96'],
    ]);
    const [out, moneyIn] = [itemAt(lines, 0), itemAt(lines, 1)];
    expect(out.amount).toBe(-11996);

    expect(await suggestionsOf(t, out.id)).toEqual([
      suggestion({
        kind: 'bill',
        score: 95,
        reason: 'Same amount, and the line names the vendor',
        amount: 11996,
        date: '2026-12-31',
        label: 'Acme Supplies',
        bill_id: bill.id,
      }),
      suggestion({
        kind: 'bill',
        score: 80,
        reason: 'Owes the same amount',
        amount: 11996,
        date: '2026-12-31',
        label: 'Northwind Paper',
        bill_id: other.id,
      }),
    ]);
    const wrongWay = expectResultError(
      await match(t, moneyIn.id, [{ bill_id: bill.id, amount: 11996 }]),
      422,
      'VALIDATION_ERROR',
      'matches.0',
    );
    expect(wrongWay.details?.[0]?.message).toMatch(/Money in pays invoices/);

    const line = await matched(t, out.id, [{ bill_id: bill.id, amount: 11996 }]);
    const made = onlyMatch(line);
    expect(made).toEqual(
      aMatch({
        kind: 'bill',
        amount: 11996,
        bill_id: bill.id,
        payment_id: expect.stringMatching(/^bpay_/),
        recorded: 'payment',
      }),
    );
    const paid = await getBill(t.client, bill.id);
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 11996, amount_due: 0 });
    expect(paid.payments).toEqual([
      expect.objectContaining({
        id: made.payment_id,
        amount: 11996,
        payment_method: 'bank_transfer',
        payment_date: '2026-11-12',
        bank_account_id: account.id,
      }),
    ]);
    const entry = await entryOf(t.client, 'bill_payment', made.payment_id!);
    expect(entry).toMatchObject({
      date: '2026-11-12',
      debits: [{ account: '2000', amount: 11996 }],
      credits: [{ account: '1100', amount: 11996 }],
    });
    expect(made.journal_line_id).toBe(`${entry.id}:2`);

    const undone = await unwrap(unmatch(t, out.id));
    expect(undone.bank_transaction).toMatchObject({ status: 'unmatched', matches: [] });
    expect(await getBill(t.client, bill.id)).toMatchObject({
      status: 'pending',
      amount_paid: 0,
      amount_due: 11996,
      payments: [],
    });
    expect(await entryOf(t.client, 'void', made.payment_id!)).toMatchObject({
      date: '2026-11-12',
      debits: [{ account: '1100', amount: 11996 }],
      credits: [{ account: '2000', amount: 11996 }],
    });
    expect(itemAt(await suggestionsOf(t, out.id), 0)).toMatchObject({ bill_id: bill.id, score: 95 });
    await expectTrialBalance(t.client, {
      '5000': { debit: 23992 },
      '2000': { debit: 11996, credit: 23992 + 11996 },
      '1100': { debit: 11996, credit: 11996 },
    });
  });
});

describe('matching a line to money the ledger holds', () => {
  it('moves a payment recorded to 1010 Bank into the bank account (Dr 1100 / Cr 1010), once; unmatching moves it back', async () => {
    const t = await registerTenant(server());
    const invoice = await invoiceOf(t, 80);
    const paid = await payInvoice(t.client, invoice.id, 80, { payment_date: '2026-11-03' });
    const payment = itemAt(paid.payments, 0);
    expect(payment.bank_account_id).toBeNull();
    const recorded = await entryOf(t.client, 'invoice_payment', payment.id);
    expect(recorded).toMatchObject({
      debits: [{ account: '1010', amount: 8000 }],
      credits: [{ account: '1200', amount: 8000 }],
    });
    const held = `${recorded.id}:1`;
    const { lines } = await statementOf(t, [
      ['2026-11-04', 'ADA LOVELACE TRANSFER', '80.00'],
      ['2026-11-05', 'ADA LOVELACE AGAIN', '80.00'],
    ]);
    const [line, second] = [itemAt(lines, 0), itemAt(lines, 1)];

    const fromBank = suggestion({
      kind: 'journal_line',
      score: 79,
      reason: 'Recorded to 1010 Bank for the same amount; matching moves it into this account',
      amount: 8000,
      date: '2026-11-03',
      label: 'Payment of invoice INV-000001',
      journal_line_id: held,
    });
    expect(await suggestionsOf(t, line.id)).toEqual([fromBank]);

    // A line of another account (1200) is not money a statement shows.
    const wrongAccount = expectResultError(
      await match(t, line.id, [{ journal_line_id: `${recorded.id}:2`, amount: 8000 }]),
      422,
      'VALIDATION_ERROR',
      'matches.0',
    );
    expect(wrongAccount.details?.[0]?.message).toMatch(/on account 1200/);

    const done = await matched(t, line.id, [{ journal_line_id: held, amount: 8000 }]);
    const made = onlyMatch(done);
    expect(made).toEqual(aMatch({ kind: 'journal_line', amount: 8000, recorded: 'entry' }));
    expect(made.journal_line_id).not.toBe(held);
    const moved = await entryOfLine(t, made.journal_line_id);
    expect(moved).toMatchObject({
      date: '2026-11-04',
      description: 'Payment of invoice INV-000001: into Business current account',
      source: { type: 'bank_transaction', id: expect.stringMatching(/^bmatch_/) },
      debits: [{ account: '1100', amount: 8000 }],
      credits: [{ account: '1010', amount: 8000 }],
    });
    expect(made.journal_line_id).toBe(`${moved.id}:1`);
    expect((await getInvoice(t.client, invoice.id)).payments).toHaveLength(1);
    await expectTrialBalance(t.client, {
      '1010': { debit: 8000, credit: 8000 },
      '1100': { debit: 8000 },
      '1200': { debit: 8000, credit: 8000 },
      '4000': { credit: 8000 },
    });

    // The ledger line stands for one statement line: the second line neither sees nor takes it.
    expect(await suggestionsOf(t, second.id)).toEqual([]);
    expectResultError(
      await match(t, second.id, [{ journal_line_id: held, amount: 8000 }]),
      409,
      'INVALID_STATE',
    );

    await unwrap(unmatch(t, line.id));
    expect(await entryOf(t.client, 'void', moved.source.id)).toMatchObject({
      date: '2026-11-04',
      debits: [{ account: '1010', amount: 8000 }],
      credits: [{ account: '1100', amount: 8000 }],
    });
    // The payment recorded elsewhere stays, and is there to match again.
    expect(await getInvoice(t.client, invoice.id)).toMatchObject({ status: 'paid', amount_paid: 80 });
    expect(await entriesOf(t.client, payment.id)).toHaveLength(1);
    expect(await suggestionsOf(t, line.id)).toEqual([fromBank]);
    await expectTrialBalance(t.client, {
      '1010': { debit: 16000, credit: 8000 },
      '1100': { debit: 8000, credit: 8000 },
      '1200': { debit: 8000, credit: 8000 },
      '4000': { credit: 8000 },
    });
  });

  it('offers neither the 1010 leg of a match of its own nor a reversed payment, and refuses to match either', async () => {
    const t = await registerTenant(server());
    const invoice = await invoiceOf(t, 80);
    const paid = await payInvoice(t.client, invoice.id, 80, { payment_date: '2026-11-03' });
    const recorded = await entryOf(t.client, 'invoice_payment', itemAt(paid.payments, 0).id);
    const { lines } = await statementOf(t, [
      ['2026-11-04', 'ADA LOVELACE TRANSFER', '80.00'],
      ['2026-11-05', 'CARD REFUND', '-80.00'],
      ['2026-11-06', 'GRACE HOPPER', '50.00'],
      ['2026-11-07', 'GRACE HOPPER AGAIN', '50.00'],
    ]);
    const [moneyIn, moneyOut, first, second] = [
      itemAt(lines, 0),
      itemAt(lines, 1),
      itemAt(lines, 2),
      itemAt(lines, 3),
    ];
    const moved = onlyMatch(
      await matched(t, moneyIn.id, [{ journal_line_id: `${recorded.id}:1`, amount: 8000 }]),
    );
    // The transfer's Cr 1010 line is the match's own: no money a statement line shows.
    const transfer = await entryOfLine(t, moved.journal_line_id);
    expect(await suggestionsOf(t, moneyOut.id)).toEqual([]);
    const credit = transfer.debits.length + 1;
    const own = expectResultError(
      await match(t, moneyOut.id, [{ journal_line_id: `${transfer.id}:${credit}`, amount: 8000 }]),
      422,
      'VALIDATION_ERROR',
      'matches.0',
    );
    expect(own.details?.[0]?.message).toMatch(/bank transaction entry is not money/);

    // A payment a match recorded, taken back by unmatching: its old 1100 line is no money the bank holds.
    const other = await invoiceOf(t, 50);
    const made = onlyMatch(await matched(t, first.id, [{ invoice_id: other.id, amount: 5000 }]));
    await unwrap(unmatch(t, first.id));
    expect((await suggestionsOf(t, second.id)).filter((s) => s.kind === 'journal_line')).toEqual([]);
    const reversed = expectResultError(
      await match(t, second.id, [{ journal_line_id: made.journal_line_id, amount: 5000 }]),
      422,
      'VALIDATION_ERROR',
      'matches.0',
    );
    expect(reversed.details?.[0]?.message).toMatch(/was reversed/);
    expect(await getInvoice(t.client, other.id)).toMatchObject({ status: 'unpaid', amount_paid: 0 });
  });

  it('reconciles a payment recorded to the bank account itself without a new entry, once; unmatching posts nothing', async () => {
    const t = await registerTenant(server());
    const invoice = await invoiceOf(t, 60);
    const { account, lines } = await statementOf(t, [
      ['2026-11-03', 'ADA LOVELACE', '60.00'],
      ['2026-11-03', 'ADA LOVELACE', '60.00'],
    ]);
    const paid = await payInvoice(t.client, invoice.id, 60, {
      payment_date: '2026-11-03',
      bank_account_id: account.id,
    });
    const payment = itemAt(paid.payments, 0);
    expect(payment.bank_account_id).toBe(account.id);
    const recorded = await entryOf(t.client, 'invoice_payment', payment.id);
    expect(recorded).toMatchObject({
      debits: [{ account: '1100', amount: 6000 }],
      credits: [{ account: '1200', amount: 6000 }],
    });
    const held = `${recorded.id}:1`;
    const [line, twin] = [itemAt(lines, 0), itemAt(lines, 1)];

    expect(await suggestionsOf(t, line.id)).toEqual([
      suggestion({
        kind: 'journal_line',
        score: 80,
        reason: 'Recorded to this account for the same amount, not yet reconciled',
        amount: 6000,
        date: '2026-11-03',
        label: 'Payment of invoice INV-000001',
        journal_line_id: held,
      }),
    ]);
    const entries = await journalSize(t);
    const done = await matched(t, line.id, [{ journal_line_id: held, amount: 6000 }]);
    expect(onlyMatch(done)).toEqual(
      aMatch({ kind: 'journal_line', amount: 6000, journal_line_id: held, recorded: null }),
    );
    expect(await journalSize(t)).toBe(entries);

    expect(await suggestionsOf(t, twin.id)).toEqual([]);
    expectResultError(
      await match(t, twin.id, [{ journal_line_id: held, amount: 6000 }]),
      409,
      'INVALID_STATE',
    );

    expect((await unwrap(unmatch(t, line.id))).bank_transaction.status).toBe('unmatched');
    expect(await journalSize(t)).toBe(entries);
    expect(await getInvoice(t.client, invoice.id)).toMatchObject({ status: 'paid', amount_paid: 60 });
    await expectTrialBalance(t.client, {
      '1100': { debit: 6000 },
      '1200': { debit: 6000, credit: 6000 },
      '4000': { credit: 6000 },
    });
  });
});

describe('categorising, excluding and unmatching', () => {
  it('categorises money out Dr account / Cr 1100 and money in Dr 1100 / Cr account; refuses 1200, 2000, the bank itself and unknown accounts', async () => {
    const t = await registerTenant(server());
    const { lines } = await statementOf(t, [
      ['2026-11-20', 'MONTHLY ACCOUNT FEE', '-12.50'],
      ['2026-11-21', 'CASH SALE DEPOSIT', '250.00'],
    ]);
    const [fee, sale] = [itemAt(lines, 0), itemAt(lines, 1)];

    for (const [code, says] of [
      ['1200', /1200 Accounts receivable is moved by documents: match the invoices it paid instead/],
      ['2000', /2000 Accounts payable is moved by documents: match the bills it paid instead/],
      ['1100', /its own bank account/],
      ['9999', /No account 9999/],
    ] as const) {
      const error = expectResultError(
        await categorise(t, fee.id, code),
        422,
        'VALIDATION_ERROR',
        'account_code',
      );
      expect(error.details?.[0]?.message).toMatch(says);
    }
    expect(await journal(t.client)).toEqual([]);

    const answer = await unwrap(categorise(t, fee.id, '5000', 'Bank fees, November'));
    expect(answer.message).toBe('Line categorised');
    const made = onlyMatch(answer.bank_transaction);
    expect(answer.bank_transaction.status).toBe('matched');
    expect(made).toEqual(aMatch({ kind: 'account', amount: 1250, account_code: '5000', recorded: 'entry' }));
    const feeEntry = await entryOfLine(t, made.journal_line_id);
    expect(feeEntry).toMatchObject({
      date: '2026-11-20',
      description: 'Bank fees, November',
      currency: 'USD',
      source: { type: 'bank_transaction' },
      debits: [{ account: '5000', amount: 1250 }],
      credits: [{ account: '1100', amount: 1250 }],
    });
    expect(made.journal_line_id).toBe(`${feeEntry.id}:2`);

    const saleMatch = onlyMatch((await unwrap(categorise(t, sale.id, '4000'))).bank_transaction);
    expect(await entryOfLine(t, saleMatch.journal_line_id)).toMatchObject({
      date: '2026-11-21',
      description: 'CASH SALE DEPOSIT',
      debits: [{ account: '1100', amount: 25000 }],
      credits: [{ account: '4000', amount: 25000 }],
    });

    expectResultError(await categorise(t, fee.id, '5000'), 409, 'INVALID_STATE');

    // Unmatched, the entry is reversed on the line's date; the line can be booked again elsewhere.
    expect((await unwrap(unmatch(t, fee.id))).bank_transaction).toMatchObject({
      status: 'unmatched',
      matches: [],
    });
    expect(await entryOf(t.client, 'void', feeEntry.source.id)).toMatchObject({
      date: '2026-11-20',
      description: 'Unmatched: MONTHLY ACCOUNT FEE',
      debits: [{ account: '1100', amount: 1250 }],
      credits: [{ account: '5000', amount: 1250 }],
    });
    const charges = await createAccount(t.client, { name: 'Bank charges', type: 'expense' });
    const again = onlyMatch((await unwrap(categorise(t, fee.id, charges.code))).bank_transaction);
    expect(again).toMatchObject({ kind: 'account', account_code: charges.code, amount: 1250 });

    await expectTrialBalance(t.client, {
      '1100': { debit: 25000 + 1250, credit: 1250 + 1250 },
      '4000': { credit: 25000 },
      '5000': { debit: 1250, credit: 1250 },
      [charges.code]: { debit: 1250 },
    });
  });

  it('excludes a line without posting; only unmatch brings it back; each state refuses what it cannot do with 409', async () => {
    const t = await registerTenant(server());
    const invoice = await invoiceOf(t, 9.99);
    const { lines } = await statementOf(t, [
      ['2026-11-22', 'PRINTED TWICE', '9.99'],
      ['2026-11-23', 'ADA LOVELACE', '9.99'],
    ]);
    const [twice, real] = [itemAt(lines, 0), itemAt(lines, 1)];
    const entries = await journalSize(t);

    const excluded = await unwrap(exclude(t, twice.id));
    expect(excluded.message).toBe('Line excluded');
    expect(excluded.bank_transaction).toMatchObject({ status: 'excluded', matches: [] });
    expect(await journalSize(t)).toBe(entries);
    expect(await suggestionsOf(t, twice.id)).toEqual([]);
    expectResultError(await exclude(t, twice.id), 409, 'INVALID_STATE');
    expectResultError(
      await match(t, twice.id, [{ invoice_id: invoice.id, amount: 999 }]),
      409,
      'INVALID_STATE',
    );
    expectResultError(await categorise(t, twice.id, '5000'), 409, 'INVALID_STATE');

    expect((await unwrap(unmatch(t, twice.id))).bank_transaction).toMatchObject({
      status: 'unmatched',
      matches: [],
    });
    expect(await journalSize(t)).toBe(entries);
    const nothing = expectResultError(await unmatch(t, twice.id), 409, 'INVALID_STATE');
    expect(nothing.message).toMatch(/nothing to undo/);

    await matched(t, real.id, [{ invoice_id: invoice.id, amount: 999 }]);
    expectResultError(
      await match(t, real.id, [{ invoice_id: invoice.id, amount: 999 }]),
      409,
      'INVALID_STATE',
    );
    expectResultError(await exclude(t, real.id), 409, 'INVALID_STATE');
    expect((await getInvoice(t.client, invoice.id)).payments).toHaveLength(1);

    const unknown = 'btx_00000000000000000000000000';
    expectResultError(await tx(t).getBankTransaction({ params: { id: unknown } }), 404, 'NOT_FOUND');
    expectResultError(await exclude(t, unknown), 404, 'NOT_FOUND');
    expectResultError(await unmatch(t, unknown), 404, 'NOT_FOUND');
    expectResultError(await categorise(t, unknown, '5000'), 404, 'NOT_FOUND');
    expectResultError(await match(t, unknown, [{ invoice_id: invoice.id, amount: 999 }]), 404, 'NOT_FOUND');
    expectResultError(
      await tx(t).getBankTransactionSuggestions({ params: { id: unknown } }),
      404,
      'NOT_FOUND',
    );
  });

  it('unmatching an invoice match takes its payment back: the invoice owes it again, the entry is reversed, a payment recorded elsewhere stays', async () => {
    const t = await registerTenant(server());
    const invoice = await invoiceOf(t, 200);
    const elsewhere = itemAt(
      (await payInvoice(t.client, invoice.id, 50, { payment_date: '2026-11-02' })).payments,
      0,
    );
    const { lines } = await statementOf(t, [['2026-11-09', 'ADA BALANCE INV-000001', '150.00']]);
    const line = itemAt(lines, 0);
    expect(itemAt(await suggestionsOf(t, line.id), 0)).toMatchObject({
      invoice_id: invoice.id,
      score: 95,
      amount: 15000,
    });

    const made = onlyMatch(await matched(t, line.id, [{ invoice_id: invoice.id, amount: 15000 }]));
    expect(await getInvoice(t.client, invoice.id)).toMatchObject({
      status: 'paid',
      amount_paid: 200,
      amount_due: 0,
    });

    const undone = await unwrap(unmatch(t, line.id));
    expect(undone.message).toBe('Match undone');
    expect(undone.bank_transaction).toMatchObject({ status: 'unmatched', matches: [] });
    const owing = await getInvoice(t.client, invoice.id);
    expect(owing).toMatchObject({ status: 'unpaid', amount_paid: 50, amount_due: 150, paid_at: null });
    expect(owing.payments.map((p) => p.id)).toEqual([elsewhere.id]);
    expect(await entryOf(t.client, 'void', made.payment_id!)).toMatchObject({
      date: '2026-11-09',
      description: 'Reversal of a payment of invoice INV-000001',
      debits: [{ account: '1200', amount: 15000 }],
      credits: [{ account: '1100', amount: 15000 }],
    });
    expect(await entriesOf(t.client, elsewhere.id)).toHaveLength(1);
    expect(itemAt(await suggestionsOf(t, line.id), 0)).toMatchObject({
      invoice_id: invoice.id,
      score: 95,
      amount: 15000,
    });
    await expectTrialBalance(t.client, {
      '1010': { debit: 5000 },
      '1100': { debit: 15000, credit: 15000 },
      '1200': { debit: 20000 + 15000, credit: 5000 + 15000 },
      '4000': { credit: 20000 },
    });
  });
});

describe('payments naming a bank account', () => {
  it('post to its chart account; one of another currency, or none, is 422 on bank_account_id, for invoices and bills', async () => {
    const t = await registerTenant(server());
    const create = async (body: CreateAccountBody) =>
      (await unwrap(t.client.finance.bankAccounts.createBankAccount({ body }))).bank_account;
    const usd = await create({ name: 'Dollar account', currency: 'USD', opening_date: '2026-11-01' });
    const eur = await create({ name: 'Euro account', currency: 'EUR', opening_date: '2026-11-01' });
    expect([usd.account_code, eur.account_code]).toEqual(['1100', '1101']);

    const invoice = await invoiceOf(t, 40);
    for (const bank_account_id of [eur.id, 'bank_00000000000000000000000000']) {
      const refused = await t.client.general.invoices.createPayment({
        params: { id: invoice.id },
        body: { amount: 40, payment_method: 'bank_transfer', payment_date: '2026-11-04', bank_account_id },
      });
      expectError(refused, 422, 'VALIDATION_ERROR', 'bank_account_id');
    }
    expect(await getInvoice(t.client, invoice.id)).toMatchObject({
      status: 'unpaid',
      amount_paid: 0,
      payments: [],
    });
    const paid = await payInvoice(t.client, invoice.id, 40, {
      payment_date: '2026-11-04',
      bank_account_id: usd.id,
    });
    const payment = itemAt(paid.payments, 0);
    expect(payment).toMatchObject({ bank_account_id: usd.id, payment_method: 'bank_transfer' });
    expect(await entryOf(t.client, 'invoice_payment', payment.id)).toMatchObject({
      date: '2026-11-04',
      debits: [{ account: '1100', amount: 4000 }],
      credits: [{ account: '1200', amount: 4000 }],
    });

    const bill = await billOf(t.client, 2500, { issue_date: '2026-11-01' });
    const body = { amount: 2500, payment_method: 'bank_transfer' as const, payment_date: '2026-11-05' };
    expectResultError(
      await t.client.finance.bills.payBill({
        params: { id: bill.id },
        body: { ...body, bank_account_id: eur.id },
      }),
      422,
      'VALIDATION_ERROR',
      'bank_account_id',
    );
    expect(await getBill(t.client, bill.id)).toMatchObject({
      status: 'pending',
      amount_paid: 0,
      payments: [],
    });
    const { payment_id } = await payBill(t.client, bill.id, 2500, { ...body, bank_account_id: usd.id });
    expect((await getBill(t.client, bill.id)).payments).toEqual([
      expect.objectContaining({ id: payment_id, bank_account_id: usd.id }),
    ]);
    expect(await entryOf(t.client, 'bill_payment', payment_id)).toMatchObject({
      date: '2026-11-05',
      debits: [{ account: '2000', amount: 2500 }],
      credits: [{ account: '1100', amount: 2500 }],
    });
    await expectTrialBalance(t.client, {
      '1100': { debit: 4000, credit: 2500 },
      '1200': { debit: 4000, credit: 4000 },
      '2000': { debit: 2500, credit: 2500 },
      '4000': { credit: 4000 },
      '5000': { debit: 2500 },
    });
  });
});

describe('concurrent matches', () => {
  it(`ten matches of one line to one invoice at once: one recorded, nine 409 (${where})`, async () => {
    const t = await registerTenant(server());
    const invoice = await invoiceOf(t, 75);
    const { lines } = await statementOf(t, [['2026-11-14', 'ADA LOVELACE', '75.00']]);
    const line = itemAt(lines, 0);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => match(t, line.id, [{ invoice_id: invoice.id, amount: 7500 }])),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, ...Array<number>(9).fill(409)]);
    for (const refused of answers.filter((a) => a.status === 409)) {
      expectResultError(refused, 409, 'INVALID_STATE');
    }
    const got = await getInvoice(t.client, invoice.id);
    expect(got).toMatchObject({ status: 'paid', amount_paid: 75, amount_due: 0 });
    expect(got.payments).toHaveLength(1);
    expect((await lineOf(t, line.id)).matches).toHaveLength(1);
    expect((await journal(t.client)).filter((e) => e.source.type === 'invoice_payment')).toHaveLength(1);
    await expectTrialBalance(t.client, {
      '1100': { debit: 7500 },
      '1200': { debit: 7500, credit: 7500 },
      '4000': { credit: 7500 },
    });
  });

  it(`five lines racing for one ledger line of 1010: one takes it, four 409 (${where})`, async () => {
    const t = await registerTenant(server());
    const invoice = await invoiceOf(t, 33);
    const payment = itemAt(
      (await payInvoice(t.client, invoice.id, 33, { payment_date: '2026-11-02' })).payments,
      0,
    );
    const held = `${(await entryOf(t.client, 'invoice_payment', payment.id)).id}:1`;
    const { lines } = await statementOf(
      t,
      Array.from({ length: 5 }, (_, i) => [`2026-11-0${i + 3}`, `ADA LOVELACE ${i}`, '33.00'] as const),
    );
    const answers = await Promise.all(
      lines.map((l) => match(t, l.id, [{ journal_line_id: held, amount: 3300 }])),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409]);
    for (const refused of answers.filter((a) => a.status === 409)) {
      expect(refused.body).toMatchObject({
        result: 'error',
        error: { code: expect.stringMatching(/^(INVALID_STATE|CONFLICT)$/) },
      });
    }
    expect((await journal(t.client)).filter((e) => e.source.type === 'bank_transaction')).toHaveLength(1);
    const listed = await unwrap(tx(t).listBankTransactions({ query: { status: 'matched' } }));
    expect(listed.total_count).toBe(1);
    await expectTrialBalance(t.client, {
      '1010': { debit: 3300, credit: 3300 },
      '1100': { debit: 3300 },
      '1200': { debit: 3300, credit: 3300 },
      '4000': { credit: 3300 },
    });
  });
});

describe('bank rules', () => {
  it('suggest their account for waiting and newly imported lines; accept-suggestions categorises them all at once', async () => {
    const t = await registerTenant(server());
    const { account, lines } = await statementOf(t, [
      ['2026-11-02', 'MONTHLY FEE', '-5.00'],
      ['2026-11-03', 'Card fee abroad', '-7.50'],
      ['2026-11-04', 'Fee refund', '3.00'],
      ['2026-11-05', 'Stationery', '-40.00'],
      ['2026-11-06', 'Stationery bulk order', '-60.00'],
    ]);
    const [monthly, refund] = [itemAt(lines, 0), itemAt(lines, 2)];

    const fee = await unwrap(
      rules(t).createBankRule({
        body: { description_contains: 'fee', direction: 'out', account_code: '5000' },
      }),
    );
    expect(fee).toMatchObject({ message: 'Bank rule created', suggested: 2 });
    expect(fee.bank_rule).toMatchObject({
      id: expect.stringMatching(/^brule_/),
      description_contains: 'fee',
      direction: 'out',
      min_amount: null,
      max_amount: null,
      account_code: '5000',
    });
    const ruleId = fee.bank_rule.id;
    const ranged = await unwrap(
      rules(t).createBankRule({
        body: {
          description_contains: 'stationery',
          min_amount: 1000,
          max_amount: 5000,
          account_code: '5000',
        },
      }),
    );
    expect(ranged.suggested).toBe(1);

    const ruleOf = async () =>
      (
        await unwrap(tx(t).listBankTransactions({ query: { bank_account_id: account.id } }))
      ).bank_transactions.map((l) => l.rule_id);
    expect(await ruleOf()).toEqual([ruleId, ruleId, null, ranged.bank_rule.id, null]);
    expect(await suggestionsOf(t, monthly.id)).toContainEqual(
      suggestion({
        kind: 'rule',
        score: 65,
        reason: 'The rule "fee" books such lines to 5000',
        amount: 500,
        label: '5000 Expenses',
        rule_id: ruleId,
        account_code: '5000',
      }),
    );
    expect((await suggestionsOf(t, refund.id)).filter((s) => s.kind === 'rule')).toEqual([]);

    const more = await importRows(t, account.id, [
      ['2026-11-07', 'Annual FEE', '-20.00'],
      ['2026-11-08', 'STATIONERY', '-45.00'],
      ['2026-11-09', 'Tea room', '-3.00'],
    ]);
    expect(more.report.counts).toMatchObject({ imported: 3, suggested: 2 });
    expect(more.lines.map((l) => l.rule_id)).toEqual([ruleId, ranged.bank_rule.id, null]);

    const accepted = await unwrap(tx(t).acceptBankSuggestions({ body: { bank_account_id: account.id } }));
    expect(accepted).toEqual({ result: 'success', message: '5 suggestions accepted', accepted: 5 });
    const after = (await unwrap(tx(t).listBankTransactions({ query: { bank_account_id: account.id } })))
      .bank_transactions;
    expect(after.map((l) => [l.description, l.status, l.rule_id])).toEqual([
      ['MONTHLY FEE', 'matched', null],
      ['Card fee abroad', 'matched', null],
      ['Fee refund', 'unmatched', null],
      ['Stationery', 'matched', null],
      ['Stationery bulk order', 'unmatched', null],
      ['Annual FEE', 'matched', null],
      ['STATIONERY', 'matched', null],
      ['Tea room', 'unmatched', null],
    ]);
    for (const line of after.filter((l) => l.status === 'matched')) {
      const made = onlyMatch(line);
      expect(made).toEqual(
        aMatch({ kind: 'account', amount: -line.amount, account_code: '5000', recorded: 'entry' }),
      );
      expect(await entryOfLine(t, made.journal_line_id)).toMatchObject({
        date: line.date,
        description: line.description,
        debits: [{ account: '5000', amount: -line.amount }],
        credits: [{ account: '1100', amount: -line.amount }],
      });
    }
    await expectTrialBalance(t.client, {
      '1100': { credit: 500 + 750 + 4000 + 2000 + 4500 },
      '5000': { debit: 500 + 750 + 4000 + 2000 + 4500 },
    });
    expect(
      (await unwrap(tx(t).acceptBankSuggestions({ body: { bank_account_id: account.id } }))).accepted,
    ).toBe(0);
    expectResultError(
      await tx(t).acceptBankSuggestions({ body: { bank_account_id: 'bank_00000000000000000000000000' } }),
      404,
      'NOT_FOUND',
    );
  });

  it('refuses an unknown account and min above max; changes and deletes a rule, its pending suggestions going with it', async () => {
    const t = await registerTenant(server());
    const { lines } = await statementOf(t, [['2026-11-04', 'Fee refund', '3.00']]);
    const refund = itemAt(lines, 0);

    expectResultError(
      await rules(t).createBankRule({ body: { description_contains: 'fee', account_code: '9999' } }),
      422,
      'VALIDATION_ERROR',
      'account_code',
    );
    expectResultError(
      await rules(t).createBankRule({
        body: { description_contains: 'fee', min_amount: 500, max_amount: 100, account_code: '5000' },
      }),
      422,
      'VALIDATION_ERROR',
      'max_amount',
    );
    // Receivables and payables move with documents: a rule cannot categorise to them.
    for (const code of ['1200', '2000']) {
      const refused = expectResultError(
        await rules(t).createBankRule({ body: { description_contains: 'fee', account_code: code } }),
        422,
        'VALIDATION_ERROR',
        'account_code',
      );
      expect(refused.details?.[0]?.message).toMatch(/is moved by documents: match the (invoices|bills)/);
    }
    expect((await unwrap(rules(t).listBankRules({ query: {} }))).total_count).toBe(0);

    const made = await unwrap(
      rules(t).createBankRule({
        body: { description_contains: 'refund', direction: 'in', max_amount: 1000, account_code: '4000' },
      }),
    );
    expect(made.suggested).toBe(1);
    const id = made.bank_rule.id;
    expect((await lineOf(t, refund.id)).rule_id).toBe(id);

    // The stored max (1000) stands: a min above it is refused on max_amount.
    expectResultError(
      await rules(t).updateBankRule({ params: { id }, body: { min_amount: 2000 } }),
      422,
      'VALIDATION_ERROR',
      'max_amount',
    );
    expectResultError(
      await rules(t).updateBankRule({ params: { id }, body: { account_code: '9999' } }),
      422,
      'VALIDATION_ERROR',
      'account_code',
    );
    const updated = await unwrap(
      rules(t).updateBankRule({
        params: { id },
        body: { min_amount: 200, max_amount: null, account_code: '5000' },
      }),
    );
    expect(updated.bank_rule).toMatchObject({
      id,
      description_contains: 'refund',
      direction: 'in',
      min_amount: 200,
      max_amount: null,
      account_code: '5000',
    });
    expect((await unwrap(rules(t).getBankRule({ params: { id } }))).bank_rule).toEqual(updated.bank_rule);
    const listed = await unwrap(rules(t).listBankRules({ query: {} }));
    expect(listed).toMatchObject({ total_count: 1, bank_rules: [updated.bank_rule] });

    expect(await unwrap(rules(t).deleteBankRule({ params: { id } }))).toMatchObject({
      message: 'Bank rule deleted',
    });
    expectResultError(await rules(t).getBankRule({ params: { id } }), 404, 'NOT_FOUND');
    expectResultError(await rules(t).deleteBankRule({ params: { id } }), 404, 'NOT_FOUND');
    expectResultError(
      await rules(t).updateBankRule({ params: { id }, body: { account_code: '5000' } }),
      404,
      'NOT_FOUND',
    );
    expect((await lineOf(t, refund.id)).rule_id).toBeNull();
    expect((await suggestionsOf(t, refund.id)).filter((s) => s.kind === 'rule')).toEqual([]);
  });
});

describe('GET /v1/finance/bank-accounts/:id/reconciliation', () => {
  /** The items add up to the difference, to the minor unit. */
  const expectExplained = (rec: finance.Reconciliation) => {
    expect(rec.difference).toBe(rec.statement_balance - rec.ledger_balance);
    expect(rec.items.reduce((sum, item) => sum + item.difference, 0)).toBe(rec.difference);
  };

  it('gives the statement and ledger balances and each item between them, the items adding up to the difference', async () => {
    const t = await registerTenant(server());
    const i1 = await invoiceOf(t, 120);
    const i2 = await invoiceOf(t, 25);
    const i3 = await invoiceOf(t, 45);
    const i4 = await invoiceOf(t, 10);
    const i5 = await invoiceOf(t, 30);
    const { account, lines } = await statementOf(
      t,
      [
        ['2026-11-05', 'ADA INV-000001', '120.00'],
        ['2026-11-06', 'MONTHLY ACCOUNT FEE', '-12.50'],
        ['2026-11-07', 'UNKNOWN DEPOSIT', '30.00'],
        ['2026-11-08', 'MONTHLY ACCOUNT FEE AGAIN', '-12.50'],
        ['2026-11-09', 'ADA LATE TRANSFER', '45.00'],
        ['2026-11-15', 'ADA SMALL TRANSFER', '10.00'],
      ],
      { opening_balance: 100000, opening_date: '2026-11-01' },
    );
    const [l1, l2, l3, l4, l5, l6] = lines as [
      finance.BankTransaction,
      finance.BankTransaction,
      finance.BankTransaction,
      finance.BankTransaction,
      finance.BankTransaction,
      finance.BankTransaction,
    ];
    const payTo = async (invoiceId: string, amount: number, payment_date: string) => {
      const paid = await payInvoice(t.client, invoiceId, amount, {
        payment_date,
        bank_account_id: account.id,
      });
      const entry = await entryOf(t.client, 'invoice_payment', itemAt(paid.payments, 0).id);
      return { entry, line: `${entry.id}:1` };
    };
    // In the ledger only: on no statement line.
    const ledgerOnly = await payTo(i2.id, 25, '2026-11-04');
    // Booked after the statement line that shows it (L5, on the 9th), and before the one that shows I4 (L6, on the 15th).
    const late = await payTo(i3.id, 45, '2026-11-12');
    const early = await payTo(i4.id, 10, '2026-11-09');

    await matched(t, l1.id, [{ invoice_id: i1.id, amount: 12000 }]);
    await unwrap(categorise(t, l2.id, '5000'));
    await matched(t, l3.id, [{ invoice_id: i5.id, amount: 3000 }]);
    await unwrap(unmatch(t, l3.id));
    await unwrap(exclude(t, l4.id));
    await matched(t, l5.id, [{ journal_line_id: late.line, amount: 4500 }]);
    await matched(t, l6.id, [{ journal_line_id: early.line, amount: 1000 }]);

    const mid = await reconciliationOf(t, account.id, '2026-11-10');
    expect(mid).toEqual({
      bank_account_id: account.id,
      account_code: '1100',
      currency: 'USD',
      as_of: '2026-11-10',
      // 100000 + 12000 - 1250 + 3000 - 1250 + 4500
      statement_balance: 117000,
      // 100000 + 2500 + 12000 - 1250 + (3000 - 3000) + 1000
      ledger_balance: 114250,
      difference: 2750,
      items: [
        {
          kind: 'unreconciled_ledger',
          date: '2026-11-04',
          description: 'Payment of invoice INV-000002',
          amount: 2500,
          difference: -2500,
          bank_transaction_id: null,
          journal_line_id: ledgerOnly.line,
        },
        {
          kind: 'unmatched_line',
          date: '2026-11-07',
          description: 'UNKNOWN DEPOSIT',
          amount: 3000,
          difference: 3000,
          bank_transaction_id: l3.id,
          journal_line_id: null,
        },
        {
          kind: 'excluded_line',
          date: '2026-11-08',
          description: 'MONTHLY ACCOUNT FEE AGAIN',
          amount: -1250,
          difference: -1250,
          bank_transaction_id: l4.id,
          journal_line_id: null,
        },
        {
          kind: 'timing',
          date: '2026-11-09',
          description: 'ADA LATE TRANSFER',
          amount: 4500,
          difference: 4500,
          bank_transaction_id: l5.id,
          journal_line_id: late.line,
        },
        {
          kind: 'timing',
          date: '2026-11-09',
          description: 'Payment of invoice INV-000004',
          amount: 1000,
          difference: -1000,
          bank_transaction_id: l6.id,
          journal_line_id: early.line,
        },
      ],
      counts: { unmatched: 1, matched: 3, excluded: 1 },
    });
    expectExplained(mid);

    // Once the late payment is booked, only the early one is a timing item.
    const booked = await reconciliationOf(t, account.id, '2026-11-12');
    expect(booked).toMatchObject({ statement_balance: 117000, ledger_balance: 118750, difference: -1750 });
    expect(booked.items.map((i) => [i.kind, i.amount, i.difference])).toEqual([
      ['unreconciled_ledger', 2500, -2500],
      ['unmatched_line', 3000, 3000],
      ['excluded_line', -1250, -1250],
      ['timing', 1000, -1000],
    ]);
    expectExplained(booked);

    // Every line on both sides: what is left is the unreconciled, the unmatched and the excluded.
    const end = await reconciliationOf(t, account.id, '2026-11-30');
    expect(end).toMatchObject({
      statement_balance: 118000,
      ledger_balance: 118750,
      difference: -750,
      counts: { unmatched: 1, matched: 4, excluded: 1 },
    });
    expect(end.items.map((i) => [i.kind, i.amount, i.difference])).toEqual([
      ['unreconciled_ledger', 2500, -2500],
      ['unmatched_line', 3000, 3000],
      ['excluded_line', -1250, -1250],
    ]);
    expectExplained(end);
    const tb = await expectTrialBalance(t.client, {
      '1100': { debit: 100000 + 2500 + 4500 + 1000 + 12000 + 3000, credit: 1250 + 3000 },
      '1200': { debit: 23000 + 3000, credit: 2500 + 4500 + 1000 + 12000 + 3000 },
      '3000': { credit: 100000 },
      '4000': { credit: 23000 },
      '5000': { debit: 1250 },
    });
    expect(tb.accounts.find((a) => a.code === '1100')?.balance).toBe(end.ledger_balance);

    // Before some lines: only what each side holds by then.
    const early5 = await reconciliationOf(t, account.id, '2026-11-05');
    expect(early5).toMatchObject({
      statement_balance: 112000,
      ledger_balance: 114500,
      difference: -2500,
      counts: { unmatched: 0, matched: 1, excluded: 0 },
    });
    expect(early5.items.map((i) => [i.kind, i.amount, i.difference])).toEqual([
      ['unreconciled_ledger', 2500, -2500],
    ]);
    expectExplained(early5);

    // Before the account was opened: nothing on either side.
    expect(await reconciliationOf(t, account.id, '2026-10-31')).toMatchObject({
      statement_balance: 0,
      ledger_balance: 0,
      difference: 0,
      items: [],
      counts: { unmatched: 0, matched: 0, excluded: 0 },
    });
  });
});

describe('GET /v1/finance/bank-transactions', () => {
  it('filters by bank account and status with total_count and paging; another business sees none of it', async () => {
    const t = await registerTenant(server());
    const { account: a, lines: aLines } = await statementOf(t, [
      ['2026-11-02', 'A ONE', '10.00'],
      ['2026-11-03', 'A TWO', '-2.00'],
      ['2026-11-04', 'A THREE', '7.00'],
    ]);
    const { account: b, lines: bLines } = await statementOf(
      t,
      [
        ['2026-11-02', 'B ONE', '-4.00'],
        ['2026-11-05', 'B TWO', '6.00'],
      ],
      { name: 'Savings' },
    );
    expect(b.account_code).toBe('1101');
    const [a1, a2, a3] = aLines as [
      finance.BankTransaction,
      finance.BankTransaction,
      finance.BankTransaction,
    ];
    const [b1, b2] = bLines as [finance.BankTransaction, finance.BankTransaction];
    await unwrap(exclude(t, a2.id));
    await unwrap(categorise(t, b1.id, '5000'));

    const list = async (query: ListQuery) => {
      const page = await unwrap(tx(t).listBankTransactions({ query }));
      return { ids: page.bank_transactions.map((l) => l.id), total: page.total_count, page };
    };
    expect(await list({})).toMatchObject({ ids: [a1.id, b1.id, a2.id, a3.id, b2.id], total: 5 });
    expect(await list({ bank_account_id: a.id })).toMatchObject({ ids: [a1.id, a2.id, a3.id], total: 3 });
    expect(await list({ status: 'unmatched' })).toMatchObject({ ids: [a1.id, a3.id, b2.id], total: 3 });
    expect(await list({ bank_account_id: a.id, status: 'excluded' })).toMatchObject({
      ids: [a2.id],
      total: 1,
    });
    const matchedPage = await list({ status: 'matched' });
    expect(matchedPage).toMatchObject({ ids: [b1.id], total: 1 });
    expect(itemAt(matchedPage.page.bank_transactions, 0).matches).toEqual([
      aMatch({ kind: 'account', amount: 400, account_code: '5000', recorded: 'entry' }),
    ]);
    expect(await list({ bank_account_id: a.id, limit: 2, offset: 1 })).toMatchObject({
      ids: [a2.id, a3.id],
      total: 3,
    });
    expect(await list({ bank_account_id: 'bank_00000000000000000000000000' })).toMatchObject({
      ids: [],
      total: 0,
    });

    // Another business: none of it is there.
    const other = await registerTenant(server());
    expect((await unwrap(tx(other).listBankTransactions({ query: {} }))).total_count).toBe(0);
    expect(
      (await unwrap(tx(other).listBankTransactions({ query: { bank_account_id: a.id } }))).total_count,
    ).toBe(0);
    const theirInvoice = await invoiceOf(other, 10);
    expectResultError(await tx(other).getBankTransaction({ params: { id: a1.id } }), 404, 'NOT_FOUND');
    expectResultError(
      await tx(other).getBankTransactionSuggestions({ params: { id: a1.id } }),
      404,
      'NOT_FOUND',
    );
    expectResultError(
      await match(other, a1.id, [{ invoice_id: theirInvoice.id, amount: 1000 }]),
      404,
      'NOT_FOUND',
    );
    expectResultError(await categorise(other, a1.id, '5000'), 404, 'NOT_FOUND');
    expectResultError(await exclude(other, a1.id), 404, 'NOT_FOUND');
    expectResultError(await unmatch(other, b1.id), 404, 'NOT_FOUND');
    expectResultError(
      await tx(other).acceptBankSuggestions({ body: { bank_account_id: a.id } }),
      404,
      'NOT_FOUND',
    );
    expectResultError(
      await other.client.finance.bankAccounts.getReconciliation({ params: { id: a.id }, query: {} }),
      404,
      'NOT_FOUND',
    );
    // Nor can a line of this business take the other's invoice or ledger line.
    const noInvoice = expectResultError(
      await match(t, a1.id, [{ invoice_id: theirInvoice.id, amount: 1000 }]),
      422,
      'VALIDATION_ERROR',
      'matches.0',
    );
    expect(noInvoice.details?.[0]?.message).toBe('No such invoice');
    const theirPayment = itemAt(
      (await payInvoice(other.client, theirInvoice.id, 10, { payment_date: '2026-11-02' })).payments,
      0,
    );
    const theirLine = `${(await entryOf(other.client, 'invoice_payment', theirPayment.id)).id}:1`;
    const noLine = expectResultError(
      await match(t, a1.id, [{ journal_line_id: theirLine, amount: 1000 }]),
      422,
      'VALIDATION_ERROR',
      'matches.0',
    );
    expect(noLine.details?.[0]?.message).toBe('No such journal line');
    expect(await getInvoice(other.client, theirInvoice.id)).toMatchObject({
      status: 'paid',
      amount_paid: 10,
    });
    expect(await lineOf(t, a1.id)).toMatchObject({ status: 'unmatched', matches: [] });
    const loner = await registerBusiness(server());
    expectResultError(await tx(loner).getBankTransaction({ params: { id: b2.id } }), 404, 'NOT_FOUND');
  });
});
