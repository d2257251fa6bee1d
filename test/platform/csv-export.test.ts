import type { AppRoute } from '@ts-rest/core';
import { parse } from 'csv-parse/sync';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { BmsApiError, contract, exportCsv, unwrap, type ClientOptions } from '../../client/index.js';
import { csvCell, csvListingOf, listOperationsOf, valueAt } from '../../contract/common/exports.js';
import { newId } from '../../server/platform/ids.js';
import { createApiKey } from '../support/auth.js';
import { raw, registerBusiness, signedInMember, type TestBusiness } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { expectError, expectResultError } from '../support/expect.js';
import {
  approveBill,
  createAccount,
  createBill,
  createEntry,
  createVendor,
  journal,
  payBill,
} from '../support/finance.js';
import {
  createCustomer,
  createInvoice,
  createProduct,
  createQuote,
  issueInvoice,
  issuedInvoice,
  payInvoice,
} from '../support/general.js';
import { createDepartment, createEmployee, createLeave, leaveIn } from '../support/hr.js';
import {
  adjustPoints,
  createProgram,
  createRedemption,
  createReminder,
  createTier,
  enrollMember,
  newReward,
} from '../support/loyalty.js';
import {
  campaignReaches,
  createCampaign,
  createDomain,
  createSegment,
  createTemplate,
  MARKETING_ENV,
} from '../support/marketing.js';
import { settleDeliveries, useReceivers } from '../support/receiver.js';
import { useTestServer } from '../support/setup.js';
import { waitFor } from '../support/wait.js';
import { createWebhook } from '../support/webhooks.js';

/**
 * CSV export of every list (docs/decisions.md D155): each list operation of the contract answers, as CSV,
 * exactly what its JSON pages hold (a new list is covered the day it joins the contract); filters and
 * order apply; cells are neutralised against formula injection; negotiation, errors before the first
 * byte, tenant isolation and permissions; one snapshot while others write.
 */

const server = useTestServer({
  env: {
    ...MARKETING_ENV,
    MARKETING_POLL_MS: '40',
    MAIL_RATE_PER_SECOND: '0',
    WEBHOOK_ALLOW_PRIVATE: 'true',
  },
});
const startReceiver = useReceivers();

const optionsOf = (biz: Pick<TestBusiness, 'accessToken'>): ClientOptions => ({
  baseUrl: server().baseUrl,
  accessToken: biz.accessToken,
});

/** A list route as `exportCsv` takes it. */
type ListRoute = Parameters<typeof exportCsv>[1];

/** The parsed records of a CSV text (header first), every cell a string. */
const records = (text: string): string[][] => parse(text);

/** The CSV of a list (`exportCsv`): its raw text and records. */
async function csvOf(
  options: ClientOptions,
  route: AppRoute,
  request: { params?: Record<string, string>; query?: Record<string, string | number> } = {},
): Promise<{ response: Response; text: string; rows: string[][] }> {
  const response = await exportCsv(options, route as ListRoute, request as never);
  const text = await response.text();
  return { response, text, rows: records(text) };
}

// ---------------------------------------------------------------------------------------------
// The JSON side: every page of a list, at its largest page size.

type Shape = Record<string, z.ZodTypeAny>;

function unwrapSchema(schema: z.ZodTypeAny): z.ZodTypeAny {
  let current = schema;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable) current = current.unwrap();
    else if (current instanceof z.ZodDefault) current = current.removeDefault();
    else if (current instanceof z.ZodEffects) current = current.innerType();
    else return current;
  }
}

/** The fields of a route's query schema (none when it has none). */
function queryShape(route: AppRoute): Shape {
  const query = (route as { query?: z.ZodTypeAny }).query;
  if (!query) return {};
  const inner = unwrapSchema(query);
  return inner instanceof z.ZodObject ? (inner.shape as Shape) : {};
}

/** How a list pages (`offset`, `page`, or not at all) and its largest `limit`. */
function pagingOf(route: AppRoute): { by: 'offset' | 'page' | null; max: number } {
  const shape = queryShape(route);
  const by = 'offset' in shape ? 'offset' : 'page' in shape ? 'page' : null;
  if (!by) return { by, max: 0 };
  const limit = unwrapSchema(shape.limit!);
  const max = limit instanceof z.ZodNumber ? limit.maxValue : null;
  if (!max) throw new Error(`${route.path}: no largest limit`);
  return { by, max };
}

const pathOf = (route: AppRoute, params: Record<string, string>) =>
  route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));

/** Every item of a list, page after page of its largest size, as the JSON answers hold them. */
async function jsonItems(
  route: AppRoute,
  headers: Record<string, string>,
  params: Record<string, string> = {},
  query: Record<string, string> = {},
): Promise<unknown[]> {
  const { itemsField } = csvListingOf(route)!;
  const { by, max } = pagingOf(route);
  const items: unknown[] = [];
  for (let n = 0; ; n++) {
    const search = new URLSearchParams(query);
    if (by === 'offset') search.set('offset', String(items.length));
    if (by === 'page') search.set('page', String(n + 1));
    if (by) search.set('limit', String(max));
    const res = await fetch(`${server().baseUrl}${pathOf(route, params)}?${search.toString()}`, { headers });
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status, `${route.path}: ${JSON.stringify(body)}`).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const page = body[itemsField] as unknown[];
    expect(Array.isArray(page), `${route.path} answers its items in ${itemsField}`).toBe(true);
    items.push(...page);
    if (!by || page.length < max) return items;
  }
}

/** The CSV records a list's JSON items make: each item's rows, each cell as the export writes it. */
function expectedRecords(route: AppRoute, items: unknown[]): string[][] {
  const listing = csvListingOf(route)!;
  return items.flatMap((item) =>
    listing.rowsOf(item).map((row) => listing.columns.map((column) => String(csvCell(valueAt(row, column))))),
  );
}

// ---------------------------------------------------------------------------------------------
// One business with something in (almost) every list.

const LIST_OPERATIONS = [...listOperationsOf(contract)];

let biz: TestBusiness;
let publicKey: string;
const ids = { segment: '', campaign: '', webhook: '', member: '', bankLine: '', employee: '' };

/** The path parameters of every list under a resource, by operation name. */
const PARAMS: Record<string, () => Record<string, string>> = {
  listSegmentContacts: () => ({ id: ids.segment }),
  listCampaignRecipients: () => ({ id: ids.campaign }),
  listDeliveries: () => ({ id: ids.webhook }),
  listMemberTransactions: () => ({ publicId: ids.member }),
  getBankTransactionSuggestions: () => ({ id: ids.bankLine }),
  getLeaveBalances: () => ({ id: ids.employee }),
};

/** The query a list needs (a report's range or account), by operation name. */
const RANGE = { start_date: '2020-01-01', end_date: '2029-12-31' };
const QUERIES: Record<string, Record<string, string>> = {
  getCashFlow: RANGE,
  getVatReturn: RANGE,
  getGeneralLedger: { ...RANGE, account: '1200' },
};

/** Lists read with another credential than the owner's token. */
const credentialOf = (name: string): ClientOptions =>
  name === 'publicListRewards' ? { baseUrl: server().baseUrl, apiKey: publicKey } : optionsOf(biz);

const headersOf = (options: ClientOptions): Record<string, string> =>
  options.apiKey ? { 'x-api-key': options.apiKey } : { authorization: `Bearer ${options.accessToken}` };

/** The fewest rows the fixtures below put in each list (a list not named may be empty). */
const AT_LEAST: Record<string, number> = {
  getBankTransactionSuggestions: 1,
  getLeaveBalances: 1,
  listApiKeys: 2,
  listCustomers: 7,
  listProducts: 2,
  listInvoices: 3,
  listQuotes: 2,
  listDepartments: 2,
  listEmployees: 3,
  listEmployeesAlias: 3,
  listGeneralEmployees: 3,
  listLeaves: 2,
  listVendors: 2,
  listBills: 3,
  listAccounts: 9,
  listJournal: 12,
  listDomains: 1,
  listSegments: 2,
  listSegmentContacts: 5,
  listTemplates: 2,
  listCampaigns: 1,
  listCampaignRecipients: 5,
  listWebhooks: 1,
  listDeliveries: 1,
  listTiers: 2,
  listMembers: 2,
  listMemberTransactions: 2,
  listTransactions: 3,
  listRewards: 2,
  listRewardsAlias: 2,
  listRedemptions: 1,
  listReminders: 2,
  publicListRewards: 1,
  listMessages: 5,
  listAuditLog: 20,
  // The books: the equity's two computed lines, receivables, a ledger and the VAT of the invoices.
  getBalanceSheet: 4,
  getAgedReceivables: 1,
  getGeneralLedger: 3,
  getVatReturn: 3,
  getCashFlow: 1,
};

beforeAll(async () => {
  biz = await registerBusiness(server(), 'Export Everything Ltd');
  const { client } = biz;

  const receiver = await startReceiver();
  const hook = await createWebhook(client, { url: receiver.url, events: ['invoice.paid'] });
  ids.webhook = String(hook.id);
  publicKey = (await createApiKey(client, 'public_loyalty', 'Till')).key;
  await createApiKey(client, 'full', 'Backend');

  // Customers: one with everything (address, attributes), awkward text, and plain ones.
  const ada = await createCustomer(client, {
    name: 'Ada Lovelace',
    email: 'ada@contacts.example.test',
    phone: '+44 20 7946 0000',
    company: 'Analytical Engines, "Ltd"\nLondon',
    address: { line1: '12 St James Square', city: 'London', postal_code: 'SW1Y 4JH', country: 'GB' },
    attributes: { tier: 'vip', 'favourite,colour': 'blue "navy"' },
  });
  const grace = await createCustomer(client, { name: 'Grace Hopper', email: 'grace@contacts.example.test' });
  await createCustomer(client, {
    name: '=HYPERLINK("http://evil.example")',
    email: 'f@contacts.example.test',
  });
  await createCustomer(client, { name: 'Zoë Ñandú 東京', company: '@corp', phone: '-1' });
  await createCustomer(client, {
    name: 'Alan Turing',
    email: 'alan@contacts.example.test',
    unsubscribed: true,
  });

  await createProduct(client, { name: 'Espresso beans 1kg' });
  await createProduct(client, { name: 'Milk frother', price: 0.99, description: 'Line one\r\nline two' });

  const paid = await issuedInvoice(client, { customer_id: ada.id, notes: 'Thanks, "Ada"' });
  await payInvoice(client, paid.id, 100);
  await issueInvoice(client, (await createInvoice(client, { customer_id: grace.id })).id);
  await createInvoice(client, { customer_id: grace.id });
  await createQuote(client, ada.id, 'sent');
  await createQuote(client, grace.id);

  const department = await createDepartment(client, { name: 'Engineering' });
  await createDepartment(client, { name: 'Sales' });
  const engineer = await createEmployee(client, { department_id: department.id, salary: 850000 });
  await createEmployee(client, {
    department_id: department.id,
    first_name: 'Katherine',
    last_name: 'Johnson',
  });
  await createEmployee(client, { department_id: department.id, first_name: 'Dorothy', last_name: 'Vaughan' });
  await createLeave(client, engineer.id);
  ids.employee = engineer.id;
  // A tracked type: the engineer's balances are a list of one.
  await unwrap(
    client.hr.leaveTypes.createLeaveType({ body: { name: 'study', days_per_year: 5, accrual: 'yearly' } }),
  );
  await leaveIn(client, engineer.id, 'approved', { start_date: '2027-01-04', end_date: '2027-01-05' });

  const vendor = await createVendor(client, {
    name: 'Acme Supplies',
    address: { line1: '1 Main St', city: 'Springfield', country: 'US' },
  });
  await createVendor(client, { name: 'Globex' });
  const approved = await createBill(client, { vendor_id: vendor.id, status: 'draft' });
  await approveBill(client, approved.id);
  const settled = await createBill(client, { vendor_id: vendor.id });
  await payBill(client, settled.id, settled.amount);
  await createBill(client, { vendor_id: vendor.id, status: 'draft', notes: '=cmd|" /C calc"!A0' });
  const rent = await createAccount(client, { name: 'Rent, offices' });
  await createEntry(client);
  await createEntry(client, {
    date: '2026-11-15',
    description: 'Rent, "November"',
    debits: [
      { account: rent.code, amount: 70000 },
      { account: '5000', amount: 5000 },
    ],
    credits: [{ account: '1010', amount: 75000 }],
  });
  // A statement line paying that rent: the entry's 1010 line is its suggestion.
  const bank = (
    await unwrap(
      client.finance.bankAccounts.createBankAccount({
        body: { name: 'Current account', currency: 'USD', opening_balance: 0, opening_date: '2026-11-01' },
      }),
    )
  ).bank_account;
  await unwrap(
    client.finance.bankAccounts.importStatement({
      params: { id: bank.id },
      query: { mapping: JSON.stringify({ date: 'Date', description: 'Details', amount: 'Amount' }) },
      body: {
        file: new File(['Date,Details,Amount\n2026-11-16,"Rent, November",-750.00\n'], 'statement.csv'),
      },
    }),
  );
  const lines = await unwrap(
    client.finance.bankTransactions.listBankTransactions({ query: { bank_account_id: bank.id } }),
  );
  ids.bankLine = lines.bank_transactions[0]!.id;

  // Marketing: a segment of everyone, templates, a campaign sent (its messages are captured).
  await createDomain(client);
  const everyone = await createSegment(client);
  ids.segment = everyone.id;
  await createSegment(client, {
    name: 'VIPs',
    filters: { match: 'all', conditions: [{ field: 'attributes.tier', operator: 'eq', value: 'vip' }] },
  });
  const template = await createTemplate(client);
  await createTemplate(client, { name: 'Second, "draft"' });

  // Loyalty: members of customers of their own (automatic earning would touch the invoices' customers).
  await createProgram(client);
  await createTier(client);
  await createTier(client, { name: 'Silver', minPoints: 200, color: '#C0C0C0' });
  const member = await enrollMember(client, { customer: { name: 'Mary Jackson' } });
  await enrollMember(client, { customer: { name: 'Annie Easley' } });
  ids.member = member.publicId;
  await adjustPoints(client, member.publicId, 500, 'Welcome, "bonus"');
  await adjustPoints(client, member.publicId, -50, 'Correction');
  const reward = await newReward(biz);
  await newReward(biz, {
    name: 'Ten percent off',
    rewardType: 'discount',
    discountPercent: 10,
    pointsCost: 300,
  });
  await createRedemption(client, { memberId: member.publicId, rewardId: reward.publicId });
  await createReminder(client);
  await createReminder(client, { name: 'Oil change', intervalDays: 365, bonusPoints: 20 });

  const campaign = await createCampaign(client, { template_id: template.id, segment_id: everyone.id });
  ids.campaign = campaign.id;
  await unwrap(client.marketing.campaigns.sendCampaign({ params: { id: campaign.id } }));
  await campaignReaches(client, campaign.id, 'sent');
  await settleDeliveries(server(), biz.businessId);
  await waitFor('the invoice.paid delivery', () => receiver.hits.length > 0);
  await settleDeliveries(server(), biz.businessId);
}, 120_000);

describe('every list operation answers as CSV what its JSON pages hold', () => {
  it('names the path parameters of every list under a resource', () => {
    const needing = LIST_OPERATIONS.filter(([, route]) => route.path.includes(':')).map(([name]) => name);
    expect(needing.length).toBeGreaterThan(0);
    expect(needing.filter((name) => !(name in PARAMS))).toEqual([]);
    // And the contract has not lost a list the fixtures were made for.
    expect(Object.keys(AT_LEAST).filter((name) => !LIST_OPERATIONS.some(([n]) => n === name))).toEqual([]);
    expect(Object.keys(QUERIES).filter((name) => !LIST_OPERATIONS.some(([n]) => n === name))).toEqual([]);
  });

  it.each(LIST_OPERATIONS.map(([name, route]) => [name, route] as const))('%s', async (name, route) => {
    const listing = csvListingOf(route)!;
    const options = credentialOf(name);
    const params = PARAMS[name]?.() ?? {};
    const query = QUERIES[name] ?? {};
    const csv = await csvOf(options, route, { params, query });
    const items = await jsonItems(route, headersOf(options), params, query);
    expect(csv.response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const [header, ...rows] = csv.rows;
    expect(header).toEqual(listing.columns);
    const expected = expectedRecords(route, items);
    expect(rows).toHaveLength(expected.length);
    expect(rows).toEqual(expected);
    expect(rows.length, `rows of ${name}`).toBeGreaterThanOrEqual(AT_LEAST[name] ?? 0);
  });

  it('exports the journal one row per line: debit lines of an entry first, the other side empty', async () => {
    const entries = await journal(biz.client);
    const lines = entries.reduce((n, e) => n + e.debits.length + e.credits.length, 0);
    const { rows } = await csvOf(optionsOf(biz), contract.finance.journal.listJournal);
    const [header, ...body] = rows;
    expect(header).toEqual([
      'id',
      'date',
      'description',
      'currency',
      'exchange_rate',
      'source.type',
      'source.id',
      'created_at',
      'account',
      'debit',
      'credit',
      'base_debit',
      'base_credit',
    ]);
    expect(body).toHaveLength(lines);
    expect(lines).toBeGreaterThan(entries.length);
    const rent = entries.find((e) => e.description === 'Rent, "November"')!;
    const rentRows = body.filter((r) => r[0] === rent.id);
    // In the base currency, at rate 1: each base amount is the amount.
    expect(rentRows.map((r) => [r[8], r[9], r[10], r[11], r[12]])).toEqual([
      ...rent.debits.map((l) => [l.account, String(l.amount), '', String(l.amount), '']),
      ['1010', '', '75000', '', '75000'],
    ]);
    expect(
      rentRows.every(
        (r) => r[2] === 'Rent, "November"' && r[4] === '1' && r[5] === 'manual' && r[6] === rent.id,
      ),
    ).toBe(true);
  });
});

// ---------------------------------------------------------------------------------------------

describe('filters and order', () => {
  it('exports customers matching search in the asked order, and nothing else', async () => {
    const shop = await registerBusiness(server());
    for (const name of ['Zed Smithers', 'Anna Smith', 'Bob Jones', 'Molly Smithson']) {
      await createCustomer(shop.client, { name });
    }
    await createCustomer(shop.client, { name: 'Carl Other', company: 'Smith & Sons' });
    const { rows } = await csvOf(optionsOf(shop), contract.general.customers.listCustomers, {
      query: { search: 'smith', sort: 'name:asc', limit: 1, page: 3 },
    });
    const [header, ...body] = rows;
    const name = header!.indexOf('name');
    expect(body.map((r) => r[name])).toEqual(['Anna Smith', 'Carl Other', 'Molly Smithson', 'Zed Smithers']);
    const desc = await csvOf(optionsOf(shop), contract.general.customers.listCustomers, {
      query: { sort: 'name:desc' },
    });
    expect(desc.rows.slice(1).map((r) => r[name])).toEqual([
      'Zed Smithers',
      'Molly Smithson',
      'Carl Other',
      'Bob Jones',
      'Anna Smith',
    ]);
  });

  it('exports the journal of one account, and between two dates', async () => {
    const books = await registerBusiness(server());
    const rent = await createAccount(books.client, { name: 'Rent' });
    await createEntry(books.client, { date: '2026-10-01', description: 'October cash' });
    await createEntry(books.client, {
      date: '2026-10-15',
      description: 'October rent',
      debits: [{ account: rent.code, amount: 900 }],
      credits: [{ account: '1010', amount: 900 }],
    });
    await createEntry(books.client, { date: '2026-11-01', description: 'November cash' });
    await createEntry(books.client, {
      date: '2026-11-15',
      description: 'November rent',
      debits: [{ account: rent.code, amount: 1000 }],
      credits: [{ account: '1010', amount: 1000 }],
    });
    const route = contract.finance.journal.listJournal;
    const pick = (rows: string[][]) => rows.slice(1).map((r) => [r[2], r[8], r[9], r[10]]);

    const byAccount = await csvOf(optionsOf(books), route, { query: { account: rent.code } });
    expect(pick(byAccount.rows)).toEqual([
      ['November rent', rent.code, '1000', ''],
      ['November rent', '1010', '', '1000'],
      ['October rent', rent.code, '900', ''],
      ['October rent', '1010', '', '900'],
    ]);

    const october = await csvOf(optionsOf(books), route, {
      query: { start_date: '2026-10-01', end_date: '2026-10-31' },
    });
    expect(pick(october.rows).map((r) => r[0])).toEqual([
      'October rent',
      'October rent',
      'October cash',
      'October cash',
    ]);
    const both = await csvOf(optionsOf(books), route, {
      query: { account: '1000', start_date: '2026-11-01' },
    });
    // An entry with a line on the account comes whole, all its lines.
    expect(pick(both.rows)).toEqual([
      ['November cash', '1010', '5000', ''],
      ['November cash', '1000', '', '5000'],
    ]);
  });

  it('exports the invoices of one status', async () => {
    const shop = await registerBusiness(server());
    const customer = await createCustomer(shop.client, { name: 'Ada Lovelace' });
    const draft = await createInvoice(shop.client, { customer_id: customer.id });
    const open = await issuedInvoice(shop.client, { customer_id: customer.id });
    const paid = await issuedInvoice(shop.client, { customer_id: customer.id });
    await payInvoice(shop.client, paid.id, 100);
    const route = contract.general.invoices.listInvoices;
    const idsOf = async (status: string) =>
      (await csvOf(optionsOf(shop), route, { query: { status } })).rows.slice(1).map((r) => r[0]);
    expect(await idsOf('draft')).toEqual([draft.id]);
    expect(await idsOf('paid')).toEqual([paid.id]);
    expect(await idsOf('unpaid')).toEqual([open.id]);
  });
});

// ---------------------------------------------------------------------------------------------

describe('cells', () => {
  let shop: TestBusiness;
  let text: string;
  let header: string[];
  let byName: Map<string, string[]>;

  beforeAll(async () => {
    shop = await registerBusiness(server());
    const add = (name: string, extra: { company?: string; phone?: string } = {}) =>
      createCustomer(shop.client, { name, ...extra });
    await add('=SUM(A1:A9)');
    await add('+4420', { phone: '+44 20 7946 0000' });
    await add('-2+3', { company: '-Minus Corp' });
    await add('@SUM(A1)', { company: '@handle' });
    await add('Tab company', { company: '\t=1+1', phone: '\r=2+2' });
    await add('Quoted', { company: 'Smith, "Jr" & Co\nSecond line' });
    await add('Two lines', { company: 'Line one\nLine two', phone: 'a\rb' });
    await add('Zoë Ñandú 東京', { company: 'Ünïcödé GmbH' });
    await add('Plain', { company: 'Safe = fine', phone: '020 7946 0000' });
    ({ text } = await csvOf(optionsOf(shop), contract.general.customers.listCustomers));
    const rows = records(text);
    header = rows[0]!;
    byName = new Map(rows.slice(1).map((r) => [r[header.indexOf('name')]!, r]));
  });

  const cell = (name: string, column: string) => byName.get(name)![header.indexOf(column)];

  it('gives text a spreadsheet would take for a formula a leading quote', () => {
    expect(byName.has('=SUM(A1:A9)')).toBe(false);
    expect(byName.get("'=SUM(A1:A9)")).toBeDefined();
    expect([...byName.keys()]).toEqual(
      expect.arrayContaining(["'=SUM(A1:A9)", "'+4420", "'-2+3", "'@SUM(A1)"]),
    );
    expect(cell("'+4420", 'phone')).toBe("'+44 20 7946 0000");
    expect(cell("'-2+3", 'company')).toBe("'-Minus Corp");
    expect(cell("'@SUM(A1)", 'company')).toBe("'@handle");
    expect(cell('Tab company', 'company')).toBe("'\t=1+1");
    expect(cell('Tab company', 'phone')).toBe("'\r=2+2");
    // Text that only holds a formula character later, or none, is left alone.
    expect(cell('Plain', 'company')).toBe('Safe = fine');
    expect(cell('Plain', 'phone')).toBe('020 7946 0000');
    // No cell of the file starts with a formula character.
    for (const row of records(text)) for (const value of row) expect(value).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('quotes commas, quotes and line breaks as RFC 4180 says, and they read back as written', () => {
    expect(text).toContain('"Smith, ""Jr"" & Co\nSecond line"');
    expect(cell('Quoted', 'company')).toBe('Smith, "Jr" & Co\nSecond line');
    // A line break alone (no comma, no quote) is quoted too: spreadsheets end a record at LF or CR.
    expect(text).toContain('"Line one\nLine two"');
    expect(text).toContain('"a\rb"');
    expect(text).toContain(`"'\r=2+2"`);
    expect(cell('Two lines', 'company')).toBe('Line one\nLine two');
    expect(cell('Two lines', 'phone')).toBe('a\rb');
  });

  it('ends every record with CRLF, the header included, and breaks lines nowhere else', () => {
    expect(text.startsWith(`${header.join(',')}\r\n`)).toBe(true);
    expect(text.endsWith('\r\n')).toBe(true);
    const unquoted = text.replace(/"(?:[^"]|"")*"/g, '""');
    expect(unquoted.split('\r\n')).toHaveLength(byName.size + 2);
    expect(unquoted.replaceAll('\r\n', '')).not.toMatch(/[\r\n]/);
  });

  it('writes UTF-8, and names it', async () => {
    expect(cell('Zoë Ñandú 東京', 'company')).toBe('Ünïcödé GmbH');
    const response = await exportCsv(optionsOf(shop), contract.general.customers.listCustomers);
    expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.includes(Buffer.from('Zoë Ñandú 東京', 'utf8'))).toBe(true);
  });

  it('writes numbers bare, negative ones too, and booleans as true/false', async () => {
    await createProgram(shop.client);
    const member = await enrollMember(shop.client, { customer: { name: 'Mary Jackson' } });
    await adjustPoints(shop.client, member.publicId, 120);
    await adjustPoints(shop.client, member.publicId, -45);
    const route = contract.loyalty.transactions.listTransactions;
    const { text: ledger, rows } = await csvOf(optionsOf(shop), route);
    const points = rows[0]!.indexOf('points');
    const balance = rows[0]!.indexOf('balanceAfter');
    expect(rows.slice(1).map((r) => [r[points], r[balance]])).toEqual([
      ['-45', '75'],
      ['120', '120'],
    ]);
    expect(ledger).toMatch(/,-45,75,/);
    expect(ledger).not.toContain("'-45");
    const customers = records(text);
    const unsubscribed = header.indexOf('unsubscribed');
    expect(new Set(customers.slice(1).map((r) => r[unsubscribed]))).toEqual(new Set(['false']));
  });

  it('writes maps and arrays as one cell of JSON, absent values empty', async () => {
    const customer = await createCustomer(shop.client, {
      name: 'With attributes',
      attributes: { plan: 'gold', note: 'a, "b"' },
    });
    const { rows } = await csvOf(optionsOf(shop), contract.general.customers.listCustomers, {
      query: { search: 'With attributes' },
    });
    const row = rows[1]!;
    expect(row[0]).toBe(customer.id);
    expect(JSON.parse(row[header.indexOf('attributes')]!)).toEqual({ plan: 'gold', note: 'a, "b"' });
    expect(row[header.indexOf('email')]).toBe('');
    expect(row[header.indexOf('address.city')]).toBe('');
  });
});

// ---------------------------------------------------------------------------------------------

describe('negotiation', () => {
  let shop: TestBusiness;
  beforeAll(async () => {
    shop = await registerBusiness(server());
    await createCustomer(shop.client, { name: 'Ada Lovelace' });
  });

  const get = (path: string, headers: Record<string, string> = {}) =>
    raw(server(), 'GET', path, { token: shop.accessToken, headers });

  it('answers CSV to Accept: text/csv, with its file name', async () => {
    const before = server().clock.now().toISOString().slice(0, 10);
    const res = await get('/v1/customers', { accept: 'text/csv' });
    const after = server().clock.now().toISOString().slice(0, 10);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    const disposition = res.headers.get('content-disposition');
    expect([
      `attachment; filename="customers-${before}.csv"`,
      `attachment; filename="customers-${after}.csv"`,
    ]).toContain(disposition);
    const rows = records(res.body as string);
    expect(rows[0]).toEqual(csvListingOf(contract.general.customers.listCustomers)!.columns);
    expect(rows.slice(1).map((r) => r[1])).toEqual(['Ada Lovelace']);
  });

  it('names the file after the last fixed segment of the path', async () => {
    const segment = await createSegment(shop.client);
    const today = server().clock.now().toISOString().slice(0, 10);
    const contacts = await get(`/v1/marketing/segments/${segment.id}/contacts?format=csv`);
    expect(contacts.status).toBe(200);
    expect(contacts.headers.get('content-disposition')).toBe(`attachment; filename="contacts-${today}.csv"`);
    const ledger = await get('/v1/finance/journal?format=csv');
    expect(ledger.headers.get('content-disposition')).toBe(`attachment; filename="journal-${today}.csv"`);
  });

  it('lets format=json win over Accept: text/csv', async () => {
    const res = await get('/v1/customers?format=json', { accept: 'text/csv' });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('content-disposition')).toBeNull();
    expect(res.body.data.map((c: { name: string }) => c.name)).toEqual(['Ada Lovelace']);
  });

  it('answers CSV to format=csv whatever Accept says', async () => {
    const res = await get('/v1/customers?format=csv', { accept: 'application/json' });
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  });

  it('refuses another format, naming format, in the group envelope', async () => {
    expectError(await get('/v1/customers?format=xml'), 422, 'VALIDATION_ERROR', 'format');
    expectResultError(await get('/v1/finance/journal?format=xlsx'), 422, 'VALIDATION_ERROR', 'format');
  });

  it('answers JSON as before without a format or with Accept: application/json or */*', async () => {
    const variants: Record<string, string>[] = [{}, { accept: 'application/json' }, { accept: '*/*' }];
    for (const headers of variants) {
      const res = await get('/v1/customers', headers);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.body).toMatchObject({ data: [{ name: 'Ada Lovelace' }], pagination: { total: 1 } });
    }
    // A JSON page still pages.
    const page = await get('/v1/customers?limit=1&page=2');
    expect(page.body.data).toEqual([]);
  });

  it('prefers the better quality of Accept', async () => {
    const json = await get('/v1/customers', { accept: 'text/csv;q=0.5, application/json' });
    expect(json.headers.get('content-type')).toMatch(/^application\/json/);
    const csv = await get('/v1/customers', { accept: 'application/json;q=0.2, text/csv' });
    expect(csv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  });
});

// ---------------------------------------------------------------------------------------------

describe('refusals come before the first byte, as JSON', () => {
  it('answers 404 for the contacts of an unknown segment', async () => {
    const owner = await registerBusiness(server());
    const res = await raw(server(), 'GET', `/v1/marketing/segments/${newId('seg')}/contacts?format=csv`, {
      token: owner.accessToken,
    });
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('content-disposition')).toBeNull();
    expectResultError(res, 404, 'NOT_FOUND');
    // The SDK throws the same refusal.
    const thrown = await exportCsv(optionsOf(owner), contract.marketing.segments.listSegmentContacts, {
      params: { id: newId('seg') },
    }).catch((err: unknown) => err);
    expect(thrown).toBeInstanceOf(BmsApiError);
    expect(thrown).toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });

  it('answers 422 for a journal whose end comes before its start', async () => {
    const owner = await registerBusiness(server());
    const res = await raw(
      server(),
      'GET',
      '/v1/finance/journal?format=csv&start_date=2026-11-30&end_date=2026-11-01',
      { token: owner.accessToken },
    );
    expectResultError(res, 422, 'VALIDATION_ERROR', 'end_date');
  });
});

describe('tenants and credentials', () => {
  let a: TestBusiness;
  let b: TestBusiness;
  let segmentOfA: string;
  beforeAll(async () => {
    [a, b] = await Promise.all([registerBusiness(server(), 'A'), registerBusiness(server(), 'B')]);
    for (const name of ['Ada of A', 'Grace of A']) {
      await createCustomer(a.client, { name, email: `${name.replaceAll(' ', '.')}@a.example.test` });
    }
    await createCustomer(b.client, { name: 'Alan of B' });
    segmentOfA = (await createSegment(a.client)).id;
  });

  it("exports none of another business's rows", async () => {
    const route = contract.general.customers.listCustomers;
    const ofB = await csvOf(optionsOf(b), route);
    expect(ofB.rows.slice(1).map((r) => r[1])).toEqual(['Alan of B']);
    expect(ofB.text).not.toContain('of A');
    const ofA = await csvOf(optionsOf(a), route);
    expect(
      ofA.rows
        .slice(1)
        .map((r) => r[1])
        .sort(),
    ).toEqual(['Ada of A', 'Grace of A']);
  });

  it("answers 404 for another business's segment", async () => {
    const res = await raw(server(), 'GET', `/v1/marketing/segments/${segmentOfA}/contacts?format=csv`, {
      token: b.accessToken,
    });
    expectResultError(res, 404, 'NOT_FOUND');
    const own = await csvOf(optionsOf(a), contract.marketing.segments.listSegmentContacts, {
      params: { id: segmentOfA },
    });
    expect(own.rows).toHaveLength(3);
  });

  it('answers 401 without a credential, or with a wrong one', async () => {
    const none = await raw(server(), 'GET', '/v1/customers?format=csv');
    expectError(none, 401, 'UNAUTHORIZED');
    expect(none.headers.get('content-type')).toMatch(/^application\/json/);
    const wrong = await raw(server(), 'GET', '/v1/finance/journal', {
      headers: { accept: 'text/csv' },
      token: 'not-a-token',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('content-type')).toMatch(/^application\/json/);
  });

  it('answers 403 to a role without the permission, and CSV to one with it', async () => {
    const hr = await signedInMember(server(), a, 'hr');
    const refused = await raw(server(), 'GET', '/v1/finance/journal?format=csv', { token: hr.accessToken });
    expectResultError(refused, 403, 'FORBIDDEN');
    const viewer = await signedInMember(server(), a, 'viewer');
    const journalCsv = await csvOf(
      { baseUrl: server().baseUrl, accessToken: viewer.accessToken },
      contract.finance.journal.listJournal,
    );
    expect(journalCsv.rows[0]).toContain('debit');
    // The viewer reads everything but the audit log.
    const audit = await raw(server(), 'GET', '/v1/audit-log?format=csv', { token: viewer.accessToken });
    expect(audit.status).toBe(403);
    expect(audit.headers.get('content-type')).toMatch(/^application\/json/);
  });
});

// ---------------------------------------------------------------------------------------------

describe('a large list', () => {
  const COUNT = 3000;
  let big: TestBusiness;
  let inserted: Set<string>;

  beforeAll(async () => {
    big = await registerBusiness(server(), 'Many Customers Ltd');
    const at = server().clock.now();
    const rows = Array.from({ length: COUNT }, (_, i) => ({
      business_id: big.businessId,
      id: newId('cus'),
      name: `Bulk customer ${String(i).padStart(5, '0')}`,
      email: `bulk-${i}@bulk.example.test`,
      company: 'Bulk Ltd, "wholesale"',
      attributes: JSON.stringify({ batch: 'one', note: `${i} `.repeat(1000).slice(0, 3000) }),
      created_at: new Date(at.getTime() - (COUNT - i) * 1000),
      updated_at: at,
    }));
    for (let i = 0; i < rows.length; i += 500) {
      await server()
        .deps.db.insertInto('customers')
        .values(rows.slice(i, i + 500))
        .execute();
    }
    inserted = new Set(rows.map((r) => r.id));
  });

  it('exports every item past the first export page, each once, newest first', async () => {
    const { rows } = await csvOf(optionsOf(big), contract.general.customers.listCustomers);
    const body = rows.slice(1);
    expect(body).toHaveLength(COUNT);
    expect(new Set(body.map((r) => r[0]))).toEqual(inserted);
    expect(body[0]![1]).toBe(`Bulk customer ${String(COUNT - 1).padStart(5, '0')}`);
    expect(body.at(-1)![1]).toBe('Bulk customer 00000');
  });

  it('is one snapshot: customers created while the file is read are not in it, and none repeats', async () => {
    if (!onPostgres) {
      // PGlite serialises: the writes wait for the export's transaction, and the file is the
      // state before them. The interleaving itself is tested on PostgreSQL below.
      const response = await fetch(`${server().baseUrl}/v1/customers?format=csv`, {
        headers: { authorization: `Bearer ${big.accessToken}` },
      });
      expect(response.status).toBe(200);
      const writes = Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          createCustomer(big.client, { name: `Written during export ${i}` }),
        ),
      );
      const text = await response.text();
      await writes;
      const exported = records(text)
        .slice(1)
        .map((r) => r[0]!);
      expect(exported).toHaveLength(COUNT);
      expect(new Set(exported)).toEqual(inserted);
      const after = await csvOf(optionsOf(big), contract.general.customers.listCustomers);
      expect(after.rows).toHaveLength(COUNT + 50 + 1);
      return;
    }
    const db = server().deps.db;
    /** The export's transaction, open on its connection between two pages (its last statement read customers or their credit). */
    const exportOpen = async () =>
      (
        await sql<{ n: number }>`
            SELECT count(*)::int AS n FROM pg_stat_activity
             WHERE datname = current_database() AND state = 'idle in transaction'
               AND (query ILIKE '%"customers"%' OR query ILIKE '%"customer_credit_balances"%')
               AND pid <> pg_backend_pid()`.execute(db)
      ).rows[0]!.n > 0;
    // The answer's headers come after the first page is read: the snapshot is taken by then.
    const response = await fetch(`${server().baseUrl}/v1/customers?format=csv`, {
      headers: { authorization: `Bearer ${big.accessToken}` },
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    let chunks = 0;
    const readChunk = async () => {
      const { done, value } = await reader.read();
      if (!done) {
        text += decoder.decode(value, { stream: true });
        chunks++;
      }
      return done;
    };
    // 50 new customers (newest, so first in the list's order: paging by offset outside one
    // snapshot would repeat 50 rows), ten at a time, while nothing of the file is read: the export
    // waits for its reader with pages left (9.6 MB, far more than a connection's buffers hold while
    // its reader takes nothing, which keeps the receiving buffer from growing).
    for (let batch = 0; batch < 5; batch++) {
      await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          createCustomer(big.client, { name: `Written during export ${batch * 10 + i}` }),
        ),
      );
    }
    // The export still has pages to read after the 50 were written: its transaction is open.
    const openAfterWrites = await exportOpen();
    let done = false;
    while (!done) done = await readChunk();
    text += decoder.decode();
    console.log(
      `snapshot export: ${text.length} characters in ${chunks} chunks; transaction open after the writes: ${openAfterWrites}`,
    );
    expect(openAfterWrites).toBe(true);
    expect(await exportOpen()).toBe(false);
    const body = records(text).slice(1);
    expect(body).toHaveLength(COUNT);
    const exported = body.map((r) => r[0]!);
    expect(new Set(exported).size).toBe(COUNT);
    expect(new Set(exported)).toEqual(inserted);
    expect(text).not.toContain('Written during export');
    // The 50 are in the next export.
    const after = await csvOf(optionsOf(big), contract.general.customers.listCustomers);
    expect(after.rows).toHaveLength(COUNT + 50 + 1);
    expect(after.text).toContain('Written during export 49');
  }, 120_000);
});
