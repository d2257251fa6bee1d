import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { responseValidator } from '../support/response-validator.js';

/**
 * The suite's oracle (test/support/response-validator.ts), tried on answers made up here: what it
 * must report, and what it must let through. Every other test file relies on it to fail a response
 * that openapi.json does not describe.
 */

const violations: string[] = [];
let server: Server;
let baseUrl = '';

/** What the made-up app answers next: a status and a JSON body, or a body that is not JSON. */
let next: { status: number; json?: unknown; text?: string } = { status: 200, json: {} };

/** A customer as openapi.json describes one; its nulls are where the document allows them. */
const CUSTOMER = {
  id: 'cus_01JAAAAAAAAAAAAAAAAAAAAAAA',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: null,
  company: null,
  address: null,
  first_name: 'Ada',
  last_name: 'Lovelace',
  attributes: {},
  unsubscribed: false,
  credit_balance: {},
  created_at: '2026-11-30T09:00:00.000Z',
  updated_at: '2026-11-30T09:00:00.000Z',
};

beforeAll(async () => {
  const app = express();
  app.use(responseValidator(violations));
  app.use((_req, res) => {
    res.status(next.status);
    if (next.text !== undefined) res.type('text/csv').send(next.text);
    else res.json(next.json);
  });
  server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));
beforeEach(() => {
  violations.length = 0;
});

async function answer(method: string, path: string, reply: typeof next): Promise<string[]> {
  next = reply;
  await (await fetch(`${baseUrl}${path}`, { method })).text();
  return [...violations];
}

describe('the response validator', () => {
  it('reports a body missing a required field, naming where', async () => {
    const found = await answer('GET', '/v1/customers/cus_1', { status: 200, json: { customer: CUSTOMER } });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^GET \/v1\/customers\/cus_1: .*must have required property 'data'/);
  });

  it('reports a null where the document allows none, and a date that is not one', async () => {
    const found = await answer('GET', '/v1/customers/cus_1', {
      status: 200,
      json: { data: { ...CUSTOMER, name: null, created_at: 'yesterday' } },
    });
    expect(found.join('\n')).toContain('/response/data/name must be string');
    expect(found.join('\n')).toContain('/response/data/created_at must match format "date-time"');
  });

  it('reports a field of the wrong type deep in the body', async () => {
    const found = await answer('GET', '/v1/customers/cus_1', {
      status: 200,
      json: { data: { ...CUSTOMER, name: 42 } },
    });
    expect(found.join('\n')).toContain('/response/data/name must be string');
  });

  it('reports a status the operation does not document', async () => {
    const found = await answer('GET', '/v1/customers/cus_1', { status: 418, json: { error: 'teapot' } });
    expect(found.join('\n')).toContain("no schema defined for status code '418'");
  });

  it('lets through a body that matches, an error envelope that matches, and a date as the wire writes it', async () => {
    expect(await answer('GET', '/v1/customers/cus_1', { status: 200, json: { data: CUSTOMER } })).toEqual([]);
    expect(
      await answer('GET', '/v1/customers/cus_1', {
        status: 404,
        json: { error: { code: 'NOT_FOUND', status: 404, message: 'No customer has this id.' } },
      }),
    ).toEqual([]);
    const dated = { ...CUSTOMER, created_at: new Date('2026-11-30T09:00:00Z') };
    expect(await answer('GET', '/v1/customers/cus_1', { status: 200, json: { data: dated } })).toEqual([]);
  });

  it('prefers a literal segment to a parameter when both paths match', async () => {
    // POST /v1/loyalty/members/bulk, not a member's {publicId} (which has no POST).
    const found = await answer('POST', '/v1/loyalty/members/bulk', { status: 200, json: { nothing: true } });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/^POST \/v1\/loyalty\/members\/bulk: /);
  });

  it('leaves alone paths the document does not name and answers that are not JSON', async () => {
    expect(await answer('GET', '/app/finance', { status: 200, json: { anything: 1 } })).toEqual([]);
    expect(await answer('GET', '/v1/customers/cus_1', { status: 200, text: 'id,name\n' })).toEqual([]);
  });
});
