import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { json, raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { expectApiError, expectResultError } from '../support/expect.js';
import { entryOf, trialBalance } from '../support/finance.js';
import { useTestServer } from '../support/setup.js';

/**
 * Bank accounts (docs/decisions.md D272): each with its own asset account in the chart (1100,
 * 1101, ...), its opening balance posted against 3000 Opening balance equity, renamed with its
 * chart account; its currency and opening balance fixed once posted.
 */

const server = useTestServer({ worker: false, env: { DB_POOL_SIZE: '20' } });

const where = onPostgres ? 'on PostgreSQL, under real concurrency' : 'on PGlite, serialised by the engine';

const api = (biz: TestBusiness) => biz.client.finance.bankAccounts;
type CreateBody = Parameters<
  TestBusiness['client']['finance']['bankAccounts']['createBankAccount']
>[0]['body'];
const create = async (biz: TestBusiness, body: CreateBody) =>
  (await unwrap(api(biz).createBankAccount({ body }))).bank_account;
const chartOf = async (biz: TestBusiness) =>
  (await unwrap(biz.client.finance.accounts.listAccounts())).accounts;

const CURRENT: CreateBody = {
  name: 'Business current account',
  currency: 'GBP',
  account_number_last4: '4821',
  opening_balance: 250000,
  opening_date: '2026-11-01',
};

describe('POST /v1/finance/bank-accounts', () => {
  it('gives the account chart code 1100 and posts its opening balance against 3000 on its date', async () => {
    const biz = await registerBusiness(server());
    const account = await create(biz, CURRENT);
    expect(account).toMatchObject({
      id: expect.stringMatching(/^bank_[0-9A-HJKMNP-TV-Z]{26}$/),
      name: 'Business current account',
      currency: 'GBP',
      account_number_last4: '4821',
      account_code: '1100',
      opening_balance: 250000,
      opening_date: '2026-11-01',
    });
    const chart = await chartOf(biz);
    expect(chart).toContainEqual(
      expect.objectContaining({ code: '1100', name: 'Business current account', type: 'asset' }),
    );
    expect(chart).toContainEqual(
      expect.objectContaining({ code: '3000', name: 'Opening balance equity', type: 'equity' }),
    );
    const entry = await entryOf(biz.client, 'bank_opening', account.id);
    expect(entry).toMatchObject({
      date: '2026-11-01',
      currency: 'GBP',
      debits: [{ account: '1100', amount: 250000 }],
      credits: [{ account: '3000', amount: 250000 }],
    });
  });

  it('takes the next code for the next account; an overdraft posts the other way, and 0 posts nothing', async () => {
    const biz = await registerBusiness(server());
    await create(biz, CURRENT);
    const overdrawn = await create(biz, {
      name: 'Overdraft',
      currency: 'GBP',
      opening_balance: -5000,
      opening_date: '2026-11-01',
    });
    expect(overdrawn.account_code).toBe('1101');
    expect(await entryOf(biz.client, 'bank_opening', overdrawn.id)).toMatchObject({
      debits: [{ account: '3000', amount: 5000 }],
      credits: [{ account: '1101', amount: 5000 }],
    });
    const savings = await create(biz, { name: 'Savings', currency: 'EUR' });
    expect(savings).toMatchObject({ account_code: '1102', opening_balance: 0, account_number_last4: null });
    const journal = await unwrap(biz.client.finance.journal.listJournal({ query: {} }));
    expect(journal.entries.filter((e) => e.source.id === savings.id)).toEqual([]);

    const listed = await unwrap(api(biz).listBankAccounts({ query: {} }));
    expect(listed.total_count).toBe(3);
    expect(listed.bank_accounts.map((a) => a.account_code)).toEqual(['1100', '1101', '1102']);
    const balance = await trialBalance(biz.client, { currency: 'GBP' });
    expect(balance.total_debit).toBe(balance.total_credit);
  });

  it('refuses a bad currency, a long account number hint and unknown fields, creating nothing', async () => {
    const biz = await registerBusiness(server());
    const post = (body: unknown) =>
      raw(server(), 'POST', '/v1/finance/bank-accounts', { ...json(body), token: biz.accessToken });
    expectResultError(await post({ ...CURRENT, currency: 'XXQ' }), 422, 'VALIDATION_ERROR', 'currency');
    expectResultError(
      await post({ ...CURRENT, account_number_last4: '12345' }),
      422,
      'VALIDATION_ERROR',
      'account_number_last4',
    );
    await expectApiError(post({ ...CURRENT, account_number: '12345678' }), 422, 'VALIDATION_ERROR');
    expectResultError(
      await post({ ...CURRENT, opening_balance: 12.5 }),
      422,
      'VALIDATION_ERROR',
      'opening_balance',
    );
    expect((await unwrap(api(biz).listBankAccounts({ query: {} }))).total_count).toBe(0);
    expect((await chartOf(biz)).map((a) => a.code)).not.toContain('1100');
  });

  it(`five made at once take five different codes (${where})`, async () => {
    const biz = await registerBusiness(server());
    const made = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        create(biz, { name: `Account ${i}`, currency: 'GBP', opening_balance: 100 }),
      ),
    );
    expect(made.map((a) => a.account_code).sort()).toEqual(['1100', '1101', '1102', '1103', '1104']);
  });
});

describe('GET and PUT /v1/finance/bank-accounts/:id', () => {
  it('renames the account and its chart account; refuses the currency and the opening balance', async () => {
    const biz = await registerBusiness(server());
    const account = await create(biz, CURRENT);
    const renamed = await unwrap(
      api(biz).updateBankAccount({ params: { id: account.id }, body: { name: 'Barclays current' } }),
    );
    expect(renamed.bank_account).toMatchObject({ name: 'Barclays current', account_number_last4: '4821' });
    expect(await chartOf(biz)).toContainEqual(
      expect.objectContaining({ code: '1100', name: 'Barclays current' }),
    );
    const cleared = await unwrap(
      api(biz).updateBankAccount({ params: { id: account.id }, body: { account_number_last4: null } }),
    );
    expect(cleared.bank_account.account_number_last4).toBeNull();

    const put = (body: unknown) =>
      raw(server(), 'PUT', `/v1/finance/bank-accounts/${account.id}`, {
        ...json(body),
        token: biz.accessToken,
      });
    await expectApiError(put({ currency: 'EUR' }), 422, 'VALIDATION_ERROR');
    await expectApiError(put({ opening_balance: 1 }), 422, 'VALIDATION_ERROR');
    const got = await unwrap(api(biz).getBankAccount({ params: { id: account.id } }));
    expect(got.bank_account).toMatchObject({ currency: 'GBP', opening_balance: 250000 });
  });

  it("answers 404 for an unknown id and for another business's account", async () => {
    const biz = await registerBusiness(server());
    const other = await registerBusiness(server());
    const theirs = await create(other, CURRENT);
    expectResultError(await api(biz).getBankAccount({ params: { id: theirs.id } }), 404, 'NOT_FOUND');
    expectResultError(
      await api(biz).updateBankAccount({ params: { id: theirs.id }, body: { name: 'Mine now' } }),
      404,
      'NOT_FOUND',
    );
    expect((await unwrap(api(other).getBankAccount({ params: { id: theirs.id } }))).bank_account.name).toBe(
      CURRENT.name,
    );
  });
});
