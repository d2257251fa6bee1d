import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type hr } from '../../client/index.js';
import { MAX_SALARY_MINOR } from '../../contract/hr/index.js';
import { json, raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { expectError, expectResultError, itemAt } from '../support/expect.js';
import {
  createDepartment,
  createEmployee,
  createLeave,
  deleteEmployee,
  employeeRows,
  getDepartment,
  getEmployee,
  uniqueEmployeeEmail,
} from '../support/hr.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ worker: false });

const ID = /^emp_[0-9A-HJKMNP-TV-Z]{26}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_ID = 'emp_01JD7X2R5VQ8N3K4M6P9T1W2Y3';
const MISSING_DEPARTMENT = 'dep_01JD7X2R5VQ8N3K4M6P9T1W2Y3';

type Employees = TestBusiness['client']['hr']['employees'];
type ListQuery = NonNullable<NonNullable<Parameters<Employees['listEmployees']>[0]>['query']>;
type GeneralQuery = NonNullable<NonNullable<Parameters<Employees['listGeneralEmployees']>[0]>['query']>;

/** Sends a body the typed client would refuse (unknown fields, wrong types). */
const post = (biz: TestBusiness, body: unknown) =>
  raw(server(), 'POST', '/v1/hr/employees', { ...json(body), token: biz.accessToken });
const put = (biz: TestBusiness, id: string, body: unknown) =>
  raw(server(), 'PUT', `/v1/hr/employees/${id}`, { ...json(body), token: biz.accessToken });
const get = (biz: TestBusiness, path: string) => raw(server(), 'GET', path, { token: biz.accessToken });

const list = (biz: TestBusiness, query: ListQuery = {}) =>
  unwrap(biz.client.hr.employees.listEmployees({ query }));
const alias = (biz: TestBusiness, query: ListQuery = {}) =>
  unwrap(biz.client.hr.employees.listEmployeesAlias({ query }));
const general = (biz: TestBusiness, query: GeneralQuery = {}) =>
  unwrap(biz.client.hr.employees.listGeneralEmployees({ query }));

const update = (biz: TestBusiness, id: string, body: hr.UpdateEmployeeBody) =>
  biz.client.hr.employees.updateEmployee({ params: { id }, body });

/** The required fields of a new employee of `department_id`. */
const required = (department_id: string) => ({
  first_name: 'Ada',
  last_name: 'Lovelace',
  email: uniqueEmployeeEmail('ada'),
  department_id,
  position: 'Analyst',
  hire_date: '2025-01-06',
});

/** `list` in the given order over `field`, ties by id in the same direction. */
function sortedBy<T extends { id: string }>(items: T[], field: keyof T, direction: 'asc' | 'desc'): T[] {
  const sign = direction === 'asc' ? 1 : -1;
  const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return [...items].sort((x, y) => sign * (cmp(String(x[field]), String(y[field])) || cmp(x.id, y.id)));
}

/** Every page of the HR list for `query`, `limit` at a time, until an empty page. */
async function allPages(biz: TestBusiness, query: ListQuery, limit: number): Promise<hr.Employee[]> {
  const out: hr.Employee[] = [];
  for (let offset = 0; ; offset += limit) {
    const page = await list(biz, { ...query, limit, offset });
    if (page.employees.length === 0) break;
    expect(page.employees.length).toBeLessThanOrEqual(limit);
    out.push(...page.employees);
  }
  return out;
}

/** Every page of the general list for `query`, `limit` at a time, until an empty page. */
async function allGeneralPages(biz: TestBusiness, query: GeneralQuery, limit: number) {
  const out: hr.GeneralEmployee[] = [];
  for (let page = 1; ; page++) {
    const res = await general(biz, { ...query, page, limit });
    expect(res.pagination).toMatchObject({ page, limit });
    if (res.data.length === 0) break;
    out.push(...res.data);
  }
  return out;
}

let a: TestBusiness;
let b: TestBusiness;
let dep: hr.Department;

beforeAll(async () => {
  [a, b] = await Promise.all([
    registerBusiness(server(), 'Alpha Ltd'),
    registerBusiness(server(), 'Beta Ltd'),
  ]);
  dep = await createDepartment(a.client, { name: 'Engineering' });
});

afterEach(() => server().clock.reset());

describe('POST /v1/hr/employees', () => {
  it('creates an employee from the required fields (201): active, no phone or salary, USD', async () => {
    const body = required(dep.id);
    const res = await a.client.hr.employees.createEmployee({ body });
    expect(res.status).toBe(201);
    if (res.status !== 201) return;
    expect(res.body).toEqual({
      result: 'success',
      employee_id: expect.stringMatching(ID),
      message: expect.any(String),
      employee: {
        ...body,
        id: res.body.employee_id,
        department: 'Engineering',
        phone: null,
        status: 'active',
        salary: null,
        currency: 'USD',
        created_at: expect.stringMatching(ISO),
        updated_at: res.body.employee.created_at,
      },
    });
    expect(await unwrap(a.client.hr.employees.getEmployee({ params: { id: res.body.employee_id } }))).toEqual(
      {
        result: 'success',
        employee: res.body.employee,
      },
    );
  });

  it('takes every optional field: phone, salary, currency and status', async () => {
    const body = {
      ...required(dep.id),
      phone: '+44 20 7946 0000',
      salary: 850_000,
      currency: 'EUR',
      status: 'on_leave' as const,
    };
    const employee = (await unwrap(a.client.hr.employees.createEmployee({ body }))).employee;
    expect(employee).toMatchObject({ ...body, department: 'Engineering' });
  });

  it('trims names, position and phone', async () => {
    const employee = await createEmployee(a.client, {
      department_id: dep.id,
      first_name: '  Grace ',
      last_name: ' Hopper  ',
      position: '  Rear admiral ',
      phone: ' +1 555 0100 ',
    });
    expect(employee).toMatchObject({
      first_name: 'Grace',
      last_name: 'Hopper',
      position: 'Rear admiral',
      phone: '+1 555 0100',
    });
  });

  it.each(['first_name', 'last_name', 'email', 'department_id', 'position', 'hire_date'] as const)(
    'refuses a missing %s (422 naming it)',
    async (field) => {
      const body: Record<string, unknown> = required(dep.id);
      delete body[field];
      expectResultError(await post(a, body), 422, 'VALIDATION_ERROR', field);
    },
  );

  it("refuses a department that is not the business's: unknown, deleted or another business's (422 on department_id)", async () => {
    const theirs = await createDepartment(b.client);
    const gone = await createDepartment(a.client);
    await unwrap(a.client.hr.departments.deleteDepartment({ params: { id: gone.id } }));
    const before = await employeeRows(server(), a.businessId);
    for (const department_id of [MISSING_DEPARTMENT, gone.id, theirs.id]) {
      expectResultError(
        await a.client.hr.employees.createEmployee({ body: required(department_id) }),
        422,
        'VALIDATION_ERROR',
        'department_id',
      );
    }
    expect(await employeeRows(server(), a.businessId)).toEqual(before);
  });

  it('refuses an email already used by an employee of the business, case-insensitively (409 CONFLICT)', async () => {
    const email = uniqueEmployeeEmail('Grace.Hopper');
    const first = await createEmployee(a.client, { department_id: dep.id, email });
    for (const again of [email, email.toUpperCase(), email.toLowerCase()]) {
      expectResultError(
        await a.client.hr.employees.createEmployee({ body: { ...required(dep.id), email: again } }),
        409,
        'CONFLICT',
      );
    }
    const rows = (await employeeRows(server(), a.businessId)).filter(
      (r) => r.email.toLowerCase() === email.toLowerCase(),
    );
    expect(rows.map((r) => r.id)).toEqual([first.id]);
  });

  it('refuses the email of an inactive or on-leave employee too (409 CONFLICT)', async () => {
    for (const status of ['inactive', 'on_leave'] as const) {
      const holder = await createEmployee(a.client, { department_id: dep.id, status });
      expectResultError(
        await a.client.hr.employees.createEmployee({ body: { ...required(dep.id), email: holder.email } }),
        409,
        'CONFLICT',
      );
    }
  });

  it('lets another business use the same email, and a deleted employee’s email be used again', async () => {
    const email = uniqueEmployeeEmail('shared');
    const mine = await createEmployee(a.client, { department_id: dep.id, email });
    expect((await createEmployee(b.client, { email })).email).toBe(email);
    await deleteEmployee(a.client, mine.id);
    const again = await createEmployee(a.client, { department_id: dep.id, email: email.toUpperCase() });
    expect(again.id).not.toBe(mine.id);
    expect(again.email).toBe(email.toUpperCase());
  });

  it('accepts salary 0 and the largest salary, in any ISO 4217 currency', async () => {
    const zero = await createEmployee(a.client, { department_id: dep.id, salary: 0, currency: 'JPY' });
    expect(zero).toMatchObject({ salary: 0, currency: 'JPY' });
    const top = await createEmployee(a.client, {
      department_id: dep.id,
      salary: MAX_SALARY_MINOR,
      currency: 'KWD',
    });
    expect(top).toMatchObject({ salary: MAX_SALARY_MINOR, currency: 'KWD' });
    expect((await getEmployee(a.client, top.id)).salary).toBe(MAX_SALARY_MINOR);
  });

  it.each([
    ['salary', -1],
    ['salary', 8500.5],
    ['salary', MAX_SALARY_MINOR + 1],
    ['salary', '850000'],
    ['currency', 'XYZ'],
    ['currency', 'usd'],
    ['currency', 'US'],
    ['status', 'retired'],
    ['status', 'ACTIVE'],
    ['email', 'not-an-email'],
    ['email', 42],
    ['first_name', ''],
    ['first_name', '   '],
    ['last_name', 'x'.repeat(101)],
    ['position', ''],
    ['phone', 'p'.repeat(41)],
    ['department_id', 12],
  ])('refuses %s %j (422 naming it)', async (field, value) => {
    expectResultError(await post(a, { ...required(dep.id), [field]: value }), 422, 'VALIDATION_ERROR', field);
  });

  it.each([
    '2026-02-30',
    '2025-02-29',
    '2026-13-01',
    '2026-04-31',
    '2026-1-5',
    '2026/01/05',
    '',
    'yesterday',
  ])('refuses the hire_date %j (422): dates are real calendar dates', async (hire_date) => {
    expectResultError(
      await post(a, { ...required(dep.id), hire_date }),
      422,
      'VALIDATION_ERROR',
      'hire_date',
    );
  });

  it('accepts a leap day as hire_date', async () => {
    expect(
      (await createEmployee(a.client, { department_id: dep.id, hire_date: '2024-02-29' })).hire_date,
    ).toBe('2024-02-29');
  });

  it('refuses an unknown body field, naming it (422)', async () => {
    expectResultError(
      await post(a, { ...required(dep.id), nickname: 'Ada' }),
      422,
      'VALIDATION_ERROR',
      'nickname',
    );
    expectResultError(await post(a, { ...required(dep.id), id: MISSING_ID }), 422, 'VALIDATION_ERROR', 'id');
  });
});

describe('GET /v1/hr/employees/:id', () => {
  it('answers {result, employee} with the department name', async () => {
    const created = await createEmployee(a.client, { department_id: dep.id, salary: 1999 });
    expect(await unwrap(a.client.hr.employees.getEmployee({ params: { id: created.id } }))).toEqual({
      result: 'success',
      employee: { ...created, department: 'Engineering', salary: 1999 },
    });
  });

  it("answers 404 NOT_FOUND for an unknown id, another business's employee and a deleted one", async () => {
    const theirs = await createEmployee(b.client);
    const gone = await createEmployee(a.client, { department_id: dep.id });
    await deleteEmployee(a.client, gone.id);
    for (const id of [MISSING_ID, theirs.id, gone.id]) {
      expectResultError(await a.client.hr.employees.getEmployee({ params: { id } }), 404, 'NOT_FOUND');
    }
  });
});

describe('PUT /v1/hr/employees/:id', () => {
  it('updates every field it takes (200 {result, message, employee}) and moves updated_at', async () => {
    const created = await createEmployee(a.client, { department_id: dep.id });
    const sales = await createDepartment(a.client, { name: 'Sales' });
    server().clock.advance(1000);
    const body = {
      first_name: 'Augusta',
      last_name: 'King',
      email: uniqueEmployeeEmail('augusta'),
      phone: '+44 20 0000 0000',
      position: 'Countess',
      department_id: sales.id,
      salary: 1_200_000,
      currency: 'GBP',
      status: 'on_leave' as const,
      hire_date: '2024-02-29',
    };
    const res = await unwrap(update(a, created.id, body));
    expect(res).toEqual({
      result: 'success',
      message: expect.any(String),
      employee: {
        ...created,
        ...body,
        department: 'Sales',
        updated_at: expect.stringMatching(ISO),
      },
    });
    expect(Date.parse(res.employee.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));
    expect(await getEmployee(a.client, created.id)).toEqual(res.employee);
  });

  it('changes only what the body names', async () => {
    const created = await createEmployee(a.client, {
      department_id: dep.id,
      salary: 500_000,
      phone: '+1 555 0199',
    });
    const res = await unwrap(update(a, created.id, { position: 'Principal engineer' }));
    expect(res.employee).toEqual({
      ...created,
      position: 'Principal engineer',
      updated_at: expect.any(String),
    });
  });

  it('clears phone and salary with null', async () => {
    const created = await createEmployee(a.client, {
      department_id: dep.id,
      salary: 500_000,
      phone: '+1 555 0199',
    });
    const res = await unwrap(update(a, created.id, { phone: null, salary: null }));
    expect(res.employee).toMatchObject({ phone: null, salary: null, currency: created.currency });
  });

  it('lets any status follow any other', async () => {
    const created = await createEmployee(a.client, { department_id: dep.id });
    for (const status of ['inactive', 'on_leave', 'active', 'on_leave', 'inactive', 'active'] as const) {
      expect((await unwrap(update(a, created.id, { status }))).employee.status).toBe(status);
    }
  });

  it('changes nothing for an empty body (200, updated_at kept)', async () => {
    const created = await createEmployee(a.client, { department_id: dep.id });
    server().clock.advance(1000);
    expect(await unwrap(update(a, created.id, {}))).toEqual({
      result: 'success',
      message: expect.any(String),
      employee: created,
    });
  });

  it("refuses a department that is not the business's (422 on department_id) and changes nothing", async () => {
    const created = await createEmployee(a.client, { department_id: dep.id });
    const theirs = await createDepartment(b.client);
    for (const department_id of [MISSING_DEPARTMENT, theirs.id]) {
      expectResultError(
        await update(a, created.id, { department_id }),
        422,
        'VALIDATION_ERROR',
        'department_id',
      );
    }
    expect(await getEmployee(a.client, created.id)).toEqual(created);
  });

  it("refuses another employee's email, case-insensitively (409 CONFLICT); takes its own in another case", async () => {
    const holder = await createEmployee(a.client, { department_id: dep.id });
    const created = await createEmployee(a.client, { department_id: dep.id });
    expectResultError(await update(a, created.id, { email: holder.email.toUpperCase() }), 409, 'CONFLICT');
    expect(await getEmployee(a.client, created.id)).toEqual(created);
    const own = created.email.toUpperCase();
    expect((await unwrap(update(a, created.id, { email: own }))).employee.email).toBe(own);
  });

  it.each([
    ['nickname', 'Ada'],
    ['first_name', null],
    ['email', null],
    ['department_id', null],
    ['status', 'retired'],
    ['salary', -5],
    ['currency', 'ABC'],
    ['hire_date', '2026-02-30'],
    ['hire_date', null],
  ])('refuses %s %j (422 naming it) and changes nothing', async (field, value) => {
    const created = await createEmployee(a.client, { department_id: dep.id });
    expectResultError(await put(a, created.id, { [field]: value }), 422, 'VALIDATION_ERROR', field);
    expect(await getEmployee(a.client, created.id)).toEqual(created);
  });

  it("answers 404 NOT_FOUND for an unknown id, another business's employee and a deleted one", async () => {
    const theirs = await createEmployee(b.client);
    const gone = await createEmployee(a.client, { department_id: dep.id });
    await deleteEmployee(a.client, gone.id);
    for (const id of [MISSING_ID, theirs.id, gone.id]) {
      expectResultError(await update(a, id, { position: 'Intruder' }), 404, 'NOT_FOUND');
    }
    expect(await getEmployee(b.client, theirs.id)).toEqual(theirs);
  });
});

describe('DELETE /v1/hr/employees/:id', () => {
  it('deletes softly (200 {result, message}): 404 afterwards, gone from every list', async () => {
    const c = await registerBusiness(server(), 'Delete Ltd');
    const keep = await createEmployee(c.client);
    const gone = await createEmployee(c.client, { department_id: keep.department_id });
    expect((await list(c)).total_count).toBe(2);
    expect(await unwrap(c.client.hr.employees.deleteEmployee({ params: { id: gone.id } }))).toEqual({
      result: 'success',
      message: expect.any(String),
    });

    expectResultError(await c.client.hr.employees.getEmployee({ params: { id: gone.id } }), 404, 'NOT_FOUND');
    expectResultError(await update(c, gone.id, { position: 'Ghost' }), 404, 'NOT_FOUND');
    expectResultError(
      await c.client.hr.employees.deleteEmployee({ params: { id: gone.id } }),
      404,
      'NOT_FOUND',
    );
    const expected = { result: 'success', employees: [keep], total_count: 1 };
    expect(await list(c)).toEqual(expected);
    expect(await list(c, { department_id: keep.department_id })).toEqual(expected);
    expect(await list(c, { status: 'active' })).toEqual(expected);
    expect(await alias(c)).toEqual(expected);
    const page = await general(c);
    expect(page.data.map((e) => e.id)).toEqual([keep.id]);
    expect(page.pagination.total).toBe(1);
    expect((await getDepartment(c.client, keep.department_id)).employee_count).toBe(1);

    const row = (await employeeRows(server(), c.businessId)).find((r) => r.id === gone.id);
    expect(row?.deleted_at).toBeInstanceOf(Date);
  });

  it('hides their leaves from the leave list and reads, and clears the head of departments they head', async () => {
    const c = await registerBusiness(server(), 'Leavers Ltd');
    const head = await createEmployee(c.client);
    const other = await createEmployee(c.client, { department_id: head.department_id });
    const led = await createDepartment(c.client, { head: head.id });
    const theirLeave = await createLeave(c.client, head.id);
    const otherLeave = await createLeave(c.client, other.id);
    await deleteEmployee(c.client, head.id);

    expectResultError(await c.client.hr.leaves.getLeave({ params: { id: theirLeave.id } }), 404, 'NOT_FOUND');
    expectResultError(
      await c.client.hr.leaves.updateLeave({ params: { id: theirLeave.id }, body: { status: 'approved' } }),
      404,
      'NOT_FOUND',
    );
    const leaves = await unwrap(c.client.hr.leaves.listLeaves({ query: {} }));
    expect(leaves).toEqual({ result: 'success', leaves: [otherLeave], total_count: 1 });
    expect(await unwrap(c.client.hr.leaves.listLeaves({ query: { employee_id: head.id } }))).toEqual({
      result: 'success',
      leaves: [],
      total_count: 0,
    });
    expect((await getDepartment(c.client, led.id)).head).toBeNull();
  });

  it("answers 404 NOT_FOUND for an unknown id and another business's employee, which stays", async () => {
    const theirs = await createEmployee(b.client);
    for (const id of [MISSING_ID, theirs.id]) {
      expectResultError(await a.client.hr.employees.deleteEmployee({ params: { id } }), 404, 'NOT_FOUND');
    }
    expect(await getEmployee(b.client, theirs.id)).toEqual(theirs);
  });
});

describe('GET /v1/hr/employees', () => {
  it('lists newest first with the department name, and total_count', async () => {
    const c = await registerBusiness(server(), 'Order Ltd');
    const ops = await createDepartment(c.client, { name: 'Operations' });
    const made: hr.Employee[] = [];
    for (let i = 0; i < 4; i++) {
      made.push(await createEmployee(c.client, { department_id: ops.id }));
      server().clock.advance(1000);
    }
    const res = await list(c);
    expect(res).toEqual({ result: 'success', employees: [...made].reverse(), total_count: 4 });
    expect(res.employees.every((e) => e.department === 'Operations')).toBe(true);
  });

  it('breaks ties of created_at by id, newest id first', async () => {
    const c = await registerBusiness(server(), 'Ties Ltd');
    const ops = await createDepartment(c.client);
    server().clock.set(new Date().toISOString());
    const made: hr.Employee[] = [];
    for (let i = 0; i < 5; i++) made.push(await createEmployee(c.client, { department_id: ops.id }));
    expect(new Set(made.map((e) => e.created_at)).size).toBe(1);
    const ids = (await list(c)).employees.map((e) => e.id);
    expect(ids).toEqual(
      made
        .map((e) => e.id)
        .sort()
        .reverse(),
    );
  });

  it('shows the department name as it is now, after a rename', async () => {
    const c = await registerBusiness(server(), 'Rename Ltd');
    const employee = await createEmployee(c.client);
    await unwrap(
      c.client.hr.departments.updateDepartment({
        params: { id: employee.department_id },
        body: { name: 'Research' },
      }),
    );
    expect(itemAt((await list(c)).employees, 0).department).toBe('Research');
    expect((await getEmployee(c.client, employee.id)).department).toBe('Research');
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=ten', 'limit'],
    ['offset=-1', 'offset'],
    ['status=retired', 'status'],
  ])('refuses %s (422) on the list and on its alias', async (query, field) => {
    for (const path of ['/v1/hr/employees', '/v1/get/employees']) {
      expectResultError(await get(a, `${path}?${query}`), 422, 'VALIDATION_ERROR', field);
    }
  });

  it("answers an empty list for another business's department", async () => {
    expect(await list(b, { department_id: dep.id })).toEqual({
      result: 'success',
      employees: [],
      total_count: 0,
    });
    expect(await list(a, { department_id: MISSING_DEPARTMENT })).toEqual({
      result: 'success',
      employees: [],
      total_count: 0,
    });
  });
});

describe('a business of 51 employees: filters, pages, the alias and the general list', () => {
  const LAST_NAMES = ['Turing', 'Hopper', 'Lovelace', 'Knuth', 'Dijkstra', 'Hamilton', 'Liskov'];
  const STATUSES = ['active', 'active', 'on_leave', 'inactive'] as const;
  let c: TestBusiness;
  let research: hr.Department;
  let support: hr.Department;
  let everyone: hr.Employee[];

  beforeAll(async () => {
    c = await registerBusiness(server(), 'Many Employees Ltd');
    research = await createDepartment(c.client, { name: 'Research' });
    support = await createDepartment(c.client, { name: 'Support' });
    server().clock.set(new Date().toISOString());
    for (let i = 0; i < 51; i++) {
      await createEmployee(c.client, {
        department_id: i % 3 === 0 ? support.id : research.id,
        status: itemAt(STATUSES, i % 4),
        last_name: itemAt(LAST_NAMES, i % 7),
        hire_date: `2020-0${(i % 9) + 1}-1${i % 5}`,
        salary: 100_000 + i,
      });
      // Every other employee shares its created_at with the next: ties are broken by id.
      if (i % 2 === 1) server().clock.advance(1000);
    }
    server().clock.reset();
    everyone = sortedBy((await list(c, { limit: 200 })).employees, 'created_at', 'desc');
    expect(new Set(everyone.map((e) => e.created_at)).size).toBe(26);
  });

  it('lists 50 by default and all 51 with limit 200, newest first', async () => {
    const first = await list(c);
    expect(first.employees).toHaveLength(50);
    expect(first.total_count).toBe(51);
    expect(first.employees).toEqual(everyone.slice(0, 50));
    const all = await list(c, { limit: 200 });
    expect(all).toEqual({ result: 'success', employees: everyone, total_count: 51 });
  });

  it('filters by department_id and status, alone and together, with their total_count', async () => {
    const cases: ListQuery[] = [
      { department_id: research.id },
      { department_id: support.id },
      { status: 'active' },
      { status: 'on_leave' },
      { status: 'inactive' },
      { department_id: support.id, status: 'on_leave' },
      { department_id: research.id, status: 'inactive' },
    ];
    for (const query of cases) {
      const expected = everyone.filter(
        (e) =>
          (query.department_id === undefined || e.department_id === query.department_id) &&
          (query.status === undefined || e.status === query.status),
      );
      expect(expected.length).toBeGreaterThan(0);
      expect(await list(c, { ...query, limit: 200 })).toEqual({
        result: 'success',
        employees: expected,
        total_count: expected.length,
      });
    }
  });

  it('pages of a filtered list cover every match exactly once, in order', async () => {
    const query = { status: 'active' as const };
    const expected = everyone.filter((e) => e.status === 'active');
    for (const limit of [1, 4, 7, expected.length, expected.length + 1]) {
      const paged = await allPages(c, query, limit);
      expect(paged.map((e) => e.id)).toEqual(expected.map((e) => e.id));
    }
    const both = { department_id: research.id, status: 'active' as const };
    const matches = everyone.filter((e) => e.department_id === research.id && e.status === 'active');
    expect((await allPages(c, both, 3)).map((e) => e.id)).toEqual(matches.map((e) => e.id));
  });

  it('answers [] with the full total_count for an offset at or past the end', async () => {
    for (const offset of [51, 52, 10_000]) {
      expect(await list(c, { offset })).toEqual({ result: 'success', employees: [], total_count: 51 });
    }
    const active = everyone.filter((e) => e.status === 'active').length;
    expect(await list(c, { status: 'active', offset: active })).toEqual({
      result: 'success',
      employees: [],
      total_count: active,
    });
    const last = await list(c, { offset: 50 });
    expect(last.employees).toEqual([itemAt(everyone, 50)]);
    expect(last.total_count).toBe(51);
  });

  it('GET /v1/get/employees answers exactly what GET /v1/hr/employees answers, for the same query', async () => {
    const queries: ListQuery[] = [
      {},
      { limit: 5 },
      { limit: 5, offset: 7 },
      { status: 'on_leave' },
      { department_id: support.id, status: 'active', limit: 3, offset: 1 },
      { department_id: research.id, limit: 200 },
      { offset: 60 },
      { department_id: MISSING_DEPARTMENT },
    ];
    for (const query of queries) {
      const [hrList, aliasList] = [await list(c, query), await alias(c, query)];
      expect(aliasList).toEqual(hrList);
      const search = new URLSearchParams(
        Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
      ).toString();
      const [hrRaw, aliasRaw] = [
        await get(c, `/v1/hr/employees?${search}`),
        await get(c, `/v1/get/employees?${search}`),
      ];
      expect([aliasRaw.status, aliasRaw.body]).toEqual([hrRaw.status, hrRaw.body]);
    }
  });

  describe('GET /v1/employees (general group)', () => {
    const inGeneral = (e: hr.Employee) => ({ ...e, salary: e.salary === null ? null : e.salary / 100 });

    it('lists 20 per page by default, newest first, in the general envelope with salary in major units', async () => {
      const res = await general(c);
      expect(res).toEqual({
        data: everyone.slice(0, 20).map(inGeneral),
        pagination: { page: 1, limit: 20, total: 51, total_pages: 3 },
      });
      const third = await general(c, { page: 3 });
      expect(third.data).toEqual(everyone.slice(40).map(inGeneral));
      expect(await general(c, { page: 4 })).toEqual({
        data: [],
        pagination: { page: 4, limit: 20, total: 51, total_pages: 3 },
      });
    });

    it.each([
      ['hire_date', 'asc'],
      ['hire_date', 'desc'],
      ['last_name', 'asc'],
      ['last_name', 'desc'],
      ['created_at', 'asc'],
      ['created_at', 'desc'],
    ] as const)('sorts by %s %s, ties by id', async (field, direction) => {
      const expected = sortedBy(everyone, field, direction).map(inGeneral);
      const paged = await allGeneralPages(c, { sort: `${field}:${direction}` }, 13);
      expect(paged).toEqual(expected);
      expect((await general(c, { sort: `${field}:${direction}`, limit: 100 })).data).toEqual(expected);
    });

    it('filters by status and department_id, with the filtered total', async () => {
      const expected = everyone.filter((e) => e.department_id === support.id && e.status === 'inactive');
      expect(expected.length).toBeGreaterThan(0);
      expect(await general(c, { department_id: support.id, status: 'inactive', limit: 100 })).toEqual({
        data: expected.map(inGeneral),
        pagination: { page: 1, limit: 100, total: expected.length, total_pages: 1 },
      });
      const active = everyone.filter((e) => e.status === 'active');
      const paged = await allGeneralPages(c, { status: 'active', sort: 'last_name:asc' }, 4);
      expect(paged).toEqual(sortedBy(active, 'last_name', 'asc').map(inGeneral));
    });

    it.each([
      ['sort=salary:asc', 'sort'],
      ['sort=last_name', 'sort'],
      ['sort=last_name:up', 'sort'],
      ['limit=101', 'limit'],
      ['limit=0', 'limit'],
      ['page=0', 'page'],
      ['status=retired', 'status'],
    ])('refuses %s (422 in the general envelope)', async (query, field) => {
      const res = await get(c, `/v1/employees?${query}`);
      expectError(res, 422, 'VALIDATION_ERROR', field);
      expect(res.body).not.toHaveProperty('result');
    });
  });
});

describe('GET /v1/employees: salary in the major units of its currency', () => {
  it.each([
    ['USD', 850_000, 8500],
    ['USD', 1999, 19.99],
    ['EUR', 5, 0.05],
    ['JPY', 850_000, 850_000],
    ['KWD', 1_234_567, 1234.567],
    ['BHD', 1, 0.001],
    ['USD', null, null],
  ] as const)('%s %j minor is %j', async (currency, salary, major) => {
    const c = await registerBusiness(server(), 'Payroll Ltd');
    const employee = await createEmployee(c.client, { currency, salary });
    expect(employee.salary).toBe(salary);
    const { data } = await general(c);
    expect(data).toEqual([{ ...employee, salary: major }]);
  });
});
