import { beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type hr } from '../../client/index.js';
import { json, raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { expectResultError, itemAt } from '../support/expect.js';
import {
  createDepartment,
  createEmployee,
  deleteEmployee,
  departmentRows,
  getDepartment,
  uniqueDepartmentName,
} from '../support/hr.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ worker: false });

const ID = /^dep_[0-9A-HJKMNP-TV-Z]{26}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_ID = 'dep_01JD7X2R5VQ8N3K4M6P9T1W2Y3';
const MISSING_EMPLOYEE = 'emp_01JD7X2R5VQ8N3K4M6P9T1W2Y3';

type ListQuery = NonNullable<
  Parameters<TestBusiness['client']['hr']['departments']['listDepartments']>[0]
>['query'];

/** Sends a body the typed client would refuse (unknown fields, wrong types). */
const post = (biz: TestBusiness, body: unknown) =>
  raw(server(), 'POST', '/v1/hr/departments', { ...json(body), token: biz.accessToken });
const put = (biz: TestBusiness, id: string, body: unknown) =>
  raw(server(), 'PUT', `/v1/hr/departments/${id}`, { ...json(body), token: biz.accessToken });

const list = (biz: TestBusiness, query: ListQuery = {}) =>
  unwrap(biz.client.hr.departments.listDepartments({ query }));

const update = (biz: TestBusiness, id: string, body: hr.UpdateDepartmentBody) =>
  biz.client.hr.departments.updateDepartment({ params: { id }, body });

const remove = (biz: TestBusiness, id: string) =>
  biz.client.hr.departments.deleteDepartment({ params: { id } });

let a: TestBusiness;
let b: TestBusiness;

beforeAll(async () => {
  [a, b] = await Promise.all([
    registerBusiness(server(), 'Alpha Ltd'),
    registerBusiness(server(), 'Beta Ltd'),
  ]);
});

describe('POST /v1/hr/departments', () => {
  it('creates a department (201) answering its id, a message and the department', async () => {
    const name = uniqueDepartmentName('Engineering');
    const res = await a.client.hr.departments.createDepartment({ body: { name } });
    expect(res.status).toBe(201);
    if (res.status !== 201) return;
    expect(res.body).toEqual({
      result: 'success',
      department_id: expect.stringMatching(ID),
      message: expect.any(String),
      department: {
        id: res.body.department_id,
        name,
        head: null,
        employee_count: 0,
        created_at: expect.stringMatching(ISO),
        updated_at: res.body.department.created_at,
      },
    });
    expect(await getDepartment(a.client, res.body.department_id)).toEqual(res.body.department);
  });

  it('trims the name', async () => {
    const name = uniqueDepartmentName('Trimmed');
    expect((await createDepartment(a.client, { name: `  ${name}  ` })).name).toBe(name);
  });

  it('takes an employee of the business as head, and null as no head', async () => {
    const head = await createEmployee(a.client);
    const led = await createDepartment(a.client, { head: head.id });
    expect(led).toMatchObject({ head: head.id, employee_count: 0 });
    expect((await getDepartment(a.client, led.id)).head).toBe(head.id);
    expect((await createDepartment(a.client, { head: null })).head).toBeNull();
  });

  it('refuses a head that is no employee of the business: unknown, deleted or of another business (422 on head)', async () => {
    const theirs = await createEmployee(b.client);
    const gone = await createEmployee(a.client);
    await deleteEmployee(a.client, gone.id);
    const before = await list(a, { limit: 200 });
    for (const head of [MISSING_EMPLOYEE, gone.id, theirs.id]) {
      expectResultError(
        await a.client.hr.departments.createDepartment({ body: { name: uniqueDepartmentName(), head } }),
        422,
        'VALIDATION_ERROR',
        'head',
      );
    }
    expect((await list(a, { limit: 200 })).total_count).toBe(before.total_count);
  });

  it('refuses a name already used in the business, compared case-insensitively (409 CONFLICT)', async () => {
    const name = uniqueDepartmentName('Sales');
    const first = await createDepartment(a.client, { name });
    for (const again of [name, name.toUpperCase(), name.toLowerCase(), `  ${name} `]) {
      expectResultError(
        await a.client.hr.departments.createDepartment({ body: { name: again } }),
        409,
        'CONFLICT',
      );
    }
    const rows = (await departmentRows(server(), a.businessId)).filter(
      (r) => r.name.toLowerCase() === name.toLowerCase(),
    );
    expect(rows.map((r) => r.id)).toEqual([first.id]);
  });

  it('lets another business use the same name', async () => {
    const name = uniqueDepartmentName('Shared');
    await createDepartment(a.client, { name });
    expect((await createDepartment(b.client, { name })).name).toBe(name);
  });

  it('lets the name of a deleted department be used again', async () => {
    const name = uniqueDepartmentName('Reused');
    const first = await createDepartment(a.client, { name });
    await unwrap(remove(a, first.id));
    const second = await createDepartment(a.client, { name: name.toUpperCase() });
    expect(second.id).not.toBe(first.id);
    expect(second.name).toBe(name.toUpperCase());
  });

  it('refuses an unknown body field, naming it (422)', async () => {
    expectResultError(
      await post(a, { name: uniqueDepartmentName(), budget: 10 }),
      422,
      'VALIDATION_ERROR',
      'budget',
    );
  });

  it.each([
    ['a missing name', {}],
    ['an empty name', { name: '' }],
    ['a blank name', { name: '   ' }],
    ['a name of 101 characters', { name: 'n'.repeat(101) }],
    ['a name that is no string', { name: 42 }],
  ])('refuses %s (422 on name)', async (_, body) => {
    expectResultError(await post(a, body), 422, 'VALIDATION_ERROR', 'name');
  });

  it('refuses a head that is no string (422 on head)', async () => {
    expectResultError(
      await post(a, { name: uniqueDepartmentName(), head: 7 }),
      422,
      'VALIDATION_ERROR',
      'head',
    );
  });

  it('accepts a name of 100 characters', async () => {
    const name = `${uniqueDepartmentName('Long')}${'x'.repeat(100)}`.slice(0, 100);
    expect((await createDepartment(a.client, { name })).name).toBe(name);
  });

  it('refuses broken JSON (400 BAD_REQUEST)', async () => {
    const res = await raw(server(), 'POST', '/v1/hr/departments', {
      headers: { 'content-type': 'application/json' },
      body: '{"name": ',
      token: a.accessToken,
    });
    expectResultError(res, 400, 'BAD_REQUEST');
  });
});

describe('GET /v1/hr/departments', () => {
  let c: TestBusiness;
  const names = ['delta', 'Alpha', 'charlie', 'Bravo', 'echo'];
  const ordered = ['Alpha', 'Bravo', 'charlie', 'delta', 'echo'];

  beforeAll(async () => {
    c = await registerBusiness(server(), 'Gamma Ltd');
    for (const name of names) await createDepartment(c.client, { name });
  });

  it('lists the departments by name, case-insensitively, with total_count', async () => {
    const res = await list(c);
    expect(res).toEqual({ result: 'success', departments: expect.any(Array), total_count: 5 });
    expect(res.departments.map((d) => d.name)).toEqual(ordered);
    for (const d of res.departments) expect(d).toEqual(await getDepartment(c.client, d.id));
  });

  it('pages with limit and offset; an offset past the end answers [] with the full total_count', async () => {
    const pages = [
      await list(c, { limit: 2 }),
      await list(c, { limit: 2, offset: 2 }),
      await list(c, { limit: 2, offset: 4 }),
    ];
    expect(pages.map((p) => p.departments.map((d) => d.name))).toEqual([
      ['Alpha', 'Bravo'],
      ['charlie', 'delta'],
      ['echo'],
    ]);
    expect(pages.map((p) => p.total_count)).toEqual([5, 5, 5]);
    for (const offset of [5, 6, 10_000_000]) {
      expect(await list(c, { offset })).toEqual({ result: 'success', departments: [], total_count: 5 });
    }
    expect((await list(c, { limit: 1, offset: 1 })).departments.map((d) => d.name)).toEqual(['Bravo']);
  });

  it('lists 50 by default and at most 200', async () => {
    const d = await registerBusiness(server(), 'Many Departments Ltd');
    for (let i = 0; i < 51; i++)
      await createDepartment(d.client, { name: `Unit ${String(i).padStart(2, '0')}` });
    const first = await list(d);
    expect(first.departments).toHaveLength(50);
    expect(first.total_count).toBe(51);
    expect(itemAt(first.departments, 0).name).toBe('Unit 00');
    expect(itemAt(first.departments, -1).name).toBe('Unit 49');
    const all = await list(d, { limit: 200 });
    expect(all.departments.map((x) => x.name)).toEqual(
      Array.from({ length: 51 }, (_, i) => `Unit ${String(i).padStart(2, '0')}`),
    );
  });

  it.each([
    ['limit=0', 'limit'],
    ['limit=201', 'limit'],
    ['limit=abc', 'limit'],
    ['limit=1.5', 'limit'],
    ['offset=-1', 'offset'],
    ['offset=10000001', 'offset'],
  ])('refuses %s (422)', async (query, field) => {
    const res = await raw(server(), 'GET', `/v1/hr/departments?${query}`, { token: c.accessToken });
    expectResultError(res, 422, 'VALIDATION_ERROR', field);
  });

  it('does not list deleted departments, nor those of another business', async () => {
    const gone = await createDepartment(c.client, { name: 'foxtrot' });
    expect((await list(c)).total_count).toBe(6);
    await unwrap(remove(c, gone.id));
    const res = await list(c);
    expect(res.departments.map((d) => d.name)).toEqual(ordered);
    expect(res.total_count).toBe(5);
    const ids = new Set(res.departments.map((d) => d.id));
    for (const theirs of (await list(b, { limit: 200 })).departments) expect(ids.has(theirs.id)).toBe(false);
  });
});

describe('employee_count', () => {
  it('counts active and on-leave employees, not inactive or deleted ones, and follows every change', async () => {
    const dep = await createDepartment(a.client);
    const other = await createDepartment(a.client);
    const count = async (id: string) => (await getDepartment(a.client, id)).employee_count;
    const [active1, active2] = [
      await createEmployee(a.client, { department_id: dep.id }),
      await createEmployee(a.client, { department_id: dep.id }),
    ];
    await createEmployee(a.client, { department_id: dep.id, status: 'on_leave' });
    const inactive = await createEmployee(a.client, { department_id: dep.id, status: 'inactive' });
    const deleted = await createEmployee(a.client, { department_id: dep.id });
    await deleteEmployee(a.client, deleted.id);
    expect(await count(dep.id)).toBe(3);

    // Status changes, moves between departments and deletes each show at once.
    await unwrap(
      a.client.hr.employees.updateEmployee({ params: { id: active1.id }, body: { status: 'inactive' } }),
    );
    expect(await count(dep.id)).toBe(2);
    await unwrap(
      a.client.hr.employees.updateEmployee({ params: { id: inactive.id }, body: { status: 'on_leave' } }),
    );
    expect(await count(dep.id)).toBe(3);
    await unwrap(
      a.client.hr.employees.updateEmployee({ params: { id: active2.id }, body: { department_id: other.id } }),
    );
    expect([await count(dep.id), await count(other.id)]).toEqual([2, 1]);
    await deleteEmployee(a.client, active2.id);
    expect([await count(dep.id), await count(other.id)]).toEqual([2, 0]);

    // The list reports the same counts as the detail.
    const listed = (await list(a, { limit: 200 })).departments;
    expect(listed.find((d) => d.id === dep.id)?.employee_count).toBe(2);
    expect(listed.find((d) => d.id === other.id)?.employee_count).toBe(0);
  });
});

describe('GET /v1/hr/departments/:id', () => {
  it('answers {result, department}', async () => {
    const created = await createDepartment(a.client);
    expect(await unwrap(a.client.hr.departments.getDepartment({ params: { id: created.id } }))).toEqual({
      result: 'success',
      department: created,
    });
  });

  it("answers 404 NOT_FOUND for an unknown id, another business's department and a deleted one", async () => {
    const theirs = await createDepartment(b.client);
    const gone = await createDepartment(a.client);
    await unwrap(remove(a, gone.id));
    for (const id of [MISSING_ID, theirs.id, gone.id]) {
      expectResultError(await a.client.hr.departments.getDepartment({ params: { id } }), 404, 'NOT_FOUND');
    }
  });
});

describe('PUT /v1/hr/departments/:id', () => {
  it('renames the department (200 {result, message, department}) and moves updated_at', async () => {
    const created = await createDepartment(a.client);
    server().clock.advance(1000);
    const name = uniqueDepartmentName('Renamed');
    const res = await unwrap(update(a, created.id, { name: `  ${name} ` }));
    expect(res).toEqual({
      result: 'success',
      message: expect.any(String),
      department: { ...created, name, updated_at: expect.stringMatching(ISO) },
    });
    expect(Date.parse(res.department.updated_at)).toBeGreaterThan(Date.parse(created.updated_at));
    expect(await getDepartment(a.client, created.id)).toEqual(res.department);
  });

  it('takes its own name in another case', async () => {
    const created = await createDepartment(a.client, { name: uniqueDepartmentName('case') });
    const res = await unwrap(update(a, created.id, { name: created.name.toUpperCase() }));
    expect(res.department.name).toBe(created.name.toUpperCase());
  });

  it("refuses another department's name, case-insensitively (409 CONFLICT), and changes nothing", async () => {
    const taken = await createDepartment(a.client);
    const created = await createDepartment(a.client);
    for (const name of [taken.name, taken.name.toLowerCase(), taken.name.toUpperCase()]) {
      expectResultError(await update(a, created.id, { name }), 409, 'CONFLICT');
    }
    expect(await getDepartment(a.client, created.id)).toEqual(created);
  });

  it('sets, changes and removes the head', async () => {
    const created = await createDepartment(a.client);
    const [first, second] = [await createEmployee(a.client), await createEmployee(a.client)];
    expect((await unwrap(update(a, created.id, { head: first.id }))).department.head).toBe(first.id);
    expect((await unwrap(update(a, created.id, { head: second.id }))).department.head).toBe(second.id);
    const renamed = await unwrap(update(a, created.id, { name: uniqueDepartmentName() }));
    expect(renamed.department.head).toBe(second.id);
    expect((await unwrap(update(a, created.id, { head: null }))).department.head).toBeNull();
    expect((await getDepartment(a.client, created.id)).head).toBeNull();
  });

  it('refuses a head that is no employee of the business: unknown, deleted or of another business (422 on head)', async () => {
    const created = await createDepartment(a.client);
    const theirs = await createEmployee(b.client);
    const gone = await createEmployee(a.client);
    await deleteEmployee(a.client, gone.id);
    for (const head of [MISSING_EMPLOYEE, gone.id, theirs.id]) {
      expectResultError(await update(a, created.id, { head }), 422, 'VALIDATION_ERROR', 'head');
    }
    expect(await getDepartment(a.client, created.id)).toEqual(created);
  });

  it("refuses another business's employee as head of the caller's own department (422 on head)", async () => {
    const mine = await createEmployee(a.client);
    const theirDepartment = await createDepartment(b.client);
    expectResultError(
      await update(b, theirDepartment.id, { head: mine.id }),
      422,
      'VALIDATION_ERROR',
      'head',
    );
    expect((await getDepartment(b.client, theirDepartment.id)).head).toBeNull();
  });

  it('changes nothing for an empty body (200, updated_at kept)', async () => {
    const created = await createDepartment(a.client);
    server().clock.advance(1000);
    expect(await unwrap(update(a, created.id, {}))).toEqual({
      result: 'success',
      message: expect.any(String),
      department: created,
    });
  });

  it('refuses an unknown body field and a bad name (422)', async () => {
    const created = await createDepartment(a.client);
    expectResultError(await put(a, created.id, { manager: 'x' }), 422, 'VALIDATION_ERROR', 'manager');
    expectResultError(await put(a, created.id, { name: '' }), 422, 'VALIDATION_ERROR', 'name');
    expectResultError(await put(a, created.id, { name: null }), 422, 'VALIDATION_ERROR', 'name');
    expect(await getDepartment(a.client, created.id)).toEqual(created);
  });

  it("answers 404 NOT_FOUND for an unknown id, another business's department and a deleted one", async () => {
    const theirs = await createDepartment(b.client);
    const gone = await createDepartment(a.client);
    await unwrap(remove(a, gone.id));
    for (const id of [MISSING_ID, theirs.id, gone.id]) {
      expectResultError(await update(a, id, { name: uniqueDepartmentName() }), 404, 'NOT_FOUND');
    }
    expect(await getDepartment(b.client, theirs.id)).toEqual(theirs);
  });
});

describe('DELETE /v1/hr/departments/:id', () => {
  it('deletes a department without employees (200 {result, message}): soft, gone from reads and lists', async () => {
    const created = await createDepartment(a.client);
    const before = (await list(a, { limit: 200 })).total_count;
    expect(await unwrap(remove(a, created.id))).toEqual({ result: 'success', message: expect.any(String) });
    expectResultError(
      await a.client.hr.departments.getDepartment({ params: { id: created.id } }),
      404,
      'NOT_FOUND',
    );
    const after = await list(a, { limit: 200 });
    expect(after.total_count).toBe(before - 1);
    expect(after.departments.map((d) => d.id)).not.toContain(created.id);
    const row = (await departmentRows(server(), a.businessId)).find((r) => r.id === created.id);
    expect(row?.deleted_at).toBeInstanceOf(Date);
    expectResultError(await remove(a, created.id), 404, 'NOT_FOUND');
  });

  it.each(['active', 'on_leave', 'inactive'] as const)(
    'refuses a department with an %s employee (409 RESOURCE_IN_USE) and keeps it',
    async (status) => {
      const created = await createDepartment(a.client);
      await createEmployee(a.client, { department_id: created.id, status });
      expectResultError(await remove(a, created.id), 409, 'RESOURCE_IN_USE');
      expect((await getDepartment(a.client, created.id)).id).toBe(created.id);
    },
  );

  it('deletes a department whose employees were all deleted or moved out', async () => {
    const created = await createDepartment(a.client);
    const elsewhere = await createDepartment(a.client);
    const leaving = await createEmployee(a.client, { department_id: created.id });
    const moving = await createEmployee(a.client, { department_id: created.id, status: 'inactive' });
    await deleteEmployee(a.client, leaving.id);
    expectResultError(await remove(a, created.id), 409, 'RESOURCE_IN_USE');
    await unwrap(
      a.client.hr.employees.updateEmployee({
        params: { id: moving.id },
        body: { department_id: elsewhere.id },
      }),
    );
    expect((await unwrap(remove(a, created.id))).result).toBe('success');
    expectResultError(
      await a.client.hr.departments.getDepartment({ params: { id: created.id } }),
      404,
      'NOT_FOUND',
    );
  });

  it('refuses to place an employee in a deleted department (422 on department_id)', async () => {
    const created = await createDepartment(a.client);
    await unwrap(remove(a, created.id));
    const res = await a.client.hr.employees.createEmployee({
      body: {
        first_name: 'Ada',
        last_name: 'Lovelace',
        email: `ada-${created.id.toLowerCase()}@example.test`,
        department_id: created.id,
        position: 'Analyst',
        hire_date: '2025-01-06',
      },
    });
    expectResultError(res, 422, 'VALIDATION_ERROR', 'department_id');
  });

  it("answers 404 NOT_FOUND for an unknown id and another business's department, which stays", async () => {
    const theirs = await createDepartment(b.client);
    for (const id of [MISSING_ID, theirs.id]) expectResultError(await remove(a, id), 404, 'NOT_FOUND');
    expect(await getDepartment(b.client, theirs.id)).toEqual(theirs);
  });
});

describe('the head of a department', () => {
  it('becomes null when the employee who heads it is deleted; other departments keep theirs', async () => {
    const head = await createEmployee(a.client);
    const stays = await createEmployee(a.client);
    const led = await createDepartment(a.client, { head: head.id });
    const alsoLed = await createDepartment(a.client, { head: head.id });
    const kept = await createDepartment(a.client, { head: stays.id });
    await deleteEmployee(a.client, head.id);
    expect((await getDepartment(a.client, led.id)).head).toBeNull();
    expect((await getDepartment(a.client, alsoLed.id)).head).toBeNull();
    expect((await getDepartment(a.client, kept.id)).head).toBe(stays.id);
  });

  it('may be an employee of another department', async () => {
    const head = await createEmployee(a.client);
    const led = await createDepartment(a.client, { head: head.id });
    expect(led.head).toBe(head.id);
    expect(head.department_id).not.toBe(led.id);
  });
});
