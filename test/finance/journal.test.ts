import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { unwrap, type finance } from '../../client/index.js';
import { json, raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { expectResultError, itemAt } from '../support/expect.js';
import {
  billOf,
  createAccount,
  createEntry,
  DEFAULT_CHART,
  journal,
  journalLineRows,
  journalPage,
  payBill,
  uniqueAccountCode,
  type JournalQuery,
} from '../support/finance.js';
import { useTestServer } from '../support/setup.js';

// Tokens outlive the clock moves below.
const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' }, worker: false });

const NOW = '2026-11-21T09:00:00.000Z';
const ID = /^je_[0-9A-HJKMNP-TV-Z]{26}$/;

beforeEach(() => server().clock.set(NOW));
afterEach(() => server().clock.reset());

const ids = (entries: { id: string }[]) => entries.map((e) => e.id);

/** Sends what the typed client would refuse (unknown fields, wrong types). */
const post = (biz: TestBusiness, path: string, body: unknown) =>
  raw(server(), 'POST', `/v1/finance${path}`, { ...json(body), token: biz.accessToken });
const get = (biz: TestBusiness, path: string) =>
  raw(server(), 'GET', `/v1/finance${path}`, { token: biz.accessToken });

/** A manual entry of `amount` from 1000 Cash to 1010 Bank dated `date`. */
const transfer = (biz: TestBusiness, date: string, amount = 100) =>
  createEntry(biz.client, {
    date,
    description: `Transfer of ${amount} on ${date}`,
    debits: [{ account: '1010', amount }],
    credits: [{ account: '1000', amount }],
  });

const BODY: finance.CreateJournalEntryBody = {
  date: '2026-11-20',
  description: 'Owner investment',
  debits: [{ account: '1010', amount: 500_000 }],
  credits: [{ account: '4000', amount: 500_000 }],
};

let a: TestBusiness;
let b: TestBusiness;

beforeAll(async () => {
  [a, b] = await Promise.all([
    registerBusiness(server(), 'Alpha Ltd'),
    registerBusiness(server(), 'Beta Ltd'),
  ]);
});

describe('POST /v1/finance/journal', () => {
  it('posts a balanced manual entry (201) answering its id, a message and the entry, in the base currency', async () => {
    const biz = await registerBusiness(server());
    const res = await biz.client.finance.journal.createJournalEntry({ body: BODY });
    expect(res.status).toBe(201);
    if (res.status !== 201) return;
    expect(res.body).toEqual({
      result: 'success',
      entry_id: expect.stringMatching(ID),
      message: expect.any(String),
      entry: {
        id: res.body.entry_id,
        date: '2026-11-20',
        description: 'Owner investment',
        debits: [{ account: '1010', amount: 500_000, base_amount: 500_000 }],
        credits: [{ account: '4000', amount: 500_000, base_amount: 500_000 }],
        currency: 'USD',
        exchange_rate: '1',
        source: { type: 'manual', id: res.body.entry_id },
        created_at: NOW,
      },
    });
    expect((await journalPage(biz.client)).entries).toEqual([res.body.entry]);
  });

  it('keeps several lines per side in order, an account on both sides and the currency given', async () => {
    const entry = await createEntry(a.client, {
      currency: 'EUR',
      description: '  Payroll split  ',
      debits: [
        { account: '5000', amount: 700 },
        { account: '1010', amount: 300 },
      ],
      credits: [
        { account: '1010', amount: 600 },
        { account: '1000', amount: 250 },
        { account: '1020', amount: 150 },
      ],
    });
    // Converted at the feed's rate of the date (1.1 USD a euro in the test database), line by line.
    expect(entry).toMatchObject({
      currency: 'EUR',
      exchange_rate: '1.1',
      description: 'Payroll split',
      debits: [
        { account: '5000', amount: 700, base_amount: 770 },
        { account: '1010', amount: 300, base_amount: 330 },
      ],
      credits: [
        { account: '1010', amount: 600, base_amount: 660 },
        { account: '1000', amount: 250, base_amount: 275 },
        { account: '1020', amount: 150, base_amount: 165 },
      ],
    });
  });

  it('takes its own exchange_rate for another currency, the rounding of each line taken up by the largest of the longer side', async () => {
    const entry = await createEntry(a.client, {
      currency: 'EUR',
      exchange_rate: '1.0837',
      debits: [{ account: '1010', amount: 1001 }],
      credits: [
        { account: '4000', amount: 667 },
        { account: '2200', amount: 334 },
      ],
    });
    // 1001 x 1.0837 = 1084.7837: 1085; 667 x 1.0837 = 722.83 (723), 334 x 1.0837 = 361.96 (362), 1085 in all.
    expect(entry).toMatchObject({
      exchange_rate: '1.0837',
      debits: [{ account: '1010', amount: 1001, base_amount: 1085 }],
      credits: [
        { account: '4000', amount: 667, base_amount: 723 },
        { account: '2200', amount: 334, base_amount: 362 },
      ],
    });
    const rounded = await createEntry(a.client, {
      currency: 'EUR',
      exchange_rate: '1.5',
      debits: [{ account: '1010', amount: 3 }],
      credits: [
        { account: '4000', amount: 1 },
        { account: '2200', amount: 1 },
        { account: '1000', amount: 1 },
      ],
    });
    // 3 x 1.5 = 4.5: 5; each 1 x 1.5 = 1.5: 2, 6 in all; the first largest credit takes the cent back.
    expect(rounded).toMatchObject({
      debits: [{ account: '1010', amount: 3, base_amount: 5 }],
      credits: [
        { account: '4000', amount: 1, base_amount: 1 },
        { account: '2200', amount: 1, base_amount: 2 },
        { account: '1000', amount: 1, base_amount: 2 },
      ],
    });
  });

  it('posts on an account the business added', async () => {
    const account = await createAccount(a.client, { type: 'equity', name: 'Owner capital' });
    const entry = await createEntry(a.client, {
      debits: [{ account: '1010', amount: 1 }],
      credits: [{ account: account.code, amount: 1 }],
    });
    expect(entry.credits).toEqual([{ account: account.code, amount: 1, base_amount: 1 }]);
  });

  it.each([
    [
      'debits exceed credits',
      [{ account: '1010', amount: 1_000 }],
      [{ account: '1000', amount: 900 }],
      'by 100',
    ],
    [
      'credits exceed debits',
      [{ account: '1010', amount: 1_000 }],
      [
        { account: '1000', amount: 900 },
        { account: '1020', amount: 125 },
      ],
      'by 25',
    ],
  ])(
    'refuses an unbalanced entry where %s (422 on credits naming the difference); nothing is posted',
    async (_, debits, credits, difference) => {
      const biz = await registerBusiness(server());
      const res = await biz.client.finance.journal.createJournalEntry({ body: { ...BODY, debits, credits } });
      const error = expectResultError(res, 422, 'VALIDATION_ERROR', 'credits');
      expect(error.details?.find((d) => d.field === 'credits')?.message).toContain(difference);
      expect(await journalLineRows(server(), biz.businessId)).toEqual([]);
    },
  );

  it.each([
    [
      'a debit',
      { debits: [{ account: '9999', amount: 10 }], credits: [{ account: '1000', amount: 10 }] },
      'debits',
    ],
    [
      'a credit',
      { debits: [{ account: '1000', amount: 10 }], credits: [{ account: '9999', amount: 10 }] },
      'credits',
    ],
  ])(
    'refuses %s on an account not in the chart (422 on that side naming it); nothing is posted',
    async (_, lines, side) => {
      const biz = await registerBusiness(server());
      const res = await biz.client.finance.journal.createJournalEntry({ body: { ...BODY, ...lines } });
      const error = expectResultError(res, 422, 'VALIDATION_ERROR', side);
      expect(error.details?.find((d) => d.field === side)?.message).toContain('9999');
      expect(await journalLineRows(server(), biz.businessId)).toEqual([]);
    },
  );

  it("refuses another business's own account (422 naming the side)", async () => {
    const theirs = await createAccount(b.client);
    const res = await a.client.finance.journal.createJournalEntry({
      body: {
        ...BODY,
        debits: [{ account: theirs.code, amount: 5 }],
        credits: [{ account: '1000', amount: 5 }],
      },
    });
    expectResultError(res, 422, 'VALIDATION_ERROR', 'debits');
  });

  it.each([
    [
      'an amount of 0',
      { debits: [{ account: '1010', amount: 0 }], credits: [{ account: '1000', amount: 0 }] },
      'debits.0.amount',
    ],
    ['a negative amount', { credits: [{ account: '4000', amount: -1 }] }, 'credits.0.amount'],
    ['a fractional amount', { debits: [{ account: '1010', amount: 1.5 }] }, 'debits.0.amount'],
    ['an amount beyond the largest', { debits: [{ account: '1010', amount: 1e15 }] }, 'debits.0.amount'],
    ['no debits', { debits: [] }, 'debits'],
    ['no credits', { credits: [] }, 'credits'],
    ['a malformed account code', { debits: [{ account: '10 10', amount: 5 }] }, 'debits.0.account'],
    ['no date', { date: undefined }, 'date'],
    ['an impossible date', { date: '2026-13-01' }, 'date'],
    ['an empty description', { description: ' ' }, 'description'],
    ['an unknown currency', { currency: 'ABC' }, 'currency'],
    ['a source', { source: { type: 'bill', id: 'bill_x' } }, 'source'],
  ])('refuses %s (422 naming the field); nothing is posted', async (_, overrides, field) => {
    const biz = await registerBusiness(server());
    expectResultError(await post(biz, '/journal', { ...BODY, ...overrides }), 422, 'VALIDATION_ERROR', field);
    expect(await journalLineRows(server(), biz.businessId)).toEqual([]);
  });
});

describe('GET /v1/finance/journal', () => {
  it('answers {result, entries: [], total_count: 0} for a business with nothing posted', async () => {
    const biz = await registerBusiness(server());
    expect(await journalPage(biz.client)).toEqual({ result: 'success', entries: [], total_count: 0 });
  });

  it('lists newest date first, entries of one date newest first, whatever order they were posted in', async () => {
    const biz = await registerBusiness(server());
    const mid = await transfer(biz, '2026-11-10');
    const late = await transfer(biz, '2026-11-15');
    const early = await transfer(biz, '2026-11-01');
    const midAgain = await transfer(biz, '2026-11-10');
    const page = await journalPage(biz.client);
    expect(page.total_count).toBe(4);
    expect(ids(page.entries)).toEqual(ids([late, midAgain, mid, early]));
  });

  it('filters by start_date and end_date, both inclusive, alone or together, with total_count', async () => {
    const biz = await registerBusiness(server());
    const e1 = await transfer(biz, '2026-10-31');
    const e2 = await transfer(biz, '2026-11-01');
    const e3 = await transfer(biz, '2026-11-15');
    const e4 = await transfer(biz, '2026-11-30');
    const e5 = await transfer(biz, '2026-12-01');
    const check = async (query: JournalQuery, expected: finance.JournalEntry[]) => {
      const page = await journalPage(biz.client, query);
      expect(ids(page.entries), JSON.stringify(query)).toEqual(ids(expected));
      expect(page.total_count, JSON.stringify(query)).toBe(expected.length);
    };
    await check({ start_date: '2026-11-01', end_date: '2026-11-30' }, [e4, e3, e2]);
    await check({ start_date: '2026-11-15' }, [e5, e4, e3]);
    await check({ end_date: '2026-11-01' }, [e2, e1]);
    await check({ start_date: '2026-11-15', end_date: '2026-11-15' }, [e3]);
    await check({ start_date: '2026-11-16', end_date: '2026-11-29' }, []);
    await check({ start_date: '2027-01-01' }, []);
  });

  it('filters by account: entries with a line on it, each once even with two lines there, counted once', async () => {
    const biz = await registerBusiness(server());
    const twice = await createEntry(biz.client, {
      date: '2026-11-05',
      debits: [
        { account: '1010', amount: 70 },
        { account: '1010', amount: 30 },
      ],
      credits: [{ account: '1000', amount: 100 }],
    });
    const bothSides = await createEntry(biz.client, {
      date: '2026-11-06',
      debits: [{ account: '1010', amount: 40 }],
      credits: [
        { account: '1010', amount: 15 },
        { account: '4000', amount: 25 },
      ],
    });
    const elsewhere = await createEntry(biz.client, {
      date: '2026-11-07',
      debits: [{ account: '5000', amount: 10 }],
      credits: [{ account: '1000', amount: 10 }],
    });
    const bank = await journalPage(biz.client, { account: '1010' });
    expect(ids(bank.entries)).toEqual(ids([bothSides, twice]));
    expect(bank.total_count).toBe(2);
    expect(itemAt(bank.entries, 1)).toEqual(twice);

    const cash = await journalPage(biz.client, { account: '1000' });
    expect(ids(cash.entries)).toEqual(ids([elsewhere, twice]));
    expect(cash.total_count).toBe(2);

    const ranged = await journalPage(biz.client, { account: '1010', start_date: '2026-11-06' });
    expect(ids(ranged.entries)).toEqual([bothSides.id]);
    expect(ranged.total_count).toBe(1);
    const before = await journalPage(biz.client, { account: '1010', end_date: '2026-11-05' });
    expect(ids(before.entries)).toEqual([twice.id]);
    expect(before.total_count).toBe(1);

    expect(await journalPage(biz.client, { account: '2200' })).toEqual({
      result: 'success',
      entries: [],
      total_count: 0,
    });
    expect(await journalPage(biz.client, { account: 'NOPE' })).toEqual({
      result: 'success',
      entries: [],
      total_count: 0,
    });
  });

  it('filters the account over every document and currency: a bill and its payment on 2000', async () => {
    const biz = await registerBusiness(server());
    const bill = await billOf(biz.client, 1_000, { issue_date: '2026-11-02' });
    const { payment_id } = await payBill(biz.client, bill.id, 400, { payment_date: '2026-11-03' });
    await billOf(biz.client, 2_000, { currency: 'EUR', issue_date: '2026-11-01' });
    await transfer(biz, '2026-11-04');
    const payable = await journalPage(biz.client, { account: '2000' });
    expect(payable.entries.map((e) => [e.source.type, e.currency])).toEqual([
      ['bill_payment', 'USD'],
      ['bill', 'USD'],
      ['bill', 'EUR'],
    ]);
    expect(itemAt(payable.entries, 0).source.id).toBe(payment_id);
    expect(payable.total_count).toBe(3);
  });

  it('pages with limit (default 50) and offset: pages join into the whole list, beyond the end is empty', async () => {
    const biz = await registerBusiness(server());
    for (let i = 0; i < 53; i++)
      await transfer(biz, `2026-11-${String(1 + (i % 28)).padStart(2, '0')}`, i + 1);
    const all = await journal(biz.client);
    expect(all).toHaveLength(53);
    const dates = all.map((e) => e.date);
    expect(dates).toEqual([...dates].sort().reverse());

    const first = await journalPage(biz.client);
    expect(first.entries).toHaveLength(50);
    expect(first.total_count).toBe(53);
    expect(ids(first.entries)).toEqual(ids(all.slice(0, 50)));

    const pages: string[] = [];
    for (let offset = 0; offset < 53; offset += 7) {
      const page = await journalPage(biz.client, { limit: 7, offset });
      expect(page.total_count).toBe(53);
      pages.push(...ids(page.entries));
    }
    expect(pages).toEqual(ids(all));

    expect(ids((await journalPage(biz.client, { limit: 1, offset: 52 })).entries)).toEqual([
      itemAt(all, -1).id,
    ]);
    expect(await journalPage(biz.client, { offset: 53 })).toEqual({
      result: 'success',
      entries: [],
      total_count: 53,
    });
    expect((await journalPage(biz.client, { limit: 200 })).entries).toHaveLength(53);

    // The account filter pages the same way.
    const bankPages: string[] = [];
    for (let offset = 0; offset < 53; offset += 10) {
      const page = await journalPage(biz.client, { account: '1010', limit: 10, offset });
      expect(page.total_count).toBe(53);
      bankPages.push(...ids(page.entries));
    }
    expect(bankPages).toEqual(ids(all));

    // And the date filter.
    const november = all.filter((e) => e.date >= '2026-11-10' && e.date <= '2026-11-20');
    const ranged = await journalPage(biz.client, {
      start_date: '2026-11-10',
      end_date: '2026-11-20',
      limit: 5,
      offset: 5,
    });
    expect(ranged.total_count).toBe(november.length);
    expect(ids(ranged.entries)).toEqual(ids(november.slice(5, 10)));
  });

  it("never lists another business's entries", async () => {
    const mine = await registerBusiness(server());
    const theirs = await registerBusiness(server());
    const entry = await transfer(mine, '2026-11-02');
    await transfer(theirs, '2026-11-02');
    const page = await journalPage(mine.client);
    expect(ids(page.entries)).toEqual([entry.id]);
    expect(page.total_count).toBe(1);
    expect((await journalPage(mine.client, { account: '1010' })).total_count).toBe(1);
    expect(
      (await journalPage(mine.client, { start_date: '2026-11-02', end_date: '2026-11-02' })).total_count,
    ).toBe(1);
  });

  it.each([
    ['end_date before start_date', 'start_date=2026-11-10&end_date=2026-11-09', 'end_date'],
    ['an impossible start_date', 'start_date=2026-02-29', 'start_date'],
    ['a malformed end_date', 'end_date=11/09/2026', 'end_date'],
    ['a malformed account code', 'account=10%2010', 'account'],
    ['limit=0', 'limit=0', 'limit'],
    ['limit=201', 'limit=201', 'limit'],
    ['a negative offset', 'offset=-1', 'offset'],
  ])('refuses %s (422 naming the parameter)', async (_, query, field) => {
    expectResultError(await get(a, `/journal?${query}`), 422, 'VALIDATION_ERROR', field);
  });
});

describe('GET /v1/finance/accounts', () => {
  it('lists the default chart and the accounts the business added, by code', async () => {
    const biz = await registerBusiness(server());
    const rent = await createAccount(biz.client, { code: '6100', name: 'Rent' });
    const equity = await createAccount(biz.client, { code: '3000', name: 'Owner capital', type: 'equity' });
    const res = await unwrap(biz.client.finance.accounts.listAccounts());
    expect(res.accounts).toEqual(
      [...DEFAULT_CHART, rent, equity].sort((x, y) => (x.code < y.code ? -1 : x.code > y.code ? 1 : 0)),
    );
    // Another business has only the default chart.
    const other = await registerBusiness(server());
    expect((await unwrap(other.client.finance.accounts.listAccounts())).accounts).toEqual(DEFAULT_CHART);
  });
});

describe('POST /v1/finance/accounts', () => {
  it('adds an account (201 {result, message, account}), not a system one', async () => {
    const code = uniqueAccountCode();
    const res = await a.client.finance.accounts.createAccount({
      body: { code, name: '  Software subscriptions ', type: 'expense' },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      result: 'success',
      message: expect.any(String),
      account: {
        code,
        name: 'Software subscriptions',
        type: 'expense',
        cash_flow_group: 'operating',
        system: false,
      },
    });
  });

  it.each([
    ['1510', 'asset', undefined, 'investing'],
    ['1400', 'asset', undefined, 'operating'],
    ['2600', 'liability', undefined, 'financing'],
    ['3100', 'equity', undefined, 'financing'],
    ['6100', 'expense', 'investing', 'investing'],
  ] as const)(
    "gives %s (%s) the cash-flow group given or its code's default (%s -> %s)",
    async (code, type, cash_flow_group, expected) => {
      const biz = await registerBusiness(server());
      const account = await createAccount(biz.client, {
        code,
        type,
        ...(cash_flow_group && { cash_flow_group }),
      });
      expect(account.cash_flow_group).toBe(expected);
    },
  );

  it('keeps the cash accounts cash: another group for 1100-1199 is 422 naming cash_flow_group', async () => {
    const biz = await registerBusiness(server());
    const res = await biz.client.finance.accounts.createAccount({
      body: { code: '1150', name: 'Petty cash', type: 'asset', cash_flow_group: 'operating' },
    });
    expectResultError(res, 422, 'VALIDATION_ERROR', 'cash_flow_group');
    expect((await createAccount(biz.client, { code: '1150', type: 'asset' })).cash_flow_group).toBe('cash');
  });

  it.each(['asset', 'liability', 'equity', 'revenue', 'expense'] as const)(
    'takes the type %s',
    async (type) => {
      expect((await createAccount(a.client, { type })).type).toBe(type);
    },
  );

  it('takes codes with letters, dots and dashes', async () => {
    expect((await createAccount(a.client, { code: '6100-rent.hq' })).code).toBe('6100-rent.hq');
  });

  it('refuses a code the business already has, its own or of the default chart (409 CONFLICT); nothing changes', async () => {
    const biz = await registerBusiness(server());
    const account = await createAccount(biz.client, { name: 'Rent' });
    const conflict = await biz.client.finance.accounts.createAccount({
      body: { code: account.code, name: 'Other', type: 'asset' },
    });
    expectResultError(conflict, 409, 'CONFLICT');
    expectResultError(
      await biz.client.finance.accounts.createAccount({
        body: { code: '1000', name: 'Petty cash', type: 'asset' },
      }),
      409,
      'CONFLICT',
    );
    const accounts = (await unwrap(biz.client.finance.accounts.listAccounts())).accounts;
    expect(accounts.find((x) => x.code === account.code)).toEqual(account);
    expect(accounts.find((x) => x.code === '1000')).toEqual(itemAt(DEFAULT_CHART, 0));
    expect(accounts).toHaveLength(DEFAULT_CHART.length + 1);
  });

  it('lets two businesses have the same code', async () => {
    const code = uniqueAccountCode();
    await createAccount(a.client, { code });
    expect((await createAccount(b.client, { code, type: 'revenue' })).type).toBe('revenue');
  });

  it.each([
    ['no code', { code: undefined }, 'code'],
    ['a code with a space', { code: '61 00' }, 'code'],
    ['a code over 20 characters', { code: '1'.repeat(21) }, 'code'],
    ['a code starting with a dash', { code: '-6100' }, 'code'],
    ['an empty name', { name: '  ' }, 'name'],
    ['an unknown type', { type: 'income' }, 'type'],
    ['a system flag', { system: true }, 'system'],
  ])('refuses %s (422 naming the field); nothing is added', async (_, overrides, field) => {
    const biz = await registerBusiness(server());
    const body = { code: uniqueAccountCode(), name: 'Rent', type: 'expense', ...overrides };
    expectResultError(await post(biz, '/accounts', body), 422, 'VALIDATION_ERROR', field);
    expect((await unwrap(biz.client.finance.accounts.listAccounts())).accounts).toEqual(DEFAULT_CHART);
  });
});

describe('amounts too large to report exactly', () => {
  const MAX = 999_999_999_999_999;

  it('refuses a manual entry moving more than 999,999,999,999,999 minor units per side (422 on debits)', async () => {
    const biz = await registerBusiness(server());
    const res = await post(biz, '/journal', {
      ...BODY,
      debits: [
        { account: '1010', amount: MAX },
        { account: '1010', amount: 1 },
      ],
      credits: [
        { account: '4000', amount: MAX },
        { account: '4000', amount: 1 },
      ],
    });
    expectResultError(res, 422, 'VALIDATION_ERROR', 'debits');
    expect((await unwrap(biz.client.finance.journal.listJournal({ query: {} }))).total_count).toBe(0);
  });

  it('answers 422, never a rounded number, when an account total passes 2^53', async () => {
    const biz = await registerBusiness(server());
    const postMax = () =>
      createEntry(biz.client, {
        date: '2026-11-01',
        debits: [{ account: '1010', amount: MAX }],
        credits: [{ account: '4000', amount: MAX }],
      });
    for (let i = 0; i < 9; i++) await postMax();
    // Nine of them still fit: 8,999,999,999,999,991 < 2^53 (9,007,199,254,740,992).
    const fits = await unwrap(
      biz.client.finance.accounts.getTrialBalance({ query: { as_of: '2026-11-30' } }),
    );
    expect(fits.data.total_debit).toBe(8_999_999_999_999_991);
    await postMax();
    expectResultError(await get(biz, '/trial-balance?as_of=2026-11-30'), 422, 'VALIDATION_ERROR', 'as_of');
  });
});
