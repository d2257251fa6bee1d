import { describe, expect, it } from 'vitest';
import { contract, exportCsv, unwrap, type Client, type imports } from '../../client/index.js';
import { raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { outbox } from '../support/events.js';
import { expectError } from '../support/expect.js';
import { createVendor } from '../support/finance.js';
import { createCustomer, createProduct } from '../support/general.js';
import { createDepartment, createEmployee } from '../support/hr.js';
import { useTestServer } from '../support/setup.js';

/**
 * CSV import (docs/decisions.md D160): header names mapped to fields, each row checked by the create
 * operation's schema and the service's own rules, matched by email or SKU, a dry run that changes
 * nothing, all or nothing by default, broken and hostile files refused with the line named.
 */

const server = useTestServer();

type Kind = 'customers' | 'products' | 'vendors' | 'employees';
type Answer = { status: number; body: any; headers: Headers };

/** Posts a CSV file as `text/csv` to the import of `kind`. */
const importCsv = (biz: TestBusiness, kind: Kind, file: string | Buffer, query = '', headers = {}) =>
  raw(server(), 'POST', `/v1/imports/${kind}${query}`, {
    token: biz.accessToken,
    headers: { 'content-type': 'text/csv', ...headers },
    body: file,
  }) as Promise<Answer>;

const report = (answer: Answer): imports.ImportReport => {
  expect(answer.status, JSON.stringify(answer.body).slice(0, 500)).toBe(200);
  return answer.body.data as imports.ImportReport;
};

const customersOf = async (client: Client) =>
  (await unwrap(client.general.customers.listCustomers({ query: { limit: 100, sort: 'name:asc' } }))).data;

const actions = (r: imports.ImportReport) => r.rows.map((row) => `${row.line}:${row.action}`);

const MIXED = [
  'Name,E-mail,Phone,Address City,attributes.tier,Notes',
  'Ada Lovelace,ada@example.test,+44 20 7946 0000,London,gold,first',
  'Bob,not-an-email,,,,',
  'Carol,carol@example.test,,,,',
  ',nameless@example.test,,,,',
].join('\r\n');

describe('an import of customers', () => {
  it('dry run: reports each row (mapped and unknown columns, create or refused with field and reason) and changes nothing', async () => {
    const biz = await registerBusiness(server());
    const events = (await outbox(server(), biz.businessId)).length;
    const r = report(await importCsv(biz, 'customers', MIXED, '?dry_run=true'));
    expect(r).toMatchObject({ kind: 'customers', dry_run: true, applied: false });
    expect(r.columns).toEqual({
      mapped: ['name', 'email', 'phone', 'address.city', 'attributes.tier'],
      unknown: ['Notes'],
    });
    expect(r.counts).toEqual({ rows: 4, create: 2, update: 0, refused: 2 });
    expect(actions(r)).toEqual(['2:create', '3:refused', '4:create', '5:refused']);
    expect(r.rows[1]!.errors).toEqual([{ field: 'email', message: expect.stringMatching(/email/i) }]);
    expect(r.rows[3]!.errors.map((e) => e.field)).toEqual(['name']);
    expect(r.rows.every((row) => row.id === null)).toBe(true);
    expect(await customersOf(biz.client)).toEqual([]);
    expect((await outbox(server(), biz.businessId)).length).toBe(events);
  });

  it('all or nothing (the default): one refused row imports nothing, 422 naming each refused line and field', async () => {
    const biz = await registerBusiness(server());
    const answer = await importCsv(biz, 'customers', MIXED);
    const error = expectError(answer, 422, 'VALIDATION_ERROR', 'line.3.email');
    expect(error.details?.map((d) => d.field)).toEqual(['line.3.email', 'line.5.name']);
    expect(error.message).toMatch(/2 of 4 rows refused.*nothing was imported.*all_or_nothing=false/);
    expect(await customersOf(biz.client)).toEqual([]);
  });

  it('all_or_nothing=false: exactly the valid rows are created, with their fields, and customer.created fires for each', async () => {
    const biz = await registerBusiness(server());
    const before = (await outbox(server(), biz.businessId)).length;
    const r = report(await importCsv(biz, 'customers', MIXED, '?all_or_nothing=false'));
    expect(r).toMatchObject({ applied: true, counts: { rows: 4, create: 2, update: 0, refused: 2 } });
    const customers = await customersOf(biz.client);
    expect(customers.map((c) => c.email)).toEqual(['ada@example.test', 'carol@example.test']);
    expect(customers[0]).toMatchObject({
      name: 'Ada Lovelace',
      first_name: 'Ada',
      last_name: 'Lovelace',
      phone: '+44 20 7946 0000',
      address: { city: 'London' },
      attributes: { tier: 'gold' },
    });
    expect(r.rows.filter((row) => row.action === 'create').map((row) => row.id)).toEqual(
      customers.map((c) => c.id),
    );
    const added = (await outbox(server(), biz.businessId)).slice(before);
    expect(
      added.filter((e) => e.type === 'customer.created').map((e) => (e.data as { id: string }).id),
    ).toEqual(customers.map((c) => c.id));
  });

  it('re-importing the same file updates the customers matched by email (any case) instead of duplicating them', async () => {
    const biz = await registerBusiness(server());
    const file = 'name,email,company\nAda,ada@example.test,Engines\nGrace,grace@example.test,Navy\n';
    const first = report(await importCsv(biz, 'customers', file));
    expect(first.counts).toMatchObject({ create: 2, update: 0 });
    const again = report(
      await importCsv(
        biz,
        'customers',
        file.replace('ada@example.test,Engines', 'ADA@Example.test,Analytical'),
      ),
    );
    expect(again.counts).toMatchObject({ create: 0, update: 2, refused: 0 });
    expect(again.rows.map((row) => row.id)).toEqual(first.rows.map((row) => row.id));
    const customers = await customersOf(biz.client);
    expect(customers).toHaveLength(2);
    expect(customers.find((c) => c.name === 'Ada')?.company).toBe('Analytical');
  });

  it('a row repeating an earlier row’s email is refused, naming that line', async () => {
    const biz = await registerBusiness(server());
    const r = report(
      await importCsv(
        biz,
        'customers',
        'name,email\nAda,ada@example.test\nAda again,Ada@example.test\n',
        '?dry_run=true',
      ),
    );
    expect(actions(r)).toEqual(['2:create', '3:refused']);
    expect(r.rows[1]!.errors).toEqual([{ field: 'email', message: 'The same email as line 2' }]);
  });

  it('takes a form (multipart, field file) through the SDK, a BOM and CRLF, and header names in any case and spacing', async () => {
    const biz = await registerBusiness(server());
    const file = new File(
      ['\ufeffFULL NAME,  Name ,E_MAIL,first name\r\n,Zoë Ñandú,zoe@example.test,Zoë\r\n'],
      'customers.csv',
      { type: 'text/csv' },
    );
    const r = (await unwrap(biz.client.imports.importCustomers({ body: { file } }))).data;
    expect(r.columns).toEqual({ mapped: ['name', 'email', 'first_name'], unknown: ['FULL NAME'] });
    // "FULL NAME" names no field; " Name " is name.
    expect(r.counts).toMatchObject({ create: 1, refused: 0 });
    const [zoe] = await customersOf(biz.client);
    expect(zoe).toMatchObject({ name: 'Zoë Ñandú', email: 'zoe@example.test', first_name: 'Zoë' });
  });

  it('imports back what the export wrote: the same customers in another business, formula guards taken off', async () => {
    const a = await registerBusiness(server());
    await createCustomer(a.client, {
      name: '=HYPERLINK("http://x")',
      email: 'formula@example.test',
      phone: '+1 555 0100',
      company: 'Quotes "and", commas\nand lines',
      address: { line1: '1 Main St', city: 'Springfield', country: 'US' },
      attributes: { tier: 'gold', since: '2020' },
      unsubscribed: true,
    });
    await createCustomer(a.client, { name: 'Plain', email: 'plain@example.test' });
    const csv = await (
      await exportCsv(
        { baseUrl: server().baseUrl, accessToken: a.accessToken },
        contract.general.customers.listCustomers,
      )
    ).text();
    expect(csv).toContain(`'=HYPERLINK`);
    const b = await registerBusiness(server());
    const r = report(await importCsv(b, 'customers', csv));
    // What the service keeps of a customer (its id, times and credit) is not imported.
    const kept = ['id', 'credit_balance', 'created_at', 'updated_at'];
    expect(r.columns.unknown).toEqual(kept);
    expect(r.counts).toMatchObject({ create: 2, refused: 0 });
    const strip = (c: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(c).filter(([k]) => !kept.includes(k)));
    expect((await customersOf(b.client)).map(strip)).toEqual((await customersOf(a.client)).map(strip));
  });

  it('another business’s customer with the same email is neither matched nor changed', async () => {
    const a = await registerBusiness(server());
    const theirs = await createCustomer(a.client, { name: 'Theirs', email: 'shared@example.test' });
    const b = await registerBusiness(server());
    const r = report(await importCsv(b, 'customers', 'name,email\nMine,shared@example.test\n'));
    expect(r.counts).toMatchObject({ create: 1, update: 0 });
    expect(r.rows[0]!.id).not.toBe(theirs.id);
    expect((await customersOf(a.client)).map((c) => c.name)).toEqual(['Theirs']);
    expect((await customersOf(b.client)).map((c) => c.name)).toEqual(['Mine']);
  });
});

describe('the other kinds', () => {
  it('products: matched by SKU (any case), price in major units, a bad price refused with its field', async () => {
    const biz = await registerBusiness(server());
    const existing = await createProduct(biz.client, { sku: 'BEAN-1KG', price: 24.5 });
    const file = 'SKU,Name,Price,Stock\nbean-1kg,Beans 1kg,26.00,80\nTEA-1,Tea,4.5,\nBAD-1,Bad,twelve,\n';
    const r = report(await importCsv(biz, 'products', file, '?all_or_nothing=false'));
    expect(actions(r)).toEqual(['2:update', '3:create', '4:refused']);
    expect(r.rows[0]!.id).toBe(existing.id);
    expect(r.rows[2]!.errors.map((e) => e.field)).toEqual(['price']);
    const products = (await unwrap(biz.client.general.products.listProducts({ query: { sort: 'name:asc' } })))
      .data;
    // The file's spelling of the SKU is kept by the update.
    expect(products.map((p) => [p.sku, p.name, p.price, p.stock])).toEqual([
      ['bean-1kg', 'Beans 1kg', 26, 80],
      ['TEA-1', 'Tea', 4.5, 0],
    ]);
  });

  it('vendors: matched by email, currency and tax id read', async () => {
    const biz = await registerBusiness(server());
    const acme = await createVendor(biz.client, { name: 'Acme', email: 'billing@acme.test' });
    const file =
      'name,email,currency,tax_id\nAcme Supplies,billing@acme.test,EUR,DE123\nGlobex,ap@globex.test,USD,\n';
    const r = report(await importCsv(biz, 'vendors', file));
    expect(actions(r)).toEqual(['2:update', '3:create']);
    expect(r.rows[0]!.id).toBe(acme.id);
    const { vendors } = await unwrap(biz.client.finance.vendors.listVendors({ query: {} }));
    expect(vendors.map((v) => [v.name, v.email, v.currency, v.tax_id]).sort()).toEqual([
      ['Acme Supplies', 'billing@acme.test', 'EUR', 'DE123'],
      ['Globex', 'ap@globex.test', 'USD', null],
    ]);
  });

  it('employees: the service’s own rule (an unknown department) refuses the row on the dry run as on the real run', async () => {
    const biz = await registerBusiness(server());
    const dept = await createDepartment(biz.client);
    const grace = await createEmployee(biz.client, { department_id: dept.id, email: 'grace@example.test' });
    const file = [
      'first_name,last_name,email,department_id,position,hire_date,salary',
      `Grace,Hopper,grace@example.test,${dept.id},Rear admiral,2024-03-01,900000`,
      `Alan,Turing,alan@example.test,${dept.id},Engineer,2025-01-06,800000`,
      'Nobody,Here,nobody@example.test,dep_01JD7X2R5VQ8N3K4M6P9T1W2Y3,Engineer,2025-01-06,',
    ].join('\n');
    const dry = report(await importCsv(biz, 'employees', file, '?dry_run=true'));
    expect(actions(dry)).toEqual(['2:update', '3:create', '4:refused']);
    expect(dry.rows[0]!.id).toBe(grace.id);
    expect(dry.rows[2]!.errors.map((e) => e.field)).toEqual(['department_id']);
    expectError(await importCsv(biz, 'employees', file), 422, 'VALIDATION_ERROR', 'line.4.department_id');
    const real = report(await importCsv(biz, 'employees', file, '?all_or_nothing=false'));
    expect(actions(real)).toEqual(actions(dry));
    const { employees } = await unwrap(biz.client.hr.employees.listEmployees({ query: {} }));
    expect(employees.map((e) => [e.email, e.position]).sort()).toEqual([
      ['alan@example.test', 'Engineer'],
      ['grace@example.test', 'Rear admiral'],
    ]);
  });
});

describe('broken and hostile files', () => {
  const refusedFile = async (file: string | Buffer, pattern: RegExp) => {
    const biz = await registerBusiness(server());
    const answer = await importCsv(biz, 'customers', file, '?dry_run=true');
    const error = expectError(answer, 422, 'VALIDATION_ERROR', 'file');
    expect(error.message).toMatch(pattern);
    expect(await customersOf(biz.client)).toEqual([]);
  };

  it('an unclosed quote, uneven columns, Latin-1 bytes and a NUL are 422 naming the line', async () => {
    await refusedFile(
      'name,email\nAda,ada@example.test\n"Bob,bob@example.test\nCarol,c@example.test\n',
      /^Line 3: .*quote/,
    );
    await refusedFile('name,email\nAda,ada@example.test,extra\n', /^Line 2: .*columns/);
    await refusedFile(
      Buffer.from('name,email\nAda,ada@example.test\nCaf\xe9,cafe@example.test\n', 'latin1'),
      /^Line 3: .*UTF-8/,
    );
    await refusedFile(Buffer.from('name,email\nA\u0000B,x@example.test\n'), /^Line 2: .*NUL/);
    await refusedFile('', /empty/);
    await refusedFile('Notes,Comments\nx,y\n', /No column of the header names a field/);
  });

  it('a field of 10 MB and a file over 10 MiB are refused without reading them whole into a row', async () => {
    const biz = await registerBusiness(server());
    const field = 'x'.repeat(10 * 1024 * 1024 - 100);
    expectError(
      await importCsv(biz, 'customers', `name\n${field}\n`, '?dry_run=true'),
      422,
      'VALIDATION_ERROR',
      'file',
    );
    const over = Buffer.alloc(10 * 1024 * 1024 + 10, 'a');
    expectError(await importCsv(biz, 'customers', over), 413, 'PAYLOAD_TOO_LARGE');
    const form = new FormData();
    form.set('file', new Blob([over], { type: 'text/csv' }), 'big.csv');
    const res = await fetch(`${server().baseUrl}/v1/imports/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${biz.accessToken}` },
      body: form,
    });
    expect(res.status).toBe(413);
    expect(await customersOf(biz.client)).toEqual([]);
  });

  it('60,000 rows are refused (at most 50,000), naming the limit', async () => {
    const biz = await registerBusiness(server());
    const rows = Array.from({ length: 60_000 }, (_, i) => `C${i}`).join('\n');
    const error = expectError(
      await importCsv(biz, 'customers', `name\n${rows}\n`),
      422,
      'LIMIT_EXCEEDED',
      'file',
    );
    expect(error.message).toMatch(/50,000 rows/);
    expect(await customersOf(biz.client)).toEqual([]);
  });

  it('a body that is neither CSV nor a form, and a form without the file, are refused with what to send', async () => {
    const biz = await registerBusiness(server());
    const json = await raw(server(), 'POST', '/v1/imports/customers', {
      token: biz.accessToken,
      headers: { 'content-type': 'application/json' },
      body: '{"name":"Ada"}',
    });
    expect(expectError(json, 400, 'BAD_REQUEST').message).toMatch(/text\/csv.*multipart/);
    const form = new FormData();
    form.set('other', 'name\nAda\n');
    const res = await fetch(`${server().baseUrl}/v1/imports/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${biz.accessToken}` },
      body: form,
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { details: { field: string }[] } }).error.details[0]!.field).toBe(
      'file',
    );
  });

  it('without a credential: 401, and nothing read', async () => {
    const answer = await raw(server(), 'POST', '/v1/imports/customers', {
      headers: { 'content-type': 'text/csv' },
      body: 'name\nAda\n',
    });
    expect(answer.status).toBe(401);
  });
});
