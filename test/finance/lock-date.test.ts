import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../client/index.js';
import { issueRecurringInvoices } from '../../server/general/recurring-invoices/service.js';
import { recordRecurringBills } from '../../server/finance/recurring-bills/service.js';
import { createApiKey } from '../support/auth.js';
import { raw, registerTenant, signedInMember, type TestTenant } from '../support/business.js';
import { expectError, expectResultError } from '../support/expect.js';
import {
  approveBill,
  billOf,
  createEntry,
  createRecurringBill,
  getBill,
  journal,
  payBill,
  voidBill,
} from '../support/finance.js';
import {
  createCreditNote,
  createInvoice,
  createRecurringInvoice,
  getInvoice,
  invoiceLine,
  issuedInvoice,
  issueInvoice,
  payInvoice,
} from '../support/general.js';
import { useTestServer } from '../support/setup.js';
import { clientWith } from '../support/team.js';

/**
 * The lock date: every path that posts refuses a date on or before it (409 PERIOD_LOCKED naming the
 * date) and leaves everything as it was; only an owner may move it earlier or clear it.
 */

// Tokens outlive the clock moves below.
const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' }, worker: false });

const NOW = '2026-11-21T09:00:00.000Z';
const TODAY = '2026-11-21';
const LOCKED = '2026-11-15';

beforeEach(() => server().clock.set(NOW));
afterEach(() => server().clock.reset());

const newTenant = () => registerTenant(server());

const setLock = (c: Client, lock_date: string | null) => c.finance.books.setLockDate({ body: { lock_date } });
const lockDate = async (c: Client) => (await unwrap(c.finance.books.getLockDate())).data.lock_date;

/** Locks the books up to `date` as the owner. */
async function lock(t: TestTenant, date = LOCKED) {
  const answer = await unwrap(setLock(t.client, date));
  expect(answer.data.lock_date).toBe(date);
}

/** 409 PERIOD_LOCKED (in the envelope of the route's group), its message naming the lock date. */
function expectLocked(res: { status: number; body: unknown }, date = LOCKED) {
  const error = expectError(res, 409, 'PERIOD_LOCKED');
  expect(error.message).toContain(date);
}

const entryCount = async (t: TestTenant) => (await journal(t.client)).length;

/** An issued invoice of 100.00 at 20 % (120.00), dated 2026-11-10, before the lock. */
const invoiceOf = (t: TestTenant) =>
  issuedInvoice(t.client, {
    customer_id: t.customerId,
    issue_date: '2026-11-10',
    items: [invoiceLine({ unit_price: 100, tax_rate: 20 })],
  });

describe('posting in a locked period', () => {
  it('refuses to issue an invoice dated in it, though its draft can be made; one dated after it issues', async () => {
    const t = await newTenant();
    await lock(t);
    const draft = await createInvoice(t.client, { customer_id: t.customerId, issue_date: LOCKED });
    expect(draft.status).toBe('draft');
    expectLocked(await t.client.general.invoices.issueInvoice({ params: { id: draft.id } }));
    expect(await getInvoice(t.client, draft.id)).toMatchObject({ status: 'draft', number: draft.number });
    expect(await entryCount(t)).toBe(0);
    const later = await createInvoice(t.client, { customer_id: t.customerId, issue_date: '2026-11-16' });
    expect((await issueInvoice(t.client, later.id)).status).toBe('unpaid');
    expect((await journal(t.client)).map((e) => e.date)).toEqual(['2026-11-16']);
  });

  it('refuses a payment of an invoice dated on the lock date; the day after is taken', async () => {
    const t = await newTenant();
    const invoice = await invoiceOf(t);
    await lock(t);
    const res = await t.client.general.invoices.createPayment({
      params: { id: invoice.id },
      body: { amount: 50, payment_method: 'cash', payment_date: LOCKED },
    });
    expectLocked(res);
    expect(await getInvoice(t.client, invoice.id)).toMatchObject({ amount_paid: 0, amount_due: 120 });
    expect(await entryCount(t)).toBe(1);
    const paid = await payInvoice(t.client, invoice.id, 50, { payment_date: '2026-11-16' });
    expect(paid.amount_due).toBe(70);
    expect(await entryCount(t)).toBe(2);
  });

  it('refuses a pending bill dated in it and the approval of a draft dated in it', async () => {
    const t = await newTenant();
    await lock(t);
    const vendor = (await unwrap(t.client.finance.vendors.createVendor({ body: { name: 'Globex' } }))).vendor;
    const res = await t.client.finance.bills.createBill({
      body: {
        vendor_id: vendor.id,
        issue_date: '2026-11-14',
        due_date: '2026-12-14',
        currency: 'USD',
        items: [{ description: 'Paper', quantity: 1, unit_price: 5_000, tax_rate: 0 }],
      },
    });
    expectLocked(res);
    expect((await unwrap(t.client.finance.bills.listBills({ query: {} }))).bills).toEqual([]);
    const draft = await billOf(t.client, 5_000, {
      vendor_id: vendor.id,
      status: 'draft',
      issue_date: '2026-11-14',
    });
    expectLocked(await t.client.finance.bills.approveBill({ params: { id: draft.id } }));
    expect((await getBill(t.client, draft.id)).status).toBe('draft');
    expect(await entryCount(t)).toBe(0);
    const later = await billOf(t.client, 5_000, {
      vendor_id: vendor.id,
      status: 'draft',
      issue_date: '2026-11-16',
    });
    expect((await approveBill(t.client, later.id)).status).toBe('pending');
    expect(await entryCount(t)).toBe(1);
  });

  it('refuses a bill payment dated in it', async () => {
    const t = await newTenant();
    const bill = await billOf(t.client, 9_000, { issue_date: '2026-11-01' });
    await lock(t);
    const res = await t.client.finance.bills.payBill({
      params: { id: bill.id },
      body: { amount: 4_000, payment_method: 'cash', payment_date: '2026-11-02' },
    });
    expectLocked(res);
    expect(await getBill(t.client, bill.id)).toMatchObject({ status: 'pending', amount_due: 9_000 });
    expect(await entryCount(t)).toBe(1);
    await payBill(t.client, bill.id, 4_000, { payment_date: '2026-11-16' });
    expect((await getBill(t.client, bill.id)).amount_due).toBe(5_000);
  });

  it('refuses a credit note dated in it', async () => {
    const t = await newTenant();
    const invoice = await invoiceOf(t);
    await lock(t);
    const res = await t.client.general.creditNotes.createCreditNote({
      body: {
        invoice_id: invoice.id,
        issue_date: LOCKED,
        amount: 60,
        reason: 'Half the hours',
        credit_amount: 60,
        refund_amount: 0,
        customer_credit_amount: 0,
      },
    });
    expectLocked(res);
    expect(await getInvoice(t.client, invoice.id)).toMatchObject({ amount_credited: 0, amount_due: 120 });
    expect((await unwrap(t.client.general.creditNotes.listCreditNotes({ query: {} }))).pagination.total).toBe(
      0,
    );
    expect(await entryCount(t)).toBe(1);
    await createCreditNote(t.client, {
      invoice_id: invoice.id,
      issue_date: '2026-11-16',
      amount: 60,
      credit_amount: 60,
    });
    expect((await getInvoice(t.client, invoice.id)).amount_due).toBe(60);
  });

  it('refuses a manual journal entry dated on the lock date', async () => {
    const t = await newTenant();
    await lock(t);
    const res = await t.client.finance.journal.createJournalEntry({
      body: {
        date: LOCKED,
        description: 'Cash to the bank',
        debits: [{ account: '1010', amount: 5_000 }],
        credits: [{ account: '1000', amount: 5_000 }],
      },
    });
    expectLocked(res);
    expect(await entryCount(t)).toBe(0);
    expect((await createEntry(t.client, { date: '2026-11-16' })).date).toBe('2026-11-16');
  });

  it('refuses a bank account whose opening balance falls in it, and makes no account', async () => {
    const t = await newTenant();
    await lock(t);
    const accounts = t.client.finance.bankAccounts;
    const body = { name: 'Current', currency: 'USD', opening_balance: 250_000, opening_date: '2026-11-01' };
    expectLocked(await accounts.createBankAccount({ body }));
    expect((await unwrap(accounts.listBankAccounts({ query: {} }))).bank_accounts).toEqual([]);
    expect(await entryCount(t)).toBe(0);
    const opened = (
      await unwrap(accounts.createBankAccount({ body: { ...body, opening_date: '2026-11-16' } }))
    ).bank_account;
    expect(opened.account_code).toBe('1100');
    expect(await entryCount(t)).toBe(1);
  });

  it('refuses to categorise or match a bank line dated in it; the line stays unmatched', async () => {
    const t = await newTenant();
    const invoice = await invoiceOf(t);
    const account = (
      await unwrap(
        t.client.finance.bankAccounts.createBankAccount({
          body: { name: 'Current', currency: 'USD', opening_balance: 0, opening_date: '2026-11-01' },
        }),
      )
    ).bank_account;
    const mapping = encodeURIComponent(
      JSON.stringify({ date: 'Date', description: 'Details', amount: 'Amount' }),
    );
    const csv = 'Date,Details,Amount\n2026-11-12,MONTHLY FEE,-12.50\n2026-11-13,ADA LOVELACE,120.00\n';
    const imported = await raw(
      server(),
      'POST',
      `/v1/finance/bank-accounts/${account.id}/statements?mapping=${mapping}`,
      {
        headers: { 'content-type': 'text/csv' },
        body: csv,
        token: t.accessToken,
      },
    );
    expect(imported.status, JSON.stringify(imported.body)).toBe(200);
    const tx = t.client.finance.bankTransactions;
    const lines = (await unwrap(tx.listBankTransactions({ query: { bank_account_id: account.id } })))
      .bank_transactions;
    const fee = lines.find((l) => l.amount === -1250)!;
    const sale = lines.find((l) => l.amount === 12_000)!;
    const before = await entryCount(t);
    await lock(t);
    expectLocked(
      await tx.categoriseBankTransaction({ params: { id: fee.id }, body: { account_code: '5000' } }),
    );
    expectLocked(
      await tx.matchBankTransaction({
        params: { id: sale.id },
        body: { matches: [{ invoice_id: invoice.id, amount: 12_000 }] },
      }),
    );
    const after = (await unwrap(tx.listBankTransactions({ query: { bank_account_id: account.id } })))
      .bank_transactions;
    expect(after.map((l) => [l.id, l.status, l.matches])).toEqual(
      expect.arrayContaining([
        [fee.id, 'unmatched', []],
        [sale.id, 'unmatched', []],
      ]),
    );
    expect(await getInvoice(t.client, invoice.id)).toMatchObject({ amount_due: 120, status: 'unpaid' });
    expect(await entryCount(t)).toBe(before);
  });

  describe('voids post on the day of the void: with today locked they are refused', () => {
    it('an invoice', async () => {
      const t = await newTenant();
      const invoice = await invoiceOf(t);
      await lock(t, TODAY);
      expectLocked(await t.client.general.invoices.voidInvoice({ params: { id: invoice.id } }), TODAY);
      expect((await getInvoice(t.client, invoice.id)).status).toBe('unpaid');
      expect(await entryCount(t)).toBe(1);
    });

    it('a bill', async () => {
      const t = await newTenant();
      const bill = await billOf(t.client, 7_300, { issue_date: '2026-11-02' });
      await lock(t, TODAY);
      expectLocked(await t.client.finance.bills.voidBill({ params: { id: bill.id } }), TODAY);
      expect((await getBill(t.client, bill.id)).status).toBe('pending');
      expect(await entryCount(t)).toBe(1);
      // Tomorrow the void posts.
      server().clock.set('2026-11-22T09:00:00.000Z');
      expect((await voidBill(t.client, bill.id)).status).toBe('void');
      expect((await journal(t.client)).map((e) => [e.date, e.source.type])).toEqual([
        ['2026-11-22', 'void'],
        ['2026-11-02', 'bill'],
      ]);
    });

    it('a credit note', async () => {
      const t = await newTenant();
      const invoice = await invoiceOf(t);
      const note = await createCreditNote(t.client, {
        invoice_id: invoice.id,
        amount: 12,
        credit_amount: 12,
      });
      await lock(t, TODAY);
      expectLocked(await t.client.general.creditNotes.voidCreditNote({ params: { id: note.id } }), TODAY);
      expect(
        (await unwrap(t.client.general.creditNotes.getCreditNote({ params: { id: note.id } }))).data.status,
      ).toBe('issued');
      expect((await getInvoice(t.client, invoice.id)).amount_due).toBe(108);
      expect(await entryCount(t)).toBe(2);
    });
  });

  describe('recurring runs', () => {
    it('make no invoice for a period in it, and make it once the owner clears the lock date', async () => {
      const t = await newTenant();
      const schedule = await createRecurringInvoice(t.client, {
        customer_id: t.customerId,
        start_date: TODAY,
      });
      server().clock.set('2026-12-02T09:00:00.000Z');
      await lock(t, '2026-11-30');
      expect(await issueRecurringInvoices(server().deps, t.businessId)).toBe(0);
      const made = async () =>
        (await unwrap(t.client.general.invoices.listInvoices({ query: {} }))).data.filter(
          (i) => i.recurring_invoice_id === schedule.id,
        );
      expect(await made()).toEqual([]);
      expect(await entryCount(t)).toBe(0);
      await unwrap(setLock(t.client, null));
      expect(await issueRecurringInvoices(server().deps, t.businessId)).toBe(1);
      expect((await made()).map((i) => i.issue_date)).toEqual([TODAY]);
      expect((await journal(t.client)).map((e) => e.date)).toEqual([TODAY]);
    });

    it('make no bill for a period in it, and make it once the owner clears the lock date', async () => {
      const t = await newTenant();
      const schedule = await createRecurringBill(t.client, { start_date: TODAY });
      server().clock.set('2026-12-02T09:00:00.000Z');
      await lock(t, '2026-11-30');
      expect(await recordRecurringBills(server().deps, t.businessId)).toBe(0);
      const made = async () =>
        (await unwrap(t.client.finance.bills.listBills({ query: {} }))).bills.filter(
          (b) => b.recurring_bill_id === schedule.id,
        );
      expect(await made()).toEqual([]);
      expect(await entryCount(t)).toBe(0);
      await unwrap(setLock(t.client, null));
      expect(await recordRecurringBills(server().deps, t.businessId)).toBe(1);
      expect((await made()).map((b) => b.issue_date)).toEqual([TODAY]);
      expect((await journal(t.client)).map((e) => e.date)).toEqual([TODAY]);
    });
  });
});

describe('setting the lock date', () => {
  it('is null until set; GET answers it once set, with when it was set', async () => {
    const t = await newTenant();
    expect((await unwrap(t.client.finance.books.getLockDate())).data).toEqual({
      lock_date: null,
      updated_at: null,
    });
    const answer = await unwrap(setLock(t.client, LOCKED));
    expect(answer.message).toBe(`The books are locked up to and including ${LOCKED}`);
    expect((await unwrap(t.client.finance.books.getLockDate())).data).toEqual({
      lock_date: LOCKED,
      updated_at: NOW,
    });
  });

  it('refuses a date after today (422 naming lock_date) and keeps the one set', async () => {
    const t = await newTenant();
    await lock(t);
    expectResultError(await setLock(t.client, '2026-11-22'), 422, 'VALIDATION_ERROR', 'lock_date');
    expect(await lockDate(t.client)).toBe(LOCKED);
    await lock(t, TODAY);
  });

  it('lets the owner move it earlier and clear it', async () => {
    const t = await newTenant();
    await lock(t);
    await lock(t, '2026-10-31');
    expect(await lockDate(t.client)).toBe('2026-10-31');
    await unwrap(setLock(t.client, null));
    expect(await lockDate(t.client)).toBeNull();
    // Cleared, the old period takes postings again.
    expect((await createEntry(t.client, { date: '2026-10-01' })).date).toBe('2026-10-01');
  });

  it.each(['admin', 'accountant'] as const)(
    'lets an %s move it later but not earlier nor clear it (403 FORBIDDEN)',
    async (role) => {
      const t = await newTenant();
      const member = clientWith(server(), (await signedInMember(server(), t, role)).accessToken);
      expect((await unwrap(setLock(member, '2026-11-10'))).data.lock_date).toBe('2026-11-10');
      expect((await unwrap(setLock(member, LOCKED))).data.lock_date).toBe(LOCKED);
      expectResultError(await setLock(member, '2026-11-14'), 403, 'FORBIDDEN', 'lock_date');
      expectResultError(await setLock(member, null), 403, 'FORBIDDEN', 'lock_date');
      expect(await lockDate(t.client)).toBe(LOCKED);
      // Setting the same date again does not move it.
      expect((await unwrap(setLock(member, LOCKED))).data.lock_date).toBe(LOCKED);
      expectLocked(
        await member.finance.journal.createJournalEntry({
          body: {
            date: LOCKED,
            description: 'Late entry',
            debits: [{ account: '1010', amount: 100 }],
            credits: [{ account: '1000', amount: 100 }],
          },
        }),
      );
    },
  );

  it('treats a full API key as an admin: later yes, earlier 403', async () => {
    const t = await newTenant();
    const key = clientWith(server(), (await createApiKey(t.client, 'full', 'Books')).key);
    expect((await unwrap(setLock(key, LOCKED))).data.lock_date).toBe(LOCKED);
    expectResultError(await setLock(key, '2026-11-01'), 403, 'FORBIDDEN', 'lock_date');
    expect(await lockDate(t.client)).toBe(LOCKED);
  });

  it('records each change in the audit log', async () => {
    const t = await newTenant();
    await lock(t);
    await lock(t, '2026-11-20');
    await unwrap(setLock(t.client, null));
    const log = (await unwrap(t.client.auditLog.listAuditLog({ query: { operation: 'setLockDate' } }))) as {
      entries: { operation: string; actor: { kind: string } }[];
      total_count: number;
    };
    expect(log.total_count).toBe(3);
    expect(log.entries.map((e) => [e.operation, e.actor.kind])).toEqual([
      ['setLockDate', 'user'],
      ['setLockDate', 'user'],
      ['setLockDate', 'user'],
    ]);
  });
});
