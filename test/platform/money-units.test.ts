import { readFileSync } from 'node:fs';
import type { OpenAPIObject, SchemaObject } from 'openapi3-ts/oas30';
import { beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_PATH } from '../../server/app.js';
import { json, raw, registerShop, type TestShop } from '../support/business.js';
import { createEmployee } from '../support/hr.js';
import { createCustomer } from '../support/general.js';
import { billItem, createVendor } from '../support/finance.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ worker: false });

let shop: TestShop;
let vendorId: string;
let customerId: string;
beforeAll(async () => {
  shop = await registerShop(server());
  vendorId = (await createVendor(shop.client)).id;
  customerId = (await createCustomer(shop.client)).id;
});

const send = (method: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
  raw(server(), method, path, {
    ...json(body),
    token: shop.accessToken,
    ...{ headers: { 'content-type': 'application/json', ...headers } },
  });

/** The one detail of a 422, as a caller reads it. */
async function refusal(res: Promise<{ status: number; body: any }>) {
  const { status, body } = await res;
  expect(status, JSON.stringify(body)).toBe(422);
  expect(body.error.code).toBe('VALIDATION_ERROR');
  return body.error.details as { field: string; message: string }[];
}

describe('refusals of money fields name the unit', () => {
  it('refuses a bill line of 12.50 sent as 12.5, saying amounts are whole minor units (1250 is 12.50 USD)', async () => {
    const details = await refusal(
      send('POST', '/v1/finance/bills', {
        vendor_id: vendorId,
        currency: 'USD',
        due_date: '2026-12-31',
        items: [{ ...billItem(), unit_price: 12.5 }],
      }),
    );
    expect(details).toEqual([
      {
        field: 'items.0.unit_price',
        message:
          'Must be a whole number of minor units: 1250 is 12.50 USD, so a fraction such as 12.5 is refused',
      },
    ]);
  });

  it('refuses a VAT threshold sent as text, naming minor units', async () => {
    const details = await refusal(
      send('POST', '/v1/create/vatThreshold', {
        country: 'GB',
        thresholdAmount: '90000',
        currency: 'GBP',
        periodType: 'annual',
        alertAtPercentage: 80,
        alertEmail: 'accounts@example.com',
      }),
    );
    expect(details).toContainEqual({
      field: 'thresholdAmount',
      message: 'Expected a number in minor units (an integer: 1250 is 12.50 USD, 1250 is 1,250 JPY)',
    });
  });

  it('refuses an HR salary with a fraction, naming minor units', async () => {
    const employee = await createEmployee(shop.client);
    const details = await refusal(send('PUT', `/v1/hr/employees/${employee.id}`, { salary: 5000.5 }));
    expect(details).toEqual([
      { field: 'salary', message: expect.stringMatching(/^Must be a whole number of minor units/) },
    ]);
  });

  it('refuses an invoice unit price with more decimals than the currency, naming major units', async () => {
    const res = await send('POST', '/v1/invoices', {
      customer_id: customerId,
      due_date: '2026-12-31',
      currency: 'USD',
      items: [{ description: 'Consulting', quantity: 1, unit_price: 12.345 }],
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual([
      {
        field: 'items.0.unit_price',
        message: 'Major units of USD take at most 2 decimals (12.50 is 12.50 USD, 1250 is 1,250 JPY)',
      },
    ]);
  });

  it('refuses a negative invoice payment and a non-positive public earn, naming major units', async () => {
    const payment = await send(
      'POST',
      '/v1/public/loyalty/earn',
      { email: 'ada@example.com', amount: 0 },
      {
        'x-api-key': shop.apiKey,
      },
    );
    expect(payment.status).toBe(422);
    expect(payment.body.error.details).toEqual([
      {
        field: 'amount',
        message: 'Must be more than 0 in major units (a decimal: 12.50 is 12.50 USD, 1250 is 1,250 JPY)',
      },
    ]);
  });
});

describe('openapi.json says the unit of every money field', () => {
  const doc = JSON.parse(readFileSync(OPENAPI_PATH, 'utf8')) as OpenAPIObject;
  const MONEY = new Set([
    'amount',
    'unit_price',
    'price',
    'salary',
    'subtotal',
    'tax',
    'total',
    'amount_paid',
    'amount_due',
    'debit',
    'credit',
    'total_debit',
    'total_credit',
    'thresholdAmount',
    'currentRevenue',
    'revenue',
    'cumulative',
    'totalRevenue',
    'ytdRevenue',
    'rolling12MonthRevenue',
    'monthlyAverage',
    'projectedAnnual',
    'net_profit',
  ]);

  /** Every numeric property named like money, with where it was found. */
  const resolve = (ref: string) =>
    ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((at, key) => (at as Record<string, unknown>)[key], doc);

  function moneyFields(
    node: unknown,
    where: string,
    out: [string, SchemaObject][] = [],
    seen = new Set<string>(),
  ) {
    if (Array.isArray(node)) node.forEach((n, i) => moneyFields(n, `${where}[${i}]`, out, seen));
    else if (node && typeof node === 'object') {
      const ref = (node as { $ref?: string }).$ref;
      if (ref) {
        if (!seen.has(ref))
          moneyFields(resolve(ref), `${where}->${ref.split('/').pop()}`, out, new Set([...seen, ref]));
        return out;
      }
      const obj = node as Record<string, unknown>;
      const props = obj.properties as Record<string, SchemaObject> | undefined;
      for (const [name, schema] of Object.entries(props ?? {})) {
        const number = schema.type === 'number' || schema.type === 'integer';
        // Loyalty amounts are points; a page's `total` counts items.
        if (MONEY.has(name) && number && !/\/v1\/loyalty|->Pagination|\.pagination/.test(where))
          out.push([`${where}.${name}`, schema]);
      }
      for (const [key, value] of Object.entries(obj)) moneyFields(value, `${where}.${key}`, out, seen);
    }
    return out;
  }

  const fields = moneyFields(doc.paths, 'paths');

  it('finds the money fields of every group', () => {
    expect(fields.length).toBeGreaterThan(100);
    for (const group of [
      '/v1/invoices',
      '/v1/finance/bills',
      '/v1/hr/employees',
      '/v1/public/loyalty/earn',
    ]) {
      expect(
        fields.some(([where]) => where.includes(group)),
        group,
      ).toBe(true);
    }
  });

  it('describes each as minor or major units, with a numeric example', () => {
    const unsaid = fields
      .filter(([, s]) => !/\b(minor|major) units\b/.test(s.description ?? ''))
      .map(([w]) => w);
    expect(unsaid).toEqual([]);
    const noExample = fields.filter(([, s]) => typeof s.example !== 'number').map(([w]) => w);
    expect(noExample).toEqual([]);
  });

  it('gives the general group major units and the result-envelope groups minor units', () => {
    for (const [where, schema] of fields) {
      const general =
        /paths\.\/v1\/(invoices|quotes|credit-notes|recurring-invoices|products|customers|employees|reports)|public\/loyalty\/earn/.test(
          where,
        );
      expect(schema.description, where).toMatch(general ? /major units/ : /minor units/);
    }
  });
});
