import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import {
  ARTIFACTS,
  PHONE,
  errorBeside,
  expectAccessible,
  expectClean,
  openApp,
  screenshot,
  useBrowser,
  type AppPage,
} from '../support/browser.js';
import { registerBusiness } from '../support/business.js';
import {
  createEmployee,
  createHoliday,
  createLeave,
  leaveBalance,
  leaveBalances,
  leaveIn,
  leaveTypeNamed,
  leaveTypesOf,
  updateLeaveType,
} from '../support/hr.js';
import { useTestServer } from '../support/setup.js';

/**
 * Leave a company can run, in a real browser: a leave type's policy set, a type added, untracked and
 * deleted (refused while a request names it); public holidays added, moved, deleted and imported from
 * a CSV file, then marked on the leave calendar; an employee's balances as of a day and their own
 * entitlement set and cleared; a request typed over a holiday counting one working day less, with the
 * balance it leaves, and a request beyond the balance warned of and refused by the service.
 */

// Tokens outlive the clock set below.
const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' }, worker: false });
const browser = useBrowser();

const NOW = '2026-12-05T09:00:00.000Z';

beforeEach(() => server().clock.set(NOW));
afterEach(() => server().clock.reset());

async function open(business: { accessToken: string }, path: string): Promise<AppPage> {
  const app = await openApp(browser(), server().baseUrl, `/app${path}`, {
    accessToken: business.accessToken,
  });
  app.page.setDefaultTimeout(10_000);
  return app;
}

const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

/** The page is no wider than a phone's window: nothing scrolls sideways. */
async function expectFitsPhone(page: Page): Promise<void> {
  await page.setViewportSize(PHONE);
  const widths = await page.evaluate<{ window: number; document: number }>(
    '({ window: window.innerWidth, document: document.documentElement.scrollWidth })',
  );
  expect(widths.document).toBe(widths.window);
}

/** A calendar date as the page writes it (`Dec 25, 2026`). */
const dayIn = (page: Page, day: string): Promise<string> =>
  page.evaluate((d) => {
    const [y, m, n] = d.split('-').map(Number) as [number, number, number];
    return new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(y, m - 1, n));
  }, day);

/** Text as the page shows it (a closed dialog in a cell is not shown), its spacing collapsed. */
const shown = (texts: string[]) => texts.map((t) => t.replace(/\s+/g, ' ').trim());

/** The cells of the table row whose first cell starts with `first`, as the page shows them. */
const rowCells = async (page: Page, table: string, first: string) =>
  shown(
    await page
      .getByRole('table', { name: table })
      .locator('tbody tr')
      .filter({ has: page.locator('td:first-child', { hasText: first }) })
      .first()
      .locator('td')
      .allInnerTexts(),
  );

/** The first cell of each row of the table, as the page shows them. */
const firstCells = async (page: Page, table: string) =>
  shown(await page.getByRole('table', { name: table }).locator('tbody tr td:first-child').allInnerTexts());

describe('leave types', () => {
  it('sets a policy on a type and lists it; adds, untracks and deletes a type of its own; refuses a taken name and deleting a type a request names', async () => {
    const owner = await registerBusiness(server(), 'Leave Types Ltd');
    const employee = await createEmployee(owner.client, { hire_date: '2024-03-01' });
    // A request names sick leave: the type cannot be deleted.
    await createLeave(owner.client, employee.id, {
      type: 'sick',
      start_date: '2026-12-14',
      end_date: '2026-12-14',
    });

    const app = await open(owner, '/hr/employees');
    const { page } = app;
    await nav(page, 'Leave types').click();
    await page.getByRole('heading', { name: 'Leave types', level: 1 }).waitFor();
    const table = 'Leave types';
    await expect
      .poll(() => firstCells(page, table))
      .toEqual([
        'Annual leave annual',
        'Other leave other',
        'Parental leave parental',
        'Sick leave sick',
        'Unpaid leave unpaid',
      ]);
    expect(await rowCells(page, table, 'Annual leave')).toEqual([
      'Annual leave annual',
      'Paid',
      'Not tracked',
      '—',
      'Edit Delete',
    ]);
    await expectAccessible(page, 'leave types');

    // Annual leave gets a policy: 25 days a year accrued monthly, 5 carried over.
    await page.getByRole('button', { name: 'Edit Annual leave' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Annual leave' });
    await edit.getByLabel('Keep a balance (tracked)').check();
    await edit.getByLabel('Days a year').fill('25');
    await edit.getByLabel('Carried over at most (days)').fill('5');
    await edit.getByLabel('Accrual').selectOption('monthly');
    expect(await edit.getByLabel('Allow the balance to go below zero').isChecked()).toBe(false);
    await expectAccessible(page, 'leave type policy');
    await screenshot(page, 'leave-type-policy');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Annual leave was saved.').waitFor();
    await expect
      .poll(() => rowCells(page, table, 'Annual leave'))
      .toEqual([
        'Annual leave annual',
        'Paid',
        '25 days a year, accrued monthly Up to 5 days carried over',
        'Refused',
        'Edit Delete',
      ]);
    expect(await leaveTypeNamed(owner.client, 'annual')).toMatchObject({
      tracked: true,
      days_per_year: 25,
      accrual: 'monthly',
      carry_over_max: 5,
      paid: true,
      allow_negative: false,
    });

    // A type of the business's own: unpaid, 5 days a year, allowed below zero.
    await page.getByRole('button', { name: 'New leave type' }).click();
    const create = page.getByRole('dialog', { name: 'New leave type' });
    await create.getByLabel('Name', { exact: true }).fill('Study');
    await create.getByLabel('Paid leave').uncheck();
    await create.getByLabel('Keep a balance (tracked)').check();
    await create.getByLabel('Days a year').fill('5.5');
    await create.getByLabel('Allow the balance to go below zero').check();
    await create.getByRole('button', { name: 'Add leave type' }).click();
    await page.getByText('Study was added.').waitFor();
    await expect
      .poll(() => rowCells(page, table, 'Study'))
      .toEqual([
        'Study',
        'Unpaid',
        '5.5 days a year, all on 1 January Nothing carried over',
        'Allowed',
        'Edit Delete',
      ]);

    // A name another type has (any case) is refused beside the name.
    await page.getByRole('button', { name: 'New leave type' }).click();
    await create.getByLabel('Name', { exact: true }).fill('STUDY');
    await create.getByRole('button', { name: 'Add leave type' }).click();
    expect(await errorBeside(create.getByLabel('Name', { exact: true }))).toBe(
      'A leave type of this name already exists.',
    );
    await create.getByRole('button', { name: 'Cancel' }).click();

    // Its policy removed: untracked.
    await page.getByRole('button', { name: 'Edit Study' }).click();
    const editStudy = page.getByRole('dialog', { name: 'Edit Study' });
    expect(await editStudy.getByLabel('Days a year').inputValue()).toBe('5.5');
    await editStudy.getByLabel('Keep a balance (tracked)').uncheck();
    await editStudy.getByText('Saved without a policy, the type is no longer tracked').waitFor();
    await editStudy.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Study was saved.').waitFor();
    await expect
      .poll(() => rowCells(page, table, 'Study'))
      .toEqual(['Study', 'Unpaid', 'Not tracked', '—', 'Edit Delete']);
    expect(await leaveTypeNamed(owner.client, 'Study')).toMatchObject({
      tracked: false,
      days_per_year: null,
      paid: false,
    });

    // Sick leave is named by a request: the service refuses, and the dialog says why.
    await page
      .getByRole('row', { name: /Sick leave/ })
      .getByRole('button', { name: 'Delete' })
      .click();
    const refuse = page.getByRole('dialog', { name: 'Delete Sick leave?' });
    await refuse.getByRole('button', { name: 'Delete leave type' }).click();
    expect(await refuse.getByRole('alert').textContent()).toBe(
      'Leave requests name the type "sick"; it cannot be deleted (remove its policy to stop tracking it).',
    );
    await expectAccessible(page, 'leave type delete refused');
    await screenshot(page, 'leave-type-delete-refused');
    await refuse.getByRole('button', { name: 'Close' }).click();

    // Study is named by none: deleted.
    await page.getByRole('row', { name: /Study/ }).getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete Study?' })
      .getByRole('button', { name: 'Delete leave type' })
      .click();
    await page.getByText('Study was deleted.').waitFor();
    expect((await leaveTypesOf(owner.client)).map((t) => t.name)).toEqual([
      'annual',
      'other',
      'parental',
      'sick',
      'unpaid',
    ]);
    await expectAccessible(page, 'leave types with a policy');
    await screenshot(page, 'leave-types');
    await expectFitsPhone(page);
    await screenshot(page, 'leave-types-phone');

    expectClean(app, [409]);
    await app.close();
  });
});

describe('public holidays', () => {
  it('adds, moves and deletes holidays and imports a CSV file of them; the holidays screen and the calendar show them', async () => {
    const owner = await registerBusiness(server(), 'Holidays Ltd');
    const employee = await createEmployee(owner.client, { first_name: 'Ada', last_name: 'Byron' });

    const app = await open(owner, '/hr/leave-types');
    const { page } = app;
    await nav(page, 'Public holidays').click();
    await page.getByRole('heading', { name: 'Public holidays', level: 1 }).waitFor();
    await page.getByText('No public holidays in 2026').waitFor();
    await expectAccessible(page, 'holidays, empty');

    // One added in the dialog.
    await page.getByRole('button', { name: 'New holiday' }).click();
    const create = page.getByRole('dialog', { name: 'New holiday' });
    await create.getByLabel('Date').fill('2026-12-25');
    await create.getByLabel('Name').fill('Christmas Day');
    await expectAccessible(page, 'new holiday');
    await create.getByRole('button', { name: 'Add holiday' }).click();
    await page.getByText(`Christmas Day (${await dayIn(page, '2026-12-25')}) was added.`).waitFor();

    // A second holiday on the same date is refused beside the date.
    await page.getByRole('button', { name: 'New holiday' }).click();
    await create.getByLabel('Date').fill('2026-12-25');
    await create.getByLabel('Name').fill('Noël');
    await create.getByRole('button', { name: 'Add holiday' }).click();
    expect(await errorBeside(create.getByLabel('Date'))).toBe(
      'The business already has a holiday on this date.',
    );
    await create.getByRole('button', { name: 'Cancel' }).click();

    // The CSV import: checked first (one date already has a holiday: renamed), then imported.
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import public holidays from CSV' });
    const file = [
      'date,name',
      '2026-12-24,Christmas Eve',
      '2026-12-25,Christmas',
      '2026-12-30,New Year’s Eve (observed)',
      '2027-01-01,New Year’s Day',
    ].join('\r\n');
    await dialog
      .getByLabel('CSV file')
      .setInputFiles({ name: 'holidays.csv', mimeType: 'text/csv', buffer: Buffer.from(file) });
    await dialog.getByRole('button', { name: 'Check file' }).click();
    await dialog.getByText('4 rows read: 3 to create, 1 to update, 0 refused.').waitFor();
    expect(await dialog.locator('[data-columns="mapped"] code').allTextContents()).toEqual(['date', 'name']);
    expect(await dialog.locator('.import-summary').textContent()).toContain('matched by date');
    await expectAccessible(page, 'holidays import report');
    await screenshot(page, 'holidays-import');
    await dialog.getByRole('button', { name: 'Import 4 rows' }).click();
    await dialog.getByText('Imported 4 rows: 3 holidays created, 1 updated.').waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });
    const table = page.getByRole('table', { name: 'Public holidays in 2026' });
    await expect.poll(() => table.locator('tbody tr').count()).toBe(3);
    expect(await table.locator('tbody tr td:nth-child(2)').allTextContents()).toEqual([
      'Christmas Eve',
      'Christmas',
      'New Year’s Eve (observed)',
    ]);

    // Renamed and moved: New Year's Eve to the 31st, Christmas named in full again.
    await page.getByRole('button', { name: 'Edit New Year’s Eve (observed)' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit New Year’s Eve (observed)' });
    await edit.getByLabel('Date').fill('2026-12-31');
    await edit.getByLabel('Name').fill('New Year’s Eve');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText(`New Year’s Eve (${await dayIn(page, '2026-12-31')}) was saved.`).waitFor();
    await page.getByRole('button', { name: 'Edit Christmas', exact: true }).click();
    await page.getByRole('dialog', { name: 'Edit Christmas' }).getByLabel('Name').fill('Christmas Day');
    await page
      .getByRole('dialog', { name: 'Edit Christmas' })
      .getByRole('button', { name: 'Save changes' })
      .click();
    await page.getByText(/^Christmas Day \(.+\) was saved\.$/).waitFor();
    await expect
      .poll(() => table.locator('tbody tr td:nth-child(2)').allTextContents())
      .toEqual(['Christmas Eve', 'Christmas Day', 'New Year’s Eve']);

    // A holiday deleted; next year's listed under 2027.
    await createHoliday(owner.client, { date: '2026-12-26', name: 'Boxing Day' });
    await page.reload();
    const boxing = page.getByRole('row', { name: /Boxing Day/ });
    expect(await boxing.textContent()).toContain('A weekend day: no working day lost');
    await boxing.getByRole('button', { name: 'Delete' }).click();
    await page
      .getByRole('dialog', { name: 'Delete Boxing Day?' })
      .getByRole('button', { name: 'Delete holiday' })
      .click();
    await page.getByText('Boxing Day was deleted.').waitFor();
    await expect.poll(() => table.locator('tbody tr').count()).toBe(3);
    await expectAccessible(page, 'holidays');
    await screenshot(page, 'holidays');
    await expectFitsPhone(page);
    await screenshot(page, 'holidays-phone');
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.getByRole('link', { name: '2027 →' }).click();
    expect(new URL(page.url()).searchParams.get('year')).toBe('2027');
    await page
      .getByRole('table', { name: 'Public holidays in 2027' })
      .getByRole('cell', { name: 'New Year’s Day', exact: true })
      .waitFor();
    const { holidays } = await unwrap(owner.client.hr.holidays.listHolidays({ query: {} }));
    expect(holidays.map((h) => [h.date, h.name])).toEqual([
      ['2026-12-24', 'Christmas Eve'],
      ['2026-12-25', 'Christmas Day'],
      ['2026-12-31', 'New Year’s Eve'],
      ['2027-01-01', 'New Year’s Day'],
    ]);

    // Leave over the holidays, approved: the calendar marks them and counts them as no working day,
    // as the service does.
    const leave = await leaveIn(owner.client, employee.id, 'approved', {
      type: 'annual',
      start_date: '2026-12-21',
      end_date: '2026-12-31',
    });
    expect(leave.days).toBe(6);
    // This month is December 2026.
    await nav(page, 'Calendar').click();
    const calendar = page.getByRole('table', { name: /Approved leave in December 2026/ });
    const adaRow = calendar.getByRole('row', { name: /Ada Byron/ });
    await adaRow.waitFor();
    expect(await adaRow.locator('td').last().textContent()).toBe('6');
    const christmas = calendar.locator('th.day.holiday[data-holiday="Christmas Day"]');
    expect(await christmas.locator('.visually-hidden').textContent()).toMatch(
      /, public holiday: Christmas Day$/,
    );
    expect(await calendar.locator('thead th.holiday').count()).toBe(3);
    expect(await adaRow.locator('td.holiday').count()).toBe(3);
    const listed = page.getByRole('region', { name: 'Public holidays in December 2026' });
    expect(await listed.locator('li').allTextContents()).toEqual([
      expect.stringContaining('Christmas Eve'),
      expect.stringContaining('Christmas Day'),
      expect.stringContaining('New Year’s Eve'),
    ]);
    await page.getByRole('list', { name: 'Legend' }).getByText('Public holiday').waitFor();
    await expectAccessible(page, 'calendar with holidays');
    await screenshot(page, 'leave-calendar-holidays');
    await calendar.screenshot({ path: join(ARTIFACTS, 'leave-calendar-holidays-table.png') });

    // A month without leave still lists its holidays.
    await page.getByRole('link', { name: /January 2027 →/ }).click();
    await page.getByText('Nobody is on approved leave in January 2027').waitFor();
    expect(
      await page
        .getByRole('region', { name: 'Public holidays in January 2027' })
        .locator('li')
        .allTextContents(),
    ).toEqual([expect.stringContaining('New Year’s Day')]);

    expectClean(app, [409]);
    await app.close();
  });
});

describe('leave balances', () => {
  it("shows an employee's balances as of a day and sets and clears their own entitlement", async () => {
    const owner = await registerBusiness(server(), 'Balances Ltd');
    const annual = await leaveTypeNamed(owner.client, 'annual');
    await updateLeaveType(owner.client, annual.id, {
      days_per_year: 25,
      accrual: 'monthly',
      carry_over_max: 5,
    });
    const grace = await createEmployee(owner.client, { hire_date: '2024-03-01' });
    await leaveIn(owner.client, grace.id, 'approved', { start_date: '2026-03-02', end_date: '2026-03-06' });
    await createLeave(owner.client, grace.id, { start_date: '2026-12-14', end_date: '2026-12-15' });

    const app = await open(owner, `/hr/employees/${grace.id}`);
    const { page } = app;
    await page.getByRole('heading', { name: 'Grace Hopper' }).waitFor();
    const caption = `Leave balances of Grace Hopper on ${await dayIn(page, '2026-12-05')}`;
    await page.getByRole('table', { name: caption }).waitFor();
    const today = await leaveBalance(owner.client, grace.id, 'annual');
    expect(today).toMatchObject({ accrued: 25, carried_over: 5, taken: 5, pending: 2, remaining: 23 });
    expect(await rowCells(page, caption, 'Annual leave')).toEqual([
      'Annual leave',
      '25',
      '25',
      '5',
      '5',
      '2',
      '23',
      'Set entitlement of annual leave',
    ]);
    // Only tracked types have a balance.
    expect(await page.getByRole('table', { name: caption }).locator('tbody tr').count()).toBe(1);
    await expectAccessible(page, 'employee balances');
    await screenshot(page, 'employee-balances');
    await expectFitsPhone(page);
    await screenshot(page, 'employee-balances-phone');
    await page.setViewportSize({ width: 1280, height: 860 });

    // As of mid-June: half the year accrued.
    await page.getByRole('search', { name: 'Balances as of' }).getByLabel('As of').fill('2026-06-15');
    const june = `Leave balances of Grace Hopper on ${await dayIn(page, '2026-06-15')}`;
    await page.getByRole('table', { name: june }).waitFor();
    expect(new URL(page.url()).searchParams.get('as_of')).toBe('2026-06-15');
    const mid = await leaveBalance(owner.client, grace.id, 'annual', '2026-06-15');
    expect(mid.accrued).toBe(12.5);
    expect(await rowCells(page, june, 'Annual leave')).toEqual([
      'Annual leave',
      '25',
      '12.5',
      '5',
      '5',
      '2',
      '10.5',
      'Set entitlement of annual leave',
    ]);

    // Her own entitlement: 28 days a year.
    await page.getByRole('button', { name: 'Set entitlement of annual leave' }).click();
    const dialog = page.getByRole('dialog', { name: 'Annual leave entitlement of Grace Hopper' });
    await dialog.getByText('The policy of annual leave gives 25 days a year.').waitFor();
    await dialog.getByLabel('Own days a year').fill('28.333');
    await dialog.getByRole('button', { name: 'Save entitlement' }).click();
    expect(await errorBeside(dialog.getByLabel('Own days a year'))).toBe('At most two decimals.');
    await dialog.getByLabel('Own days a year').fill('28');
    await expectAccessible(page, 'employee entitlement');
    await screenshot(page, 'employee-entitlement');
    await dialog.getByRole('button', { name: 'Save entitlement' }).click();
    await page.getByText('Grace Hopper is now entitled to 28 days of annual leave a year.').waitFor();
    await expect
      .poll(() => rowCells(page, june, 'Annual leave'))
      .toEqual([
        'Annual leave',
        '28 Own entitlement',
        '14',
        '5',
        '5',
        '2',
        '12',
        'Set entitlement of annual leave',
      ]);
    expect(await leaveBalance(owner.client, grace.id, 'annual', '2026-06-15')).toMatchObject({
      entitled: 28,
      own_entitlement: true,
      accrued: 14,
    });
    await screenshot(page, 'employee-balances-own');

    // Back to the policy.
    await page.getByRole('button', { name: 'Set entitlement of annual leave' }).click();
    expect(await dialog.getByLabel('Own days a year').inputValue()).toBe('28');
    await dialog.getByRole('button', { name: 'Back to the policy' }).click();
    await page.getByText('Grace Hopper is back on the policy of annual leave: 25 days a year.').waitFor();
    await expect.poll(() => rowCells(page, june, 'Annual leave')).toContain('10.5');
    expect((await leaveBalances(owner.client, grace.id, '2026-06-15')).balances).toMatchObject([
      { type: 'annual', entitled: 25, own_entitlement: false },
    ]);

    expectClean(app, [422]);
    await app.close();
  });
});

describe('a leave request and the balance', () => {
  it('counts one working day less over a holiday and shows the balance it leaves; a request beyond the balance is warned of and refused by the service', async () => {
    const owner = await registerBusiness(server(), 'Requests Ltd');
    const annual = await leaveTypeNamed(owner.client, 'annual');
    await updateLeaveType(owner.client, annual.id, { days_per_year: 10, accrual: 'yearly' });
    await createHoliday(owner.client, { date: '2026-12-25', name: 'Christmas Day' });
    const grace = await createEmployee(owner.client, { hire_date: '2024-03-01' });

    const app = await open(owner, `/hr/employees/${grace.id}`);
    const { page } = app;
    await page.getByRole('heading', { name: 'Grace Hopper' }).waitFor();
    await page.getByRole('button', { name: 'Request leave' }).click();
    const request = page.getByRole('dialog', { name: 'Request leave' });
    expect(await request.getByLabel('Type').inputValue()).toBe('annual');
    expect(await request.getByLabel('Type').locator('option').allTextContents()).toEqual([
      'Annual leave',
      'Sick leave',
      'Unpaid leave',
      'Parental leave',
      'Other leave',
    ]);

    // Monday 21 to Friday 25 December: five weekdays, Christmas Day one of them.
    await request.getByLabel('First day').fill('2026-12-21');
    await request.getByLabel('Last day').fill('2026-12-25');
    const workingDays = request.locator('[data-working-days]');
    await expect.poll(() => workingDays.textContent()).toBe('4 working days');
    expect(await request.locator('.working-days').textContent()).toContain(
      `less the public holiday Christmas Day (${await dayIn(page, '2026-12-25')})`,
    );
    await expect.poll(() => request.locator('[data-remaining]').textContent()).toBe('10 days');
    expect(await request.locator('[data-after]').textContent()).toBe('6 days');
    expect(await request.locator('[data-balance]').textContent()).toBe(
      `Annual leave on ${await dayIn(page, '2026-12-25')}: 10 days remaining, 6 days after this request.`,
    );
    await expectAccessible(page, 'leave request with balance');
    await screenshot(page, 'leave-request-balance');

    // An untracked type has no balance to show.
    await request.getByLabel('Type').selectOption('sick');
    await expect.poll(() => request.locator('[data-balance]').count()).toBe(0);
    await request.getByLabel('Type').selectOption('annual');

    // Two weeks and a half: 13 working days against 10 remaining. Warned, sent, refused.
    await request.getByLabel('First day').fill('2026-12-14');
    await request.getByLabel('Last day').fill('2026-12-31');
    await expect.poll(() => workingDays.textContent()).toBe('13 working days');
    await expect.poll(() => request.locator('[data-after]').textContent()).toBe('-3 days');
    await request
      .getByText('This request goes 3 days beyond the balance. Annual leave may not go below zero')
      .waitFor();
    await request.getByRole('button', { name: 'Request leave' }).click();
    expect(await errorBeside(request.getByLabel('Last day'))).toBe('10 days of annual leave remain in 2026.');
    await request
      .getByRole('alert')
      .getByText(
        'The annual balance of 2026 has 10 days remaining as of 2026-12-31; this request takes 13 days.',
      )
      .waitFor();
    await expectAccessible(page, 'leave request refused');
    await screenshot(page, 'leave-request-refused');
    expect((await unwrap(owner.client.hr.leaves.listLeaves({ query: {} }))).total_count).toBe(0);

    // Within the balance: requested, pending, holding its days.
    await request.getByLabel('First day').fill('2026-12-21');
    await request.getByLabel('Last day').fill('2026-12-25');
    await expect.poll(() => workingDays.textContent()).toBe('4 working days');
    await request.getByRole('button', { name: 'Request leave' }).click();
    await page.getByText(`Leave requested: 4 working days from ${await dayIn(page, '2026-12-21')}`).waitFor();
    const caption = `Leave balances of Grace Hopper on ${await dayIn(page, '2026-12-05')}`;
    await expect
      .poll(() => rowCells(page, caption, 'Annual leave'))
      .toEqual(['Annual leave', '10', '10', '0', '0', '4', '6', 'Set entitlement of annual leave']);
    expect(await leaveBalance(owner.client, grace.id, 'annual')).toMatchObject({ pending: 4, remaining: 6 });

    expectClean(app, [422]);
    await app.close();
  });
});
