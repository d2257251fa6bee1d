import { describe, expect, it } from 'vitest';
import { unwrap, type general, type marketing } from '../../client/index.js';
import { registerBusiness, type TestBusiness } from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import { createCustomer } from '../support/general.js';
import { createSegment, MARKETING_ENV, segmentContactIds } from '../support/marketing.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ env: MARKETING_ENV, worker: false });

type Condition = marketing.Condition;

/** Four contacts with distinct fields, created at fixed times (UTC). */
async function people(t: TestBusiness) {
  const make = async (body: Partial<general.CreateCustomerBody>, createdAt: string) => {
    const customer = await createCustomer(t.client, body);
    await server()
      .deps.db.updateTable('customers')
      .set({ created_at: createdAt })
      .where('business_id', '=', t.businessId)
      .where('id', '=', customer.id)
      .execute();
    return customer.id;
  };
  return {
    ada: await make(
      {
        name: 'Ada Lovelace',
        email: 'Ada@Engines.example',
        company: 'Analytical Engines',
        attributes: { plan: 'pro', seats: '12', "a'b; DROP TABLE customers": 'x' },
      },
      '2026-01-15T10:00:00.000Z',
    ),
    grace: await make(
      {
        name: 'Grace Hopper',
        email: 'grace@navy.example',
        company: 'US Navy 100%_done',
        attributes: { plan: 'Pro', seats: '9' },
      },
      '2026-01-15T23:59:59.000Z',
    ),
    alan: await make(
      { name: 'Alan Turing', email: 'alan@bletchley.example', attributes: { plan: 'free', seats: 'many' } },
      '2026-01-16T00:00:00.000Z',
    ),
    nobody: await make({ name: 'Nobody', company: '' }, '2025-12-31T12:00:00.000Z'),
  };
}

type People = Awaited<ReturnType<typeof people>>;

/** The contacts (by name, sorted) a segment of these conditions holds. */
async function matching(t: TestBusiness, p: People, conditions: Condition[], match: 'all' | 'any' = 'all') {
  const segment = await createSegment(t.client, { name: 'Test', filters: { match, conditions } });
  const names = Object.fromEntries(Object.entries(p).map(([name, id]) => [id, name]));
  const ids = await segmentContactIds(t.client, segment.id);
  expect(segment.contact_count).toBe(ids.length);
  return ids.map((id) => names[id] ?? id).sort();
}

const cases: [string, Condition[], string[], ('all' | 'any')?][] = [
  ['email eq, case-insensitive', [{ field: 'email', operator: 'eq', value: 'ADA@engines.EXAMPLE' }], ['ada']],
  [
    'name neq (includes the rest)',
    [{ field: 'name', operator: 'neq', value: 'ada lovelace' }],
    ['alan', 'grace', 'nobody'],
  ],
  [
    'company neq counts contacts without a company',
    [{ field: 'company', operator: 'neq', value: 'US Navy 100%_done' }],
    ['ada', 'alan', 'nobody'],
  ],
  [
    'company contains, case-insensitive',
    [{ field: 'company', operator: 'contains', value: 'ENGINE' }],
    ['ada'],
  ],
  ['contains treats % and _ literally', [{ field: 'company', operator: 'contains', value: '%_' }], ['grace']],
  ['contains a lone % matches only a %', [{ field: 'company', operator: 'contains', value: '%' }], ['grace']],
  ['email starts_with', [{ field: 'email', operator: 'starts_with', value: 'a' }], ['ada', 'alan']],
  ['first_name (derived) eq', [{ field: 'first_name', operator: 'eq', value: 'grace' }], ['grace']],
  ['last_name in', [{ field: 'last_name', operator: 'in', value: ['TURING', 'hopper'] }], ['alan', 'grace']],
  ['name gt (text order)', [{ field: 'name', operator: 'gt', value: 'B' }], ['grace', 'nobody']],
  ['name lte (text order)', [{ field: 'name', operator: 'lte', value: 'Alan Turing' }], ['ada', 'alan']],
  ['company exists', [{ field: 'company', operator: 'exists', value: true }], ['ada', 'grace']],
  [
    'company does not exist (null or empty)',
    [{ field: 'company', operator: 'exists', value: false }],
    ['alan', 'nobody'],
  ],
  ['email exists: false', [{ field: 'email', operator: 'exists', value: false }], ['nobody']],
  ['attribute eq is exact', [{ field: 'attributes.plan', operator: 'eq', value: 'pro' }], ['ada']],
  [
    'attribute neq includes contacts without it',
    [{ field: 'attributes.plan', operator: 'neq', value: 'pro' }],
    ['alan', 'grace', 'nobody'],
  ],
  ['attribute in', [{ field: 'attributes.plan', operator: 'in', value: ['Pro', 'free'] }], ['alan', 'grace']],
  [
    'attribute contains, case-insensitive',
    [{ field: 'attributes.plan', operator: 'contains', value: 'PR' }],
    ['ada', 'grace'],
  ],
  ['attribute starts_with', [{ field: 'attributes.plan', operator: 'starts_with', value: 'f' }], ['alan']],
  [
    'attribute gt a number compares numbers (12 > 10, 9 is not)',
    [{ field: 'attributes.seats', operator: 'gt', value: 10 }],
    ['ada'],
  ],
  [
    'attribute lte a number skips non-numbers',
    [{ field: 'attributes.seats', operator: 'lte', value: 12 }],
    ['ada', 'grace'],
  ],
  ['attribute eq a number', [{ field: 'attributes.seats', operator: 'eq', value: 9 }], ['grace']],
  [
    'attribute gte a string compares text ("9" > "12")',
    [{ field: 'attributes.seats', operator: 'gte', value: '2' }],
    ['alan', 'grace'],
  ],
  ['attribute lt a string', [{ field: 'attributes.seats', operator: 'lt', value: '2' }], ['ada']],
  [
    'attribute exists',
    [{ field: 'attributes.seats', operator: 'exists', value: true }],
    ['ada', 'alan', 'grace'],
  ],
  ['attribute does not exist', [{ field: 'attributes.seats', operator: 'exists', value: false }], ['nobody']],
  [
    'an attribute key with quotes and SQL is just a key',
    [{ field: "attributes.a'b; DROP TABLE customers", operator: 'eq', value: 'x' }],
    ['ada'],
  ],
  [
    'created_at eq a date is that UTC day',
    [{ field: 'created_at', operator: 'eq', value: '2026-01-15' }],
    ['ada', 'grace'],
  ],
  [
    'created_at neq a date',
    [{ field: 'created_at', operator: 'neq', value: '2026-01-15' }],
    ['alan', 'nobody'],
  ],
  [
    'created_at gt a date is after that day',
    [{ field: 'created_at', operator: 'gt', value: '2026-01-15' }],
    ['alan'],
  ],
  [
    'created_at gte a date includes the day',
    [{ field: 'created_at', operator: 'gte', value: '2026-01-15' }],
    ['ada', 'alan', 'grace'],
  ],
  [
    'created_at lt a date is before the day',
    [{ field: 'created_at', operator: 'lt', value: '2026-01-15' }],
    ['nobody'],
  ],
  [
    'created_at lte a date includes the whole day',
    [{ field: 'created_at', operator: 'lte', value: '2026-01-15' }],
    ['ada', 'grace', 'nobody'],
  ],
  [
    'created_at gt a timestamp is exact',
    [{ field: 'created_at', operator: 'gt', value: '2026-01-15T10:00:00Z' }],
    ['alan', 'grace'],
  ],
  [
    'created_at eq a timestamp with an offset',
    [{ field: 'created_at', operator: 'eq', value: '2026-01-15T11:00:00+01:00' }],
    ['ada'],
  ],
  [
    'unsubscribed eq false',
    [{ field: 'unsubscribed', operator: 'eq', value: false }],
    ['ada', 'alan', 'grace', 'nobody'],
  ],
  ['unsubscribed neq false', [{ field: 'unsubscribed', operator: 'neq', value: false }], []],
  [
    'all conditions (AND)',
    [
      { field: 'attributes.plan', operator: 'contains', value: 'pro' },
      { field: 'created_at', operator: 'gte', value: '2026-01-15T12:00:00Z' },
    ],
    ['grace'],
  ],
  [
    'any condition (OR)',
    [
      { field: 'email', operator: 'starts_with', value: 'alan' },
      { field: 'company', operator: 'contains', value: 'navy' },
    ],
    ['alan', 'grace'],
    'any',
  ],
  ['no conditions: every contact', [], ['ada', 'alan', 'grace', 'nobody']],
];

describe('filter conditions', () => {
  it.each(cases)('%s', async (_label, conditions, expected, match) => {
    const t = await registerBusiness(server());
    const p = await people(t);
    expect(await matching(t, p, conditions, match)).toEqual(expected);
  });

  it.each(["'; DROP TABLE customers; --", "O'Brien", '\\', '%', '_', '${name}', 'Ω≈ç√ 😀', '\u0000'])(
    'matches the hostile value %j literally, never failing',
    async (value) => {
      const t = await registerBusiness(server());
      const p = await people(t);
      for (const operator of ['eq', 'neq', 'contains', 'starts_with', 'gt', 'lt', 'in'] as const) {
        const condition = {
          field: 'name',
          operator,
          value: operator === 'in' ? [value] : value,
        } as Condition;
        const res = await t.client.marketing.segments.createSegment({
          body: { name: 'Hostile', filters: { match: 'all', conditions: [condition] } },
        });
        if (value === '\u0000') {
          expect(res.status, operator).toBe(422);
          continue;
        }
        expect(res.status, `${operator} ${JSON.stringify(res.body)}`).toBe(201);
      }
      const count = await server()
        .deps.db.selectFrom('customers')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('business_id', '=', t.businessId)
        .executeTakeFirstOrThrow();
      expect(Number(count.n)).toBe(Object.keys(p).length);
    },
  );
});

describe('filter refusals (422 naming the condition)', () => {
  it.each([
    [{ field: 'password', operator: 'eq', value: 'x' }, 'filters.conditions.0.field'],
    [{ field: 'name; DROP TABLE customers', operator: 'eq', value: 'x' }, 'filters.conditions.0.field'],
    [{ field: 'attributes.', operator: 'eq', value: 'x' }, 'filters.conditions.0.field'],
    [{ field: `attributes.${'k'.repeat(41)}`, operator: 'eq', value: 'x' }, 'filters.conditions.0.field'],
    [{ field: 'c.id', operator: 'eq', value: 'x' }, 'filters.conditions.0.field'],
    [{ field: 'name', operator: 'like', value: 'x' }, 'filters.conditions.0.operator'],
    [{ field: 'unsubscribed', operator: 'contains', value: 'x' }, 'filters.conditions.0.operator'],
    [{ field: 'created_at', operator: 'in', value: ['2026-01-01'] }, 'filters.conditions.0.operator'],
    [{ field: 'created_at', operator: 'gt', value: 'yesterday' }, 'filters.conditions.0.value'],
    [{ field: 'created_at', operator: 'gt', value: '2026-02-30' }, 'filters.conditions.0.value'],
    [{ field: 'unsubscribed', operator: 'eq', value: 'yes' }, 'filters.conditions.0.value'],
    [{ field: 'name', operator: 'eq', value: 3 }, 'filters.conditions.0.value'],
    [{ field: 'name', operator: 'eq' }, 'filters.conditions.0.value'],
    [{ field: 'name', operator: 'contains', value: '' }, 'filters.conditions.0.value'],
    [{ field: 'name', operator: 'exists', value: 'yes' }, 'filters.conditions.0.value'],
    [{ field: 'name', operator: 'in', value: 'x' }, 'filters.conditions.0.value'],
    [{ field: 'name', operator: 'in', value: [] }, 'filters.conditions.0.value'],
    [{ field: 'name', operator: 'eq', value: 'x', extra: 1 }, 'filters.conditions.0.extra'],
  ])('refuses %j', async (condition, field) => {
    const t = await registerBusiness(server());
    const res = await t.client.marketing.segments.createSegment({
      body: { name: 'Bad', filters: { match: 'all', conditions: [condition as Condition] } },
    });
    expectResultError(res, 422, 'VALIDATION_ERROR', field);
    expect((await unwrap(t.client.marketing.segments.listSegments({ query: {} }))).total_count).toBe(0);
  });

  it('refuses more than 100 conditions, accepts 100', async () => {
    const t = await registerBusiness(server());
    const condition: Condition = { field: 'name', operator: 'contains', value: 'a' };
    const many = (n: number) => ({
      name: 'Many',
      filters: { match: 'all' as const, conditions: Array(n).fill(condition) },
    });
    expectResultError(
      await t.client.marketing.segments.createSegment({ body: many(101) }),
      422,
      'VALIDATION_ERROR',
      'filters.conditions',
    );
    expect((await t.client.marketing.segments.createSegment({ body: many(100) })).status).toBe(201);
  });

  it('refuses an unknown match', async () => {
    const t = await registerBusiness(server());
    const res = await t.client.marketing.segments.createSegment({
      body: { name: 'Bad', filters: { match: 'some' as 'all', conditions: [] } },
    });
    expectResultError(res, 422, 'VALIDATION_ERROR', 'filters.match');
  });
});

describe('listed contacts and live counts', () => {
  it('lists contacts by id besides the filters (either puts a contact in)', async () => {
    const t = await registerBusiness(server());
    const p = await people(t);
    const segment = await createSegment(t.client, {
      filters: { match: 'all', conditions: [{ field: 'attributes.plan', operator: 'eq', value: 'pro' }] },
      contact_ids: [p.nobody, p.nobody, p.ada],
    });
    expect(segment.listed_contacts).toBe(2);
    expect(segment.contact_count).toBe(2);
    expect((await segmentContactIds(t.client, segment.id)).sort()).toEqual([p.ada, p.nobody].sort());
  });

  it('is only its listed contacts without filters', async () => {
    const t = await registerBusiness(server());
    const p = await people(t);
    const segment = await createSegment(t.client, { filters: undefined, contact_ids: [p.grace] });
    expect(segment.filters).toBeNull();
    expect(await segmentContactIds(t.client, segment.id)).toEqual([p.grace]);
    const empty = await createSegment(t.client, { filters: undefined });
    expect(empty.contact_count).toBe(0);
  });

  it('refuses unknown and foreign contact ids, naming each', async () => {
    const [t, other] = [await registerBusiness(server()), await registerBusiness(server())];
    const own = await createCustomer(t.client);
    const foreign = await createCustomer(other.client);
    const res = await t.client.marketing.segments.createSegment({
      body: { name: 'Listed', contact_ids: [own.id, foreign.id, 'cus_missing'] },
    });
    const error = expectResultError(res, 422, 'VALIDATION_ERROR', 'contact_ids');
    expect(error.details).toEqual([
      { field: 'contact_ids', message: `No customer with id ${foreign.id}` },
      { field: 'contact_ids', message: 'No customer with id cus_missing' },
    ]);
    expect((await unwrap(t.client.marketing.segments.listSegments({ query: {} }))).total_count).toBe(0);
  });

  it('follows contacts as they change, join and leave', async () => {
    const t = await registerBusiness(server());
    const p = await people(t);
    const segment = await createSegment(t.client, {
      filters: { match: 'all', conditions: [{ field: 'attributes.plan', operator: 'eq', value: 'pro' }] },
      contact_ids: [p.alan],
    });
    const count = async () =>
      (await unwrap(t.client.marketing.segments.getSegment({ params: { id: segment.id } }))).segment
        .contact_count;
    expect(await count()).toBe(2);
    await unwrap(
      t.client.general.customers.updateCustomer({
        params: { id: p.grace },
        body: { attributes: { plan: 'pro' } },
      }),
    );
    expect(await count()).toBe(3);
    await createCustomer(t.client, { name: 'New Pro', attributes: { plan: 'pro' } });
    expect(await count()).toBe(4);
    await unwrap(t.client.general.customers.deleteCustomer({ params: { id: p.alan } }));
    expect(await count()).toBe(3);
    expect(
      (await unwrap(t.client.marketing.segments.getSegment({ params: { id: segment.id } }))).segment
        .listed_contacts,
    ).toBe(0);
  });

  it('counts unsubscribed contacts in (sending leaves them out), and filters them', async () => {
    const t = await registerBusiness(server());
    const p = await people(t);
    await unwrap(
      t.client.general.customers.updateCustomer({ params: { id: p.ada }, body: { unsubscribed: true } }),
    );
    expect(await matching(t, p, [{ field: 'unsubscribed', operator: 'eq', value: true }])).toEqual(['ada']);
    expect((await createSegment(t.client)).contact_count).toBe(4);
  });

  it("never holds another business's contacts", async () => {
    const [t, other] = [await registerBusiness(server()), await registerBusiness(server())];
    await createCustomer(other.client, { name: 'Their Pro', attributes: { plan: 'pro' } });
    const segment = await createSegment(t.client);
    expect(segment.contact_count).toBe(0);
    expect(await segmentContactIds(t.client, segment.id)).toEqual([]);
  });
});
