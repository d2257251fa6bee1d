import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { json, raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { createCustomer, createInvoice, invoiceLine } from '../support/general.js';
import { useTestServer } from '../support/setup.js';

/**
 * Broken object property level authorization (OWASP API3), the writing half: fields the server owns
 * (ids, the business, status, balances, plan, secrets, timestamps) are refused in create and update
 * bodies with 422 naming the field, and nothing is written. test/platform/contract-limits.test.ts
 * proves every body schema refuses unknown fields; this walks the requests themselves.
 */

const server = useTestServer({ worker: false });

let biz: TestBusiness;
let other: TestBusiness;

/** Rows of a table belonging to the business (every tenant table has business_id). */
const rowsOf = async (
  table: 'customers' | 'invoices' | 'api_keys' | 'webhooks' | 'products',
  businessId: string,
) => server().deps.db.selectFrom(table).selectAll().where('business_id', '=', businessId).execute();

type Case = [
  label: string,
  method: string,
  path: (() => Promise<string>) | string,
  // What the request sends (a promise when it needs a row made first).
  body: () => unknown,
  field: string,
];

const customerId = async () => (await createCustomer(biz.client, { name: 'Mass Assign' })).id;

const CASES: Case[] = [
  [
    'a customer created with an id',
    'POST',
    '/v1/customers',
    () => ({ name: 'A', id: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3' }),
    'id',
  ],
  [
    'a customer created for another business',
    'POST',
    '/v1/customers',
    () => ({ name: 'A', business_id: other.businessId }),
    'business_id',
  ],
  [
    'a customer created with created_at',
    'POST',
    '/v1/customers',
    () => ({ name: 'A', created_at: '2000-01-01T00:00:00.000Z' }),
    'created_at',
  ],
  [
    'a customer moved to another business',
    'PUT',
    async () => `/v1/customers/${await customerId()}`,
    () => ({ business_id: other.businessId }),
    'business_id',
  ],
  [
    'an invoice created paid',
    'POST',
    '/v1/invoices',
    async () => ({
      customer_id: await customerId(),
      items: [invoiceLine()],
      due_date: '2026-12-21',
      status: 'paid',
    }),
    'status',
  ],
  [
    'an invoice created with amount_paid',
    'POST',
    '/v1/invoices',
    async () => ({
      customer_id: await customerId(),
      items: [invoiceLine()],
      due_date: '2026-12-21',
      amount_paid: 100,
    }),
    'amount_paid',
  ],
  [
    'an invoice created with its totals',
    'POST',
    '/v1/invoices',
    async () => ({
      customer_id: await customerId(),
      items: [invoiceLine()],
      due_date: '2026-12-21',
      total: 1,
    }),
    'total',
  ],
  [
    'a draft invoice updated to paid',
    'PUT',
    async () => `/v1/invoices/${(await createInvoice(biz.client, { customer_id: await customerId() })).id}`,
    () => ({ status: 'paid' }),
    'status',
  ],
  ['the business moved to another plan', 'PATCH', '/v1/business', () => ({ plan: 'enterprise' }), 'plan'],
  [
    'the business moved to the sandbox',
    'PATCH',
    '/v1/business',
    () => ({ environment: 'sandbox' }),
    'environment',
  ],
  [
    'an API key with a chosen secret',
    'POST',
    '/v1/api-keys',
    () => ({ name: 'Till', scope: 'full', key: 'bms_sk_chosen_by_the_caller' }),
    'key',
  ],
  [
    'an API key with a chosen prefix',
    'POST',
    '/v1/api-keys',
    () => ({ name: 'Till', prefix: 'bms_sk_' }),
    'prefix',
  ],
  [
    'a webhook with a chosen secret',
    'POST',
    '/v1/webhooks',
    () => ({
      url: 'https://receiver.example.test/x',
      events: ['invoice.paid'],
      secret: 'whsec_Y2hvc2VuIGJ5IHRoZSBjYWxsZXIgMTIzNDU2Nzg=',
    }),
    'secret',
  ],
  [
    'a product created for another business',
    'POST',
    '/v1/products',
    () => ({ name: 'Lamp', price: 10, business_id: other.businessId }),
    'business_id',
  ],
];

describe('fields the server owns are refused in bodies', () => {
  it.each(CASES)(
    'refuses %s (422 naming the field), writing nothing',
    async (_label, method, path, body, field) => {
      biz ??= await registerBusiness(server());
      other ??= await registerBusiness(server());
      const target = typeof path === 'function' ? await path() : path;
      const payload = await body();
      const tables = ['customers', 'invoices', 'api_keys', 'webhooks', 'products'] as const;
      const before = await Promise.all(tables.map((t) => rowsOf(t, biz.businessId)));
      const othersBefore = await Promise.all(tables.map((t) => rowsOf(t, other.businessId)));
      const businessBefore = await unwrap(biz.client.auth.getBusiness());

      const res = await raw(server(), method, target, { token: biz.accessToken, ...json(payload) });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', status: 422 });
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);

      expect(await Promise.all(tables.map((t) => rowsOf(t, biz.businessId)))).toEqual(before);
      expect(await Promise.all(tables.map((t) => rowsOf(t, other.businessId)))).toEqual(othersBefore);
      expect(await unwrap(biz.client.auth.getBusiness())).toEqual(businessBefore);
    },
  );
});
