import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { unwrap, type finance } from '../../client/index.js';
import { json, raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { outbox, withEvents } from '../support/events.js';
import { expectResultError, itemAt } from '../support/expect.js';
import {
  approveBill,
  billBody,
  billItem,
  billOf,
  billRows,
  createBill,
  createVendor,
  entriesOf,
  getBill,
  journal,
  payBill,
  voidBill,
  type BillsQuery,
} from '../support/finance.js';
import { useTestServer } from '../support/setup.js';
import { updateBusiness } from '../support/auth.js';

// Tokens outlive the clock moves below.
const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' }, worker: false });

const NOW = '2026-11-21T09:00:00.000Z';
const TODAY = '2026-11-21';
const ID = /^bill_[0-9A-HJKMNP-TV-Z]{26}$/;
const PAYMENT_ID = /^bpay_[0-9A-HJKMNP-TV-Z]{26}$/;
const MISSING_ID = 'bill_01JD7X2R5VQ8N3K4M6P9T1W2Y3';
const MISSING_VENDOR = 'ven_01JD7X2R5VQ8N3K4M6P9T1W2Y3';

beforeEach(() => server().clock.set(NOW));
afterEach(() => server().clock.reset());

const api = (biz: TestBusiness) => biz.client.finance.bills;
const list = (biz: TestBusiness, query: BillsQuery = {}) => unwrap(api(biz).listBills({ query }));
const ids = (bills: { id: string }[]) => bills.map((bill) => bill.id);

/** Sends what the typed client would refuse (unknown fields, wrong types). */
const send = (biz: TestBusiness, method: string, path: string, body?: unknown) =>
  raw(server(), method, `/v1/finance${path}`, {
    ...(body === undefined ? {} : json(body)),
    token: biz.accessToken,
  });

const pay = (biz: TestBusiness, id: string, body: Partial<finance.PayBillBody> = {}) =>
  api(biz).payBill({
    params: { id },
    body: { amount: 100, payment_method: 'bank_transfer', payment_date: '2026-11-30', ...body },
  });

/** A business with a vendor of its own. */
async function newBusiness(): Promise<TestBusiness & { vendor: finance.Vendor }> {
  const biz = await registerBusiness(server());
  return { ...biz, vendor: await createVendor(biz.client) };
}

let a: TestBusiness & { vendor: finance.Vendor };
let b: TestBusiness & { vendor: finance.Vendor };

beforeAll(async () => {
  [a, b] = await Promise.all([newBusiness(), newBusiness()]);
});

/** A bill of `a` in each state the API reaches. */
async function billIn(
  biz: TestBusiness,
  state: 'draft' | 'pending' | 'partly paid' | 'paid' | 'void' | 'overdue',
): Promise<finance.Bill> {
  if (state === 'draft') return createBill(biz.client, { status: 'draft' });
  if (state === 'overdue')
    return createBill(biz.client, { issue_date: '2026-11-01', due_date: '2026-11-20' });
  const bill = await billOf(biz.client, 10_000);
  if (state === 'partly paid') await payBill(biz.client, bill.id, 4_000);
  if (state === 'paid') await payBill(biz.client, bill.id, 10_000);
  if (state === 'void') await voidBill(biz.client, bill.id);
  return getBill(biz.client, bill.id);
}

describe('POST /v1/finance/bills', () => {
  it('records a pending bill (201) answering its id, a message and the bill with items and no payments', async () => {
    const body = billBody({ vendor_id: a.vendor.id, notes: 'November paper' });
    const res = await api(a).createBill({ body });
    expect(res.status).toBe(201);
    if (res.status !== 201) return;
    expect(res.body).toEqual({
      result: 'success',
      bill_id: expect.stringMatching(ID),
      message: expect.any(String),
      bill: {
        id: res.body.bill_id,
        vendor_id: a.vendor.id,
        vendor_name: 'Acme Supplies',
        subtotal: 11996,
        tax: 0,
        amount: 11996,
        amount_paid: 0,
        amount_due: 11996,
        currency: 'USD',
        exchange_rate: null,
        status: 'pending',
        issue_date: TODAY,
        due_date: '2026-12-31',
        notes: 'November paper',
        created_at: NOW,
        updated_at: NOW,
        items: [
          {
            description: 'Printer paper (box)',
            quantity: 4,
            unit_price: 2999,
            amount: 11996,
            tax_rate: 0,
            tax: 0,
          },
        ],
        payments: [],
        recurring_bill_id: null,
      },
    });
    expect(await getBill(a.client, res.body.bill_id)).toEqual(res.body.bill);
  });

  it('takes an issue_date, keeps items in order and a currency of its own', async () => {
    const bill = await createBill(a.client, {
      currency: 'EUR',
      issue_date: '2026-10-05',
      due_date: '2026-11-04',
      items: [
        billItem({ description: 'Desk', quantity: 1, unit_price: 25_000 }),
        billItem({ description: 'Chairs', quantity: 2, unit_price: 7_500 }),
      ],
    });
    expect(bill).toMatchObject({
      currency: 'EUR',
      issue_date: '2026-10-05',
      due_date: '2026-11-04',
      amount: 40_000,
    });
    expect(bill.items.map((i) => [i.description, i.amount])).toEqual([
      ['Desk', 25_000],
      ['Chairs', 15_000],
    ]);
  });

  it('records a draft with status "draft", which posts nothing', async () => {
    const bill = await createBill(a.client, { status: 'draft' });
    expect(bill).toMatchObject({ status: 'draft', amount: 11996, amount_due: 11996 });
    expect(await entriesOf(a.client, bill.id)).toEqual([]);
  });

  it('posts a pending bill once (source bill)', async () => {
    const bill = await createBill(a.client);
    const entries = await entriesOf(a.client, bill.id);
    expect(entries.map((e) => e.source)).toEqual([{ type: 'bill', id: bill.id }]);
  });

  it.each([
    ['1.5 x 1001 = 1501.5 rounds half up', [{ quantity: 1.5, unit_price: 1001 }], [1502], 1502],
    ['2.5 x 1 = 2.5 rounds up to 3', [{ quantity: 2.5, unit_price: 1 }], [3], 3],
    [
      '0.0001 x 4999 = 0.4999: the item rounds down to 0, the bill (100.4999) to 100',
      [
        { quantity: 0.0001, unit_price: 4999 },
        { quantity: 1, unit_price: 100 },
      ],
      [0, 100],
      100,
    ],
    [
      'two items of 0.5 x 3 = 1.5 each: the items round to 2 each, the bill sums exactly (3) and rounds once',
      [
        { quantity: 0.5, unit_price: 3 },
        { quantity: 0.5, unit_price: 3 },
      ],
      [2, 2],
      3,
    ],
    [
      'three items of 0.3333 x 10 = 3.333 each: 3 each, the bill 9.999 rounds to 10',
      [
        { quantity: 0.3333, unit_price: 10 },
        { quantity: 0.3333, unit_price: 10 },
        { quantity: 0.3333, unit_price: 10 },
      ],
      [3, 3, 3],
      10,
    ],
    [
      'a free item (unit_price 0) beside a paid one',
      [
        { quantity: 3, unit_price: 0 },
        { quantity: 1, unit_price: 100 },
      ],
      [0, 100],
      100,
    ],
    [
      'the largest amount the service holds',
      [{ quantity: 1, unit_price: 999_999_999_999_999 }],
      [999_999_999_999_999],
      999_999_999_999_999,
    ],
  ])('computes amounts in minor units: %s', async (_, items, amounts, amount) => {
    const bill = await createBill(a.client, { items: items.map((i) => billItem(i)) });
    expect(bill.items.map((i) => i.amount)).toEqual(amounts);
    expect(bill.amount).toBe(amount);
    expect(bill.amount_due).toBe(amount);
    expect(bill.items.map((i) => i.quantity)).toEqual(items.map((i) => i.quantity));
  });

  it('accepts a due_date equal to the issue_date', async () => {
    const bill = await createBill(a.client, { issue_date: '2026-11-10', due_date: '2026-11-10' });
    expect(bill).toMatchObject({ issue_date: '2026-11-10', due_date: '2026-11-10' });
  });

  it.each([
    ['a due_date before the issue_date', { issue_date: '2026-11-10', due_date: '2026-11-09' }, 'due_date'],
    ['a due_date before today when issue_date defaults to today', { due_date: '2026-11-20' }, 'due_date'],
    ['no items', { items: [] }, 'items'],
    ['a total of 0 (nothing could ever pay it)', { items: [billItem({ unit_price: 0 })] }, 'items'],
    ['a total that rounds to 0', { items: [billItem({ quantity: 0.0001, unit_price: 4999 })] }, 'items'],
    ['an item without description', { items: [{ quantity: 1, unit_price: 5 }] }, 'items.0.description'],
    ['a quantity of 0', { items: [billItem({ quantity: 0 })] }, 'items.0.quantity'],
    ['a quantity with 5 decimals', { items: [billItem({ quantity: 1.23456 })] }, 'items.0.quantity'],
    ['a negative unit_price', { items: [billItem({ unit_price: -1 })] }, 'items.0.unit_price'],
    [
      'a fractional unit_price (minor units are integers)',
      { items: [billItem({ unit_price: 19.99 })] },
      'items.0.unit_price',
    ],
    [
      'an item total beyond the largest amount',
      { items: [billItem({ quantity: 2, unit_price: 999_999_999_999_999 })] },
      'items.0',
    ],
    [
      'a bill total beyond the largest amount',
      {
        items: [
          billItem({ quantity: 1, unit_price: 600_000_000_000_000 }),
          billItem({ quantity: 1, unit_price: 600_000_000_000_000 }),
        ],
      },
      'items',
    ],
    ['a null currency', { currency: null }, 'currency'],
    ['an unknown currency', { currency: 'ABC' }, 'currency'],
    ['an impossible due_date', { due_date: '2026-02-30' }, 'due_date'],
    ['status "pending" (only "draft" may be asked)', { status: 'pending' }, 'status'],
    ['an unknown field', { reference: 'PO-1' }, 'reference'],
  ])('refuses %s (422 naming the field); nothing is recorded', async (_, overrides, field) => {
    const biz = await newBusiness();
    const res = await send(biz, 'POST', '/bills', {
      ...billBody({ vendor_id: biz.vendor.id }),
      ...overrides,
    });
    expectResultError(res, 422, 'VALIDATION_ERROR', field);
    expect(await billRows(server(), biz.businessId)).toEqual([]);
    expect(await journal(biz.client)).toEqual([]);
  });

  it('takes input tax per item: the exact taxes summed and rounded once, posted to 2210 VAT receivable', async () => {
    const biz = await newBusiness();
    const bill = await createBill(biz.client, {
      vendor_id: biz.vendor.id,
      items: [
        // 3 x 33.33 at 20% = 99.99, tax 19.998 (20.00 on its own)
        billItem({ description: 'Toner', quantity: 3, unit_price: 3333, tax_rate: 20 }),
        // 1 x 0.05 at 12.5% = 0.05, tax 0.00625 (0.01 on its own)
        billItem({ description: 'Stamp', quantity: 1, unit_price: 5, tax_rate: 12.5 }),
        billItem({ description: 'Postage (exempt)', quantity: 1, unit_price: 100 }),
      ],
    });
    // Exact tax 19.998 + 0.00625 = 20.00425, rounded once: 20.00; subtotal 99.99 + 0.05 + 1.00 = 101.04.
    expect([bill.subtotal, bill.tax, bill.amount, bill.amount_due]).toEqual([10104, 2000, 12104, 12104]);
    expect(bill.items.map((i) => [i.amount, i.tax_rate, i.tax])).toEqual([
      [9999, 20, 2000],
      [5, 12.5, 1],
      [100, 0, 0],
    ]);
    const [entry] = await journal(biz.client);
    expect(entry).toMatchObject({
      source: { type: 'bill', id: bill.id },
      debits: [
        { account: '5000', amount: 10104 },
        { account: '2210', amount: 2000 },
      ],
      credits: [{ account: '2000', amount: 12104 }],
    });
  });

  it('refuses a tax_rate with more than 3 decimals or above 100 (422 naming the item); nothing is recorded', async () => {
    const biz = await newBusiness();
    for (const tax_rate of [20.0001, 100.5, -1]) {
      const res = await send(biz, 'POST', '/bills', {
        ...billBody({ vendor_id: biz.vendor.id }),
        items: [{ ...billItem(), tax_rate }],
      });
      expectResultError(res, 422, 'VALIDATION_ERROR', 'items.0.tax_rate');
    }
    expect(await billRows(server(), biz.businessId)).toEqual([]);
  });

  it("takes the business's base currency when none is sent", async () => {
    const biz = await newBusiness();
    // Drafts: once the journal holds an entry the base currency is fixed (docs/decisions.md D278).
    const withoutCurrency = {
      ...billBody({ vendor_id: biz.vendor.id }),
      currency: undefined,
      status: 'draft' as const,
    };
    expect((await unwrap(api(biz).createBill({ body: withoutCurrency }))).bill.currency).toBe('USD');
    await updateBusiness(biz.client, { base_currency: 'EUR' });
    expect((await unwrap(api(biz).createBill({ body: withoutCurrency }))).bill.currency).toBe('EUR');
  });

  it("refuses an unknown vendor_id and another business's vendor (422 naming vendor_id); nothing is recorded", async () => {
    const biz = await newBusiness();
    for (const vendor_id of [MISSING_VENDOR, b.vendor.id]) {
      expectResultError(
        await api(biz).createBill({ body: billBody({ vendor_id }) }),
        422,
        'VALIDATION_ERROR',
        'vendor_id',
      );
    }
    expect(await billRows(server(), biz.businessId)).toEqual([]);
    expect(await journal(biz.client)).toEqual([]);
  });
});

describe('GET /v1/finance/bills', () => {
  it('lists newest first with total_count, limit and offset, without items; another business sees none', async () => {
    const biz = await newBusiness();
    const made: finance.Bill[] = [];
    for (let i = 0; i < 4; i++) {
      made.push(await billOf(biz.client, 1000 + i, { vendor_id: biz.vendor.id }));
      server().clock.advance(1000);
    }
    const newestFirst = ids(made).reverse();
    const all = await list(biz);
    expect(all.total_count).toBe(4);
    expect(ids(all.bills)).toEqual(newestFirst);
    const newest = itemAt(made, -1);
    expect(itemAt(all.bills, 0)).toEqual(
      Object.fromEntries(Object.entries(newest).filter(([key]) => key !== 'items' && key !== 'payments')),
    );

    const page = await list(biz, { limit: 2, offset: 1 });
    expect(page.total_count).toBe(4);
    expect(ids(page.bills)).toEqual(newestFirst.slice(1, 3));
    expect(await list(biz, { offset: 4 })).toEqual({ result: 'success', bills: [], total_count: 4 });

    expect(await list(await newBusiness())).toEqual({ result: 'success', bills: [], total_count: 0 });
  });

  it('filters by status: draft, pending (not yet due), overdue (derived), paid and void; deleted drafts are gone', async () => {
    const biz = await newBusiness();
    const draft = await billIn(biz, 'draft');
    const deleted = await billIn(biz, 'draft');
    await unwrap(api(biz).deleteBill({ params: { id: deleted.id } }));
    const pending = await billIn(biz, 'pending');
    const partly = await billIn(biz, 'partly paid');
    const dueToday = await createBill(biz.client, { issue_date: '2026-11-01', due_date: TODAY });
    const overdue = await billIn(biz, 'overdue');
    const paid = await billIn(biz, 'paid');
    const voided = await billIn(biz, 'void');

    const byStatus = async (status: finance.BillStatus) => {
      const res = await list(biz, { status });
      expect(res.total_count).toBe(res.bills.length);
      expect(res.bills.every((bill) => bill.status === status)).toBe(true);
      return ids(res.bills).sort();
    };
    expect(await byStatus('draft')).toEqual([draft.id]);
    expect(await byStatus('pending')).toEqual(ids([pending, partly, dueToday]).sort());
    expect(await byStatus('overdue')).toEqual([overdue.id]);
    expect(await byStatus('paid')).toEqual([paid.id]);
    expect(await byStatus('void')).toEqual([voided.id]);
    expect((await list(biz)).total_count).toBe(7);
  });

  it('reads a pending bill as overdue once the clock passes its due date, and not before', async () => {
    const biz = await newBusiness();
    const bill = await createBill(biz.client, { due_date: '2026-11-25' });
    expect(ids((await list(biz, { status: 'overdue' })).bills)).toEqual([]);

    server().clock.set('2026-11-25T23:59:59.999Z');
    expect((await getBill(biz.client, bill.id)).status).toBe('pending');
    expect(ids((await list(biz, { status: 'pending' })).bills)).toEqual([bill.id]);

    server().clock.set('2026-11-26T00:00:00.000Z');
    expect((await getBill(biz.client, bill.id)).status).toBe('overdue');
    expect(ids((await list(biz, { status: 'overdue' })).bills)).toEqual([bill.id]);
    expect((await list(biz, { status: 'pending' })).total_count).toBe(0);
    expect(itemAt((await list(biz)).bills, 0).status).toBe('overdue');
  });

  it('never reads a draft, paid or void bill as overdue', async () => {
    const biz = await newBusiness();
    const draft = await createBill(biz.client, { status: 'draft', due_date: '2026-11-22' });
    const paid = await billOf(biz.client, 500, { due_date: '2026-11-22' });
    await payBill(biz.client, paid.id, 500);
    const voided = await billOf(biz.client, 500, { due_date: '2026-11-22' });
    await voidBill(biz.client, voided.id);
    server().clock.set('2027-01-01T00:00:00.000Z');
    expect((await list(biz, { status: 'overdue' })).total_count).toBe(0);
    expect((await getBill(biz.client, draft.id)).status).toBe('draft');
    expect((await getBill(biz.client, paid.id)).status).toBe('paid');
    expect((await getBill(biz.client, voided.id)).status).toBe('void');
  });

  it('filters by vendor_id, alone and with a status, with total_count', async () => {
    const biz = await newBusiness();
    const other = await createVendor(biz.client, { name: 'Globex' });
    const mine = [
      await billOf(biz.client, 100, { vendor_id: other.id }),
      await billOf(biz.client, 200, { vendor_id: other.id }),
    ];
    await billOf(biz.client, 300, { vendor_id: biz.vendor.id });
    await payBill(biz.client, itemAt(mine, 0).id, 100);

    const byVendor = await list(biz, { vendor_id: other.id });
    expect(byVendor.total_count).toBe(2);
    expect(ids(byVendor.bills).sort()).toEqual(ids(mine).sort());
    expect(byVendor.bills.every((bill) => bill.vendor_name === 'Globex')).toBe(true);

    const paid = await list(biz, { vendor_id: other.id, status: 'paid' });
    expect(ids(paid.bills)).toEqual([itemAt(mine, 0).id]);
    expect(paid.total_count).toBe(1);

    const limited = await list(biz, { vendor_id: other.id, limit: 1 });
    expect(limited.bills).toHaveLength(1);
    expect(limited.total_count).toBe(2);

    expect(await list(biz, { vendor_id: MISSING_VENDOR })).toEqual({
      result: 'success',
      bills: [],
      total_count: 0,
    });
    expect(await list(biz, { vendor_id: b.vendor.id })).toEqual({
      result: 'success',
      bills: [],
      total_count: 0,
    });
  });

  it.each([
    ['status=late', 'status'],
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['offset=-1', 'offset'],
  ])('refuses %s (422 naming the parameter)', async (query, field) => {
    expectResultError(await send(a, 'GET', `/bills?${query}`), 422, 'VALIDATION_ERROR', field);
  });
});

describe('GET /v1/finance/bills/:id', () => {
  it('answers {result, bill} with items, payments, amount_paid and amount_due', async () => {
    const bill = await billOf(a.client, 10_000);
    const first = await payBill(a.client, bill.id, 2_500, {
      payment_method: 'cash',
      payment_date: '2026-11-22',
    });
    server().clock.advance(1000);
    const second = await payBill(a.client, bill.id, 1_000, {
      payment_method: 'check',
      payment_date: '2026-11-23',
    });
    const res = await api(a).getBill({ params: { id: bill.id } });
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    expect(res.body).toEqual({
      result: 'success',
      bill: {
        ...bill,
        amount_paid: 3_500,
        amount_due: 6_500,
        updated_at: '2026-11-21T09:00:01.000Z',
        payments: [
          {
            id: first.payment_id,
            bill_id: bill.id,
            amount: 2_500,
            currency: 'USD',
            payment_method: 'cash',
            payment_date: '2026-11-22',
            bank_account_id: null,
            exchange_rate: null,
            created_at: NOW,
          },
          {
            id: second.payment_id,
            bill_id: bill.id,
            amount: 1_000,
            currency: 'USD',
            payment_method: 'check',
            payment_date: '2026-11-23',
            bank_account_id: null,
            exchange_rate: null,
            created_at: '2026-11-21T09:00:01.000Z',
          },
        ],
      },
    });
  });

  it("answers 404 NOT_FOUND for an unknown id, another business's bill and a deleted draft", async () => {
    const bill = await createBill(a.client);
    const draft = await createBill(a.client, { status: 'draft' });
    await unwrap(api(a).deleteBill({ params: { id: draft.id } }));
    expectResultError(await api(a).getBill({ params: { id: MISSING_ID } }), 404, 'NOT_FOUND');
    expectResultError(await api(b).getBill({ params: { id: bill.id } }), 404, 'NOT_FOUND');
    expectResultError(await api(a).getBill({ params: { id: draft.id } }), 404, 'NOT_FOUND');
  });
});

describe('POST /v1/finance/bills/:id/approve', () => {
  it('moves a draft to pending (200 {result, message, bill}) and posts it on its issue date', async () => {
    const draft = await createBill(a.client, { status: 'draft', issue_date: '2026-11-02' });
    server().clock.advance(60_000);
    const res = await api(a).approveBill({ params: { id: draft.id } });
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    expect(res.body).toEqual({
      result: 'success',
      message: expect.any(String),
      bill: { ...draft, status: 'pending', updated_at: '2026-11-21T09:01:00.000Z' },
    });
    const [entry, ...more] = await entriesOf(a.client, draft.id);
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ date: '2026-11-02', source: { type: 'bill', id: draft.id } });
  });

  it('approves a draft already past its due date, which then reads overdue', async () => {
    const draft = await createBill(a.client, {
      status: 'draft',
      issue_date: '2026-10-01',
      due_date: '2026-10-31',
    });
    expect((await approveBill(a.client, draft.id)).status).toBe('overdue');
  });

  it.each(['pending', 'partly paid', 'paid', 'void', 'overdue'] as const)(
    'refuses to approve a %s bill (409 INVALID_STATE); nothing changes',
    async (state) => {
      const bill = await billIn(a, state);
      const entries = await entriesOf(a.client, bill.id);
      expectResultError(await api(a).approveBill({ params: { id: bill.id } }), 409, 'INVALID_STATE');
      expect(await getBill(a.client, bill.id)).toEqual(bill);
      expect(await entriesOf(a.client, bill.id)).toEqual(entries);
    },
  );

  it("answers 404 NOT_FOUND for an unknown id and another business's draft", async () => {
    const draft = await createBill(a.client, { status: 'draft' });
    expectResultError(await api(a).approveBill({ params: { id: MISSING_ID } }), 404, 'NOT_FOUND');
    expectResultError(await api(b).approveBill({ params: { id: draft.id } }), 404, 'NOT_FOUND');
    expect((await getBill(a.client, draft.id)).status).toBe('draft');
  });
});

describe('PUT /v1/finance/bills/:id', () => {
  it('changes only the fields given of a draft (200 {result, message, bill}); items replace the old ones', async () => {
    const draft = await createBill(a.client, { status: 'draft' });
    server().clock.advance(60_000);
    const res = await api(a).updateBill({ params: { id: draft.id }, body: { due_date: '2027-01-15' } });
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    expect(res.body).toEqual({
      result: 'success',
      message: expect.any(String),
      bill: { ...draft, due_date: '2027-01-15', updated_at: '2026-11-21T09:01:00.000Z' },
    });

    const items = [
      billItem({ description: 'Toner', quantity: 1.5, unit_price: 1001 }),
      billItem({ quantity: 1 }),
    ];
    const replaced = (
      await unwrap(api(a).updateBill({ params: { id: draft.id }, body: { items, notes: 'Revised' } }))
    ).bill;
    expect(replaced).toMatchObject({
      amount: 1502 + 2999,
      amount_due: 1502 + 2999,
      notes: 'Revised',
      status: 'draft',
    });
    expect(replaced.items).toEqual([
      { description: 'Toner', quantity: 1.5, unit_price: 1001, amount: 1502, tax_rate: 0, tax: 0 },
      {
        description: 'Printer paper (box)',
        quantity: 1,
        unit_price: 2999,
        amount: 2999,
        tax_rate: 0,
        tax: 0,
      },
    ]);
    expect(await getBill(a.client, draft.id)).toEqual(replaced);
    expect(await entriesOf(a.client, draft.id)).toEqual([]);
  });

  it('moves a draft to another vendor of the business, clears notes with null and changes its currency', async () => {
    const other = await createVendor(a.client, { name: 'Globex' });
    const draft = await createBill(a.client, { status: 'draft', notes: 'Old' });
    const bill = (
      await unwrap(
        api(a).updateBill({
          params: { id: draft.id },
          body: { vendor_id: other.id, notes: null, currency: 'EUR' },
        }),
      )
    ).bill;
    expect(bill).toMatchObject({
      vendor_id: other.id,
      vendor_name: 'Globex',
      notes: null,
      currency: 'EUR',
      amount: 11996,
    });
  });

  it('posts the updated amounts and dates when the draft is approved', async () => {
    const draft = await createBill(a.client, { status: 'draft' });
    await unwrap(
      api(a).updateBill({
        params: { id: draft.id },
        body: { issue_date: '2026-11-05', items: [billItem({ quantity: 1, unit_price: 777 })] },
      }),
    );
    await approveBill(a.client, draft.id);
    const [entry] = await entriesOf(a.client, draft.id);
    expect(entry).toMatchObject({
      date: '2026-11-05',
      debits: [{ account: '5000', amount: 777 }],
      credits: [{ account: '2000', amount: 777 }],
    });
  });

  it.each([
    ['a due_date before the issue_date', { due_date: '2026-11-01' }, 'due_date'],
    ['an issue_date after the due_date', { issue_date: '2027-01-01' }, 'due_date'],
    ['no items', { items: [] }, 'items'],
    ['a total of 0 (nothing could ever pay it)', { items: [billItem({ unit_price: 0 })] }, 'items'],
    ['a total that rounds to 0', { items: [billItem({ quantity: 0.0001, unit_price: 4999 })] }, 'items'],
    ['a status', { status: 'pending' }, 'status'],
    ['an unknown vendor', { vendor_id: MISSING_VENDOR }, 'vendor_id'],
  ])('refuses %s (422 naming the field); the draft stays as it was', async (_, body, field) => {
    const draft = await createBill(a.client, {
      status: 'draft',
      issue_date: '2026-11-10',
      due_date: '2026-12-31',
    });
    expectResultError(await send(a, 'PUT', `/bills/${draft.id}`, body), 422, 'VALIDATION_ERROR', field);
    expect(await getBill(a.client, draft.id)).toEqual(draft);
  });

  it("refuses another business's vendor (422 naming vendor_id)", async () => {
    const draft = await createBill(a.client, { status: 'draft' });
    expectResultError(
      await api(a).updateBill({ params: { id: draft.id }, body: { vendor_id: b.vendor.id } }),
      422,
      'VALIDATION_ERROR',
      'vendor_id',
    );
    expect(await getBill(a.client, draft.id)).toEqual(draft);
  });

  it.each(['pending', 'partly paid', 'paid', 'void', 'overdue'] as const)(
    'refuses to change a %s bill (409 INVALID_STATE); nothing changes',
    async (state) => {
      const bill = await billIn(a, state);
      expectResultError(
        await api(a).updateBill({ params: { id: bill.id }, body: { notes: 'Changed' } }),
        409,
        'INVALID_STATE',
      );
      expect(await getBill(a.client, bill.id)).toEqual(bill);
    },
  );

  it("answers 404 NOT_FOUND for an unknown id and another business's draft", async () => {
    const draft = await createBill(a.client, { status: 'draft' });
    expectResultError(
      await api(a).updateBill({ params: { id: MISSING_ID }, body: { notes: 'x' } }),
      404,
      'NOT_FOUND',
    );
    expectResultError(
      await api(b).updateBill({ params: { id: draft.id }, body: { notes: 'x' } }),
      404,
      'NOT_FOUND',
    );
    expect(await getBill(a.client, draft.id)).toEqual(draft);
  });
});

describe('DELETE /v1/finance/bills/:id', () => {
  it('deletes a draft (200 {result, message}): gone from reads and lists, kept as a deleted row', async () => {
    const biz = await newBusiness();
    const draft = await createBill(biz.client, { status: 'draft' });
    const res = await api(biz).deleteBill({ params: { id: draft.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', message: expect.any(String) });
    expectResultError(await api(biz).getBill({ params: { id: draft.id } }), 404, 'NOT_FOUND');
    expect(await list(biz)).toEqual({ result: 'success', bills: [], total_count: 0 });
    const [row] = await billRows(server(), biz.businessId);
    expect(row).toMatchObject({ id: draft.id, status: 'draft', deleted_at: new Date(NOW) });
    expectResultError(await api(biz).deleteBill({ params: { id: draft.id } }), 404, 'NOT_FOUND');
  });

  it.each(['pending', 'partly paid', 'paid', 'void', 'overdue'] as const)(
    'refuses to delete a %s bill (409 INVALID_STATE); it stays',
    async (state) => {
      const bill = await billIn(a, state);
      expectResultError(await api(a).deleteBill({ params: { id: bill.id } }), 409, 'INVALID_STATE');
      expect(await getBill(a.client, bill.id)).toEqual(bill);
    },
  );

  it("answers 404 NOT_FOUND for an unknown id and another business's draft, which stays", async () => {
    const draft = await createBill(a.client, { status: 'draft' });
    expectResultError(await api(a).deleteBill({ params: { id: MISSING_ID } }), 404, 'NOT_FOUND');
    expectResultError(await api(b).deleteBill({ params: { id: draft.id } }), 404, 'NOT_FOUND');
    expect(await getBill(a.client, draft.id)).toEqual(draft);
  });
});

describe('POST /v1/finance/bills/:id/void', () => {
  it('voids a pending bill without payments (200 {result, message, bill}): amount_due 0, its posting reversed today', async () => {
    const bill = await createBill(a.client, { issue_date: '2026-11-02' });
    server().clock.set('2026-11-24T10:00:00.000Z');
    const res = await api(a).voidBill({ params: { id: bill.id } });
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    expect(res.body).toEqual({
      result: 'success',
      message: expect.any(String),
      bill: { ...bill, status: 'void', amount_due: 0, updated_at: '2026-11-24T10:00:00.000Z' },
    });
    const entries = await entriesOf(a.client, bill.id);
    expect(entries.map((e) => [e.source.type, e.date])).toEqual([
      ['bill', '2026-11-02'],
      ['void', '2026-11-24'],
    ]);
  });

  it('voids an overdue bill (stored pending)', async () => {
    const bill = await billIn(a, 'overdue');
    expect((await voidBill(a.client, bill.id)).status).toBe('void');
  });

  it.each(['draft', 'partly paid', 'paid', 'void'] as const)(
    'refuses to void a %s bill (409 INVALID_STATE); nothing changes or posts',
    async (state) => {
      const bill = await billIn(a, state);
      const entries = await entriesOf(a.client, bill.id);
      expectResultError(await api(a).voidBill({ params: { id: bill.id } }), 409, 'INVALID_STATE');
      expect(await getBill(a.client, bill.id)).toEqual(bill);
      expect(await entriesOf(a.client, bill.id)).toEqual(entries);
    },
  );

  it("answers 404 NOT_FOUND for an unknown id and another business's bill, which stays pending", async () => {
    const bill = await createBill(a.client);
    expectResultError(await api(a).voidBill({ params: { id: MISSING_ID } }), 404, 'NOT_FOUND');
    expectResultError(await api(b).voidBill({ params: { id: bill.id } }), 404, 'NOT_FOUND');
    expect(await getBill(a.client, bill.id)).toEqual(bill);
  });
});

describe('POST /v1/finance/bills/:id/pay', () => {
  it('records partial payments (200 {result, message, bill_status, payment_id, amount_due}), then paid when covered', async () => {
    const bill = await billOf(a.client, 10_000);
    const first = await pay(a, bill.id, { amount: 3_000 });
    expect(first.status).toBe(200);
    expect(first.body).toEqual({
      result: 'success',
      message: expect.any(String),
      bill_status: 'pending',
      payment_id: expect.stringMatching(PAYMENT_ID),
      amount_due: 7_000,
    });
    expect(await getBill(a.client, bill.id)).toMatchObject({
      status: 'pending',
      amount_paid: 3_000,
      amount_due: 7_000,
    });

    const last = await unwrap(pay(a, bill.id, { amount: 7_000, payment_method: 'cash' }));
    expect(last).toMatchObject({ bill_status: 'paid', amount_due: 0 });
    const paid = await getBill(a.client, bill.id);
    expect(paid).toMatchObject({ status: 'paid', amount_paid: 10_000, amount_due: 0 });
    expect(paid.payments.map((p) => [p.id, p.amount, p.payment_method])).toEqual([
      [(first.body as { payment_id: string }).payment_id, 3_000, 'bank_transfer'],
      [last.payment_id, 7_000, 'cash'],
    ]);
  });

  it.each(['bank_transfer', 'cash', 'check', 'mobile_money'] as const)(
    'takes payment_method %s and stores it with the payment_date and the bill currency',
    async (payment_method) => {
      const bill = await billOf(a.client, 900, { currency: 'EUR' });
      const { payment_id } = await unwrap(
        pay(a, bill.id, { amount: 900, payment_method, payment_date: '2026-12-02' }),
      );
      const [payment] = (await getBill(a.client, bill.id)).payments;
      expect(payment).toEqual({
        id: payment_id,
        bill_id: bill.id,
        amount: 900,
        currency: 'EUR',
        payment_method,
        payment_date: '2026-12-02',
        bank_account_id: null,
        exchange_rate: null,
        created_at: NOW,
      });
    },
  );

  it('reports an overdue bill paid in part as overdue, and paid once covered', async () => {
    const bill = await createBill(a.client, {
      issue_date: '2026-11-01',
      due_date: '2026-11-20',
      items: [billItem({ quantity: 1, unit_price: 1_000 })],
    });
    expect(bill.status).toBe('overdue');
    expect(await unwrap(pay(a, bill.id, { amount: 400 }))).toMatchObject({
      bill_status: 'overdue',
      amount_due: 600,
    });
    expect(await unwrap(pay(a, bill.id, { amount: 600 }))).toMatchObject({
      bill_status: 'paid',
      amount_due: 0,
    });
  });

  it('refuses more than amount_due (422 naming amount); nothing is recorded or posted', async () => {
    const bill = await billOf(a.client, 1_000);
    await payBill(a.client, bill.id, 600);
    const before = await getBill(a.client, bill.id);
    const entries = await entriesOf(a.client, bill.id);
    const res = await pay(a, bill.id, { amount: 401 });
    const error = expectResultError(res, 422, 'VALIDATION_ERROR', 'amount');
    expect(error.details?.[0]?.message).toContain('400');
    expect(await getBill(a.client, bill.id)).toEqual(before);
    expect(await entriesOf(a.client, bill.id)).toEqual(entries);
  });

  it.each(['draft', 'paid', 'void'] as const)(
    'refuses to pay a %s bill (409 INVALID_STATE); nothing is recorded',
    async (state) => {
      const bill = await billIn(a, state);
      expectResultError(await pay(a, bill.id, { amount: 1 }), 409, 'INVALID_STATE');
      expect(await getBill(a.client, bill.id)).toEqual(bill);
    },
  );

  it.each([
    ['an amount of 0', { amount: 0 }, 'amount'],
    ['a negative amount', { amount: -5 }, 'amount'],
    ['a fractional amount (minor units are integers)', { amount: 10.5 }, 'amount'],
    ['an amount as a string', { amount: '100' }, 'amount'],
    ['payment_method card (not a bill payment method)', { payment_method: 'card' }, 'payment_method'],
    ['no payment_method', { payment_method: undefined }, 'payment_method'],
    ['no payment_date', { payment_date: undefined }, 'payment_date'],
    ['a malformed payment_date', { payment_date: '30/11/2026' }, 'payment_date'],
    ['an unknown field', { reference: 'x' }, 'reference'],
  ])('refuses %s (422 naming the field); nothing is recorded', async (_, overrides, field) => {
    const bill = await billOf(a.client, 1_000);
    const body = { amount: 100, payment_method: 'bank_transfer', payment_date: '2026-11-30', ...overrides };
    expectResultError(await send(a, 'POST', `/bills/${bill.id}/pay`, body), 422, 'VALIDATION_ERROR', field);
    expect(await getBill(a.client, bill.id)).toEqual(bill);
  });

  it("answers 404 NOT_FOUND for an unknown id and another business's bill, which stays unpaid", async () => {
    const bill = await billOf(a.client, 1_000);
    expectResultError(await pay(a, MISSING_ID), 404, 'NOT_FOUND');
    expectResultError(await pay(b, bill.id), 404, 'NOT_FOUND');
    expect(await getBill(a.client, bill.id)).toEqual(bill);
  });

  it('writes one payment.created per payment, its data the payment with its bill id; none for a refusal', async () => {
    const biz = await newBusiness();
    const bill = await billOf(biz.client, 1_000, { vendor_id: biz.vendor.id });
    const { result, events } = await withEvents(server(), biz.businessId, () =>
      payBill(biz.client, bill.id, 250, { payment_method: 'mobile_money', payment_date: '2026-11-28' }),
    );
    expect(events.map((e) => [e.type, e.data])).toEqual([
      [
        'payment.created',
        {
          id: result.payment_id,
          bill_id: bill.id,
          amount: 250,
          currency: 'USD',
          payment_method: 'mobile_money',
          payment_date: '2026-11-28',
          bank_account_id: null,
          exchange_rate: null,
          created_at: NOW,
        },
      ],
    ]);
    const [payment] = (await getBill(biz.client, bill.id)).payments;
    expect(itemAt(events, 0).data).toEqual(payment);

    const refused = await withEvents(server(), biz.businessId, () => pay(biz, bill.id, { amount: 10_000 }));
    expect(refused.result.status).toBe(422);
    expect(refused.events).toEqual([]);

    await payBill(biz.client, bill.id, 750);
    const types = (await outbox(server(), biz.businessId)).map((e) => e.type);
    expect(types.filter((type) => type === 'payment.created')).toHaveLength(2);
  });
});
