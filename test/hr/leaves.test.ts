import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type hr } from '../../client/index.js';
import { json, raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { expectResultError, itemAt } from '../support/expect.js';
import {
  createEmployee,
  createLeave,
  deleteEmployee,
  getLeave,
  leaveIn,
  leaveRows,
  updateLeave,
} from '../support/hr.js';
import { useTestServer } from '../support/setup.js';

// A pool large enough that concurrent requests really run at once on PostgreSQL (the exclusion
// constraint, not the pool, must keep overlapping leaves apart). PGlite serialises every request, so
// the concurrent test holds there trivially; it runs on both, never skipped.
const server = useTestServer({ env: { DB_POOL_SIZE: '30' }, worker: false });

const ID = /^lv_[0-9A-HJKMNP-TV-Z]{26}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_ID = 'lv_01JD7X2R5VQ8N3K4M6P9T1W2Y3';
const MISSING_EMPLOYEE = 'emp_01JD7X2R5VQ8N3K4M6P9T1W2Y3';

type ListQuery = NonNullable<
  NonNullable<Parameters<TestBusiness['client']['hr']['leaves']['listLeaves']>[0]>['query']
>;

/** Sends a body the typed client would refuse (unknown fields, wrong types). */
const post = (biz: TestBusiness, body: unknown) =>
  raw(server(), 'POST', '/v1/hr/leaves', { ...json(body), token: biz.accessToken });
const put = (biz: TestBusiness, id: string, body: unknown) =>
  raw(server(), 'PUT', `/v1/hr/leaves/${id}`, { ...json(body), token: biz.accessToken });

const create = (biz: TestBusiness, body: hr.CreateLeaveBody) => biz.client.hr.leaves.createLeave({ body });
const move = (biz: TestBusiness, id: string, body: hr.UpdateLeaveBody) =>
  biz.client.hr.leaves.updateLeave({ params: { id }, body });
const remove = (biz: TestBusiness, id: string) => biz.client.hr.leaves.deleteLeave({ params: { id } });
const list = (biz: TestBusiness, query: ListQuery = {}) => unwrap(biz.client.hr.leaves.listLeaves({ query }));

const DAY_MS = 86_400_000;
const dayOf = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** Monday-to-Friday days from start to end inclusive, counted one calendar day at a time. */
function countWorkingDays(start: string, end: string): number {
  let n = 0;
  for (let t = dayOf(start); t <= dayOf(end); t += DAY_MS) {
    const weekday = new Date(t).getUTCDay();
    if (weekday !== 0 && weekday !== 6) n++;
  }
  return n;
}

/** `date` moved by `days` calendar days. */
const plusDays = (date: string, days: number) =>
  new Date(dayOf(date) + days * DAY_MS).toISOString().slice(0, 10);

let a: TestBusiness;
let b: TestBusiness;
let grace: hr.Employee;

beforeAll(async () => {
  [a, b] = await Promise.all([
    registerBusiness(server(), 'Alpha Ltd'),
    registerBusiness(server(), 'Beta Ltd'),
  ]);
  grace = await createEmployee(a.client, { first_name: 'Grace', last_name: 'Hopper' });
});

afterEach(() => server().clock.reset());

/** A new employee of business `a` with no leave yet. */
const newEmployee = (overrides: Partial<hr.CreateEmployeeBody> = {}) =>
  createEmployee(a.client, { department_id: grace.department_id, ...overrides });

describe('POST /v1/hr/leaves', () => {
  it('requests leave (201 {result, leave_id, message, leave}): pending, with the working days', async () => {
    const body = {
      employee_id: grace.id,
      type: 'annual' as const,
      start_date: '2026-12-21',
      end_date: '2027-01-01',
      reason: 'Holidays',
    };
    const res = await create(a, body);
    expect(res.status).toBe(201);
    if (res.status !== 201) return;
    expect(res.body).toEqual({
      result: 'success',
      leave_id: expect.stringMatching(ID),
      message: expect.any(String),
      leave: {
        ...body,
        id: res.body.leave_id,
        employee_name: 'Grace Hopper',
        paid: true,
        days: 10,
        status: 'pending',
        status_reason: null,
        created_at: expect.stringMatching(ISO),
        updated_at: res.body.leave.created_at,
      },
    });
    expect(await unwrap(a.client.hr.leaves.getLeave({ params: { id: res.body.leave_id } }))).toEqual({
      result: 'success',
      leave: res.body.leave,
    });
  });

  it('takes every leave type; reason is optional (null) and trimmed', async () => {
    const employee = await newEmployee();
    const types = ['annual', 'sick', 'unpaid', 'parental', 'other'] as const;
    for (const [i, type] of types.entries()) {
      const day = plusDays('2027-05-03', i * 7);
      const leave = await createLeave(a.client, employee.id, { type, start_date: day, end_date: day });
      expect(leave).toMatchObject({ type, reason: null, days: 1 });
    }
    const trimmed = await createLeave(a.client, employee.id, {
      start_date: '2027-08-02',
      end_date: '2027-08-02',
      reason: '  Dentist  ',
    });
    expect(trimmed.reason).toBe('Dentist');
  });

  it('lets an on-leave employee request leave', async () => {
    const away = await newEmployee({ status: 'on_leave' });
    expect((await createLeave(a.client, away.id)).status).toBe('pending');
  });

  it('refuses an inactive employee (422 on employee_id)', async () => {
    const inactive = await newEmployee({ status: 'inactive' });
    expectResultError(
      await create(a, {
        employee_id: inactive.id,
        type: 'sick',
        start_date: '2026-12-07',
        end_date: '2026-12-08',
      }),
      422,
      'VALIDATION_ERROR',
      'employee_id',
    );
    // An employee made inactive later is refused too; made active again, accepted.
    const later = await newEmployee();
    await unwrap(
      a.client.hr.employees.updateEmployee({ params: { id: later.id }, body: { status: 'inactive' } }),
    );
    expectResultError(
      await create(a, {
        employee_id: later.id,
        type: 'sick',
        start_date: '2026-12-07',
        end_date: '2026-12-08',
      }),
      422,
      'VALIDATION_ERROR',
      'employee_id',
    );
    await unwrap(
      a.client.hr.employees.updateEmployee({ params: { id: later.id }, body: { status: 'active' } }),
    );
    expect((await createLeave(a.client, later.id)).status).toBe('pending');
  });

  it("refuses an unknown, deleted or another business's employee (422 on employee_id), writing nothing", async () => {
    const theirs = await createEmployee(b.client);
    const gone = await newEmployee();
    await deleteEmployee(a.client, gone.id);
    const before = await leaveRows(server(), a.businessId);
    for (const employee_id of [MISSING_EMPLOYEE, gone.id, theirs.id]) {
      expectResultError(
        await create(a, { employee_id, type: 'annual', start_date: '2026-12-07', end_date: '2026-12-11' }),
        422,
        'VALIDATION_ERROR',
        'employee_id',
      );
    }
    expect(await leaveRows(server(), a.businessId)).toEqual(before);
    expect(await leaveRows(server(), b.businessId)).toEqual([]);
  });

  it('refuses an end_date before start_date (422 on end_date); a one-day leave is fine', async () => {
    expectResultError(
      await create(a, {
        employee_id: grace.id,
        type: 'annual',
        start_date: '2027-02-10',
        end_date: '2027-02-09',
      }),
      422,
      'VALIDATION_ERROR',
      'end_date',
    );
    const oneDay = await createLeave(a.client, grace.id, {
      start_date: '2027-02-10',
      end_date: '2027-02-10',
    });
    expect(oneDay.days).toBe(1);
  });

  it('accepts a leave of 1,096 calendar days and refuses one of 1,097 (422 on end_date)', async () => {
    const employee = await newEmployee();
    expectResultError(
      await create(a, {
        employee_id: employee.id,
        type: 'unpaid',
        start_date: '2030-01-01',
        end_date: '2033-01-01',
      }),
      422,
      'VALIDATION_ERROR',
      'end_date',
    );
    const longest = await createLeave(a.client, employee.id, {
      type: 'unpaid',
      start_date: '2030-01-01',
      end_date: plusDays('2030-01-01', 1095),
    });
    expect(longest.end_date).toBe('2032-12-31');
    expect(longest.days).toBe(countWorkingDays('2030-01-01', '2032-12-31'));
  });

  it.each([
    ['start_date', { start_date: '2026-02-30' }],
    ['end_date', { end_date: '2027-02-29' }],
    ['start_date', { start_date: '2026-13-01' }],
    ['end_date', { end_date: '2026-12-32' }],
    ['start_date', { start_date: '2026-12-7' }],
    ['end_date', { end_date: '' }],
    ['type', { type: 'holiday' }],
    ['type', { type: null }],
    ['employee_id', { employee_id: 42 }],
    ['reason', { reason: 'r'.repeat(1001) }],
    ['reason', { reason: null }],
    ['status', { status: 'approved' }],
    ['days', { days: 3 }],
  ])('refuses a bad %s (422 naming it)', async (field, extra) => {
    const body = {
      employee_id: grace.id,
      type: 'annual',
      start_date: '2026-12-07',
      end_date: '2026-12-11',
      ...extra,
    };
    expectResultError(await post(a, body), 422, 'VALIDATION_ERROR', field);
  });

  it.each(['employee_id', 'type', 'start_date', 'end_date'])(
    'refuses a missing %s (422 naming it)',
    async (field) => {
      const body: Record<string, unknown> = {
        employee_id: grace.id,
        type: 'annual',
        start_date: '2026-12-07',
        end_date: '2026-12-11',
      };
      delete body[field];
      expectResultError(await post(a, body), 422, 'VALIDATION_ERROR', field);
    },
  );
});

describe('days: Monday-to-Friday working days, both ends included', () => {
  it.each([
    ['a working week', '2026-12-07', '2026-12-11', 5],
    ['one Wednesday', '2026-12-09', '2026-12-09', 1],
    ['one Saturday', '2026-12-12', '2026-12-12', 0],
    ['a weekend only', '2026-12-12', '2026-12-13', 0],
    ['Friday to Monday', '2026-12-11', '2026-12-14', 2],
    ['Saturday to Saturday', '2026-12-12', '2026-12-19', 5],
    ['two weeks and a day, from Sunday', '2026-12-06', '2026-12-20', 10],
    ['across a month end', '2026-11-27', '2026-12-02', 4],
    ['across a year end', '2026-12-21', '2027-01-01', 10],
    ['across a year end, weekend to weekend', '2027-12-25', '2028-01-02', 5],
    ['a week over the leap day 2028-02-29', '2028-02-28', '2028-03-03', 5],
    ['Saturday before to Sunday after the leap day', '2028-02-26', '2028-03-05', 5],
    ['the leap day 2024-02-29 alone (a Thursday)', '2024-02-29', '2024-02-29', 1],
    ['February of a leap year', '2028-02-01', '2028-02-29', 21],
    ['February of a common year', '2027-02-01', '2027-02-28', 20],
    ['the year 2027', '2027-01-01', '2027-12-31', 261],
    ['the leap year 2028', '2028-01-01', '2028-12-31', 260],
  ])('%s (%s to %s): %i', async (_, start_date, end_date, days) => {
    expect(countWorkingDays(start_date, end_date)).toBe(days);
    const employee = await newEmployee();
    const leave = await createLeave(a.client, employee.id, { start_date, end_date });
    expect(leave.days).toBe(days);
    expect((await getLeave(a.client, leave.id)).days).toBe(days);
  });
});

describe('the overlap rule', () => {
  // The blocking leave covers Monday 2026-12-07 to Friday 2026-12-11, both ends included.
  const BLOCK = { start_date: '2026-12-07', end_date: '2026-12-11' };

  it.each([
    ['the same days', '2026-12-07', '2026-12-11'],
    ['ending on its first day', '2026-12-01', '2026-12-07'],
    ['starting on its last day', '2026-12-11', '2026-12-18'],
    ['one day inside it', '2026-12-09', '2026-12-09'],
    ['its first day alone', '2026-12-07', '2026-12-07'],
    ['its last day alone', '2026-12-11', '2026-12-11'],
    ['covering it', '2026-11-30', '2026-12-31'],
    ['a weekend-free part of it', '2026-12-08', '2026-12-10'],
  ])(
    'refuses a leave sharing a day with a pending or approved one of the employee: %s (409 CONFLICT)',
    async (_, start_date, end_date) => {
      for (const status of ['pending', 'approved'] as const) {
        const employee = await newEmployee();
        await leaveIn(a.client, employee.id, status, BLOCK);
        const before = await leaveRows(server(), a.businessId);
        expectResultError(
          await create(a, { employee_id: employee.id, type: 'sick', start_date, end_date }),
          409,
          'CONFLICT',
        );
        expect(await leaveRows(server(), a.businessId)).toEqual(before);
      }
    },
  );

  it('accepts the leaves that touch it without sharing a day', async () => {
    const employee = await newEmployee();
    await leaveIn(a.client, employee.id, 'approved', BLOCK);
    const before = await createLeave(a.client, employee.id, {
      start_date: '2026-12-01',
      end_date: '2026-12-06',
    });
    const after = await createLeave(a.client, employee.id, {
      start_date: '2026-12-12',
      end_date: '2026-12-14',
    });
    expect([before.status, after.status]).toEqual(['pending', 'pending']);
  });

  it.each(['rejected', 'cancelled'] as const)('lets a %s leave free its days', async (status) => {
    const employee = await newEmployee();
    await leaveIn(a.client, employee.id, status, BLOCK);
    expect((await createLeave(a.client, employee.id, BLOCK)).status).toBe('pending');
  });

  it('lets an approved leave, once cancelled, free its days', async () => {
    const employee = await newEmployee();
    const approved = await leaveIn(a.client, employee.id, 'approved', BLOCK);
    expectResultError(
      await create(a, { employee_id: employee.id, type: 'annual', ...BLOCK }),
      409,
      'CONFLICT',
    );
    await updateLeave(a.client, approved.id, 'cancelled');
    expect((await createLeave(a.client, employee.id, BLOCK)).status).toBe('pending');
  });

  it('lets a deleted leave free its days', async () => {
    const employee = await newEmployee();
    const pending = await createLeave(a.client, employee.id, BLOCK);
    await unwrap(remove(a, pending.id));
    expect((await createLeave(a.client, employee.id, BLOCK)).status).toBe('pending');
  });

  it("does not compare leaves of different employees, nor of another business's", async () => {
    const [first, second] = [await newEmployee(), await newEmployee()];
    await leaveIn(a.client, first.id, 'approved', BLOCK);
    expect((await createLeave(a.client, second.id, BLOCK)).status).toBe('pending');
    const theirs = await createEmployee(b.client);
    expect((await createLeave(b.client, theirs.id, BLOCK)).status).toBe('pending');
  });
});

describe(`ten concurrent overlapping requests for one employee (${
  onPostgres ? 'PostgreSQL, truly concurrent' : 'PGlite, which serialises them'
})`, () => {
  it.each([1, 2, 3])('round %i: exactly one 201 and nine 409 CONFLICT, one row stored', async () => {
    const employee = await newEmployee();
    // Ten different ranges, every one of them covering Wednesday 2027-03-10.
    const bodies = Array.from({ length: 10 }, (_, i) => ({
      employee_id: employee.id,
      type: 'annual' as const,
      start_date: plusDays('2027-03-10', -i),
      end_date: plusDays('2027-03-10', i % 3),
    }));
    const answers = await Promise.all(bodies.map((body) => create(a, body)));
    const created = answers.filter((res) => res.status === 201);
    const refused = answers.filter((res) => res.status !== 201);
    expect(created).toHaveLength(1);
    expect(refused).toHaveLength(9);
    for (const res of refused) expectResultError(res, 409, 'CONFLICT');

    const rows = (await leaveRows(server(), a.businessId)).filter((r) => r.employee_id === employee.id);
    expect(rows).toHaveLength(1);
    const winner = itemAt(created, 0);
    if (winner.status !== 201) return;
    expect(itemAt(rows, 0).id).toBe(winner.body.leave_id);
    expect(await list(a, { employee_id: employee.id })).toEqual({
      result: 'success',
      leaves: [winner.body.leave],
      total_count: 1,
    });
  });
});

/** Two leaves share a day. */
const overlapping = (
  x: { start_date: string; end_date: string },
  y: { start_date: string; end_date: string },
) => x.start_date <= y.end_date && y.start_date <= x.end_date;

/** The pending and approved leaves stored for the employee: no two may share a day. */
async function expectNoOverlapStored(employeeId: string) {
  const rows = (await leaveRows(server(), a.businessId)).filter(
    (r) =>
      r.employee_id === employeeId && (r.status === 'pending' || r.status === 'approved') && !r.deleted_at,
  );
  for (const [i, x] of rows.entries()) {
    for (const y of rows.slice(i + 1)) expect(overlapping(x, y), `${x.id} and ${y.id} overlap`).toBe(false);
  }
  return rows;
}

describe(`racing writes of one employee's leaves never answer 500 (${
  onPostgres ? 'PostgreSQL, truly concurrent' : 'PGlite, which serialises them'
})`, () => {
  // Each range shares its last day with the next one's first: every request conflicts with its two
  // neighbours only, the pattern in which the overlap constraint's checks used to deadlock.
  const chain = (employeeId: string, first: string, n: number) =>
    Array.from({ length: n }, (_, i) => ({
      employee_id: employeeId,
      type: 'annual' as const,
      start_date: plusDays(first, 2 * i),
      end_date: plusDays(first, 2 * i + 2),
    }));

  it.each([1, 2, 3, 4, 5])(
    'round %i: ten chained ranges at once answer 201 or 409 CONFLICT, and what is stored never overlaps',
    async () => {
      const employee = await newEmployee();
      const bodies = chain(employee.id, '2027-06-01', 10);
      const answers = await Promise.all(bodies.map((body) => create(a, body)));
      const rows = await expectNoOverlapStored(employee.id);
      expect(rows).toHaveLength(answers.filter((res) => res.status === 201).length);
      for (const [i, res] of answers.entries()) {
        if (res.status === 201) continue;
        expectResultError(res, 409, 'CONFLICT');
        // Refused for its rule only: a stored leave shares a day with it.
        expect(rows.some((row) => overlapping(row, bodies[i]!))).toBe(true);
      }
    },
  );

  it.each(['cancelled', 'rejected', 'deleted'] as const)(
    'a leave %s while nine requests overlapping it race: no 500, nothing overlapping stored (4 rounds)',
    async (how) => {
      for (let round = 0; round < 4; round++) {
        const employee = await newEmployee();
        const block = {
          employee_id: employee.id,
          type: 'annual' as const,
          start_date: '2027-09-06',
          end_date: '2027-09-17',
        };
        const held = (await unwrap(create(a, block))).leave;
        const contenders = Array.from({ length: 9 }, (_, i) => ({
          ...block,
          start_date: plusDays('2027-09-06', i),
          end_date: plusDays('2027-09-06', i + 1 + (i % 3)),
        }));
        const freeing =
          how === 'deleted' ? remove(a, held.id) : move(a, held.id, { status: how, reason: 'Plans changed' });
        const [freed, ...answers] = await Promise.all([
          freeing,
          ...contenders.map((body) => create(a, body)),
        ]);
        expect(freed.status, JSON.stringify(freed.body)).toBe(200);
        const rows = await expectNoOverlapStored(employee.id);
        expect(rows).toHaveLength(answers.filter((res) => res.status === 201).length);
        // Each was refused by the leave being freed (if it came first) or by a stored contender.
        for (const res of answers) if (res.status !== 201) expectResultError(res, 409, 'CONFLICT');
      }
    },
  );
});

describe('GET /v1/hr/leaves/:id', () => {
  it('answers {result, leave}', async () => {
    const leave = await createLeave(a.client, (await newEmployee()).id);
    expect(await unwrap(a.client.hr.leaves.getLeave({ params: { id: leave.id } }))).toEqual({
      result: 'success',
      leave,
    });
  });

  it("answers 404 NOT_FOUND for an unknown id, another business's leave, a deleted leave and a deleted employee's", async () => {
    const theirs = await createLeave(b.client, (await createEmployee(b.client)).id);
    const deleted = await createLeave(a.client, (await newEmployee()).id);
    await unwrap(remove(a, deleted.id));
    const leaver = await newEmployee();
    const orphan = await createLeave(a.client, leaver.id);
    await deleteEmployee(a.client, leaver.id);
    for (const id of [MISSING_ID, theirs.id, deleted.id, orphan.id]) {
      expectResultError(await a.client.hr.leaves.getLeave({ params: { id } }), 404, 'NOT_FOUND');
    }
  });
});

describe('PUT /v1/hr/leaves/:id', () => {
  it.each(['approved', 'rejected', 'cancelled'] as const)(
    'moves a pending leave to %s (200 {result, message, leave}); reason is kept as status_reason',
    async (status) => {
      const pending = await createLeave(a.client, (await newEmployee()).id, { reason: 'Family visit' });
      server().clock.advance(1000);
      const res = await unwrap(move(a, pending.id, { status, reason: ' Decided by HR ' }));
      expect(res).toEqual({
        result: 'success',
        message: expect.any(String),
        leave: {
          ...pending,
          status,
          reason: 'Family visit',
          status_reason: 'Decided by HR',
          updated_at: expect.stringMatching(ISO),
        },
      });
      expect(Date.parse(res.leave.updated_at)).toBeGreaterThan(Date.parse(pending.updated_at));
      expect(await getLeave(a.client, pending.id)).toEqual(res.leave);
    },
  );

  it('cancels an approved leave; status_reason is the reason of the last move (null when none)', async () => {
    const pending = await createLeave(a.client, (await newEmployee()).id);
    expect((await updateLeave(a.client, pending.id, 'approved', 'Enjoy')).status_reason).toBe('Enjoy');
    const cancelled = await updateLeave(a.client, pending.id, 'cancelled');
    expect(cancelled).toMatchObject({ status: 'cancelled', status_reason: null });
  });

  it.each([
    ['approved', 'approved'],
    ['approved', 'rejected'],
    ['rejected', 'approved'],
    ['rejected', 'rejected'],
    ['rejected', 'cancelled'],
    ['cancelled', 'approved'],
    ['cancelled', 'rejected'],
    ['cancelled', 'cancelled'],
  ] as const)('refuses %s -> %s (409 INVALID_STATE) and changes nothing', async (from, to) => {
    const leave = await leaveIn(a.client, (await newEmployee()).id, from);
    expectResultError(
      await move(a, leave.id, { status: to, reason: 'Second thoughts' }),
      409,
      'INVALID_STATE',
    );
    expect(await getLeave(a.client, leave.id)).toEqual(leave);
  });

  it.each([
    ['status', { status: 'pending' }],
    ['status', { status: 'done' }],
    ['status', {}],
    ['reason', { status: 'approved', reason: 'r'.repeat(1001) }],
    ['start_date', { status: 'approved', start_date: '2026-12-08' }],
  ])('refuses a bad or unknown %s (422 naming it) and changes nothing', async (field, body) => {
    const leave = await createLeave(a.client, (await newEmployee()).id);
    expectResultError(await put(a, leave.id, body), 422, 'VALIDATION_ERROR', field);
    expect(await getLeave(a.client, leave.id)).toEqual(leave);
  });

  it("answers 404 NOT_FOUND for an unknown id, another business's leave and a deleted one", async () => {
    const theirs = await createLeave(b.client, (await createEmployee(b.client)).id);
    const deleted = await createLeave(a.client, (await newEmployee()).id);
    await unwrap(remove(a, deleted.id));
    for (const id of [MISSING_ID, theirs.id, deleted.id]) {
      expectResultError(await move(a, id, { status: 'approved' }), 404, 'NOT_FOUND');
    }
    expect(await getLeave(b.client, theirs.id)).toEqual(theirs);
  });
});

describe('DELETE /v1/hr/leaves/:id', () => {
  it.each(['pending', 'rejected', 'cancelled'] as const)(
    'deletes a %s leave (200 {result, message}): soft, 404 afterwards, gone from the list',
    async (status) => {
      const employee = await newEmployee();
      const leave = await leaveIn(a.client, employee.id, status);
      expect(await unwrap(remove(a, leave.id))).toEqual({ result: 'success', message: expect.any(String) });
      expectResultError(await a.client.hr.leaves.getLeave({ params: { id: leave.id } }), 404, 'NOT_FOUND');
      expectResultError(await remove(a, leave.id), 404, 'NOT_FOUND');
      expect(await list(a, { employee_id: employee.id })).toEqual({
        result: 'success',
        leaves: [],
        total_count: 0,
      });
      const row = (await leaveRows(server(), a.businessId)).find((r) => r.id === leave.id);
      expect(row?.deleted_at).toBeInstanceOf(Date);
      expect(row?.status).toBe(status);
    },
  );

  it('refuses an approved leave (409 INVALID_STATE): it is cancelled first', async () => {
    const approved = await leaveIn(a.client, (await newEmployee()).id, 'approved');
    expectResultError(await remove(a, approved.id), 409, 'INVALID_STATE');
    expect(await getLeave(a.client, approved.id)).toEqual(approved);
    await updateLeave(a.client, approved.id, 'cancelled');
    expect((await unwrap(remove(a, approved.id))).result).toBe('success');
  });

  it("answers 404 NOT_FOUND for an unknown id and another business's leave, which stays", async () => {
    const theirs = await createLeave(b.client, (await createEmployee(b.client)).id);
    for (const id of [MISSING_ID, theirs.id]) expectResultError(await remove(a, id), 404, 'NOT_FOUND');
    expect(await getLeave(b.client, theirs.id)).toEqual(theirs);
  });
});

describe('GET /v1/hr/leaves', () => {
  let c: TestBusiness;
  let staff: hr.Employee[];
  let everyone: hr.Leave[];

  /** Latest start first, ties by id (latest id first). */
  const byStart = (leaves: hr.Leave[]) =>
    [...leaves].sort((x, y) =>
      x.start_date === y.start_date ? (x.id < y.id ? 1 : -1) : x.start_date < y.start_date ? 1 : -1,
    );

  beforeAll(async () => {
    c = await registerBusiness(server(), 'Leave List Ltd');
    const first = await createEmployee(c.client, { first_name: 'Ada', last_name: 'Lovelace' });
    staff = [first];
    for (let i = 0; i < 2; i++)
      staff.push(await createEmployee(c.client, { department_id: first.department_id }));
    // 51 one-day leaves: three employees, 17 Mondays each (the three share each Monday), in every status.
    const statuses = ['pending', 'approved', 'rejected', 'cancelled'] as const;
    for (let i = 0; i < 51; i++) {
      const day = plusDays('2027-01-04', Math.floor(i / 3) * 7);
      await leaveIn(c.client, itemAt(staff, i % 3).id, itemAt(statuses, i % 4), {
        start_date: day,
        end_date: day,
      });
    }
    everyone = (await list(c, { limit: 200 })).leaves;
  });

  it('lists the latest start first, ties by id, 50 by default, with total_count', async () => {
    expect(everyone).toHaveLength(51);
    expect(everyone).toEqual(byStart(everyone));
    const first = await list(c);
    expect(first).toEqual({ result: 'success', leaves: everyone.slice(0, 50), total_count: 51 });
    expect(itemAt(everyone, 0).start_date).toBe(plusDays('2027-01-04', 16 * 7));
    expect(itemAt(everyone, -1).start_date).toBe('2027-01-04');
    const ada = everyone.filter((l) => l.employee_id === itemAt(staff, 0).id);
    expect(ada.every((l) => l.employee_name === 'Ada Lovelace')).toBe(true);
  });

  it('filters by employee_id and status, alone and together, with their total_count', async () => {
    const cases: ListQuery[] = [
      { employee_id: itemAt(staff, 0).id },
      { employee_id: itemAt(staff, 2).id },
      { status: 'pending' },
      { status: 'approved' },
      { status: 'rejected' },
      { status: 'cancelled' },
      { employee_id: itemAt(staff, 1).id, status: 'approved' },
    ];
    for (const query of cases) {
      const expected = everyone.filter(
        (l) =>
          (query.employee_id === undefined || l.employee_id === query.employee_id) &&
          (query.status === undefined || l.status === query.status),
      );
      expect(expected.length).toBeGreaterThan(0);
      expect(await list(c, { ...query, limit: 200 })).toEqual({
        result: 'success',
        leaves: expected,
        total_count: expected.length,
      });
    }
  });

  it('pages of a filtered list cover every match exactly once; an offset past the end answers []', async () => {
    const query = { status: 'pending' as const };
    const expected = everyone.filter((l) => l.status === 'pending');
    for (const limit of [1, 5, expected.length]) {
      const seen: hr.Leave[] = [];
      for (let offset = 0; ; offset += limit) {
        const page = await list(c, { ...query, limit, offset });
        expect(page.total_count).toBe(expected.length);
        if (page.leaves.length === 0) break;
        seen.push(...page.leaves);
      }
      expect(seen).toEqual(expected);
    }
    for (const offset of [51, 1000]) {
      expect(await list(c, { offset })).toEqual({ result: 'success', leaves: [], total_count: 51 });
    }
    expect(await list(c, { offset: 50 })).toEqual({
      result: 'success',
      leaves: [itemAt(everyone, 50)],
      total_count: 51,
    });
  });

  it("answers an empty list for another business's or an unknown employee", async () => {
    const empty = { result: 'success', leaves: [], total_count: 0 };
    expect(await list(b, { employee_id: itemAt(staff, 0).id })).toEqual(empty);
    expect(await list(c, { employee_id: MISSING_EMPLOYEE })).toEqual(empty);
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['offset=-1', 'offset'],
    ['status=done', 'status'],
  ])('refuses %s (422)', async (query, field) => {
    const res = await raw(server(), 'GET', `/v1/hr/leaves?${query}`, { token: c.accessToken });
    expectResultError(res, 422, 'VALIDATION_ERROR', field);
  });
});
