import { beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type hr } from '../../client/index.js';
import { json, raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { withEvents } from '../support/events.js';
import { expectResultError, itemAt } from '../support/expect.js';
import {
  createDepartment,
  createEmployee,
  createLeave,
  createLeaveType,
  getLeave,
  leaveIn,
  leaveRows,
  leaveTypeNamed,
  leaveTypesOf,
  updateLeave,
  updateLeaveType,
} from '../support/hr.js';
import { useTestServer } from '../support/setup.js';

/**
 * Leave types (`/v1/hr/leave-types`, DESIGN 23): the five untracked defaults every business starts
 * with, a business's own types, a policy set and removed by PUT, a rename the requests follow, a
 * delete refused while a request names the type; a request names its type by name (case forgiven)
 * and carries the type's spelling and `paid`, in its answers and its events.
 */

// No worker: the outbox rows stay as the changes wrote them.
const server = useTestServer({ worker: false });

const ID = /^lt_[0-9A-HJKMNP-TV-Z]{26}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_ID = 'lt_01JD7X2R5VQ8N3K4M6P9T1W2Y3';

const UNTRACKED = { tracked: false, days_per_year: null, accrual: null, carry_over_max: null };

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

const types = (biz: TestBusiness) => biz.client.hr.leaveTypes;
const post = (biz: TestBusiness, body: unknown) =>
  raw(server(), 'POST', '/v1/hr/leave-types', { ...json(body), token: biz.accessToken });
const put = (biz: TestBusiness, id: string, body: unknown) =>
  raw(server(), 'PUT', `/v1/hr/leave-types/${id}`, { ...json(body), token: biz.accessToken });
const getType = async (biz: TestBusiness, id: string) =>
  (await unwrap(types(biz).getLeaveType({ params: { id } }))).leave_type;
const request = (biz: TestBusiness, body: hr.CreateLeaveBody) => biz.client.hr.leaves.createLeave({ body });

const newEmployee = () => createEmployee(a.client, { department_id: dep.id });

/** A leave of one weekday, `week` weeks after Monday 2027-05-03 (so that no two of a test overlap). */
const oneDay = (week: number) => {
  const day = new Date(Date.parse('2027-05-03T00:00:00Z') + week * 7 * 86_400_000).toISOString().slice(0, 10);
  return { start_date: day, end_date: day };
};

describe('the default leave types', () => {
  it('are annual, other, parental, sick and unpaid (by name), untracked, unpaid alone unpaid', async () => {
    const fresh = await registerBusiness(server());
    const res = await unwrap(types(fresh).listLeaveTypes({ query: {} }));
    expect(res.total_count).toBe(5);
    expect(res.leave_types).toEqual(
      (
        [
          ['annual', true],
          ['other', true],
          ['parental', true],
          ['sick', true],
          ['unpaid', false],
        ] as const
      ).map(([name, paid]) => ({
        id: expect.any(String),
        name,
        paid,
        allow_negative: false,
        ...UNTRACKED,
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      })),
    );
    for (const type of res.leave_types) expect(await getType(fresh, type.id)).toEqual(type);
    // Ids as every id of the service: a prefix and a ULID (DESIGN 3).
    for (const type of res.leave_types) expect(type.id, type.name).toMatch(ID);
  });

  it("are each business's own: another business's type is 404 and its list keeps its five", async () => {
    const [mine, theirs] = await Promise.all([leaveTypesOf(a.client), leaveTypesOf(b.client)]);
    const theirAnnual = itemAt(
      theirs.filter((t) => t.name === 'annual'),
      0,
    );
    expect(mine.map((t) => t.id)).not.toContain(theirAnnual.id);
    expectResultError(await types(a).getLeaveType({ params: { id: theirAnnual.id } }), 404, 'NOT_FOUND');
    expectResultError(
      await types(a).updateLeaveType({ params: { id: theirAnnual.id }, body: { days_per_year: 5 } }),
      404,
      'NOT_FOUND',
    );
    expectResultError(await types(a).deleteLeaveType({ params: { id: theirAnnual.id } }), 404, 'NOT_FOUND');
    expect(await getType(b, theirAnnual.id)).toEqual(theirAnnual);
    expect((await leaveTypesOf(b.client)).map((t) => t.name)).toEqual([
      'annual',
      'other',
      'parental',
      'sick',
      'unpaid',
    ]);
  });

  it('a missing id is 404 NOT_FOUND on get, update and delete', async () => {
    expectResultError(await types(a).getLeaveType({ params: { id: MISSING_ID } }), 404, 'NOT_FOUND');
    expectResultError(
      await types(a).updateLeaveType({ params: { id: MISSING_ID }, body: { paid: false } }),
      404,
      'NOT_FOUND',
    );
    expectResultError(await types(a).deleteLeaveType({ params: { id: MISSING_ID } }), 404, 'NOT_FOUND');
  });
});

describe('POST /v1/hr/leave-types', () => {
  it('creates an untracked type (201 {result, leave_type_id, message, leave_type}), paid unless told', async () => {
    const res = await types(a).createLeaveType({ body: { name: '  Jury duty  ' } });
    expect(res.status).toBe(201);
    if (res.status !== 201) return;
    expect(res.body).toEqual({
      result: 'success',
      leave_type_id: expect.stringMatching(ID),
      message: expect.any(String),
      leave_type: {
        id: res.body.leave_type_id,
        name: 'Jury duty',
        paid: true,
        allow_negative: false,
        ...UNTRACKED,
        created_at: expect.stringMatching(ISO),
        updated_at: res.body.leave_type.created_at,
      },
    });
    expect(await getType(a, res.body.leave_type_id)).toEqual(res.body.leave_type);
    expect((await leaveTypesOf(a.client)).map((t) => t.id)).toContain(res.body.leave_type_id);
  });

  it('creates a tracked type: accrual yearly and carry_over_max 0 unless told', async () => {
    const study = await createLeaveType(a.client, { name: 'Study', paid: false, days_per_year: 5 });
    expect(study).toMatchObject({
      name: 'Study',
      paid: false,
      allow_negative: false,
      tracked: true,
      days_per_year: 5,
      accrual: 'yearly',
      carry_over_max: 0,
    });
    const toil = await createLeaveType(a.client, {
      name: 'Time off in lieu',
      allow_negative: true,
      days_per_year: 12.5,
      accrual: 'monthly',
      carry_over_max: 2.25,
    });
    expect(toil).toMatchObject({
      paid: true,
      allow_negative: true,
      tracked: true,
      days_per_year: 12.5,
      accrual: 'monthly',
      carry_over_max: 2.25,
    });
    const most = await createLeaveType(a.client, {
      days_per_year: 366,
      accrual: 'none',
      carry_over_max: 366,
    });
    expect(most).toMatchObject({ tracked: true, days_per_year: 366, accrual: 'none', carry_over_max: 366 });
    const none = await createLeaveType(a.client, { days_per_year: 0 });
    expect(none).toMatchObject({ tracked: true, days_per_year: 0, accrual: 'yearly', carry_over_max: 0 });
  });

  it('refuses a name another type has, in any case or spacing (409 CONFLICT), writing nothing', async () => {
    await createLeaveType(a.client, { name: 'Sabbatical' });
    const before = await leaveTypesOf(a.client);
    for (const name of ['Sabbatical', 'SABBATICAL', ' sabbatical ', 'Annual', 'UNPAID']) {
      expectResultError(await types(a).createLeaveType({ body: { name } }), 409, 'CONFLICT');
    }
    expect(await leaveTypesOf(a.client)).toEqual(before);
    // Another business may use the name.
    expect((await createLeaveType(b.client, { name: 'Sabbatical' })).name).toBe('Sabbatical');
  });

  it.each([
    ['name', { name: '' }],
    ['name', { name: '   ' }],
    ['name', { name: 'x'.repeat(41) }],
    ['name', { name: 7 }],
    ['paid', { paid: 'yes' }],
    ['allow_negative', { allow_negative: 1 }],
    ['days_per_year', { days_per_year: 1.234 }],
    ['days_per_year', { days_per_year: 0.001 }],
    ['days_per_year', { days_per_year: 366.01 }],
    ['days_per_year', { days_per_year: 367 }],
    ['days_per_year', { days_per_year: -1 }],
    ['days_per_year', { days_per_year: '10' }],
    ['accrual', { days_per_year: 10, accrual: 'weekly' }],
    ['carry_over_max', { days_per_year: 10, carry_over_max: 2.555 }],
    ['carry_over_max', { days_per_year: 10, carry_over_max: 400 }],
    ['carry_over_max', { days_per_year: 10, carry_over_max: -0.5 }],
    ['tracked', { tracked: true }],
  ])('refuses a bad %s (422 naming it), writing nothing', async (field, extra) => {
    const before = await leaveTypesOf(a.client);
    expectResultError(await post(a, { name: 'Odd type', ...extra }), 422, 'VALIDATION_ERROR', field);
    expect(await leaveTypesOf(a.client)).toEqual(before);
  });

  it('refuses a missing name (422 naming it)', async () => {
    expectResultError(await post(a, { paid: true }), 422, 'VALIDATION_ERROR', 'name');
  });
});

describe('PUT /v1/hr/leave-types/:id', () => {
  it('sets a policy on a default type, changes only the fields sent, and removes it with days_per_year null', async () => {
    const fresh = await registerBusiness(server());
    const annual = await leaveTypeNamed(fresh.client, 'annual');

    const res = await types(fresh).updateLeaveType({
      params: { id: annual.id },
      body: { days_per_year: 20 },
    });
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    expect(res.body).toEqual({
      result: 'success',
      message: expect.any(String),
      leave_type: {
        ...annual,
        tracked: true,
        days_per_year: 20,
        accrual: 'yearly',
        carry_over_max: 0,
        updated_at: expect.stringMatching(ISO),
      },
    });
    expect(await getType(fresh, annual.id)).toEqual(res.body.leave_type);

    const monthly = await updateLeaveType(fresh.client, annual.id, { accrual: 'monthly', carry_over_max: 5 });
    expect(monthly).toMatchObject({
      name: 'annual',
      days_per_year: 20,
      accrual: 'monthly',
      carry_over_max: 5,
    });
    const more = await updateLeaveType(fresh.client, annual.id, { days_per_year: 25.5 });
    expect(more).toMatchObject({ tracked: true, days_per_year: 25.5, accrual: 'monthly', carry_over_max: 5 });
    const flags = await updateLeaveType(fresh.client, annual.id, { paid: false, allow_negative: true });
    expect(flags).toMatchObject({
      paid: false,
      allow_negative: true,
      tracked: true,
      days_per_year: 25.5,
      accrual: 'monthly',
      carry_over_max: 5,
    });

    const untracked = await updateLeaveType(fresh.client, annual.id, { days_per_year: null });
    expect(untracked).toMatchObject({ name: 'annual', paid: false, allow_negative: true, ...UNTRACKED });
    expect(await getType(fresh, annual.id)).toEqual(untracked);

    // Tracked again: the policy starts from its defaults, not from the one removed.
    const again = await updateLeaveType(fresh.client, annual.id, { days_per_year: 10 });
    expect(again).toMatchObject({ tracked: true, days_per_year: 10, accrual: 'yearly', carry_over_max: 0 });
    // The other types are untouched.
    const others = (await leaveTypesOf(fresh.client)).filter((t) => t.id !== annual.id);
    expect(others.map((t) => [t.name, t.tracked])).toEqual([
      ['other', false],
      ['parental', false],
      ['sick', false],
      ['unpaid', false],
    ]);
  });

  it('an empty body changes nothing', async () => {
    const type = await createLeaveType(a.client, { days_per_year: 7, accrual: 'none', carry_over_max: 1 });
    const same = await updateLeaveType(a.client, type.id, {});
    expect({ ...same, updated_at: type.updated_at }).toEqual(type);
  });

  it.each([
    ['days_per_year', { days_per_year: 10.005 }],
    ['days_per_year', { days_per_year: 366.5 }],
    ['days_per_year', { days_per_year: -2 }],
    ['accrual', { accrual: 'daily' }],
    ['accrual', { accrual: null }],
    ['carry_over_max', { carry_over_max: 1.001 }],
    ['carry_over_max', { carry_over_max: 367 }],
    ['name', { name: '' }],
    ['name', { name: 'n'.repeat(41) }],
    ['paid', { paid: null }],
    ['id', { id: MISSING_ID }],
  ])('refuses a bad %s (422 naming it), changing nothing', async (field, body) => {
    const type = await createLeaveType(a.client, { days_per_year: 8, carry_over_max: 3 });
    expectResultError(await put(a, type.id, body), 422, 'VALIDATION_ERROR', field);
    expect(await getType(a, type.id)).toEqual(type);
  });

  it("refuses a name another type has, in any case (409 CONFLICT); a type's own name in another case is fine", async () => {
    const type = await createLeaveType(a.client, { name: 'Moving day' });
    await createLeaveType(a.client, { name: 'Jury service' });
    for (const name of ['sick', 'SICK', 'jury SERVICE', ' Jury service ']) {
      expectResultError(
        await types(a).updateLeaveType({ params: { id: type.id }, body: { name } }),
        409,
        'CONFLICT',
      );
    }
    expect(await getType(a, type.id)).toEqual(type);
    expect((await updateLeaveType(a.client, type.id, { name: 'MOVING DAY' })).name).toBe('MOVING DAY');
  });
});

describe('a rename', () => {
  it('keeps the requests of the type, which answer the new name; the old name is free and names nothing', async () => {
    const employee = await newEmployee();
    const type = await createLeaveType(a.client, { name: 'Conference' });
    const pending = await createLeave(a.client, employee.id, { type: 'conference', ...oneDay(0) });
    const approved = await leaveIn(a.client, employee.id, 'approved', { type: 'CONFERENCE', ...oneDay(1) });
    expect([pending.type, approved.type]).toEqual(['Conference', 'Conference']);

    const renamed = await updateLeaveType(a.client, type.id, { name: 'Training' });
    expect(renamed).toMatchObject({ id: type.id, name: 'Training' });
    expect(await getLeave(a.client, pending.id)).toEqual({
      ...pending,
      type: 'Training',
      updated_at: expect.stringMatching(ISO),
    });
    expect((await getLeave(a.client, approved.id)).type).toBe('Training');
    const listed = await unwrap(a.client.hr.leaves.listLeaves({ query: { employee_id: employee.id } }));
    expect(listed.leaves.map((l) => l.type)).toEqual(['Training', 'Training']);
    // The stored requests name the type by its new name.
    const rows = (await leaveRows(server(), a.businessId)).filter((r) => r.employee_id === employee.id);
    expect(rows.map((r) => r.type)).toEqual(['Training', 'Training']);

    expectResultError(
      await request(a, { employee_id: employee.id, type: 'Conference', ...oneDay(2) }),
      422,
      'VALIDATION_ERROR',
      'type',
    );
    const later = await createLeave(a.client, employee.id, { type: 'training', ...oneDay(3) });
    expect(later.type).toBe('Training');
    // The old name may be given to a new type.
    expect((await createLeaveType(a.client, { name: 'Conference' })).id).not.toBe(type.id);
  });
});

describe('DELETE /v1/hr/leave-types/:id', () => {
  it('deletes a type no request names (200 {result, message}); it is gone and its name free', async () => {
    const type = await createLeaveType(a.client, { name: 'Garden leave', days_per_year: 3 });
    const res = await types(a).deleteLeaveType({ params: { id: type.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', message: expect.any(String) });
    expectResultError(await types(a).getLeaveType({ params: { id: type.id } }), 404, 'NOT_FOUND');
    expectResultError(await types(a).deleteLeaveType({ params: { id: type.id } }), 404, 'NOT_FOUND');
    expect((await leaveTypesOf(a.client)).map((t) => t.id)).not.toContain(type.id);
    const employee = await newEmployee();
    expectResultError(
      await request(a, { employee_id: employee.id, type: 'Garden leave', ...oneDay(0) }),
      422,
      'VALIDATION_ERROR',
      'type',
    );
    expect((await createLeaveType(a.client, { name: 'garden leave' })).name).toBe('garden leave');
  });

  it('deletes a default type no request names', async () => {
    const fresh = await registerBusiness(server());
    const parental = await leaveTypeNamed(fresh.client, 'parental');
    await unwrap(types(fresh).deleteLeaveType({ params: { id: parental.id } }));
    expect((await leaveTypesOf(fresh.client)).map((t) => t.name)).toEqual([
      'annual',
      'other',
      'sick',
      'unpaid',
    ]);
  });

  it.each(['pending', 'approved', 'rejected', 'cancelled'] as const)(
    'refuses a type a %s request names (409 RESOURCE_IN_USE), keeping it and its requests',
    async (status) => {
      const employee = await newEmployee();
      const type = await createLeaveType(a.client, { days_per_year: 10 });
      const leave = await leaveIn(a.client, employee.id, status, { type: type.name, ...oneDay(0) });
      expectResultError(await types(a).deleteLeaveType({ params: { id: type.id } }), 409, 'RESOURCE_IN_USE');
      expect(await getType(a, type.id)).toEqual(type);
      expect(await getLeave(a.client, leave.id)).toEqual(leave);
    },
  );

  it('refuses a default type a request names (409 RESOURCE_IN_USE)', async () => {
    const employee = await newEmployee();
    await createLeave(a.client, employee.id, { type: 'sick', ...oneDay(0) });
    const sick = await leaveTypeNamed(a.client, 'sick');
    expectResultError(await types(a).deleteLeaveType({ params: { id: sick.id } }), 409, 'RESOURCE_IN_USE');
    expect(await getType(a, sick.id)).toEqual(sick);
  });
});

describe('a leave request names its type', () => {
  it("by name, case forgiven: the leave carries the type's own spelling and whether it is paid", async () => {
    const employee = await newEmployee();
    await createLeaveType(a.client, { name: 'Blood Donation', paid: true });
    await createLeaveType(a.client, { name: 'Career Break', paid: false });
    const cases = [
      ['annual', 'annual', true],
      ['SICK', 'sick', true],
      ['Unpaid', 'unpaid', false],
      ['parental', 'parental', true],
      ['other', 'other', true],
      ['blood donation', 'Blood Donation', true],
      ['CAREER BREAK', 'Career Break', false],
      ['  Career break ', 'Career Break', false],
    ] as const;
    for (const [i, [given, stored, paid]] of cases.entries()) {
      const res = await request(a, { employee_id: employee.id, type: given, ...oneDay(i) });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      if (res.status !== 201) return;
      expect(res.body.leave).toMatchObject({ type: stored, paid });
      expect(await getLeave(a.client, res.body.leave_id)).toEqual(res.body.leave);
    }
  });

  it("refuses an unknown type, another business's own type or an empty one (422 naming type), writing nothing", async () => {
    const employee = await newEmployee();
    await createLeaveType(b.client, { name: 'Beta only' });
    const before = await leaveRows(server(), a.businessId);
    for (const type of ['holiday', 'Beta only', 'annual leave', '']) {
      expectResultError(
        await raw(server(), 'POST', '/v1/hr/leaves', {
          ...json({ employee_id: employee.id, type, ...oneDay(0) }),
          token: a.accessToken,
        }),
        422,
        'VALIDATION_ERROR',
        'type',
      );
    }
    expect(await leaveRows(server(), a.businessId)).toEqual(before);
  });

  it("an untracked type refuses nothing for balance: a month of a custom type's leave is accepted", async () => {
    const employee = await newEmployee();
    const type = await createLeaveType(a.client, { name: 'Secondment', paid: false });
    const leave = await createLeave(a.client, employee.id, {
      type: 'secondment',
      start_date: '2027-09-01',
      end_date: '2027-09-30',
    });
    expect(leave).toMatchObject({ type: type.name, paid: false, days: 22, status: 'pending' });
  });
});

describe('leave events carry the type by name', () => {
  const recording = <T>(action: () => Promise<T>) => withEvents(server(), a.businessId, action);
  const leaveEvents = (events: Awaited<ReturnType<typeof recording>>['events']) =>
    events.filter((e) => e.type.startsWith('leave.'));

  it("leave.created, leave.updated and leave.deleted carry the custom type's name and paid, renamed too", async () => {
    const employee = await newEmployee();
    const type = await createLeaveType(a.client, { name: 'Volunteering', paid: false });

    const created = await recording(() =>
      createLeave(a.client, employee.id, { type: 'VOLUNTEERING', ...oneDay(0) }),
    );
    const [createdEvent] = leaveEvents(created.events);
    expect(leaveEvents(created.events).map((e) => e.type)).toEqual(['leave.created']);
    expect(createdEvent?.data).toEqual(await getLeave(a.client, created.result.id));
    expect(createdEvent?.data).toMatchObject({ type: 'Volunteering', paid: false });

    await updateLeaveType(a.client, type.id, { name: 'Community' });

    const approved = await recording(() => updateLeave(a.client, created.result.id, 'approved'));
    const updatedEvents = leaveEvents(approved.events);
    expect(updatedEvents.map((e) => e.type)).toEqual(['leave.updated']);
    expect(itemAt(updatedEvents, 0).data).toEqual(approved.result);
    expect(itemAt(updatedEvents, 0).data).toMatchObject({
      type: 'Community',
      paid: false,
      status: 'approved',
    });

    const other = await createLeave(a.client, employee.id, { type: 'community', ...oneDay(1) });
    const before = await getLeave(a.client, other.id);
    const deleted = await recording(() =>
      unwrap(a.client.hr.leaves.deleteLeave({ params: { id: other.id } })),
    );
    const deletedEvents = leaveEvents(deleted.events);
    expect(deletedEvents.map((e) => e.type)).toEqual(['leave.deleted']);
    expect(itemAt(deletedEvents, 0).data).toEqual(before);
    expect(itemAt(deletedEvents, 0).data).toMatchObject({ type: 'Community', paid: false });
  });

  it('a refused request of an unknown type writes no event', async () => {
    const employee = await newEmployee();
    const { events } = await recording(async () => {
      expectResultError(
        await request(a, { employee_id: employee.id, type: 'Moonlighting', ...oneDay(0) }),
        422,
        'VALIDATION_ERROR',
        'type',
      );
    });
    expect(events).toEqual([]);
  });
});
