import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import type { BankTransaction, StatementImportReport } from '../../contract/finance/index.js';
import { raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { expectResultError } from '../support/expect.js';
import { useTestServer } from '../support/setup.js';

/*
 * Statement import over HTTP (DESIGN.md section 20, docs/decisions.md D273): CSV, OFX/QFX and
 * CAMT.053 files sent as the body or as the `file` part of a form, each line kept once, unreadable
 * lines refused by line number (all or nothing unless told otherwise), a dry run writing nothing,
 * and the file's closing balance checked against the lines. The readers themselves are tested
 * without a server in statement-files.test.ts.
 */

const server = useTestServer({ worker: false, env: { DB_POOL_SIZE: '20' } });

const where = onPostgres ? 'on PostgreSQL, under real concurrency' : 'on PGlite, serialised by the engine';

const fixture = (name: string) => readFileSync(new URL(`../fixtures/bank/${name}`, import.meta.url), 'utf8');

const SINGLE = JSON.stringify({
  date: 'Date',
  description: 'Description',
  amount: 'Amount',
  reference: 'Reference',
});
const SPLIT = JSON.stringify({
  date: 'Posted',
  description: 'Details',
  debit: 'Money out',
  credit: 'Money in',
  reference: 'Ref',
});
const MINIMAL = JSON.stringify({ date: 'Date', description: 'Description', amount: 'Amount' });

type Query = Record<string, string>;

async function openAccount(biz: TestBusiness, currency: string, opening_balance = 0) {
  const created = await unwrap(
    biz.client.finance.bankAccounts.createBankAccount({
      body: { name: `Account in ${currency}`, currency, opening_balance, opening_date: '2026-11-01' },
    }),
  );
  return created.bank_account;
}

const statementsPath = (accountId: string, query: Query = {}) => {
  const search = new URLSearchParams(query).toString();
  return `/v1/finance/bank-accounts/${accountId}/statements${search ? `?${search}` : ''}`;
};

/** The file as the request body, the options as query parameters. */
const send = (biz: TestBusiness, accountId: string, file: string, type: string, query: Query = {}) =>
  raw(server(), 'POST', statementsPath(accountId, query), {
    headers: { 'content-type': type },
    body: file,
    token: biz.accessToken,
  });

/** The file as the `file` part of multipart/form-data, with `fields` beside it. */
async function sendForm(
  biz: TestBusiness,
  accountId: string,
  file: string,
  fields: Query,
  query: Query = {},
): Promise<{ status: number; body: any }> {
  const form = new FormData();
  form.append('file', new Blob([file], { type: 'application/octet-stream' }), 'statement');
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  const res = await fetch(`${server().baseUrl}${statementsPath(accountId, query)}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${biz.accessToken}` },
    body: form,
  });
  return { status: res.status, body: await res.json() };
}

/** The report of a 200 answer. */
function reportOf(res: { status: number; body: any }): StatementImportReport {
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(res.body.result).toBe('success');
  return res.body.report as StatementImportReport;
}

const importFile = async (...args: Parameters<typeof send>) => reportOf(await send(...args));

/** The account's statement lines, oldest first. */
async function linesOf(biz: TestBusiness, accountId: string): Promise<BankTransaction[]> {
  const listed = await unwrap(
    biz.client.finance.bankTransactions.listBankTransactions({
      query: { bank_account_id: accountId, limit: 200 },
    }),
  );
  expect(listed.total_count).toBe(listed.bank_transactions.length);
  return listed.bank_transactions;
}

/** The account's import rows, oldest first: an import that adds no line leaves none. */
async function importsOf(biz: TestBusiness, accountId: string) {
  const rows = await server()
    .deps.db.selectFrom('finance_bank_imports')
    .select(['id', 'format', 'imported', 'duplicates', 'refused', 'closing_balance_minor'])
    .where('business_id', '=', biz.businessId)
    .where('bank_account_id', '=', accountId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({
    ...r,
    closing_balance_minor: r.closing_balance_minor === null ? null : Number(r.closing_balance_minor),
  }));
}

/** Neither a line nor an import row for the account. */
async function expectNothingWritten(biz: TestBusiness, accountId: string): Promise<void> {
  expect(await linesOf(biz, accountId)).toEqual([]);
  expect(await importsOf(biz, accountId)).toEqual([]);
}

/** What a line says of the file (the rest is the service's). */
const read = (l: BankTransaction) => ({
  line: l.line,
  date: l.date,
  description: l.description,
  amount: l.amount,
  reference: l.reference,
});

const IMPORT_ID = expect.stringMatching(/^bimp_[0-9A-HJKMNP-TV-Z]{26}$/);

const leftOut = (n: number) =>
  `${n} refused ${n === 1 ? 'line was' : 'lines were'} left out: import them once corrected`;

const SINGLE_AMOUNT_REFUSED = [
  {
    line: 6,
    reason: 'amount `1,250.00` has a thousands separator: remove it (1250.00, not 1,250.00 or 1.250,00)',
  },
  { line: 10, reason: 'date `2026-11-31` is not a calendar date' },
  { line: 11, reason: 'amount is empty: write the amount (-12.50)' },
  {
    line: 12,
    reason:
      'amount `-12.505` has 3 decimals and GBP takes at most 2 decimals: send the amount in GBP as the bank booked it',
  },
];

const SINGLE_AMOUNT_LINES = [
  { line: 2, date: '2026-11-02', description: 'Opening deposit', amount: 250000, reference: 'DEP-001' },
  {
    line: 3,
    date: '2026-11-03',
    description: 'Coffee Corner, High Street',
    amount: -380,
    reference: 'CARD-7781',
  },
  {
    line: 4,
    date: '2026-11-04',
    description: 'Invoice INV-0042 paid by Ada Lovelace',
    amount: 125000,
    reference: 'INV-0042',
  },
  { line: 8, date: '2026-11-06', description: 'Monthly account fee', amount: -500, reference: null },
  { line: 9, date: '2026-11-06', description: 'Monthly account fee', amount: -500, reference: null },
];

const DEBIT_CREDIT_LINES = [
  { line: 2, date: '2026-11-03', description: 'Rent November', amount: -95000, reference: 'SO-118' },
  {
    line: 3,
    date: '2026-11-04',
    description: 'Client payment Babbage & Co',
    amount: 48050,
    reference: 'FP-2231',
  },
  { line: 4, date: '2026-11-05', description: 'Card refund', amount: 1299, reference: null },
  { line: 5, date: '2026-11-06', description: 'ATM withdrawal', amount: -4000, reference: 'ATM-55' },
];

const DEBIT_CREDIT_REFUSED = [
  {
    line: 6,
    reason: 'debit `10.00` and credit `10.00` are both filled: a row is money in or money out, fill one',
  },
  { line: 7, reason: 'debit and credit are both empty: fill debit for money out or credit for money in' },
  { line: 8, reason: 'date `31/02/2026` is not a calendar date' },
  {
    line: 9,
    reason:
      'date `2026-11-09` is not DD/MM/YYYY (03/11/2026 is 3 November 2026): send the date_format the file uses',
  },
];

const OFX_V1_LINES = [
  { line: 1, date: '2026-11-02', description: 'Opening deposit', amount: 250000, reference: '202611020001' },
  {
    line: 2,
    date: '2026-11-03',
    description: 'Coffee Corner / Card 7781 High Street',
    amount: -380,
    reference: '202611030002',
  },
  { line: 3, date: '2026-11-04', description: 'Babbage & Co', amount: 125000, reference: '202611040003' },
  { line: 4, date: '2026-11-05', description: 'Landlord Properties', amount: -12000, reference: '000104' },
];

/** The report of a first import of statement-v1.ofx into a GBP account opened with nothing. */
const OFX_V1_REPORT = {
  import_id: IMPORT_ID,
  format: 'ofx',
  dry_run: false,
  applied: true,
  counts: { lines: 4, imported: 4, duplicates: 0, refused: 0, suggested: 0 },
  refused: [],
  duplicates: [],
  closing_balance: 362620,
  statement_balance: 362620,
  warnings: [],
};

const OFX_V1_DUPLICATES = OFX_V1_LINES.map((l) => ({ line: l.line, date: l.date, amount: l.amount }));

describe('POST /v1/finance/bank-accounts/:id/statements: each format, read back', () => {
  it('imports a CSV with one signed amount column, its mapping and date format as query parameters', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const report = await importFile(biz, account.id, fixture('single-amount.csv'), 'text/csv', {
      mapping: SINGLE,
      date_format: 'YYYY-MM-DD',
      all_or_nothing: 'false',
    });
    expect(report).toEqual({
      import_id: IMPORT_ID,
      format: 'csv',
      dry_run: false,
      applied: true,
      counts: { lines: 9, imported: 5, duplicates: 0, refused: 4, suggested: 0 },
      refused: SINGLE_AMOUNT_REFUSED,
      duplicates: [],
      closing_balance: null,
      // 2500.00 - 3.80 + 1250.00 - 5.00 - 5.00
      statement_balance: 373620,
      warnings: [leftOut(4)],
    });
    const lines = await linesOf(biz, account.id);
    // A quoted cell over two lines starts on line 4; the identical fee lines 8 and 9 are both kept.
    expect(lines.map(read)).toEqual(SINGLE_AMOUNT_LINES);
    for (const line of lines) {
      expect(line).toMatchObject({
        id: expect.stringMatching(/^btx_/),
        bank_account_id: account.id,
        import_id: report.import_id,
        status: 'unmatched',
        rule_id: null,
        matches: [],
      });
    }
  });

  it('imports a CSV with debit and credit columns (debit is money out), DD/MM/YYYY dates', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const report = await importFile(biz, account.id, fixture('debit-credit.csv'), 'text/csv', {
      mapping: SPLIT,
      date_format: 'DD/MM/YYYY',
      all_or_nothing: 'false',
    });
    expect(report).toEqual({
      import_id: IMPORT_ID,
      format: 'csv',
      dry_run: false,
      applied: true,
      counts: { lines: 8, imported: 4, duplicates: 0, refused: 4, suggested: 0 },
      refused: DEBIT_CREDIT_REFUSED,
      duplicates: [],
      closing_balance: null,
      // -950.00 + 480.50 + 12.99 - 40.00
      statement_balance: -49651,
      warnings: [leftOut(4)],
    });
    expect((await linesOf(biz, account.id)).map(read)).toEqual(DEBIT_CREDIT_LINES);
  });

  it('imports OFX 1 (SGML): FITIDs as references, CHECKNUM when there is none, the closing balance agreeing', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const report = await importFile(biz, account.id, fixture('statement-v1.ofx'), 'application/x-ofx');
    expect(report).toEqual(OFX_V1_REPORT);
    const lines = await linesOf(biz, account.id);
    expect(lines.map(read)).toEqual(OFX_V1_LINES);
    expect(new Set(lines.map((l) => l.import_id))).toEqual(new Set([report.import_id]));
  });

  it('reads an OFX 1 file that is not UTF-8 as Windows-1252', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const text = fixture('statement-v1.ofx').replaceAll('Babbage & Co', 'Café Ménard');
    const res = await raw(server(), 'POST', statementsPath(account.id), {
      headers: { 'content-type': 'application/x-ofx' },
      body: Buffer.from(text, 'latin1'),
      token: biz.accessToken,
    });
    expect(reportOf(res).counts.imported).toBe(4);
    expect((await linesOf(biz, account.id)).map(read)).toEqual(
      OFX_V1_LINES.map((l) => (l.line === 3 ? { ...l, description: 'Café Ménard' } : l)),
    );
  });

  it('imports OFX 2 (XML), entities and UTF-8 decoded, told the format as a query parameter', async () => {
    const biz = await registerBusiness(server());
    // -1115.80 - 42.10 + 1000.00 is the file's closing balance of -157.90.
    const account = await openAccount(biz, 'EUR', -111580);
    const report = await importFile(biz, account.id, fixture('statement-v2.ofx'), 'application/xml', {
      format: 'ofx',
    });
    expect(report).toEqual({
      import_id: IMPORT_ID,
      format: 'ofx',
      dry_run: false,
      applied: true,
      counts: { lines: 2, imported: 2, duplicates: 0, refused: 0, suggested: 0 },
      refused: [],
      duplicates: [],
      closing_balance: -15790,
      statement_balance: -15790,
      warnings: [],
    });
    expect((await linesOf(biz, account.id)).map(read)).toEqual([
      {
        line: 1,
        date: '2026-11-10',
        description: 'Boulangerie & Café Ménard',
        amount: -4210,
        reference: 'FR-0001',
      },
      {
        line: 2,
        date: '2026-11-12',
        description: 'Virement client / Facture 2026-118',
        amount: 100000,
        reference: 'FR-0002',
      },
    ]);
  });

  it('imports a QFX credit card statement', async () => {
    const biz = await registerBusiness(server());
    // A card owing 270.02, then -64.99 and +200.00: the file's closing balance of -135.01.
    const account = await openAccount(biz, 'USD', -27002);
    const report = await importFile(biz, account.id, fixture('statement.qfx'), 'application/vnd.intu.qfx');
    expect(report).toEqual({
      import_id: IMPORT_ID,
      format: 'ofx',
      dry_run: false,
      applied: true,
      counts: { lines: 2, imported: 2, duplicates: 0, refused: 0, suggested: 0 },
      refused: [],
      duplicates: [],
      closing_balance: -13501,
      statement_balance: -13501,
      warnings: [],
    });
    expect((await linesOf(biz, account.id)).map(read)).toEqual([
      {
        line: 1,
        date: '2026-11-15',
        description: 'Example Hardware Store',
        amount: -6499,
        reference: 'QFX-77001',
      },
      {
        line: 2,
        date: '2026-11-20',
        description: 'Payment - thank you',
        amount: 20000,
        reference: 'QFX-77002',
      },
    ]);
  });

  it('imports CAMT.053: signed by CdtDbtInd, the pending entry skipped, the unreadable one refused', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'EUR', 100000);
    const report = await importFile(biz, account.id, fixture('camt053.xml'), 'application/xml', {
      all_or_nothing: 'false',
    });
    expect(report).toEqual({
      import_id: IMPORT_ID,
      format: 'camt053',
      dry_run: false,
      applied: true,
      // Entry 5 is pending: neither a line nor refused.
      counts: { lines: 6, imported: 5, duplicates: 0, refused: 1, suggested: 0 },
      refused: [
        {
          line: 6,
          reason:
            'Amt `12.345` has 3 decimals and EUR takes at most 2 decimals: send the amount in EUR as the bank booked it',
        },
      ],
      duplicates: [],
      closing_balance: 167500,
      // 1000.00 + 1250.00 - 950.00 - 5.00 + 80.00 + 300.00
      statement_balance: 167500,
      warnings: [leftOut(1)],
    });
    expect((await linesOf(biz, account.id)).map(read)).toEqual([
      {
        line: 1,
        date: '2026-11-03',
        description: 'INV-0042 Ada Lovelace',
        amount: 125000,
        reference: 'ASR-1001',
      },
      {
        line: 2,
        date: '2026-11-04',
        description: 'Rent November Unit 4 Example Park',
        amount: -95000,
        reference: 'NR-2',
      },
      { line: 3, date: '2026-11-05', description: 'Account fee November', amount: -500, reference: null },
      { line: 4, date: '2026-11-06', description: 'Grace Hopper', amount: 8000, reference: 'E2E-77' },
      {
        line: 7,
        date: '2026-11-08',
        description: 'Batch part A Batch part B',
        amount: 30000,
        reference: 'ASR-1007',
      },
    ]);
  });
});

describe('duplicates', () => {
  it('the same file sent again: every line a duplicate, nothing imported', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const first = await importFile(biz, account.id, fixture('statement-v1.ofx'), 'application/x-ofx');
    const again = await importFile(biz, account.id, fixture('statement-v1.ofx'), 'application/x-ofx');
    expect(again).toEqual({
      import_id: null,
      format: 'ofx',
      dry_run: false,
      applied: false,
      counts: { lines: 4, imported: 0, duplicates: 4, refused: 0, suggested: 0 },
      refused: [],
      duplicates: OFX_V1_DUPLICATES,
      closing_balance: 362620,
      statement_balance: 362620,
      warnings: [],
    });
    const lines = await linesOf(biz, account.id);
    expect(lines.map(read)).toEqual(OFX_V1_LINES);
    expect(lines.every((l) => l.import_id === first.import_id)).toBe(true);
    // The second import added no line, so it left no import row.
    expect(await importsOf(biz, account.id)).toEqual([
      {
        id: first.import_id,
        format: 'ofx',
        imported: 4,
        duplicates: 0,
        refused: 0,
        closing_balance_minor: 362620,
      },
    ]);
  });

  it('keeps identical lines of one file, each once: a later file adds only the occurrences beyond them', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const fee = '2026-11-06,Monthly account fee,-5.00';
    const file = ['Date,Description,Amount', fee, fee, fee, '2026-11-07,Interest,0.42'].join('\n');
    const options = { mapping: MINIMAL };
    const first = await importFile(biz, account.id, file, 'text/csv', options);
    expect(first.counts).toEqual({ lines: 4, imported: 4, duplicates: 0, refused: 0, suggested: 0 });
    expect(first.statement_balance).toBe(-1458);

    const again = await importFile(biz, account.id, file, 'text/csv', options);
    expect(again).toMatchObject({
      import_id: null,
      applied: false,
      counts: { lines: 4, imported: 0, duplicates: 4, refused: 0, suggested: 0 },
      duplicates: [
        { line: 2, date: '2026-11-06', amount: -500 },
        { line: 3, date: '2026-11-06', amount: -500 },
        { line: 4, date: '2026-11-06', amount: -500 },
        { line: 5, date: '2026-11-07', amount: 42 },
      ],
      statement_balance: -1458,
    });

    // The next statement shows the fee four times: the fourth is new.
    const longer = ['Date,Description,Amount', fee, fee, fee, fee].join('\n');
    const next = await importFile(biz, account.id, longer, 'text/csv', options);
    expect(next).toMatchObject({
      import_id: IMPORT_ID,
      applied: true,
      counts: { lines: 4, imported: 1, duplicates: 3, refused: 0, suggested: 0 },
      duplicates: [
        { line: 2, date: '2026-11-06', amount: -500 },
        { line: 3, date: '2026-11-06', amount: -500 },
        { line: 4, date: '2026-11-06', amount: -500 },
      ],
      // The opening balance and the lines to the file's last day, 2026-11-06: four fees.
      statement_balance: -2000,
    });
    const lines = await linesOf(biz, account.id);
    expect(lines.map((l) => [l.date, l.amount, l.line, l.import_id])).toEqual([
      ['2026-11-06', -500, 2, first.import_id],
      ['2026-11-06', -500, 3, first.import_id],
      ['2026-11-06', -500, 4, first.import_id],
      ['2026-11-06', -500, 5, next.import_id],
      ['2026-11-07', 42, 5, first.import_id],
    ]);
  });

  it('a line of the same date and amount but another reference is a line of its own', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const mapping = SINGLE;
    const header = 'Date,Description,Amount,Reference';
    await importFile(biz, account.id, [header, '2026-11-02,Card,-9.99,C-1'].join('\n'), 'text/csv', {
      mapping,
    });
    const report = await importFile(
      biz,
      account.id,
      [header, '2026-11-02,Card,-9.99,C-1', '2026-11-02,Card,-9.99,C-2', '2026-11-02,Card,-9.98,C-1'].join(
        '\n',
      ),
      'text/csv',
      { mapping },
    );
    expect(report.counts).toEqual({ lines: 3, imported: 2, duplicates: 1, refused: 0, suggested: 0 });
    expect(report.duplicates).toEqual([{ line: 2, date: '2026-11-02', amount: -999 }]);
    expect((await linesOf(biz, account.id)).map((l) => [l.amount, l.reference])).toEqual([
      [-999, 'C-1'],
      [-999, 'C-2'],
      [-998, 'C-1'],
    ]);
  });
});

describe('dry_run', () => {
  it('reports what would be imported and writes nothing', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const report = await importFile(biz, account.id, fixture('statement-v1.ofx'), 'application/x-ofx', {
      dry_run: 'true',
    });
    expect(report).toEqual({ ...OFX_V1_REPORT, import_id: null, dry_run: true, applied: false });
    await expectNothingWritten(biz, account.id);
    const { reconciliation } = await unwrap(
      biz.client.finance.bankAccounts.getReconciliation({
        params: { id: account.id },
        query: { as_of: '2026-11-30' },
      }),
    );
    expect(reconciliation).toMatchObject({
      statement_balance: 0,
      counts: { unmatched: 0, matched: 0, excluded: 0 },
      items: [],
    });
  });

  it('after a real import reports every line a duplicate', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const imported = await importFile(biz, account.id, fixture('statement-v1.ofx'), 'application/x-ofx');
    const dry = await importFile(biz, account.id, fixture('statement-v1.ofx'), 'application/x-ofx', {
      dry_run: 'true',
    });
    expect(dry).toEqual({
      ...OFX_V1_REPORT,
      import_id: null,
      dry_run: true,
      applied: false,
      counts: { lines: 4, imported: 0, duplicates: 4, refused: 0, suggested: 0 },
      duplicates: OFX_V1_DUPLICATES,
    });
    const lines = await linesOf(biz, account.id);
    expect(lines).toHaveLength(4);
    expect(lines.every((l) => l.import_id === imported.import_id)).toBe(true);
  });

  it('reports every refused line without refusing the file, and writes nothing', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const report = await importFile(biz, account.id, fixture('single-amount.csv'), 'text/csv', {
      mapping: SINGLE,
      dry_run: 'true',
    });
    expect(report).toEqual({
      import_id: null,
      format: 'csv',
      dry_run: true,
      applied: false,
      counts: { lines: 9, imported: 5, duplicates: 0, refused: 4, suggested: 0 },
      refused: SINGLE_AMOUNT_REFUSED,
      duplicates: [],
      closing_balance: null,
      statement_balance: 373620,
      warnings: [],
    });
    await expectNothingWritten(biz, account.id);
  });
});

describe('all_or_nothing', () => {
  const header = 'Date,Description,Amount';

  it('by default, a line whose date is not in the chosen format imports nothing (422 naming line.3)', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const file = [header, '03/11/2026,Coffee,-3.80', '2026-11-04,Tea,-2.20', '05/11/2026,Sale,12.00'].join(
      '\n',
    );
    const res = await send(biz, account.id, file, 'text/csv', {
      mapping: MINIMAL,
      date_format: 'DD/MM/YYYY',
    });
    const error = expectResultError(res, 422, 'VALIDATION_ERROR', 'line.3');
    expect(error.message).toBe(
      '1 of 3 lines refused, so nothing was imported: correct them, or send all_or_nothing=false to import ' +
        'the readable lines (dry_run=true reports every line)',
    );
    expect(error.details).toEqual([
      {
        field: 'line.3',
        message:
          'date `2026-11-04` is not DD/MM/YYYY (03/11/2026 is 3 November 2026): send the date_format the file uses',
      },
    ]);
    await expectNothingWritten(biz, account.id);
  });

  it('by default, an amount with a thousands separator imports nothing (422 naming line.2)', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const file = [header, '2026-11-03,Invoice,"1,250.00"', '2026-11-04,Tea,-2.20'].join('\n');
    const error = expectResultError(
      await send(biz, account.id, file, 'text/csv', { mapping: MINIMAL }),
      422,
      'VALIDATION_ERROR',
      'line.2',
    );
    expect(error.details).toEqual([
      {
        field: 'line.2',
        message: 'amount `1,250.00` has a thousands separator: remove it (1250.00, not 1,250.00 or 1.250,00)',
      },
    ]);
    await expectNothingWritten(biz, account.id);
  });

  it('by default names every refused line of the file; all_or_nothing=false imports the others', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const error = expectResultError(
      await send(biz, account.id, fixture('single-amount.csv'), 'text/csv', { mapping: SINGLE }),
      422,
      'VALIDATION_ERROR',
      'line.6',
    );
    expect(error.message).toMatch(/^4 of 9 lines refused, so nothing was imported/);
    expect(error.details).toEqual(
      SINGLE_AMOUNT_REFUSED.map((r) => ({ field: `line.${r.line}`, message: r.reason })),
    );
    await expectNothingWritten(biz, account.id);

    const report = await importFile(biz, account.id, fixture('single-amount.csv'), 'text/csv', {
      mapping: SINGLE,
      all_or_nothing: 'false',
    });
    expect(report.counts).toEqual({ lines: 9, imported: 5, duplicates: 0, refused: 4, suggested: 0 });
    expect(report.refused).toEqual(SINGLE_AMOUNT_REFUSED);
    expect((await linesOf(biz, account.id)).map(read)).toEqual(SINGLE_AMOUNT_LINES);
  });

  it('refuses OFX transactions by their position: 422 by default, the readable one imported when told', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const refused = [
      {
        line: 1,
        reason: 'TRNAMT `1,250.00` has a thousands separator: remove it (1250.00, not 1,250.00 or 1.250,00)',
      },
      { line: 2, reason: 'DTPOSTED is missing: each STMTTRN needs the date it was posted' },
      {
        line: 3,
        reason:
          'DTPOSTED `20261131` is not a calendar date; TRNAMT `twelve` is not a number: write only digits, a minus ' +
          'sign and a decimal point (-12.50)',
      },
    ];
    const error = expectResultError(
      await send(biz, account.id, fixture('malformed-amount.ofx'), 'application/x-ofx'),
      422,
      'VALIDATION_ERROR',
      'line.1',
    );
    expect(error.details).toEqual(refused.map((r) => ({ field: `line.${r.line}`, message: r.reason })));
    await expectNothingWritten(biz, account.id);

    const report = await importFile(biz, account.id, fixture('malformed-amount.ofx'), 'application/x-ofx', {
      all_or_nothing: 'false',
    });
    expect(report).toEqual({
      import_id: IMPORT_ID,
      format: 'ofx',
      dry_run: false,
      applied: true,
      counts: { lines: 4, imported: 1, duplicates: 0, refused: 3, suggested: 0 },
      refused,
      duplicates: [],
      closing_balance: null,
      statement_balance: 1500,
      warnings: [leftOut(3)],
    });
    expect((await linesOf(biz, account.id)).map(read)).toEqual([
      { line: 4, date: '2026-11-04', description: 'Fine', amount: 1500, reference: 'GOOD-4' },
    ]);
  });
});

describe('how the file is sent', () => {
  it('as multipart/form-data with the options as form fields', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const fields = { format: 'csv', mapping: SPLIT, date_format: 'DD/MM/YYYY', all_or_nothing: 'false' };
    const report = reportOf(await sendForm(biz, account.id, fixture('debit-credit.csv'), fields));
    expect(report).toEqual({
      import_id: IMPORT_ID,
      format: 'csv',
      dry_run: false,
      applied: true,
      counts: { lines: 8, imported: 4, duplicates: 0, refused: 4, suggested: 0 },
      refused: DEBIT_CREDIT_REFUSED,
      duplicates: [],
      closing_balance: null,
      statement_balance: -49651,
      warnings: [leftOut(4)],
    });
    expect((await linesOf(biz, account.id)).map(read)).toEqual(DEBIT_CREDIT_LINES);

    // dry_run as a form field too: the same file is now four duplicates, and nothing more is written.
    const dry = reportOf(
      await sendForm(biz, account.id, fixture('debit-credit.csv'), { ...fields, dry_run: 'true' }),
    );
    expect(dry).toMatchObject({
      import_id: null,
      dry_run: true,
      applied: false,
      counts: { lines: 8, imported: 0, duplicates: 4, refused: 4, suggested: 0 },
      duplicates: DEBIT_CREDIT_LINES.map((l) => ({ line: l.line, date: l.date, amount: l.amount })),
      warnings: [],
    });
    expect(await linesOf(biz, account.id)).toHaveLength(4);
  });

  it('as a form whose options are query parameters, and as the raw body: the same lines', async () => {
    const biz = await registerBusiness(server());
    const byForm = await openAccount(biz, 'GBP');
    const byBody = await openAccount(biz, 'GBP');
    const query = { mapping: SPLIT, date_format: 'DD/MM/YYYY', all_or_nothing: 'false' };
    const formReport = reportOf(await sendForm(biz, byForm.id, fixture('debit-credit.csv'), {}, query));
    const bodyReport = await importFile(biz, byBody.id, fixture('debit-credit.csv'), 'text/csv', query);
    expect({ ...formReport, import_id: null }).toEqual({ ...bodyReport, import_id: null });
    expect(formReport.counts.imported).toBe(4);
    expect((await linesOf(biz, byForm.id)).map(read)).toEqual(DEBIT_CREDIT_LINES);
    expect((await linesOf(biz, byBody.id)).map(read)).toEqual(DEBIT_CREDIT_LINES);
  });

  it('takes a form field over the query parameter of the same option', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const report = reportOf(
      await sendForm(
        biz,
        account.id,
        fixture('statement-v1.ofx'),
        { dry_run: 'true', format: 'ofx' },
        { dry_run: 'false', format: 'csv', mapping: MINIMAL },
      ),
    );
    expect(report).toEqual({ ...OFX_V1_REPORT, import_id: null, dry_run: true, applied: false });
    await expectNothingWritten(biz, account.id);
  });

  it('through the SDK, as a File', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const { report } = await unwrap(
      biz.client.finance.bankAccounts.importStatement({
        params: { id: account.id },
        query: {},
        body: { file: new File([fixture('statement-v1.ofx')], 'november.ofx') },
      }),
    );
    expect(report).toEqual(OFX_V1_REPORT);
    expect((await linesOf(biz, account.id)).map(read)).toEqual(OFX_V1_LINES);
  });
});

describe('refusals that write nothing', () => {
  it('refuses a file in another currency than the account (422)', async () => {
    const biz = await registerBusiness(server());
    const euros = await openAccount(biz, 'EUR');
    const pounds = await openAccount(biz, 'GBP');
    const ofx = expectResultError(
      await send(biz, euros.id, fixture('statement-v1.ofx'), 'application/x-ofx'),
      422,
      'VALIDATION_ERROR',
      'file',
    );
    expect(ofx.message).toBe(
      'The file is in GBP, the bank account in EUR: import it into a bank account in GBP',
    );
    const camt = expectResultError(
      await send(biz, pounds.id, fixture('camt053.xml'), 'application/xml', { all_or_nothing: 'false' }),
      422,
      'VALIDATION_ERROR',
      'file',
    );
    expect(camt.message).toBe(
      'The file is in EUR, the bank account in GBP: import it into a bank account in EUR',
    );
    await expectNothingWritten(biz, euros.id);
    await expectNothingWritten(biz, pounds.id);
  });

  it('refuses broken XML and a cut-short OFX file, naming the line (422)', async () => {
    const biz = await registerBusiness(server());
    const euros = await openAccount(biz, 'EUR');
    const pounds = await openAccount(biz, 'GBP');
    const xml = expectResultError(
      await send(biz, euros.id, fixture('broken.xml'), 'application/xml'),
      422,
      'VALIDATION_ERROR',
      'line.10',
    );
    expect(xml.message).toBe('Line 10: the file is not well-formed XML: unexpected close tag');

    const v2 = fixture('statement-v2.ofx').replace('<TRNAMT>-42.10</TRNAMT>', '<TRNAMT>-42.10</TRNAMTX>');
    const ofx2 = expectResultError(
      await send(biz, euros.id, v2, 'application/x-ofx'),
      422,
      'VALIDATION_ERROR',
      'line.28',
    );
    expect(ofx2.message).toBe('Line 28: the file is not well-formed XML: unexpected close tag');

    const v1 = fixture('statement-v1.ofx');
    const cut = v1.slice(0, v1.indexOf('</BANKTRANLIST>'));
    const last = cut.split('\n').length;
    const ofx1 = expectResultError(
      await send(biz, pounds.id, cut, 'application/x-ofx'),
      422,
      'VALIDATION_ERROR',
      `line.${last}`,
    );
    expect(ofx1.message).toBe(`Line ${last}: the file ends inside <BANKTRANLIST>: it is cut short`);
    await expectNothingWritten(biz, euros.id);
    await expectNothingWritten(biz, pounds.id);
  });

  it('refuses XML with a DOCTYPE declaring an entity (422), never resolving it', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'EUR');
    const refusal = 'Line 2: XML with a DOCTYPE is not accepted: external entities are never resolved';
    const res = await send(biz, account.id, fixture('doctype-entity.xml'), 'application/xml');
    const error = expectResultError(res, 422, 'VALIDATION_ERROR', 'line.2');
    expect(error.message).toBe(refusal);
    expect(JSON.stringify(res.body)).not.toMatch(/root:/);

    // The same declaration naming a server here: it is never asked for anything.
    let asked = 0;
    const listener = createServer((_req, res) => {
      asked++;
      res.end('<AddtlNtryInf>fetched</AddtlNtryInf>');
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = listener.address() as AddressInfo;
      const xml = fixture('doctype-entity.xml').replace(
        'file:///etc/passwd',
        `http://127.0.0.1:${port}/secret`,
      );
      const pointed = expectResultError(
        await send(biz, account.id, xml, 'text/xml', { format: 'camt053' }),
        422,
        'VALIDATION_ERROR',
        'line.2',
      );
      expect(pointed.message).toBe(refusal);
    } finally {
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    }
    expect(asked).toBe(0);
    await expectNothingWritten(biz, account.id);
  });

  it('refuses a file over 10 MiB, as the body or in a form (413 PAYLOAD_TOO_LARGE)', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const row = '2026-11-02,Card payment,-1.00\n';
    const huge = 'Date,Description,Amount\n' + row.repeat(Math.ceil((20 * 1024 * 1024) / row.length));
    expect(huge.length).toBeGreaterThan(20 * 1024 * 1024);
    const body = expectResultError(
      await send(biz, account.id, huge, 'text/csv', { mapping: MINIMAL, all_or_nothing: 'false' }),
      413,
      'PAYLOAD_TOO_LARGE',
    );
    expect(body.message).toBe('The file is larger than 10 MiB');
    const form = await sendForm(biz, account.id, huge, { mapping: MINIMAL, all_or_nothing: 'false' });
    expect(expectResultError(form, 413, 'PAYLOAD_TOO_LARGE').message).toBe('The file is larger than 10 MiB');
    await expectNothingWritten(biz, account.id);
  });

  it("answers 404 for an unknown bank account and another business's, writing nothing to it", async () => {
    const biz = await registerBusiness(server());
    const other = await registerBusiness(server());
    const theirs = await openAccount(other, 'GBP');
    expectResultError(
      await send(biz, 'bank_01JD7X2R5VQ8N3K4M6P9T1W2Y3', fixture('statement-v1.ofx'), 'application/x-ofx'),
      404,
      'NOT_FOUND',
    );
    expectResultError(
      await send(biz, theirs.id, fixture('statement-v1.ofx'), 'application/x-ofx'),
      404,
      'NOT_FOUND',
    );
    await expectNothingWritten(other, theirs.id);
  });

  it('refuses a CSV without a mapping, or whose mapping names no amount column, naming the mapping (422)', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const none = expectResultError(
      await send(biz, account.id, fixture('single-amount.csv'), 'text/csv'),
      422,
      'VALIDATION_ERROR',
      'mapping',
    );
    expect(none.message).toBe(
      'A CSV statement needs a mapping naming its columns for date, description and amount (or debit and ' +
        'credit); the header row (line 1) has "Date", "Description", "Amount", "Reference"',
    );
    const noAmount = expectResultError(
      await send(biz, account.id, fixture('single-amount.csv'), 'text/csv', {
        mapping: JSON.stringify({ date: 'Date', description: 'Description' }),
      }),
      422,
      'VALIDATION_ERROR',
      'mapping',
    );
    expect(noAmount.message).toBe(
      'The mapping needs the column of amount (signed), or the columns of both debit and credit',
    );
    await expectNothingWritten(biz, account.id);
  });

  it('refuses options the contract does not take, naming each (422)', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const csv = fixture('single-amount.csv');
    expectResultError(
      await send(biz, account.id, csv, 'text/csv', { mapping: SINGLE, date_format: 'YYYY/MM/DD' }),
      422,
      'VALIDATION_ERROR',
      'date_format',
    );
    expectResultError(
      await send(biz, account.id, csv, 'text/csv', { mapping: SINGLE, format: 'qif' }),
      422,
      'VALIDATION_ERROR',
      'format',
    );
    expectResultError(
      await sendForm(biz, account.id, csv, { mapping: SINGLE, all_or_nothing: 'maybe' }),
      422,
      'VALIDATION_ERROR',
      'all_or_nothing',
    );
    expectResultError(
      await sendForm(biz, account.id, csv, { mapping: SINGLE, dry_run: 'yes' }),
      422,
      'VALIDATION_ERROR',
      'dry_run',
    );
    await expectNothingWritten(biz, account.id);
  });

  it('refuses a mapping that is not a JSON object, names an unknown field or a missing column (422)', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const csv = fixture('single-amount.csv');
    const malformed = expectResultError(
      await send(biz, account.id, csv, 'text/csv', { mapping: '{"date":"Date",' }),
      422,
      'VALIDATION_ERROR',
      'mapping',
    );
    expect(malformed.details).toEqual([
      {
        field: 'mapping',
        message: 'Expected a JSON object such as {"date":"Date","description":"Details","amount":"Amount"}',
      },
    ]);
    expectResultError(
      await send(biz, account.id, csv, 'text/csv', { mapping: '["Date","Description","Amount"]' }),
      422,
      'VALIDATION_ERROR',
      'mapping',
    );
    expectResultError(
      await send(biz, account.id, csv, 'text/csv', {
        mapping: JSON.stringify({ date: 'Date', description: 'Description', amount: 'Amount', memo: 'Memo' }),
      }),
      422,
      'VALIDATION_ERROR',
      'mapping.memo',
    );
    const missing = expectResultError(
      await send(biz, account.id, csv, 'text/csv', {
        mapping: JSON.stringify({ date: 'Posted', description: 'Description', amount: 'Amount' }),
      }),
      422,
      'VALIDATION_ERROR',
      'line.1',
    );
    expect(missing.message).toBe(
      'Line 1: the mapping names the column "Posted" for date, which the header row does not have; its columns ' +
        'are "Date", "Description", "Amount", "Reference"',
    );
    await expectNothingWritten(biz, account.id);
  });

  it('refuses an empty body, and a request without a file (400)', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    expectResultError(await send(biz, account.id, '', 'text/csv', { mapping: MINIMAL }), 400, 'BAD_REQUEST');
    expectResultError(
      await raw(server(), 'POST', statementsPath(account.id), { token: biz.accessToken }),
      400,
      'BAD_REQUEST',
    );
    await expectNothingWritten(biz, account.id);
  });
});

describe('the closing balance the file states', () => {
  it('agrees with the opening balance plus the lines: no warning', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const report = await importFile(biz, account.id, fixture('statement-v1.ofx'), 'application/x-ofx');
    expect(report).toMatchObject({ closing_balance: 362620, statement_balance: 362620, warnings: [] });
  });

  it('disagrees: the lines are imported all the same, with a warning', async () => {
    const biz = await registerBusiness(server());
    // 2500.00 already on the account: the file's 3626.20 leaves out a statement.
    const account = await openAccount(biz, 'GBP', 250000);
    const report = await importFile(biz, account.id, fixture('statement-v1.ofx'), 'application/x-ofx');
    expect(report).toEqual({
      ...OFX_V1_REPORT,
      statement_balance: 612620,
      warnings: [
        "The file's closing balance is 362620, but the opening balance plus the lines to 2026-11-05 make 612620 " +
          '(minor units): a statement may be missing, or the opening balance differ',
      ],
    });
    expect((await linesOf(biz, account.id)).map(read)).toEqual(OFX_V1_LINES);
    const { reconciliation } = await unwrap(
      biz.client.finance.bankAccounts.getReconciliation({
        params: { id: account.id },
        query: { as_of: '2026-11-30' },
      }),
    );
    expect(reconciliation).toMatchObject({
      statement_balance: 612620,
      ledger_balance: 250000,
      difference: 362620,
      counts: { unmatched: 4, matched: 0, excluded: 0 },
    });
  });
});

describe('concurrent imports', () => {
  it(`five imports of the same file at once keep its lines once (${where})`, async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const reports = await Promise.all(
      Array.from({ length: 5 }, () =>
        send(biz, account.id, fixture('statement-v1.ofx'), 'application/x-ofx'),
      ),
    ).then((answers) => answers.map(reportOf));
    const applied = reports.filter((r) => r.applied);
    expect(applied).toHaveLength(1);
    expect(applied[0]).toEqual(OFX_V1_REPORT);
    for (const report of reports.filter((r) => !r.applied)) {
      expect(report).toMatchObject({
        import_id: null,
        counts: { lines: 4, imported: 0, duplicates: 4, refused: 0, suggested: 0 },
        duplicates: OFX_V1_DUPLICATES,
      });
    }
    const lines = await linesOf(biz, account.id);
    expect(lines.map(read)).toEqual(OFX_V1_LINES);
    expect(new Set(lines.map((l) => l.import_id))).toEqual(new Set([applied[0]!.import_id]));
    expect((await importsOf(biz, account.id)).map((r) => r.id)).toEqual([applied[0]!.import_id]);
  });
});

describe('bank rules on import', () => {
  it('a rule made before the import suggests its account for the lines it fits', async () => {
    const biz = await registerBusiness(server());
    const account = await openAccount(biz, 'GBP');
    const rules = biz.client.finance.bankRules;
    const fee = await unwrap(
      rules.createBankRule({ body: { description_contains: 'ACCOUNT FEE', account_code: '5000' } }),
    );
    expect(fee.suggested).toBe(0);
    // Coffee is money out: a rule for money in does not fit it.
    await unwrap(
      rules.createBankRule({
        body: { description_contains: 'coffee', direction: 'in', account_code: '5000' },
      }),
    );
    const report = await importFile(biz, account.id, fixture('single-amount.csv'), 'text/csv', {
      mapping: SINGLE,
      all_or_nothing: 'false',
    });
    expect(report.counts).toEqual({ lines: 9, imported: 5, duplicates: 0, refused: 4, suggested: 2 });
    const lines = await linesOf(biz, account.id);
    expect(lines.map((l) => [l.line, l.rule_id])).toEqual([
      [2, null],
      [3, null],
      [4, null],
      [8, fee.bank_rule.id],
      [9, fee.bank_rule.id],
    ]);
    expect(lines.every((l) => l.status === 'unmatched')).toBe(true);
  });
});
