import { beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type hr } from '../../client/index.js';
import { json, raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { outbox, withEvents } from '../support/events.js';
import { expectResultError, itemAt } from '../support/expect.js';
import {
  createDepartment,
  createEmployee,
  createLeave,
  deleteEmployee,
  getEmployee,
  getLeave,
  leaveIn,
  uniqueEmployeeEmail,
} from '../support/hr.js';
import { useTestServer } from '../support/setup.js';

// No worker: the outbox rows stay as the changes wrote them.
const server = useTestServer({ env: { DB_POOL_SIZE: '30' }, worker: false });

const MISSING_ID = 'emp_01JD7X2R5VQ8N3K4M6P9T1W2Y3';

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

/** Runs `action` for business `a` and returns its result with the events it wrote. */
const recording = <T>(action: () => Promise<T>) => withEvents(server(), a.businessId, action);

/** The one event written: of `type`, of business `a`, with an event id. */
function onlyEvent(events: Awaited<ReturnType<typeof outbox>>, type: string) {
  expect(events.map((e) => e.type)).toEqual([type]);
  const event = itemAt(events, 0);
  expect(event).toMatchObject({ business_id: a.businessId, type, dispatched_at: null });
  expect(event.id).toMatch(/^evt_/);
  return event;
}

const newEmployee = (overrides: Partial<hr.CreateEmployeeBody> = {}) =>
  createEmployee(a.client, { department_id: dep.id, ...overrides });

describe('employee events', () => {
  it('employee.created carries the employee as GET /v1/hr/employees/:id answers it', async () => {
    const { result, events } = await recording(() =>
      newEmployee({ phone: '+1 555 0100', salary: 850_000, currency: 'EUR', status: 'on_leave' }),
    );
    const event = onlyEvent(events, 'employee.created');
    expect(event.data).toEqual(await getEmployee(a.client, result.id));
    expect(event.data).toEqual(result);
  });

  it('employee.updated carries the employee after the change, as the detail answers it', async () => {
    const created = await newEmployee();
    const other = await createDepartment(a.client, { name: 'Research' });
    const { result, events } = await recording(() =>
      unwrap(
        a.client.hr.employees.updateEmployee({
          params: { id: created.id },
          body: { department_id: other.id, position: 'Lead', salary: 900_000, status: 'inactive' },
        }),
      ),
    );
    const event = onlyEvent(events, 'employee.updated');
    expect(event.data).toEqual(await getEmployee(a.client, created.id));
    expect(event.data).toEqual(result.employee);
    expect(event.data).toMatchObject({ department: 'Research', status: 'inactive', salary: 900_000 });
  });

  it('employee.deleted carries the employee as the detail answered it before the delete', async () => {
    const created = await newEmployee();
    const before = await getEmployee(a.client, created.id);
    const { events } = await recording(() => deleteEmployee(a.client, created.id));
    expect(onlyEvent(events, 'employee.deleted').data).toEqual(before);
  });

  it('deleting a department head writes only employee.deleted', async () => {
    const head = await newEmployee();
    await createDepartment(a.client, { head: head.id });
    const { events } = await recording(() => deleteEmployee(a.client, head.id));
    onlyEvent(events, 'employee.deleted');
  });

  it('an update that changes nothing writes no event', async () => {
    const created = await newEmployee();
    const { events } = await recording(() =>
      unwrap(a.client.hr.employees.updateEmployee({ params: { id: created.id }, body: {} })),
    );
    expect(events).toEqual([]);
  });

  it('a refused change writes no event', async () => {
    const holder = await newEmployee();
    const created = await newEmployee();
    const theirs = await createDepartment(b.client);
    const body = (overrides: Partial<hr.CreateEmployeeBody> = {}) => ({
      first_name: 'Ada',
      last_name: 'Lovelace',
      email: uniqueEmployeeEmail(),
      department_id: dep.id,
      position: 'Analyst',
      hire_date: '2025-01-06',
      ...overrides,
    });
    const { events } = await recording(async () => {
      const employees = a.client.hr.employees;
      expectResultError(
        await employees.createEmployee({ body: body({ email: holder.email.toUpperCase() }) }),
        409,
        'CONFLICT',
      );
      expectResultError(
        await employees.createEmployee({ body: body({ department_id: theirs.id }) }),
        422,
        'VALIDATION_ERROR',
        'department_id',
      );
      expectResultError(
        await raw(server(), 'POST', '/v1/hr/employees', {
          ...json({ ...body(), badge: 7 }),
          token: a.accessToken,
        }),
        422,
        'VALIDATION_ERROR',
        'badge',
      );
      expectResultError(
        await employees.updateEmployee({ params: { id: created.id }, body: { email: holder.email } }),
        409,
        'CONFLICT',
      );
      expectResultError(
        await employees.updateEmployee({ params: { id: created.id }, body: { department_id: theirs.id } }),
        422,
        'VALIDATION_ERROR',
        'department_id',
      );
      expectResultError(
        await employees.updateEmployee({ params: { id: MISSING_ID }, body: { position: 'Ghost' } }),
        404,
        'NOT_FOUND',
      );
      expectResultError(await employees.deleteEmployee({ params: { id: MISSING_ID } }), 404, 'NOT_FOUND');
    });
    expect(events).toEqual([]);
  });

  it("another business's changes write to its own outbox only", async () => {
    const before = (await outbox(server(), a.businessId)).length;
    const { result, events } = await withEvents(server(), b.businessId, () => createEmployee(b.client));
    expect(events.map((e) => e.type)).toEqual(['employee.created']);
    expect(itemAt(events, 0)).toMatchObject({ business_id: b.businessId, data: result });
    expect((await outbox(server(), a.businessId)).length).toBe(before);
  });
});

describe('leave events', () => {
  it('leave.created carries the leave as GET /v1/hr/leaves/:id answers it', async () => {
    const employee = await newEmployee({ first_name: 'Grace', last_name: 'Hopper' });
    const { result, events } = await recording(() =>
      createLeave(a.client, employee.id, {
        reason: 'Holidays',
        start_date: '2026-12-21',
        end_date: '2027-01-01',
      }),
    );
    const event = onlyEvent(events, 'leave.created');
    expect(event.data).toEqual(await getLeave(a.client, result.id));
    expect(event.data).toMatchObject({ employee_name: 'Grace Hopper', days: 10, status: 'pending' });
  });

  it.each([
    ['pending', 'approved'],
    ['pending', 'rejected'],
    ['pending', 'cancelled'],
    ['approved', 'cancelled'],
  ] as const)('leave.updated (%s -> %s) carries the leave after the move', async (from, to) => {
    const leave = await leaveIn(a.client, (await newEmployee()).id, from);
    const { result, events } = await recording(() =>
      unwrap(
        a.client.hr.leaves.updateLeave({ params: { id: leave.id }, body: { status: to, reason: 'Checked' } }),
      ),
    );
    const event = onlyEvent(events, 'leave.updated');
    expect(event.data).toEqual(await getLeave(a.client, leave.id));
    expect(event.data).toEqual(result.leave);
    expect(event.data).toMatchObject({ status: to, status_reason: 'Checked' });
  });

  it.each(['pending', 'rejected', 'cancelled'] as const)(
    'leave.deleted (a %s leave) carries the leave as the detail answered it before the delete',
    async (status) => {
      const leave = await leaveIn(a.client, (await newEmployee()).id, status);
      const before = await getLeave(a.client, leave.id);
      const { events } = await recording(() =>
        unwrap(a.client.hr.leaves.deleteLeave({ params: { id: leave.id } })),
      );
      expect(onlyEvent(events, 'leave.deleted').data).toEqual(before);
    },
  );

  it('a refused change writes no event', async () => {
    const employee = await newEmployee();
    const inactive = await newEmployee({ status: 'inactive' });
    const approved = await leaveIn(a.client, employee.id, 'approved');
    const rejected = await leaveIn(a.client, employee.id, 'rejected', {
      start_date: '2027-01-04',
      end_date: '2027-01-04',
    });
    const leaves = a.client.hr.leaves;
    const { events } = await recording(async () => {
      const request = (overrides: Partial<hr.CreateLeaveBody>) =>
        leaves.createLeave({
          body: {
            employee_id: employee.id,
            type: 'sick',
            start_date: '2026-12-09',
            end_date: '2026-12-09',
            ...overrides,
          },
        });
      expectResultError(await request({}), 409, 'CONFLICT');
      expectResultError(await request({ employee_id: inactive.id }), 422, 'VALIDATION_ERROR', 'employee_id');
      expectResultError(await request({ end_date: '2026-12-08' }), 422, 'VALIDATION_ERROR', 'end_date');
      expectResultError(
        await leaves.updateLeave({ params: { id: rejected.id }, body: { status: 'approved' } }),
        409,
        'INVALID_STATE',
      );
      expectResultError(
        await leaves.updateLeave({ params: { id: approved.id }, body: { status: 'rejected' } }),
        409,
        'INVALID_STATE',
      );
      expectResultError(await leaves.deleteLeave({ params: { id: approved.id } }), 409, 'INVALID_STATE');
    });
    expect(events).toEqual([]);
  });

  it('ten concurrent overlapping requests write exactly one leave.created, for the leave that was made', async () => {
    const employee = await newEmployee();
    const { result, events } = await recording(() =>
      Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          a.client.hr.leaves.createLeave({
            body: {
              employee_id: employee.id,
              type: 'annual',
              start_date: `2027-06-${String(10 - i).padStart(2, '0')}`,
              end_date: '2027-06-10',
            },
          }),
        ),
      ),
    );
    const created = result.filter((res) => res.status === 201);
    expect(created).toHaveLength(1);
    const winner = itemAt(created, 0);
    if (winner.status !== 201) return;
    expect(onlyEvent(events, 'leave.created').data).toEqual(winner.body.leave);
  });
});

describe('department changes', () => {
  it('write no event (the catalogue has none for departments)', async () => {
    const { events } = await recording(async () => {
      const created = await createDepartment(a.client);
      await unwrap(
        a.client.hr.departments.updateDepartment({ params: { id: created.id }, body: { name: 'Renamed' } }),
      );
      await unwrap(a.client.hr.departments.deleteDepartment({ params: { id: created.id } }));
    });
    expect(events).toEqual([]);
  });
});
