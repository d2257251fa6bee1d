import { beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type imports } from '../../client/index.js';
import { raw, registerBusiness, type TestBusiness } from '../support/business.js';
import { expectError } from '../support/expect.js';
import { createEmployee, createHoliday, createLeave, getLeave, leaveIn } from '../support/hr.js';
import { useTestServer } from '../support/setup.js';

/**
 * Public holidays from CSV (`POST /v1/imports/holidays`, DESIGN 23): columns date and name, each row
 * checked as `POST /v1/hr/holidays` checks its body, matched by its date so that a date that already
 * has a holiday has it renamed; a row is named by the holiday's id. A new date counts the working days
 * of the pending leave requests over it again, as a holiday added by hand does.
 */

const server = useTestServer({ worker: false });

const ID = /^hol_[0-9A-HJKMNP-TV-Z]{26}$/;

type Answer = { status: number; body: any };

const importHolidays = (biz: TestBusiness, file: string, query = '') =>
  raw(server(), 'POST', `/v1/imports/holidays${query}`, {
    token: biz.accessToken,
    headers: { 'content-type': 'text/csv' },
    body: file,
  }) as Promise<Answer>;

const report = (answer: Answer): imports.ImportReport => {
  expect(answer.status, JSON.stringify(answer.body).slice(0, 500)).toBe(200);
  return answer.body.data as imports.ImportReport;
};

const csv = (...rows: string[]) => ['date,name', ...rows].join('\n');

/** The business's holidays as listed, by date, each as `date name`. */
async function holidaysOf(biz: TestBusiness): Promise<string[]> {
  const { holidays } = await unwrap(biz.client.hr.holidays.listHolidays({ query: { limit: 200 } }));
  return holidays.map((h) => `${h.date} ${h.name}`);
}

/** The id of the business's holiday on `date`; a date without one fails the test. */
async function holidayOn(biz: TestBusiness, date: string): Promise<string> {
  const { holidays } = await unwrap(biz.client.hr.holidays.listHolidays({ query: { from: date, to: date } }));
  const [holiday] = holidays;
  if (!holiday) throw new Error(`No holiday on ${date}`);
  return holiday.id;
}

/** A business with a holiday of its own, which no import of another business may touch. */
let neighbour: TestBusiness;

beforeAll(async () => {
  neighbour = await registerBusiness(server());
  await createHoliday(neighbour.client, { date: '2027-01-01', name: 'Theirs' });
});

describe('POST /v1/imports/holidays', () => {
  it('adds the holidays of the file, each row naming the holiday made', async () => {
    const biz = await registerBusiness(server());
    const file = csv(
      '2027-01-01,New Year’s Day',
      '2027-04-02,Good Friday',
      '2027-12-25,"Christmas Day, observed"',
    );
    const done = report(await importHolidays(biz, file));
    expect(done).toEqual({
      kind: 'holidays',
      dry_run: false,
      applied: true,
      columns: { mapped: ['date', 'name'], unknown: [] },
      counts: { rows: 3, create: 3, update: 0, refused: 0 },
      rows: [2, 3, 4].map((line) => ({ line, action: 'create', id: expect.stringMatching(ID), errors: [] })),
    });
    expect(await holidaysOf(biz)).toEqual([
      '2027-01-01 New Year’s Day',
      '2027-04-02 Good Friday',
      '2027-12-25 Christmas Day, observed',
    ]);
    expect(done.rows.map((r) => r.id)).toEqual([
      await holidayOn(biz, '2027-01-01'),
      await holidayOn(biz, '2027-04-02'),
      await holidayOn(biz, '2027-12-25'),
    ]);
  });

  it('renames the holiday of a date that has one (update, its id kept) and adds the others', async () => {
    const biz = await registerBusiness(server());
    const xmas = await createHoliday(biz.client, { date: '2027-12-25', name: 'Xmas' });
    const done = report(await importHolidays(biz, csv('2027-12-25,Christmas Day', '2027-12-26,Boxing Day')));
    expect(done.counts).toEqual({ rows: 2, create: 1, update: 1, refused: 0 });
    expect(done.rows).toEqual([
      { line: 2, action: 'update', id: xmas.id, errors: [] },
      { line: 3, action: 'create', id: await holidayOn(biz, '2027-12-26'), errors: [] },
    ]);
    expect(await holidaysOf(biz)).toEqual(['2027-12-25 Christmas Day', '2027-12-26 Boxing Day']);
    const renamed = (await unwrap(biz.client.hr.holidays.getHoliday({ params: { id: xmas.id } }))).holiday;
    expect(renamed).toMatchObject({ id: xmas.id, date: '2027-12-25', name: 'Christmas Day' });

    // The same file again: two updates, nothing new.
    const again = report(await importHolidays(biz, csv('2027-12-25,Christmas Day', '2027-12-26,Boxing Day')));
    expect(again.rows.map((r) => r.action)).toEqual(['update', 'update']);
    expect(await holidaysOf(biz)).toEqual(['2027-12-25 Christmas Day', '2027-12-26 Boxing Day']);
  });

  it('writes nothing on a dry run, and reports what each row would do', async () => {
    const biz = await registerBusiness(server());
    const existing = await createHoliday(biz.client, { date: '2027-05-03', name: 'May Day' });
    const done = report(
      await importHolidays(
        biz,
        csv('2027-05-03,Early May bank holiday', '2027-05-31,Spring bank holiday', '2027-02-29,Leap day'),
        '?dry_run=true',
      ),
    );
    expect(done).toMatchObject({
      kind: 'holidays',
      dry_run: true,
      applied: false,
      counts: { rows: 3, create: 1, update: 1, refused: 1 },
    });
    expect(done.rows).toEqual([
      { line: 2, action: 'update', id: existing.id, errors: [] },
      { line: 3, action: 'create', id: null, errors: [] },
      { line: 4, action: 'refused', id: null, errors: [{ field: 'date', message: expect.any(String) }] },
    ]);
    expect(await holidaysOf(biz)).toEqual(['2027-05-03 May Day']);
  });

  it('refuses bad rows naming their line, and imports nothing unless all_or_nothing=false', async () => {
    const biz = await registerBusiness(server());
    const file = csv(
      '2027-01-01,New Year’s Day', // 2: good
      '2027-02-30,No such day', // 3: no such date
      '2027-03-17,', // 4: no name
      '01/05/2027,Day first', // 5: not YYYY-MM-DD
      `2027-06-01,${'n'.repeat(101)}`, // 6: name too long
      '2027-01-01,New Year again', // 7: the date of line 2 again
      '2027-12-25,Christmas Day', // 8: good
    );
    const refusal = expectError(await importHolidays(biz, file), 422, 'VALIDATION_ERROR');
    expect(refusal.message).toMatch(/^5 of 7 rows refused, so nothing was imported/);
    expect(refusal.details!.map((d) => d.field)).toEqual([
      'line.3.date',
      'line.4.name',
      'line.5.date',
      'line.6.name',
      'line.7.date',
    ]);
    expect(refusal.details!.find((d) => d.field === 'line.7.date')!.message).toMatch(/line 2/);
    expect(await holidaysOf(biz)).toEqual([]);

    const done = report(await importHolidays(biz, file, '?all_or_nothing=false'));
    expect(done).toMatchObject({ applied: true, counts: { rows: 7, create: 2, update: 0, refused: 5 } });
    expect(done.rows.filter((r) => r.action === 'refused').map((r) => r.line)).toEqual([3, 4, 5, 6, 7]);
    expect(await holidaysOf(biz)).toEqual(['2027-01-01 New Year’s Day', '2027-12-25 Christmas Day']);
  });

  it('takes a form through the SDK (client.imports.importHolidays), a BOM, CRLF and header names in any case', async () => {
    const biz = await registerBusiness(server());
    const file = new File(
      ['\ufeffDate, NAME ,Notes\r\n2027-08-30,Summer bank holiday,office shut\r\n'],
      'h.csv',
      {
        type: 'text/csv',
      },
    );
    const r = (await unwrap(biz.client.imports.importHolidays({ body: { file } }))).data;
    expect(r).toMatchObject({
      kind: 'holidays',
      columns: { mapped: ['date', 'name'], unknown: ['Notes'] },
      counts: { rows: 1, create: 1, refused: 0 },
    });
    expect(await holidaysOf(biz)).toEqual(['2027-08-30 Summer bank holiday']);
  });

  it('counts the pending requests over an imported date again; approved ones and a rename change nothing', async () => {
    const biz = await registerBusiness(server());
    const [first, second] = [await createEmployee(biz.client), await createEmployee(biz.client)];
    const week = { start_date: '2027-04-05', end_date: '2027-04-09' };
    const pending = await createLeave(biz.client, first.id, week);
    const approved = await leaveIn(biz.client, second.id, 'approved', week);
    const other = await createLeave(biz.client, first.id, {
      start_date: '2027-04-12',
      end_date: '2027-04-16',
    });
    report(
      await importHolidays(biz, csv('2027-04-07,Midweek', '2027-04-10,A Saturday', '2027-04-14,Another')),
    );
    expect((await getLeave(biz.client, pending.id)).days).toBe(4);
    expect((await getLeave(biz.client, approved.id)).days).toBe(5);
    expect((await getLeave(biz.client, other.id)).days).toBe(4);
    // A dry run counts nothing again.
    report(await importHolidays(biz, csv('2027-04-08,Thursday'), '?dry_run=true'));
    expect((await getLeave(biz.client, pending.id)).days).toBe(4);
    // A rename of a date already a holiday changes no count.
    report(await importHolidays(biz, csv('2027-04-07,Midweek renamed')));
    expect((await getLeave(biz.client, pending.id)).days).toBe(4);
    // A new request over the imported dates counts them out.
    const later = await createLeave(biz.client, second.id, {
      start_date: '2027-04-12',
      end_date: '2027-04-16',
    });
    expect(later.days).toBe(4);
  });

  it("records the import in the audit log once, one row per holiday, a dry run nothing; another business's holidays stay", async () => {
    const biz = await registerBusiness(server());
    // A dry run records nothing.
    report(await importHolidays(biz, csv('2027-01-01,Ours'), '?dry_run=true'));
    const done = report(await importHolidays(biz, csv('2027-01-01,Ours', '2027-01-04,Ours too')));
    const rows = await server()
      .deps.db.selectFrom('audit_log')
      .select(['operation', 'resource_id'])
      .where('business_id', '=', biz.businessId)
      .where('operation', 'like', 'importHolidays%')
      .orderBy('operation')
      .orderBy('resource_id')
      .execute();
    expect(rows).toEqual([
      { operation: 'importHolidays', resource_id: null },
      ...done.rows
        .map((r) => r.id)
        .sort()
        .map((id) => ({ operation: 'importHolidays.create', resource_id: id })),
    ]);
    expect(await holidaysOf(neighbour)).toEqual(['2027-01-01 Theirs']);
    expect(await holidaysOf(biz)).toEqual(['2027-01-01 Ours', '2027-01-04 Ours too']);
  });
});
