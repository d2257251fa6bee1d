import { beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type Client, type hr } from '../../client/index.js';
import { updateBusiness } from '../support/auth.js';
import { raw, registerBusiness, sandboxOf, type TestBusiness } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import { expectResultError, itemAt } from '../support/expect.js';
import {
  createEmployee,
  createHoliday,
  createLeave,
  createLeaveType,
  leaveBalance,
  leaveBalances,
  leaveIn,
  leaveRows,
  leaveTypeNamed,
  setLeaveEntitlement,
  updateLeave,
  updateLeaveType,
} from '../support/hr.js';
import { useTestServer } from '../support/setup.js';

/**
 * Leave balances (`GET /v1/hr/employees/:id/leave-balances`, DESIGN 23): per tracked type, the
 * calendar year of `as_of`: entitled (the employee's own, or the type's days a year), accrued
 * (`yearly` on 1 January, `monthly` a twelfth on each 1st rounded cumulatively, `none`), pro rata
 * by whole months from the hire date, carried over from the year before (capped; a shortfall in
 * full), taken and pending (working days of the year), remaining. A request beyond the remaining
 * balance of its end date's year is 422 INSUFFICIENT_BALANCE unless the type allows negative, also
 * when requests race.
 *
 * The server's clock stands still at NOW (a Monday), so "today" is 2026-11-16 for every business;
 * a sandbox's test clock runs ahead of it by what it is advanced.
 */

// A pool large enough that concurrent requests really run at once on PostgreSQL. Access tokens
// outlive every clock move below.
const server = useTestServer({ env: { DB_POOL_SIZE: '30', ACCESS_TOKEN_TTL: '3650d' }, worker: false });

const NOW = '2026-11-16T12:00:00.000Z';
const TODAY = '2026-11-16';

// Before any business is registered, so that its tokens are issued by the stopped clock.
beforeAll(() => server().clock.set(NOW));

type Balance = hr.LeaveBalance;
type Amounts = Pick<Balance, 'accrued' | 'carried_over' | 'taken' | 'pending' | 'remaining'>;

/** The balance's amounts, in one object the assertion prints whole. */
const amounts = (b: Balance): Amounts => ({
  accrued: b.accrued,
  carried_over: b.carried_over,
  taken: b.taken,
  pending: b.pending,
  remaining: b.remaining,
});

/** The amounts of the employee's balance of `type` as of `asOf` (today when not given). */
const amountsOf = async (client: Client, employeeId: string, type: string, asOf?: string) =>
  amounts(await leaveBalance(client, employeeId, type, asOf));

const balanced = (accrued: number, carried_over = 0, taken = 0, pending = 0): Amounts => ({
  accrued,
  carried_over,
  taken,
  pending,
  remaining: Math.round((accrued + carried_over - taken - pending) * 100) / 100,
});

/** `[Monday, Tuesday]` of the week `week` weeks after Monday 2027-01-04. */
const twoDays = (week: number) => {
  const monday = Date.parse('2027-01-04T00:00:00Z') + week * 7 * 86_400_000;
  return {
    start_date: new Date(monday).toISOString().slice(0, 10),
    end_date: new Date(monday + 86_400_000).toISOString().slice(0, 10),
  };
};

/** A 422 INSUFFICIENT_BALANCE in the result envelope whose message names `remaining`. */
function expectInsufficient(res: { status: number; body: unknown }, remaining: RegExp) {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  const { error } = res.body as { result: string; error: { code: string; status: number; message: string } };
  expect(res.body).toMatchObject({ result: 'error', error: { code: 'INSUFFICIENT_BALANCE', status: 422 } });
  expect(error.message).toMatch(remaining);
}

/** A number as a message may spell it: `2.5` matches 2.5 and 2.50, not 12.5, -2.5 or 2.55. */
const number = (n: number) => {
  const [whole, fraction = ''] = String(Math.abs(n)).split('.');
  const decimals = fraction ? `\\.${fraction}${fraction.length === 1 ? '0?' : ''}` : '(\\.00?)?';
  return new RegExp(`(?<![\\d.-])${n < 0 ? '-' : ''}${whole}${decimals}(?!\\d|\\.\\d)`);
};

const request = (client: Client, body: hr.CreateLeaveBody) => client.hr.leaves.createLeave({ body });

let a: TestBusiness;
let b: TestBusiness;

beforeAll(async () => {
  [a, b] = await Promise.all([
    registerBusiness(server(), 'Alpha Ltd'),
    registerBusiness(server(), 'Beta Ltd'),
  ]);
});

/** A new employee of `a` (hired 2024-03-01 unless told). */
const employeeOf = (hire_date = '2024-03-01', client = a.client) => createEmployee(client, { hire_date });

/** A sandbox (of a new live business) whose test clock stands at NOW. */
async function newSandbox(): Promise<TestBusiness> {
  const sandbox = await sandboxOf(server(), await registerBusiness(server()));
  const { data } = await unwrap(sandbox.client.sandbox.clock.getClock());
  expect(data.now).toBe(NOW);
  return sandbox;
}

/** Moves the sandbox's test clock to `iso`. */
const advanceTo = async (sandbox: TestBusiness, iso: string) => {
  const { data } = await unwrap(sandbox.client.sandbox.clock.advanceClock({ body: { advance_to: iso } }));
  expect(data.now).toBe(iso);
};

describe('GET /v1/hr/employees/:id/leave-balances', () => {
  it("answers the tracked types only, as of today in the business's time zone by default", async () => {
    const biz = await registerBusiness(server());
    const employee = await employeeOf('2024-03-01', biz.client);
    expect(await leaveBalances(biz.client, employee.id)).toEqual({
      result: 'success',
      employee_id: employee.id,
      as_of: TODAY,
      year: 2026,
      balances: [],
    });

    const annual = await leaveTypeNamed(biz.client, 'annual');
    await updateLeaveType(biz.client, annual.id, { days_per_year: 20 });
    expect(await leaveBalances(biz.client, employee.id)).toEqual({
      result: 'success',
      employee_id: employee.id,
      as_of: TODAY,
      year: 2026,
      balances: [
        {
          type: 'annual',
          leave_type_id: annual.id,
          paid: true,
          allow_negative: false,
          accrual: 'yearly',
          entitled: 20,
          own_entitlement: false,
          accrued: 20,
          carried_over: 0,
          taken: 0,
          pending: 0,
          remaining: 20,
        },
      ],
    });

    const study = await createLeaveType(biz.client, {
      name: 'Study',
      paid: false,
      allow_negative: true,
      days_per_year: 5,
      accrual: 'none',
    });
    const both = await leaveBalances(biz.client, employee.id, '2027-02-01');
    expect([both.as_of, both.year]).toEqual(['2027-02-01', 2027]);
    expect([...both.balances].sort((x, y) => x.type.localeCompare(y.type))).toEqual([
      expect.objectContaining({ type: 'annual', accrued: 20 }),
      {
        type: 'Study',
        leave_type_id: study.id,
        paid: false,
        allow_negative: true,
        accrual: 'none',
        entitled: 5,
        own_entitlement: false,
        accrued: 0,
        carried_over: 0,
        taken: 0,
        pending: 0,
        remaining: 0,
      },
    ]);

    await updateLeaveType(biz.client, annual.id, { days_per_year: null });
    expect((await leaveBalances(biz.client, employee.id)).balances.map((x) => x.type)).toEqual(['Study']);

    // At 12:00 UTC on 16 November it is already the 17th on Kiritimati (UTC+14).
    await updateBusiness(biz.client, { timezone: 'Pacific/Kiritimati' });
    expect((await leaveBalances(biz.client, employee.id)).as_of).toBe('2026-11-17');
  });

  it("refuses a bad as_of (422 naming it), and an unknown or another business's employee (404)", async () => {
    const employee = await employeeOf();
    for (const asOf of ['2027-02-29', '2027-13-01', 'today', '2027-1-1']) {
      expectResultError(
        await raw(server(), 'GET', `/v1/hr/employees/${employee.id}/leave-balances?as_of=${asOf}`, {
          token: a.accessToken,
        }),
        422,
        'VALIDATION_ERROR',
        'as_of',
      );
    }
    const theirs = await employeeOf('2024-03-01', b.client);
    for (const id of ['emp_01JD7X2R5VQ8N3K4M6P9T1W2Y3', theirs.id]) {
      expectResultError(
        await a.client.hr.leaveTypes.getLeaveBalances({ params: { id }, query: {} }),
        404,
        'NOT_FOUND',
      );
    }
  });
});

describe('accrual', () => {
  it('yearly: the whole year on 1 January; taken and pending count the whole year, after as_of too', async () => {
    const type = await createLeaveType(a.client, { name: 'Vacation', days_per_year: 20 });
    const employee = await employeeOf();
    const balance = await leaveBalance(a.client, employee.id, 'Vacation', '2027-01-01');
    expect(balance).toEqual({
      type: 'Vacation',
      leave_type_id: type.id,
      paid: true,
      allow_negative: false,
      accrual: 'yearly',
      entitled: 20,
      own_entitlement: false,
      ...balanced(20),
    });

    // Monday to Friday, approved: 5; Monday to Wednesday, pending: 3; rejected and cancelled count nothing.
    await leaveIn(a.client, employee.id, 'approved', {
      type: 'vacation',
      start_date: '2027-03-01',
      end_date: '2027-03-05',
    });
    await createLeave(a.client, employee.id, {
      type: 'Vacation',
      start_date: '2027-06-07',
      end_date: '2027-06-09',
    });
    await leaveIn(a.client, employee.id, 'rejected', {
      type: 'Vacation',
      start_date: '2027-07-05',
      end_date: '2027-07-09',
    });
    await leaveIn(a.client, employee.id, 'cancelled', {
      type: 'Vacation',
      start_date: '2027-08-02',
      end_date: '2027-08-06',
    });
    // Leave of another type, and of the years around, counts nothing here.
    await leaveIn(a.client, employee.id, 'approved', {
      type: 'sick',
      start_date: '2027-09-06',
      end_date: '2027-09-10',
    });
    await leaveIn(a.client, employee.id, 'approved', {
      type: 'Vacation',
      start_date: '2026-12-07',
      end_date: '2026-12-08',
    });
    await createLeave(a.client, employee.id, {
      type: 'Vacation',
      start_date: '2028-01-04',
      end_date: '2028-01-04',
    });

    expect(await amountsOf(a.client, employee.id, 'Vacation', '2027-01-01')).toEqual(balanced(20, 0, 5, 3));
    expect(await amountsOf(a.client, employee.id, 'Vacation', '2027-12-31')).toEqual(balanced(20, 0, 5, 3));
    expect(await amountsOf(a.client, employee.id, 'Vacation', '2026-12-31')).toEqual(balanced(20, 0, 2, 0));
    expect(await amountsOf(a.client, employee.id, 'Vacation', '2028-06-30')).toEqual(balanced(20, 0, 0, 1));
  });

  it.each([
    ['2027-01-01', 2.08],
    ['2027-01-31', 2.08],
    ['2027-02-01', 4.17],
    ['2027-02-28', 4.17],
    ['2027-03-01', 6.25],
    ['2027-04-15', 8.33],
    ['2027-05-01', 10.42],
    ['2027-06-30', 12.5],
    ['2027-07-01', 14.58],
    ['2027-08-01', 16.67],
    ['2027-09-01', 18.75],
    ['2027-10-01', 20.83],
    ['2027-11-30', 22.92],
    ['2027-12-01', 25],
    ['2027-12-31', 25],
  ])('monthly 25 days a year, as of %s: %d', async (asOf, accrued) => {
    const type = await createLeaveType(a.client, { days_per_year: 25, accrual: 'monthly' });
    const employee = await employeeOf();
    const balance = await leaveBalance(a.client, employee.id, type.name, asOf);
    expect(balance).toMatchObject({ accrual: 'monthly', entitled: 25, ...balanced(accrued) });
  });

  it('monthly rounds the sum to two decimals once, half up (10.5 days: 0.88, 2.63, 10.5)', async () => {
    const type = await createLeaveType(a.client, { days_per_year: 10.5, accrual: 'monthly' });
    const employee = await employeeOf();
    const accrued = async (asOf: string) =>
      (await leaveBalance(a.client, employee.id, type.name, asOf)).accrued;
    expect(await accrued('2027-01-01')).toBe(0.88);
    expect(await accrued('2027-02-01')).toBe(1.75);
    expect(await accrued('2027-03-01')).toBe(2.63);
    expect(await accrued('2027-12-01')).toBe(10.5);
  });

  it('none: nothing accrues; a type allowing negative takes requests below zero, another refuses them', async () => {
    const lieu = await createLeaveType(a.client, {
      name: 'Lieu days',
      days_per_year: 10,
      accrual: 'none',
      allow_negative: true,
    });
    const strict = await createLeaveType(a.client, {
      name: 'Strict none',
      days_per_year: 10,
      accrual: 'none',
    });
    const employee = await employeeOf();
    expect(await leaveBalance(a.client, employee.id, lieu.name, '2027-06-01')).toMatchObject({
      accrual: 'none',
      entitled: 10,
      allow_negative: true,
      ...balanced(0),
    });

    const leave = await createLeave(a.client, employee.id, {
      type: 'lieu days',
      start_date: '2027-06-07',
      end_date: '2027-06-09',
    });
    expect(leave).toMatchObject({ type: 'Lieu days', status: 'pending', days: 3 });
    expect(await amountsOf(a.client, employee.id, lieu.name, '2027-06-01')).toEqual(balanced(0, 0, 0, 3));
    await updateLeave(a.client, leave.id, 'approved');
    const more = await createLeave(a.client, employee.id, {
      type: lieu.name,
      start_date: '2027-06-14',
      end_date: '2027-06-14',
    });
    expect(more.status).toBe('pending');
    expect(await amountsOf(a.client, employee.id, lieu.name, '2027-12-31')).toEqual(balanced(0, 0, 3, 1));

    expectInsufficient(
      await request(a.client, {
        employee_id: employee.id,
        type: strict.name,
        start_date: '2027-06-21',
        end_date: '2027-06-21',
      }),
      number(0),
    );
  });

  it('monthly on the test clock: a twelfth more on each 1st of the year, the same until the next 1st (12 months)', async () => {
    const sandbox = await newSandbox();
    const annual = await leaveTypeNamed(sandbox.client, 'annual');
    await updateLeaveType(sandbox.client, annual.id, {
      days_per_year: 25,
      accrual: 'monthly',
      carry_over_max: 0,
    });
    const employee = await employeeOf('2024-03-01', sandbox.client);

    // Today, 16 November 2026: eleven months of 2026.
    expect(await leaveBalances(sandbox.client, employee.id)).toMatchObject({ as_of: TODAY, year: 2026 });
    expect(await amountsOf(sandbox.client, employee.id, 'annual')).toEqual(balanced(22.92));

    const expected = [2.08, 4.17, 6.25, 8.33, 10.42, 12.5, 14.58, 16.67, 18.75, 20.83, 22.92, 25];
    for (const [i, accrued] of expected.entries()) {
      const month = String(i + 1).padStart(2, '0');
      await advanceTo(sandbox, `2027-${month}-01T00:00:00.000Z`);
      const read = await leaveBalances(sandbox.client, employee.id);
      expect([read.as_of, read.year]).toEqual([`2027-${month}-01`, 2027]);
      expect(amounts(itemAt(read.balances, 0)), `on 2027-${month}-01`).toEqual(balanced(accrued));
      // Late on the 28th, still the same: the next twelfth comes on the next 1st.
      await advanceTo(sandbox, `2027-${month}-28T23:30:00.000Z`);
      expect(await amountsOf(sandbox.client, employee.id, 'annual'), `on 2027-${month}-28`).toEqual(
        balanced(accrued),
      );
    }
  });
});

describe('pro rata by whole months from the hire date', () => {
  it.each([
    // [hire date, accrual, as of, accrued]
    ['2027-03-01', 'yearly', '2027-01-01', 0],
    ['2027-03-01', 'yearly', '2027-02-28', 0],
    ['2027-03-01', 'yearly', '2027-03-01', 20.83],
    ['2027-03-01', 'yearly', '2027-12-31', 20.83],
    ['2027-03-15', 'yearly', '2027-03-31', 0],
    ['2027-03-15', 'yearly', '2027-04-01', 18.75],
    ['2027-03-15', 'yearly', '2027-12-31', 18.75],
    ['2027-01-01', 'yearly', '2027-01-01', 25],
    ['2027-01-02', 'yearly', '2027-01-31', 0],
    ['2027-01-02', 'yearly', '2027-02-01', 22.92],
    ['2027-12-01', 'yearly', '2027-12-01', 2.08],
    ['2027-12-15', 'yearly', '2027-12-31', 0],
    ['2027-12-15', 'yearly', '2028-01-01', 25],
    ['2027-03-01', 'monthly', '2027-02-28', 0],
    ['2027-03-01', 'monthly', '2027-03-01', 2.08],
    ['2027-03-01', 'monthly', '2027-04-01', 4.17],
    ['2027-03-01', 'monthly', '2027-12-01', 20.83],
    ['2027-03-15', 'monthly', '2027-03-31', 0],
    ['2027-03-15', 'monthly', '2027-04-01', 2.08],
    ['2027-03-15', 'monthly', '2027-05-01', 4.17],
    ['2027-03-15', 'monthly', '2027-12-31', 18.75],
    ['2027-12-15', 'monthly', '2028-01-01', 2.08],
  ] as const)('25 days a year, hired %s, %s, as of %s: %d', async (hired, accrual, asOf, accrued) => {
    const type = await createLeaveType(a.client, { days_per_year: 25, accrual, carry_over_max: 25 });
    const employee = await employeeOf(hired);
    const balance = await leaveBalance(a.client, employee.id, type.name, asOf);
    expect(balance).toMatchObject({ entitled: 25, ...balanced(accrued) });
  });

  it('a year begun part-way carries its pro-rata remainder into the next, capped', async () => {
    // Hired 1 March 2024, 10 days a year, up to 5 carried: 2024 accrues 8.33, 2025 gets 5 of it.
    const capped = await createLeaveType(a.client, { days_per_year: 10, carry_over_max: 5 });
    // Monthly 25, up to 30 carried: 2024 ends with 20.83, all carried; 2025 ends with 45.83, 30 carried.
    const monthly = await createLeaveType(a.client, {
      days_per_year: 25,
      accrual: 'monthly',
      carry_over_max: 30,
    });
    const employee = await employeeOf('2024-03-01');
    expect(await amountsOf(a.client, employee.id, capped.name, '2024-12-31')).toEqual(balanced(8.33));
    expect(await amountsOf(a.client, employee.id, capped.name, '2025-06-01')).toEqual(balanced(10, 5));
    expect(await amountsOf(a.client, employee.id, monthly.name, '2024-12-31')).toEqual(balanced(20.83));
    expect(await amountsOf(a.client, employee.id, monthly.name, '2025-01-01')).toEqual(balanced(2.08, 20.83));
    expect(await amountsOf(a.client, employee.id, monthly.name, '2026-01-01')).toEqual(balanced(2.08, 30));
  });
});

describe('carry-over at the year end', () => {
  it('carries what remained up to carry_over_max, a shortfall in full, year after year (as_of)', async () => {
    const annual = await createLeaveType(a.client, {
      name: 'Annual (capped)',
      days_per_year: 10,
      carry_over_max: 5,
    });
    const comp = await createLeaveType(a.client, {
      name: 'Comp (negative)',
      days_per_year: 5,
      carry_over_max: 1,
      allow_negative: true,
    });
    const [many, few, debt, holding] = await Promise.all([
      employeeOf('2026-01-01'),
      employeeOf('2026-01-01'),
      employeeOf('2026-01-01'),
      employeeOf('2026-01-01'),
    ]);
    // 3 days taken in 2026: 7 remain, 5 carried.
    await leaveIn(a.client, many.id, 'approved', {
      type: annual.name,
      start_date: '2026-12-14',
      end_date: '2026-12-16',
    });
    // 8 days taken: 2 remain, all carried.
    await leaveIn(a.client, few.id, 'approved', {
      type: annual.name,
      start_date: '2026-12-01',
      end_date: '2026-12-10',
    });
    // 8 days of 5: 3 short, carried in full; 2027 then ends with 2, of which 1 is carried.
    await leaveIn(a.client, debt.id, 'approved', {
      type: comp.name,
      start_date: '2026-12-01',
      end_date: '2026-12-10',
    });
    // Pending days hold theirs at the year end too: 10 - 4 pending = 6 remain, 5 carried.
    await createLeave(a.client, holding.id, {
      type: annual.name,
      start_date: '2026-12-14',
      end_date: '2026-12-17',
    });

    expect(await amountsOf(a.client, many.id, annual.name, '2026-12-31')).toEqual(balanced(10, 0, 3));
    expect(await amountsOf(a.client, many.id, annual.name, '2027-01-01')).toEqual(balanced(10, 5));
    expect(await amountsOf(a.client, many.id, annual.name, '2028-07-01')).toEqual(balanced(10, 5));
    expect(await amountsOf(a.client, few.id, annual.name, '2027-01-01')).toEqual(balanced(10, 2));
    expect(await amountsOf(a.client, few.id, annual.name, '2028-01-01')).toEqual(balanced(10, 5));
    expect(await amountsOf(a.client, debt.id, comp.name, '2026-12-31')).toEqual(balanced(5, 0, 8));
    expect(await amountsOf(a.client, debt.id, comp.name, '2027-03-01')).toEqual(balanced(5, -3));
    expect(await amountsOf(a.client, debt.id, comp.name, '2028-03-01')).toEqual(balanced(5, 1));
    expect(await amountsOf(a.client, holding.id, annual.name, '2026-12-31')).toEqual(balanced(10, 0, 0, 4));
    expect(await amountsOf(a.client, holding.id, annual.name, '2027-01-01')).toEqual(balanced(10, 5));
    // No year before the hire year carries anything in.
    expect(await amountsOf(a.client, many.id, annual.name, '2026-01-01')).toEqual(balanced(10, 0, 3));
  });

  it('on the test clock: the capped remainder and the shortfall arrive on 1 January, and again a year later', async () => {
    const sandbox = await newSandbox();
    const annual = await leaveTypeNamed(sandbox.client, 'annual');
    await updateLeaveType(sandbox.client, annual.id, {
      days_per_year: 10,
      accrual: 'yearly',
      carry_over_max: 5,
    });
    await createLeaveType(sandbox.client, {
      name: 'Comp',
      days_per_year: 5,
      carry_over_max: 1,
      allow_negative: true,
    });
    const saver = await employeeOf('2026-01-01', sandbox.client);
    const spender = await employeeOf('2026-01-01', sandbox.client);
    await leaveIn(sandbox.client, saver.id, 'approved', {
      type: 'annual',
      start_date: '2026-12-14',
      end_date: '2026-12-16',
    });
    await leaveIn(sandbox.client, spender.id, 'approved', {
      type: 'comp',
      start_date: '2026-12-01',
      end_date: '2026-12-10',
    });

    expect(await leaveBalances(sandbox.client, saver.id)).toMatchObject({ as_of: TODAY, year: 2026 });
    expect(await amountsOf(sandbox.client, saver.id, 'annual')).toEqual(balanced(10, 0, 3));
    expect(await amountsOf(sandbox.client, spender.id, 'Comp')).toEqual(balanced(5, 0, 8));

    await advanceTo(sandbox, '2026-12-31T23:59:00.000Z');
    expect(await amountsOf(sandbox.client, saver.id, 'annual')).toEqual(balanced(10, 0, 3));
    expect(await amountsOf(sandbox.client, spender.id, 'Comp')).toEqual(balanced(5, 0, 8));

    await advanceTo(sandbox, '2027-01-01T00:00:00.000Z');
    expect(await leaveBalances(sandbox.client, saver.id)).toMatchObject({ as_of: '2027-01-01', year: 2027 });
    expect(await amountsOf(sandbox.client, saver.id, 'annual')).toEqual(balanced(10, 5));
    expect(await amountsOf(sandbox.client, spender.id, 'Comp')).toEqual(balanced(5, -3));

    await advanceTo(sandbox, '2028-01-01T00:00:00.000Z');
    expect(await amountsOf(sandbox.client, saver.id, 'annual')).toEqual(balanced(10, 5));
    expect(await amountsOf(sandbox.client, spender.id, 'Comp')).toEqual(balanced(5, 1));
  });
});

describe("an employee's own entitlement", () => {
  it('replaces the days of the policy for that employee alone, by type name or id, and null goes back', async () => {
    const biz = await registerBusiness(server());
    const annual = await leaveTypeNamed(biz.client, 'annual');
    await updateLeaveType(biz.client, annual.id, { days_per_year: 20 });
    const [own, other] = await Promise.all([
      employeeOf('2024-03-01', biz.client),
      employeeOf('2024-03-01', biz.client),
    ]);

    const res = await biz.client.hr.leaveTypes.setLeaveEntitlement({
      params: { id: own.id, type: 'annual' },
      body: { days_per_year: 28 },
    });
    expect(res.status).toBe(200);
    if (res.status !== 200) return;
    expect(res.body).toEqual({
      result: 'success',
      message: expect.any(String),
      balance: {
        type: 'annual',
        leave_type_id: annual.id,
        paid: true,
        allow_negative: false,
        accrual: 'yearly',
        entitled: 28,
        own_entitlement: true,
        ...balanced(28),
      },
    });
    expect(await leaveBalance(biz.client, own.id, 'annual')).toEqual(res.body.balance);
    expect(await leaveBalance(biz.client, other.id, 'annual')).toMatchObject({
      entitled: 20,
      own_entitlement: false,
      accrued: 20,
    });

    const byId = await setLeaveEntitlement(biz.client, own.id, annual.id, 22.5);
    expect(byId.balance).toMatchObject({ entitled: 22.5, own_entitlement: true, ...balanced(22.5) });
    // The policy's own days changing does not move an employee's own entitlement.
    await updateLeaveType(biz.client, annual.id, { days_per_year: 18, accrual: 'monthly' });
    expect(await leaveBalance(biz.client, own.id, 'annual', '2027-03-01')).toMatchObject({
      entitled: 22.5,
      own_entitlement: true,
      accrual: 'monthly',
      accrued: 5.63,
    });
    expect(await leaveBalance(biz.client, other.id, 'annual', '2027-03-01')).toMatchObject({
      entitled: 18,
      accrued: 4.5,
    });

    const reset = await setLeaveEntitlement(biz.client, own.id, 'annual', null);
    expect(reset.balance).toMatchObject({ entitled: 18, own_entitlement: false });
    expect(await leaveBalance(biz.client, own.id, 'annual', '2027-03-01')).toMatchObject({
      entitled: 18,
      own_entitlement: false,
      accrued: 4.5,
    });
  });

  it('of 0 refuses every request; a larger one lets a request through that the policy refuses', async () => {
    const type = await createLeaveType(a.client, { days_per_year: 5 });
    const [none, more] = await Promise.all([employeeOf(), employeeOf()]);
    await setLeaveEntitlement(a.client, none.id, type.name, 0);
    expectInsufficient(
      await request(a.client, { employee_id: none.id, type: type.name, ...twoDays(0) }),
      number(0),
    );
    const week = { start_date: '2027-03-01', end_date: '2027-03-08' };
    expectInsufficient(
      await request(a.client, { employee_id: more.id, type: type.name, ...week }),
      number(5),
    );
    await setLeaveEntitlement(a.client, more.id, type.name, 6);
    expect((await createLeave(a.client, more.id, { type: type.name, ...week })).days).toBe(6);
    expect(await amountsOf(a.client, more.id, type.name, '2027-01-01')).toEqual(balanced(6, 0, 0, 6));
  });

  it("refuses an untracked type (422 naming type), a bad days_per_year (422 naming it), and an unknown or another business's employee (404)", async () => {
    const employee = await employeeOf();
    const type = await createLeaveType(a.client, { days_per_year: 5 });
    for (const untracked of ['sick', 'unpaid']) {
      expectResultError(
        await a.client.hr.leaveTypes.setLeaveEntitlement({
          params: { id: employee.id, type: untracked },
          body: { days_per_year: 10 },
        }),
        422,
        'VALIDATION_ERROR',
        'type',
      );
    }
    for (const body of [{ days_per_year: 1.234 }, { days_per_year: 367 }, { days_per_year: -1 }, {}]) {
      expectResultError(
        await raw(server(), 'PUT', `/v1/hr/employees/${employee.id}/leave-entitlements/${type.id}`, {
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
          token: a.accessToken,
        }),
        422,
        'VALIDATION_ERROR',
        'days_per_year',
      );
    }
    const theirs = await employeeOf('2024-03-01', b.client);
    for (const id of ['emp_01JD7X2R5VQ8N3K4M6P9T1W2Y3', theirs.id]) {
      expectResultError(
        await a.client.hr.leaveTypes.setLeaveEntitlement({
          params: { id, type: type.name },
          body: { days_per_year: 10 },
        }),
        404,
        'NOT_FOUND',
      );
    }
    expect(await leaveBalance(a.client, employee.id, type.name, '2027-01-01')).toMatchObject({
      entitled: 5,
      own_entitlement: false,
    });
  });
});

describe('a request beyond the remaining balance', () => {
  it('is 422 INSUFFICIENT_BALANCE naming what remains, writing nothing; what fits is accepted', async () => {
    const type = await createLeaveType(a.client, { days_per_year: 10 });
    const employee = await employeeOf();
    await setLeaveEntitlement(a.client, employee.id, type.name, 9.5);
    await leaveIn(a.client, employee.id, 'approved', {
      type: type.name,
      start_date: '2027-02-01',
      end_date: '2027-02-04',
    });
    await createLeave(a.client, employee.id, {
      type: type.name,
      start_date: '2027-03-01',
      end_date: '2027-03-03',
    });
    expect(await amountsOf(a.client, employee.id, type.name, '2027-01-01')).toEqual(balanced(9.5, 0, 4, 3));

    const before = await leaveRows(server(), a.businessId);
    const tooMuch = {
      employee_id: employee.id,
      type: type.name,
      start_date: '2027-04-05',
      end_date: '2027-04-07',
    };
    expectInsufficient(await request(a.client, tooMuch), number(2.5));
    expect(await leaveRows(server(), a.businessId)).toEqual(before);
    expect(await amountsOf(a.client, employee.id, type.name, '2027-01-01')).toEqual(balanced(9.5, 0, 4, 3));

    const fits = await createLeave(a.client, employee.id, { ...tooMuch, end_date: '2027-04-06' });
    expect(fits).toMatchObject({ days: 2, status: 'pending' });
    expectInsufficient(
      await request(a.client, { ...tooMuch, start_date: '2027-05-03', end_date: '2027-05-03' }),
      number(0.5),
    );
    expect(await amountsOf(a.client, employee.id, type.name, '2027-12-31')).toEqual(balanced(9.5, 0, 4, 5));
  });

  it('counts the working days less holidays: a week with a holiday fits a balance of 4', async () => {
    const biz = await registerBusiness(server());
    const type = await createLeaveType(biz.client, { days_per_year: 4 });
    const employee = await employeeOf('2024-03-01', biz.client);
    const week = {
      employee_id: employee.id,
      type: type.name,
      start_date: '2027-04-05',
      end_date: '2027-04-09',
    };
    expectInsufficient(await request(biz.client, week), number(4));
    await createHoliday(biz.client, { date: '2027-04-07', name: 'Midweek' });
    const leave = await createLeave(biz.client, employee.id, week);
    expect(leave.days).toBe(4);
    expect(await amountsOf(biz.client, employee.id, type.name, '2027-04-01')).toEqual(balanced(4, 0, 0, 4));
  });

  it('is checked as of its last day: monthly days not yet accrued refuse it, pending days of later months hold theirs', async () => {
    // 12 days a year, one on each 1st.
    const type = await createLeaveType(a.client, { days_per_year: 12, accrual: 'monthly' });
    const employee = await employeeOf();
    const march = {
      employee_id: employee.id,
      type: type.name,
      start_date: '2027-03-01',
      end_date: '2027-03-05',
    };
    // As of 5 March, 3 days have accrued.
    expectInsufficient(await request(a.client, march), number(3));
    // As of 7 June, 6 have: Tuesday 1 to Monday 7 June is 5 working days.
    const june = await createLeave(a.client, employee.id, {
      type: type.name,
      start_date: '2027-06-01',
      end_date: '2027-06-07',
    });
    expect(june.days).toBe(5);
    // As of 1 March, 3 accrued less the 5 June holds: -2 remain, so one day more is refused.
    expect(await amountsOf(a.client, employee.id, type.name, '2027-03-01')).toEqual(balanced(3, 0, 0, 5));
    expectInsufficient(await request(a.client, { ...march, end_date: '2027-03-01' }), number(-2));
    // In July, 7 have accrued: 2 days fit.
    expect((await createLeave(a.client, employee.id, { type: type.name, ...twoDays(26) })).status).toBe(
      'pending',
    );
    expect(await amountsOf(a.client, employee.id, type.name, '2027-07-01')).toEqual(balanced(7, 0, 0, 7));
  });

  it('an untracked type refuses nothing', async () => {
    const employee = await employeeOf();
    const leave = await createLeave(a.client, employee.id, {
      type: 'unpaid',
      start_date: '2027-01-04',
      end_date: '2027-12-31',
    });
    expect(leave).toMatchObject({ status: 'pending', days: 260, paid: false });
    expect(
      (await leaveBalances(a.client, employee.id, '2027-06-01')).balances.map((x) => x.type),
    ).not.toContain('unpaid');
  });
});

describe('cancelling, rejecting and deleting free the days', () => {
  it('a cancelled or rejected request, a deleted one and a cancelled approval give their days back', async () => {
    const type = await createLeaveType(a.client, { days_per_year: 4 });
    const employee = await employeeOf();
    const body = (week: number) => ({ employee_id: employee.id, type: type.name, ...twoDays(week) });
    const first = await createLeave(a.client, employee.id, body(0));
    const second = await createLeave(a.client, employee.id, body(1));
    expect(await amountsOf(a.client, employee.id, type.name, '2027-01-01')).toEqual(balanced(4, 0, 0, 4));
    expectInsufficient(await request(a.client, body(2)), number(0));

    await updateLeave(a.client, first.id, 'cancelled');
    expect(await amountsOf(a.client, employee.id, type.name, '2027-01-01')).toEqual(balanced(4, 0, 0, 2));
    const third = await createLeave(a.client, employee.id, body(2));
    expectInsufficient(await request(a.client, body(3)), number(0));

    await updateLeave(a.client, second.id, 'rejected');
    const fourth = await createLeave(a.client, employee.id, body(3));
    expectInsufficient(await request(a.client, body(4)), number(0));

    await unwrap(a.client.hr.leaves.deleteLeave({ params: { id: third.id } }));
    expect(await amountsOf(a.client, employee.id, type.name, '2027-01-01')).toEqual(balanced(4, 0, 0, 2));
    await updateLeave(a.client, fourth.id, 'approved');
    const fifth = await leaveIn(a.client, employee.id, 'approved', body(4));
    expect(await amountsOf(a.client, employee.id, type.name, '2027-01-01')).toEqual(balanced(4, 0, 4, 0));
    expectInsufficient(await request(a.client, body(5)), number(0));

    await updateLeave(a.client, fifth.id, 'cancelled');
    expect(await amountsOf(a.client, employee.id, type.name, '2027-01-01')).toEqual(balanced(4, 0, 2, 0));
    expect((await createLeave(a.client, employee.id, body(5))).status).toBe('pending');
  });
});

describe('a request spanning a year end', () => {
  it("counts in each year its working days there, holidays left out, and is checked against its last day's year", async () => {
    const biz = await registerBusiness(server());
    const type = await createLeaveType(biz.client, { days_per_year: 5 });
    const employee = await employeeOf('2024-03-01', biz.client);
    // Wednesday 29 December 2027 to Tuesday 4 January 2028: 3 days in 2027, 2 in 2028.
    const span = { type: type.name, start_date: '2027-12-29', end_date: '2028-01-04' };
    const pending = await createLeave(biz.client, employee.id, span);
    expect(pending.days).toBe(5);
    expect(await amountsOf(biz.client, employee.id, type.name, '2027-06-01')).toEqual(balanced(5, 0, 0, 3));
    expect(await amountsOf(biz.client, employee.id, type.name, '2028-01-01')).toEqual(balanced(5, 0, 0, 2));

    await updateLeave(biz.client, pending.id, 'approved');
    expect(await amountsOf(biz.client, employee.id, type.name, '2027-12-31')).toEqual(balanced(5, 0, 3, 0));
    expect(await amountsOf(biz.client, employee.id, type.name, '2028-12-31')).toEqual(balanced(5, 0, 2, 0));
    await updateLeave(biz.client, pending.id, 'cancelled');

    // With New Year's Eve a holiday, 2 days in 2027.
    await createHoliday(biz.client, { date: '2027-12-31', name: "New Year's Eve" });
    const shorter = await createLeave(biz.client, employee.id, span);
    expect(shorter.days).toBe(4);
    expect(await amountsOf(biz.client, employee.id, type.name, '2027-06-01')).toEqual(balanced(5, 0, 0, 2));
    expect(await amountsOf(biz.client, employee.id, type.name, '2028-06-01')).toEqual(balanced(5, 0, 0, 2));
  });

  it('takes the year before below zero when the last year has room: the shortfall is carried in full', async () => {
    const type = await createLeaveType(a.client, { days_per_year: 5 });
    const employee = await employeeOf();
    // 4 of 2027's 5 days taken: 1 remains.
    await leaveIn(a.client, employee.id, 'approved', {
      type: type.name,
      start_date: '2027-06-07',
      end_date: '2027-06-10',
    });
    const span = {
      employee_id: employee.id,
      type: type.name,
      start_date: '2027-12-29',
      end_date: '2028-01-04',
    };
    // 2027: 1 - 3 = -2, carried in full into 2028: 5 - 2 - 2 = 1, not below zero.
    const leave = await createLeave(a.client, employee.id, span);
    expect(leave.days).toBe(5);
    expect(await amountsOf(a.client, employee.id, type.name, '2027-12-31')).toEqual(balanced(5, 0, 4, 3));
    expect(await amountsOf(a.client, employee.id, type.name, '2028-01-04')).toEqual(balanced(5, -2, 0, 2));
    // 1 remains in 2028; two more days are refused.
    expectInsufficient(
      await request(a.client, { ...span, start_date: '2028-01-05', end_date: '2028-01-06' }),
      number(1),
    );
  });
});

describe(`ten concurrent requests that each fit alone but not together (${
  onPostgres ? 'PostgreSQL, truly concurrent' : 'PGlite, which serialises them'
})`, () => {
  it.each([1, 2, 3])('round %i: five 201 and five 422 INSUFFICIENT_BALANCE, remaining 0', async () => {
    const type = await createLeaveType(a.client, { days_per_year: 10 });
    const employee = await employeeOf();
    // Ten Monday-Tuesday pairs of ten different weeks: no two overlap, each asks 2 of the 10 days.
    const bodies = Array.from({ length: 10 }, (_, i) => ({
      employee_id: employee.id,
      type: type.name,
      ...twoDays(i * 2),
    }));
    const answers = await Promise.all(bodies.map((body) => request(a.client, body)));
    const created = answers.filter((res) => res.status === 201);
    const refused = answers.filter((res) => res.status !== 201);
    expect(created).toHaveLength(5);
    expect(refused).toHaveLength(5);
    for (const res of refused) expectInsufficient(res, number(0));

    const rows = (await leaveRows(server(), a.businessId)).filter((r) => r.employee_id === employee.id);
    expect(rows).toHaveLength(5);
    expect(rows.every((r) => r.status === 'pending' && r.days === 2)).toBe(true);
    expect(await amountsOf(a.client, employee.id, type.name, '2027-01-01')).toEqual(balanced(10, 0, 0, 10));
  });
});
