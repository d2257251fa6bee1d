import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { contract, exportCsv, unwrap, type Client, type imports } from '../../client/index.js';
import { raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { outbox } from '../support/events.js';
import { expectError } from '../support/expect.js';
import { createCustomer } from '../support/general.js';
import { useTestServer } from '../support/setup.js';

/**
 * CSV import of many rows: creations and updates written a thousand to a statement (with the events
 * and rules of one by one), a dry run that writes nothing, all_or_nothing=false through the same
 * bulk path with the database's own refusals still named per row; the audit rows of what an import
 * changed; export and import as exact inverses; a field named twice refused.
 */

const server = useTestServer();

type Answer = { status: number; body: any; headers: Headers };

const importCsv = (biz: TestBusiness, file: string, query = '') =>
  raw(server(), 'POST', `/v1/imports/customers${query}`, {
    token: biz.accessToken,
    headers: { 'content-type': 'text/csv' },
    body: file,
  }) as Promise<Answer>;

const report = (answer: Answer): imports.ImportReport => {
  expect(answer.status, JSON.stringify(answer.body).slice(0, 500)).toBe(200);
  return answer.body.data as imports.ImportReport;
};

const customersOf = async (client: Client) =>
  (await unwrap(client.general.customers.listCustomers({ query: { limit: 100, sort: 'name:asc' } }))).data;

const customerCount = async (businessId: string) =>
  Number(
    (
      await server()
        .deps.db.selectFrom('customers')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('business_id', '=', businessId)
        .executeTakeFirstOrThrow()
    ).n,
  );

const auditRows = (businessId: string) =>
  server()
    .deps.db.selectFrom('audit_log')
    .select(['operation', 'resource_id', 'request_id', 'summary'])
    .where('business_id', '=', businessId)
    .orderBy('operation')
    .orderBy('resource_id')
    .execute();

/** `n` rows of customers `c<i>-<tag>@example.test`, named `<prefix> <i>`. */
const customersFile = (n: number, tag: string, prefix = 'Customer') =>
  [
    'name,email,company',
    ...Array.from({ length: n }, (_, i) => `${prefix} ${i},c${i}-${tag}@example.test,Co ${i}`),
  ].join('\n');

/**
 * Statement-level triggers counting the INSERT and UPDATE statements on customers into sequences,
 * which a rollback does not undo: a dry run that wrote and rolled back would still count.
 */
async function countStatements(): Promise<() => Promise<{ inserts: number; updates: number }>> {
  const db = server().deps.db;
  await sql`CREATE SEQUENCE IF NOT EXISTS test_customer_inserts`.execute(db);
  await sql`CREATE SEQUENCE IF NOT EXISTS test_customer_updates`.execute(db);
  await sql`
    CREATE OR REPLACE FUNCTION test_count_customer_statements() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      PERFORM nextval(CASE TG_OP WHEN 'INSERT' THEN 'test_customer_inserts' ELSE 'test_customer_updates' END);
      RETURN NULL;
    END $$`.execute(db);
  await sql`DROP TRIGGER IF EXISTS test_count_customer_statements ON customers`.execute(db);
  await sql`
    CREATE TRIGGER test_count_customer_statements AFTER INSERT OR UPDATE ON customers
      FOR EACH STATEMENT EXECUTE FUNCTION test_count_customer_statements()`.execute(db);
  const read = async () => {
    const { rows } = await sql<{ inserts: string; updates: string }>`
      SELECT (SELECT last_value + (CASE WHEN is_called THEN 1 ELSE 0 END) FROM test_customer_inserts) AS inserts,
             (SELECT last_value + (CASE WHEN is_called THEN 1 ELSE 0 END) FROM test_customer_updates) AS updates`.execute(
      db,
    );
    return { inserts: Number(rows[0]!.inserts), updates: Number(rows[0]!.updates) };
  };
  const start = await read();
  return async () => {
    const now = await read();
    return { inserts: now.inserts - start.inserts, updates: now.updates - start.updates };
  };
}

describe('many rows', () => {
  let biz: TestBusiness;
  const N = 1500;
  beforeAll(async () => {
    biz = await registerBusiness(server());
    report(await importCsv(biz, customersFile(N, 'bulk')));
  });

  it('updates 1,500 matched customers in a few statements, with updateCustomer’s rules and a customer.updated event each', async () => {
    const statements = await countStatements();
    const before = (await outbox(server(), biz.businessId)).length;
    const file = customersFile(N, 'bulk', 'Renamed Person');
    const r = report(await importCsv(biz, file));
    expect(r).toMatchObject({ applied: true, counts: { rows: N, create: 0, update: N, refused: 0 } });
    // One UPDATE a thousand rows (and nothing row by row).
    expect(await statements()).toEqual({ inserts: 0, updates: 2 });
    const [first] = (
      await unwrap(
        biz.client.general.customers.listCustomers({ query: { email: 'c7-bulk@example.test', limit: 1 } }),
      )
    ).data;
    // A rename re-derives both name parts, as updateCustomer does.
    expect(first).toMatchObject({ name: 'Renamed Person 7', first_name: 'Renamed', last_name: 'Person 7' });
    const updated = (await outbox(server(), biz.businessId)).slice(before);
    expect(updated).toHaveLength(N);
    expect(updated.every((e) => e.type === 'customer.updated')).toBe(true);
    expect(new Set(updated.map((e) => (e.data as { id: string }).id))).toEqual(
      new Set(r.rows.map((row) => row.id)),
    );
    expect(updated.find((e) => (e.data as { id: string }).id === first!.id)?.data).toEqual(first);
  });

  it('a dry run of 1,500 updates checks and matches every row and writes no statement', async () => {
    const statements = await countStatements();
    const file = customersFile(N, 'bulk', 'Dry Run').replace('c9-bulk@example.test', 'not-an-email');
    const r = report(await importCsv(biz, file, '?dry_run=true'));
    expect(r).toMatchObject({
      dry_run: true,
      applied: false,
      counts: { rows: N, update: N - 1, create: 0, refused: 1 },
    });
    expect(r.rows[9]).toMatchObject({ line: 11, action: 'refused', errors: [{ field: 'email' }] });
    expect(await statements()).toEqual({ inserts: 0, updates: 0 });
    expect((await customersOf(biz.client)).some((c) => c.name.startsWith('Dry Run'))).toBe(false);
  });

  it('all_or_nothing=false creates the valid rows in bulk and reports the refused ones', async () => {
    const other = await registerBusiness(server());
    const statements = await countStatements();
    const file = `${customersFile(N, 'partial')}\nNo email,not-an-email,`;
    const r = report(await importCsv(other, file, '?all_or_nothing=false'));
    expect(r.counts).toMatchObject({ rows: N + 1, create: N, refused: 1 });
    expect(r.rows.at(-1)).toMatchObject({ line: N + 2, action: 'refused', errors: [{ field: 'email' }] });
    expect((await statements()).inserts).toBe(2);
    expect(await customerCount(other.businessId)).toBe(N);
  });
});

describe('a row only the database refuses', () => {
  it('with all_or_nothing=false is refused alone, naming its key, and the other rows of its chunk are written', async () => {
    const db = server().deps.db;
    // A unique violation the file's checks cannot foresee (a key taken by a concurrent request).
    await sql`
      CREATE OR REPLACE FUNCTION test_refuse_clash() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.name LIKE 'Clash%' THEN
          RAISE EXCEPTION 'duplicate key' USING ERRCODE = 'unique_violation', CONSTRAINT = 'customers_email_key';
        END IF;
        RETURN NEW;
      END $$`.execute(db);
    await sql`DROP TRIGGER IF EXISTS test_refuse_clash ON customers`.execute(db);
    await sql`CREATE TRIGGER test_refuse_clash BEFORE INSERT OR UPDATE ON customers
      FOR EACH ROW EXECUTE FUNCTION test_refuse_clash()`.execute(db);
    const biz = await registerBusiness(server());
    const kept = await createCustomer(biz.client, { name: 'Kept', email: 'kept@example.test' });
    const clashing = await createCustomer(biz.client, { name: 'Old', email: 'clash-update@example.test' });
    const file = [
      'name,email',
      'New One,new1@example.test',
      'Clash Create,clash-create@example.test',
      'Kept Renamed,kept@example.test',
      'Clash Update,clash-update@example.test',
      'New Two,new2@example.test',
    ].join('\n');
    try {
      const r = report(await importCsv(biz, file, '?all_or_nothing=false'));
      expect(r.rows.map((row) => `${row.line}:${row.action}`)).toEqual([
        '2:create',
        '3:refused',
        '4:update',
        '5:refused',
        '6:create',
      ]);
      expect(r.rows[1]!.errors).toEqual([
        { field: 'email', message: 'A customer with this email already exists' },
      ]);
      expect((await customersOf(biz.client)).map((c) => c.name)).toEqual([
        'Kept Renamed',
        'New One',
        'New Two',
        'Old',
      ]);
      expect(r.rows[2]!.id).toBe(kept.id);
      expect((await customersOf(biz.client)).find((c) => c.id === clashing.id)?.name).toBe('Old');
    } finally {
      await sql`DROP TRIGGER test_refuse_clash ON customers`.execute(db);
    }
  });
});

describe('the audit log of an import', () => {
  it('has the import’s own row and one row per customer it created or updated, found by the resource filter', async () => {
    const biz = await registerBusiness(server());
    const ada = await createCustomer(biz.client, { name: 'Ada', email: 'ada@example.test' });
    const before = (await auditRows(biz.businessId)).length;
    const r = report(
      await importCsv(
        biz,
        'name,email\nAda Lovelace,ada@example.test\nBob,bob@example.test\nBad,nope\n',
        '?all_or_nothing=false',
      ),
    );
    const bob = r.rows[1]!.id!;
    const rows = (await auditRows(biz.businessId)).slice(before);
    const imported = rows.filter((row) => row.operation.startsWith('importCustomers'));
    expect(imported.map(({ operation, resource_id }) => [operation, resource_id])).toEqual([
      ['importCustomers', null],
      ['importCustomers.create', bob],
      ['importCustomers.update', ada.id],
    ]);
    expect(new Set(imported.map((row) => row.request_id)).size).toBe(1);
    expect(imported[1]!.summary).toMatchObject({ label: 'Bob' });
    const found = await raw(server(), 'GET', `/v1/audit-log?resource_id=${ada.id}`, {
      token: biz.accessToken,
    });
    expect(found.status).toBe(200);
    expect(found.body.entries.map((e: { operation: string }) => e.operation)).toEqual([
      'importCustomers.update',
      'createCustomer',
    ]);
  });

  it('a dry run, and an all-or-nothing import with a refused row, write no audit row', async () => {
    const biz = await registerBusiness(server());
    await createCustomer(biz.client, { name: 'Ada', email: 'ada@example.test' });
    const before = await auditRows(biz.businessId);
    const file = 'name,email\nAda Lovelace,ada@example.test\nBob,bob@example.test\n';
    report(await importCsv(biz, file, '?dry_run=true'));
    expectError(await importCsv(biz, `${file}Bad,nope\n`), 422, 'VALIDATION_ERROR', 'line.4.email');
    expect(await auditRows(biz.businessId)).toEqual(before);
  });
});

describe('export and import', () => {
  const VALUES = ['=1+1', "'=1+1", "'hello", "''x", '+1', '-2', '@a', "'", 'plain'];

  it('are exact inverses: text starting with a formula character or an apostrophe comes back unchanged', async () => {
    const a = await registerBusiness(server());
    for (const [i, value] of VALUES.entries()) {
      await createCustomer(a.client, { name: value, company: value, email: `v${i}@example.test` });
    }
    const csv = await (
      await exportCsv(
        { baseUrl: server().baseUrl, accessToken: a.accessToken },
        contract.general.customers.listCustomers,
      )
    ).text();
    expect(csv).toContain(`,''=1+1,`);
    expect(csv).toContain(`,'''x,`);
    const b = await registerBusiness(server());
    expect(report(await importCsv(b, csv)).counts).toMatchObject({ create: VALUES.length, refused: 0 });
    const back = await customersOf(b.client);
    expect(back.map((c) => c.name).sort()).toEqual([...VALUES].sort());
    expect(back.every((c) => c.company === c.name)).toBe(true);
  });
});

describe('a file that names a field twice', () => {
  it('two columns of one field (any case or spelling) are 422 naming the column, and nothing is written', async () => {
    const biz = await registerBusiness(server());
    const answer = await importCsv(biz, 'name,Email,E-MAIL\nAda,ada@example.test,other@example.test\n');
    const error = expectError(answer, 422, 'VALIDATION_ERROR', 'column.E-MAIL');
    expect(error.message).toMatch(/"Email" and "E-MAIL" both name the field email/);
    expect(await customerCount(biz.businessId)).toBe(0);
  });

  it('a form with two `file` parts is 422 naming the part, and nothing is written', async () => {
    const biz = await registerBusiness(server());
    const form = new FormData();
    form.append('file', new Blob(['name,email\nAda,ada@example.test\n'], { type: 'text/csv' }), 'a.csv');
    form.append('file', new Blob(['name,email\nBob,bob@example.test\n'], { type: 'text/csv' }), 'b.csv');
    const res = await fetch(`${server().baseUrl}/v1/imports/customers`, {
      method: 'POST',
      headers: { authorization: `Bearer ${biz.accessToken}` },
      body: form,
    });
    const error = expectError(
      { status: res.status, body: await res.json() },
      422,
      'VALIDATION_ERROR',
      'file',
    );
    expect(error.message).toMatch(/more than one `file` part/);
    expect(await customerCount(biz.businessId)).toBe(0);
  });
});
