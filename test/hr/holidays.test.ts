import { beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type hr } from '../../client/index.js';
import { json, raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { withEvents } from '../support/events.js';
import { expectResultError } from '../support/expect.js';
import { createEmployee, createHoliday, createLeave, getLeave, leaveIn, updateLeave } from '../support/hr.js';
import { useTestServer } from '../support/setup.js';

/**
 * Public holidays (`/v1/hr/holidays`, DESIGN 23): one a date per business; a leave's working days
 * are Monday to Friday less the holidays on those days; adding, moving or deleting a holiday counts
 * the days of the pending requests it touches again, while approved ones keep theirs.
 */

const server = useTestServer({ worker: false });

const ID = /^hol_[0-9A-HJKMNP-TV-Z]{26}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_ID = 'hol_01JD7X2R5VQ8N3K4M6P9T1W2Y3';

let a: TestBusiness;

beforeAll(async () => {
  a = await registerBusiness(server(), 'Alpha Ltd');
});

const holidays = (biz: TestBusiness) => biz.client.hr.holidays;
const post = (biz: TestBusiness, body: unknown) =>
  raw(server(), 'POST', '/v1/hr/holidays', { ...json(body), token: biz.accessToken });
const put = (biz: TestBusiness, id: string, body: unknown) =>
  raw(server(), 'PUT', `/v1/hr/holidays/${id}`, { ...json(body), token: biz.accessToken });
const getHoliday = async (biz: TestBusiness, id: string) =>
  (await unwrap(holidays(biz).getHoliday({ params: { id } }))).holiday;
const moveHoliday = async (biz: TestBusiness, id: string, body: hr.UpdateHolidayBody) =>
  (await unwrap(holidays(biz).updateHoliday({ params: { id }, body }))).holiday;
const deleteHoliday = (biz: TestBusiness, id: string) =>
  unwrap(holidays(biz).deleteHoliday({ params: { id } }));
type ListQuery = NonNullable<
  NonNullable<Parameters<TestBusiness['client']['hr']['holidays']['listHolidays']>[0]>['query']
>;
const list = (biz: TestBusiness, query: ListQuery = {}) => unwrap(holidays(biz).listHolidays({ query }));
/** The holidays listed, each as `date name`. */
const listed = async (biz: TestBusiness, query: ListQuery = {}) =>
  (await list(biz, { limit: 200, ...query })).holidays.map((h) => `${h.date} ${h.name}`);

/** A business with no holidays yet, and one employee of it. */
async function freshBusiness() {
  const biz = await registerBusiness(server());
  const employee = await createEmployee(biz.client);
  return { biz, employee };
}

describe('POST /v1/hr/holidays', () => {
  it('adds a holiday (201 {result, holiday_id, message, holiday}), name trimmed', async () => {
    const { biz } = await freshBusiness();
    const res = await holidays(biz).createHoliday({ body: { date: '2027-12-24', name: '  Christmas Eve ' } });
    expect(res.status).toBe(201);
    if (res.status !== 201) return;
    expect(res.body).toEqual({
      result: 'success',
      holiday_id: expect.stringMatching(ID),
      message: expect.any(String),
      holiday: {
        id: res.body.holiday_id,
        date: '2027-12-24',
        name: 'Christmas Eve',
        created_at: expect.stringMatching(ISO),
        updated_at: res.body.holiday.created_at,
      },
    });
    expect(await getHoliday(biz, res.body.holiday_id)).toEqual(res.body.holiday);
    expect(await list(biz)).toEqual({ result: 'success', holidays: [res.body.holiday], total_count: 1 });
  });

  it('refuses a second holiday on a date (409 CONFLICT), writing nothing', async () => {
    const { biz } = await freshBusiness();
    const first = await createHoliday(biz.client, { date: '2027-01-01', name: "New Year's Day" });
    expectResultError(
      await holidays(biz).createHoliday({ body: { date: '2027-01-01', name: 'Another name' } }),
      409,
      'CONFLICT',
    );
    expect((await list(biz)).holidays).toEqual([first]);
  });

  it.each([
    ['date', { date: '2027-02-29' }],
    ['date', { date: '2027-13-01' }],
    ['date', { date: '2027-1-01' }],
    ['date', { date: '01/01/2027' }],
    ['date', { date: null }],
    ['name', { name: '' }],
    ['name', { name: '   ' }],
    ['name', { name: 'n'.repeat(101) }],
    ['name', { name: 42 }],
    ['observed', { observed: true }],
  ])('refuses a bad %s (422 naming it), writing nothing', async (field, extra) => {
    const { biz } = await freshBusiness();
    expectResultError(
      await post(biz, { date: '2027-05-31', name: 'Spring bank holiday', ...extra }),
      422,
      'VALIDATION_ERROR',
      field,
    );
    expect((await list(biz)).total_count).toBe(0);
  });

  it.each(['date', 'name'])('refuses a missing %s (422 naming it)', async (field) => {
    const { biz } = await freshBusiness();
    const body: Record<string, unknown> = { date: '2027-05-31', name: 'Spring bank holiday' };
    delete body[field];
    expectResultError(await post(biz, body), 422, 'VALIDATION_ERROR', field);
    expect((await list(biz)).total_count).toBe(0);
  });

  it('accepts the name at 100 characters and a leap day', async () => {
    const { biz } = await freshBusiness();
    const long = await createHoliday(biz.client, { date: '2028-02-29', name: 'n'.repeat(100) });
    expect(long).toMatchObject({ date: '2028-02-29', name: 'n'.repeat(100) });
  });
});

describe('PUT and DELETE /v1/hr/holidays/:id', () => {
  it('renames and moves a holiday; a date another holiday has is 409 CONFLICT, its own date is fine', async () => {
    const { biz } = await freshBusiness();
    const xmas = await createHoliday(biz.client, { date: '2027-12-25', name: 'Xmas' });
    const boxing = await createHoliday(biz.client, { date: '2027-12-26', name: 'Boxing Day' });

    const res = await holidays(biz).updateHoliday({
      params: { id: xmas.id },
      body: { name: 'Christmas Day' },
    });
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    expect(res.body).toEqual({
      result: 'success',
      message: expect.any(String),
      holiday: { ...xmas, name: 'Christmas Day', updated_at: expect.stringMatching(ISO) },
    });
    expect(await getHoliday(biz, xmas.id)).toEqual(res.body.holiday);

    expect(
      await moveHoliday(biz, boxing.id, { date: '2027-12-27', name: 'Boxing Day (substitute)' }),
    ).toMatchObject({ id: boxing.id, date: '2027-12-27', name: 'Boxing Day (substitute)' });
    expect(await moveHoliday(biz, boxing.id, { date: '2027-12-27' })).toMatchObject({ date: '2027-12-27' });

    expectResultError(
      await holidays(biz).updateHoliday({ params: { id: boxing.id }, body: { date: '2027-12-25' } }),
      409,
      'CONFLICT',
    );
    expect(await listed(biz)).toEqual(['2027-12-25 Christmas Day', '2027-12-27 Boxing Day (substitute)']);
  });

  it.each([
    ['date', { date: '2027-04-31' }],
    ['name', { name: '' }],
    ['name', { name: 'x'.repeat(101) }],
    ['id', { id: MISSING_ID }],
  ])('refuses a bad %s (422 naming it), changing nothing', async (field, body) => {
    const { biz } = await freshBusiness();
    const holiday = await createHoliday(biz.client);
    expectResultError(await put(biz, holiday.id, body), 422, 'VALIDATION_ERROR', field);
    expect(await getHoliday(biz, holiday.id)).toEqual(holiday);
  });

  it('deletes a holiday (200 {result, message}): gone from the list, its date free again', async () => {
    const { biz } = await freshBusiness();
    const holiday = await createHoliday(biz.client, { date: '2027-05-03', name: 'Early May bank holiday' });
    const res = await holidays(biz).deleteHoliday({ params: { id: holiday.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', message: expect.any(String) });
    expectResultError(await holidays(biz).getHoliday({ params: { id: holiday.id } }), 404, 'NOT_FOUND');
    expectResultError(await holidays(biz).deleteHoliday({ params: { id: holiday.id } }), 404, 'NOT_FOUND');
    expect((await list(biz)).total_count).toBe(0);
    expect((await createHoliday(biz.client, { date: '2027-05-03', name: 'May Day' })).date).toBe(
      '2027-05-03',
    );
  });

  it('a missing id is 404 NOT_FOUND on get, update and delete', async () => {
    expectResultError(await holidays(a).getHoliday({ params: { id: MISSING_ID } }), 404, 'NOT_FOUND');
    expectResultError(
      await holidays(a).updateHoliday({ params: { id: MISSING_ID }, body: { name: 'Ghost' } }),
      404,
      'NOT_FOUND',
    );
    expectResultError(await holidays(a).deleteHoliday({ params: { id: MISSING_ID } }), 404, 'NOT_FOUND');
  });
});

describe('GET /v1/hr/holidays', () => {
  let biz: TestBusiness;
  beforeAll(async () => {
    ({ biz } = await freshBusiness());
    // Created out of order: the list is by date.
    for (const [date, name] of [
      ['2028-01-01', "New Year's Day 2028"],
      ['2027-04-02', 'Good Friday'],
      ['2027-12-25', 'Christmas Day'],
      ['2026-12-25', 'Christmas Day 2026'],
      ['2027-01-01', "New Year's Day"],
      ['2027-12-31', "New Year's Eve"],
    ] as const) {
      await createHoliday(biz.client, { date, name });
    }
  });

  it('lists by date, with total_count, limit and offset', async () => {
    expect(await listed(biz)).toEqual([
      '2026-12-25 Christmas Day 2026',
      "2027-01-01 New Year's Day",
      '2027-04-02 Good Friday',
      '2027-12-25 Christmas Day',
      "2027-12-31 New Year's Eve",
      "2028-01-01 New Year's Day 2028",
    ]);
    const page = await list(biz, { limit: 2, offset: 2 });
    expect(page.total_count).toBe(6);
    expect(page.holidays.map((h) => h.date)).toEqual(['2027-04-02', '2027-12-25']);
    expect((await list(biz, { limit: 2, offset: 6 })).holidays).toEqual([]);
  });

  it('filters from and to, both days included', async () => {
    const year = await list(biz, { from: '2027-01-01', to: '2027-12-31' });
    expect(year.total_count).toBe(4);
    expect(year.holidays.map((h) => h.date)).toEqual([
      '2027-01-01',
      '2027-04-02',
      '2027-12-25',
      '2027-12-31',
    ]);
    expect((await list(biz, { from: '2027-12-25' })).holidays.map((h) => h.date)).toEqual([
      '2027-12-25',
      '2027-12-31',
      '2028-01-01',
    ]);
    expect((await list(biz, { to: '2027-01-01' })).holidays.map((h) => h.date)).toEqual([
      '2026-12-25',
      '2027-01-01',
    ]);
    const oneDay = await list(biz, { from: '2027-04-02', to: '2027-04-02' });
    expect([oneDay.total_count, oneDay.holidays.map((h) => h.name)]).toEqual([1, ['Good Friday']]);
    expect(await list(biz, { from: '2027-04-03', to: '2027-12-24' })).toMatchObject({
      holidays: [],
      total_count: 0,
    });
    const paged = await list(biz, { from: '2027-01-01', limit: 1, offset: 1 });
    expect([paged.total_count, paged.holidays.map((h) => h.date)]).toEqual([5, ['2027-04-02']]);
  });

  it.each([
    ['from', '?from=2027-02-30'],
    ['to', '?to=tomorrow'],
    ['limit', '?limit=201'],
  ])('refuses a bad %s (422 naming it)', async (field, query) => {
    expectResultError(
      await raw(server(), 'GET', `/v1/hr/holidays${query}`, { token: biz.accessToken }),
      422,
      'VALIDATION_ERROR',
      field,
    );
  });
});

describe("a leave's working days leave holidays out", () => {
  it('a request over a weekday holiday counts one day less; a weekend holiday changes nothing', async () => {
    const { biz, employee } = await freshBusiness();
    await createHoliday(biz.client, { date: '2027-03-10', name: 'Midweek' });
    await createHoliday(biz.client, { date: '2027-03-13', name: 'A Saturday' });
    const week = await createLeave(biz.client, employee.id, {
      start_date: '2027-03-08',
      end_date: '2027-03-14',
    });
    expect(week.days).toBe(4);
    expect((await getLeave(biz.client, week.id)).days).toBe(4);
    const plain = await createLeave(biz.client, employee.id, {
      start_date: '2027-03-17',
      end_date: '2027-03-17',
    });
    expect(plain.days).toBe(1);
    await createHoliday(biz.client, { date: '2027-03-24', name: 'Another' });
    await createHoliday(biz.client, { date: '2027-03-25', name: 'And another' });
    const two = await createLeave(biz.client, employee.id, {
      start_date: '2027-03-22',
      end_date: '2027-03-26',
    });
    expect(two.days).toBe(3);
    await createHoliday(biz.client, { date: '2027-03-31', name: 'Wednesday off' });
    await createHoliday(biz.client, { date: '2027-04-01', name: 'Thursday off' });
    const only = await createLeave(biz.client, employee.id, {
      start_date: '2027-03-31',
      end_date: '2027-04-01',
    });
    expect(only.days).toBe(0);
  });

  it("another business's holidays count nothing, are not listed, and are 404 to it", async () => {
    const mine = await freshBusiness();
    const theirs = await freshBusiness();
    const holiday = await createHoliday(mine.biz.client, { date: '2027-06-09', name: 'Founders Day' });
    expect((await list(theirs.biz)).total_count).toBe(0);
    expectResultError(
      await holidays(theirs.biz).getHoliday({ params: { id: holiday.id } }),
      404,
      'NOT_FOUND',
    );
    expectResultError(
      await holidays(theirs.biz).updateHoliday({ params: { id: holiday.id }, body: { name: 'Taken over' } }),
      404,
      'NOT_FOUND',
    );
    expectResultError(
      await holidays(theirs.biz).deleteHoliday({ params: { id: holiday.id } }),
      404,
      'NOT_FOUND',
    );
    expect(await getHoliday(mine.biz, holiday.id)).toEqual(holiday);
    const leave = { start_date: '2027-06-07', end_date: '2027-06-11' };
    expect((await createLeave(theirs.biz.client, theirs.employee.id, leave)).days).toBe(5);
    expect((await createLeave(mine.biz.client, mine.employee.id, leave)).days).toBe(4);
    // The other business may have a holiday of its own on the same date.
    expect((await createHoliday(theirs.biz.client, { date: '2027-06-09', name: 'Theirs' })).name).toBe(
      'Theirs',
    );
    expect(await listed(mine.biz)).toEqual(['2027-06-09 Founders Day']);
  });
});

describe('a holiday added, moved or deleted counts pending requests again, not approved ones', () => {
  /** A pending and an approved leave of the week of Monday 2027-04-05 (5 days each), of two employees. */
  async function weekOfLeaves(biz: TestBusiness) {
    const [first, second] = await Promise.all([createEmployee(biz.client), createEmployee(biz.client)]);
    const week = { start_date: '2027-04-05', end_date: '2027-04-09' };
    const pending = await createLeave(biz.client, first.id, week);
    const approved = await leaveIn(biz.client, second.id, 'approved', week);
    expect([pending.days, approved.days]).toEqual([5, 5]);
    const days = async () =>
      [
        (await getLeave(biz.client, pending.id)).days,
        (await getLeave(biz.client, approved.id)).days,
      ] as const;
    return { pending, approved, days };
  }

  it('adding a holiday in the week: the pending request counts 4, the approved one keeps 5', async () => {
    const { biz } = await freshBusiness();
    const { days } = await weekOfLeaves(biz);
    await createHoliday(biz.client, { date: '2027-04-07', name: 'Midweek' });
    expect(await days()).toEqual([4, 5]);
  });

  it('announces each pending request it counts again, with its new days, and no other', async () => {
    const { biz } = await freshBusiness();
    const { pending, days } = await weekOfLeaves(biz);
    const leaveEvents = <E extends { type: string }>(events: E[]) =>
      events.filter((e) => e.type.startsWith('leave.'));

    const added = await withEvents(server(), biz.businessId, () =>
      createHoliday(biz.client, { date: '2027-04-07', name: 'Midweek' }),
    );
    expect(await days()).toEqual([4, 5]);
    const [announced] = leaveEvents(added.events);
    expect(leaveEvents(added.events).map((e) => e.type)).toEqual(['leave.updated']);
    expect(announced!.data).toEqual(await getLeave(biz.client, pending.id));
    expect(announced!.data).toMatchObject({ id: pending.id, days: 4, status: 'pending' });

    // A rename, or a move that leaves the count as it is, announces nothing.
    const renamed = await withEvents(server(), biz.businessId, () =>
      moveHoliday(biz, added.result.id, { name: 'Renamed' }),
    );
    expect(leaveEvents(renamed.events)).toEqual([]);
    const within = await withEvents(server(), biz.businessId, () =>
      moveHoliday(biz, added.result.id, { date: '2027-04-08' }),
    );
    expect(leaveEvents(within.events)).toEqual([]);

    const deleted = await withEvents(server(), biz.businessId, () =>
      unwrap(holidays(biz).deleteHoliday({ params: { id: added.result.id } })),
    );
    expect(leaveEvents(deleted.events).map((e) => [e.type, (e.data as { days: number }).days])).toEqual([
      ['leave.updated', 5],
    ]);
  });

  it('a holiday outside the week or on its weekend changes nothing', async () => {
    const { biz } = await freshBusiness();
    const { days } = await weekOfLeaves(biz);
    await createHoliday(biz.client, { date: '2027-04-10', name: 'Saturday' });
    await createHoliday(biz.client, { date: '2027-04-12', name: 'Next Monday' });
    await createHoliday(biz.client, { date: '2027-04-02', name: 'Friday before' });
    expect(await days()).toEqual([5, 5]);
  });

  it('moving the holiday into, within and out of the week counts the pending request again each time', async () => {
    const { biz } = await freshBusiness();
    const { days } = await weekOfLeaves(biz);
    const holiday = await createHoliday(biz.client, { date: '2027-04-12', name: 'Moving' });
    expect(await days()).toEqual([5, 5]);
    await moveHoliday(biz, holiday.id, { date: '2027-04-06' });
    expect(await days()).toEqual([4, 5]);
    await moveHoliday(biz, holiday.id, { date: '2027-04-10' });
    expect(await days()).toEqual([5, 5]);
    await moveHoliday(biz, holiday.id, { date: '2027-04-09' });
    expect(await days()).toEqual([4, 5]);
    // A rename alone changes no count.
    await moveHoliday(biz, holiday.id, { name: 'Renamed' });
    expect(await days()).toEqual([4, 5]);
    await moveHoliday(biz, holiday.id, { date: '2027-05-03' });
    expect(await days()).toEqual([5, 5]);
  });

  it('deleting the holiday gives the pending request its day back; an approved one keeps its count', async () => {
    const { biz } = await freshBusiness();
    const [first, second] = await Promise.all([createEmployee(biz.client), createEmployee(biz.client)]);
    const holiday = await createHoliday(biz.client, { date: '2027-04-07', name: 'Midweek' });
    const week = { start_date: '2027-04-05', end_date: '2027-04-09' };
    const pending = await createLeave(biz.client, first.id, week);
    const approved = await leaveIn(biz.client, second.id, 'approved', week);
    expect([pending.days, approved.days]).toEqual([4, 4]);
    await deleteHoliday(biz, holiday.id);
    expect((await getLeave(biz.client, pending.id)).days).toBe(5);
    expect((await getLeave(biz.client, approved.id)).days).toBe(4);
  });

  it('a pending request approved after the recount keeps the recounted days', async () => {
    const { biz } = await freshBusiness();
    const { pending, days } = await weekOfLeaves(biz);
    await createHoliday(biz.client, { date: '2027-04-08', name: 'Thursday' });
    expect((await updateLeave(biz.client, pending.id, 'approved')).days).toBe(4);
    await createHoliday(biz.client, { date: '2027-04-06', name: 'Tuesday' });
    expect(await days()).toEqual([4, 5]);
  });

  it("leaves another business's pending requests as they were", async () => {
    const mine = await freshBusiness();
    const theirs = await freshBusiness();
    const week = { start_date: '2027-04-05', end_date: '2027-04-09' };
    const their = await createLeave(theirs.biz.client, theirs.employee.id, week);
    const own = await createLeave(mine.biz.client, mine.employee.id, week);
    await createHoliday(mine.biz.client, { date: '2027-04-07', name: 'Ours' });
    expect((await getLeave(mine.biz.client, own.id)).days).toBe(4);
    expect((await getLeave(theirs.biz.client, their.id)).days).toBe(5);
  });

  it('counts a pending request spanning a year end again for a holiday in either year', async () => {
    const { biz, employee } = await freshBusiness();
    // Wednesday 2027-12-29 to Tuesday 2028-01-04: 3 + 2 working days.
    const leave = await createLeave(biz.client, employee.id, {
      start_date: '2027-12-29',
      end_date: '2028-01-04',
    });
    expect(leave.days).toBe(5);
    await createHoliday(biz.client, { date: '2027-12-31', name: "New Year's Eve" });
    expect((await getLeave(biz.client, leave.id)).days).toBe(4);
    await createHoliday(biz.client, { date: '2028-01-03', name: "New Year's Day (substitute)" });
    expect((await getLeave(biz.client, leave.id)).days).toBe(3);
  });
});
