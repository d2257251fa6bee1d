import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import {
  expectAccessible,
  errorBeside,
  expectClean,
  firstCells,
  openApp,
  screenshot,
  useBrowser,
  type AppPage,
} from '../support/browser.js';
import { registerBusiness, sandboxOf } from '../support/business.js';
import { createDepartment, createEmployee, createLeave } from '../support/hr.js';
import { useTestServer } from '../support/setup.js';

/**
 * The HR screens and the sandbox's tools in a real browser: a department, an employee and a leave
 * made in the dashboard, the leave approved and shown in the month's calendar, an overlapping request
 * refused with the service's own words; then the sandbox opened, reset with demo data, its clock
 * advanced, and the mail that sent read in the captured inbox.
 */

// The worker runs: captured mail is written when the queued message is handled.
const server = useTestServer();
const browser = useBrowser();

async function open(business: { accessToken: string }, path: string): Promise<AppPage> {
  const app = await openApp(browser(), server().baseUrl, `/app${path}`, {
    accessToken: business.accessToken,
  });
  app.page.setDefaultTimeout(10_000);
  return app;
}

const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

describe('HR: departments, employees, leave and the calendar', () => {
  it('creates a department and an employee, requests and approves leave that the calendar shows, and refuses an overlap', async () => {
    const owner = await registerBusiness(server(), 'People Ltd');
    const app = await open(owner, '/hr/departments');
    const { page } = app;

    // Departments: empty, then one added in the dialog.
    await page.getByText('No departments yet').waitFor();
    await expectAccessible(page, 'hr departments, empty');
    await screenshot(page, 'hr-departments-empty');
    await page.getByRole('button', { name: 'New department' }).click();
    const newDepartment = page.getByRole('dialog', { name: 'New department' });
    await newDepartment.getByLabel('Name', { exact: true }).fill('Roastery');
    await expectAccessible(page, 'hr new department');
    await newDepartment.getByRole('button', { name: 'Add department' }).click();
    await page.getByText('Roastery was added.').waitFor();
    const { departments } = await unwrap(owner.client.hr.departments.listDepartments({ query: {} }));
    expect(departments).toMatchObject([{ name: 'Roastery', head: null, employee_count: 0 }]);
    const roastery = departments[0]!;

    // A second department by the same name (any case) is refused beside the name.
    await page.getByRole('button', { name: 'New department' }).click();
    await newDepartment.getByLabel('Name', { exact: true }).fill('ROASTERY');
    await newDepartment.getByRole('button', { name: 'Add department' }).click();
    expect(await errorBeside(newDepartment.getByLabel('Name', { exact: true }))).toBe(
      'A department with this name already exists.',
    );
    await newDepartment.getByRole('button', { name: 'Cancel' }).click();

    // Employees: empty, then one added in the dialog, landing on their page.
    await nav(page, 'Employees').click();
    await page.getByText('No employees yet').waitFor();
    await expectAccessible(page, 'hr employees, empty');
    await screenshot(page, 'hr-employees-empty');
    await page.getByRole('button', { name: 'New employee' }).click();
    const newEmployee = page.getByRole('dialog', { name: 'New employee' });
    await newEmployee.getByLabel('First name').fill('Grace');
    await newEmployee.getByLabel('Last name').fill('Hopper');
    await newEmployee.getByLabel('Work email').fill('grace@people.test');
    await newEmployee.getByLabel('Position').fill('Head roaster');
    await newEmployee.getByLabel('Hire date').fill('2024-03-01');
    await newEmployee.getByLabel('Monthly salary').fill('4200.505');
    expect(await newEmployee.getByLabel('Department').inputValue()).toBe(roastery.id);
    await newEmployee.getByRole('button', { name: 'Add employee' }).click();
    // Three decimals of USD: refused before sending, beside the salary.
    expect(await errorBeside(newEmployee.getByLabel('Monthly salary'))).toMatch(/at most 2 decimals/);
    await newEmployee.getByLabel('Monthly salary').fill('4200.50');
    await expectAccessible(page, 'hr new employee');
    await screenshot(page, 'hr-employee-new');
    await newEmployee.getByRole('button', { name: 'Add employee' }).click();
    await page.getByRole('heading', { name: 'Grace Hopper' }).waitFor();
    const graceId = /\/app\/hr\/employees\/(emp_\w+)$/.exec(page.url())?.[1];
    expect(graceId).toBeDefined();
    const grace = (await unwrap(owner.client.hr.employees.getEmployee({ params: { id: graceId! } })))
      .employee;
    expect(grace).toMatchObject({
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@people.test',
      department_id: roastery.id,
      position: 'Head roaster',
      hire_date: '2024-03-01',
      salary: 420050,
      status: 'active',
    });
    await page.getByText('No leave requested').waitFor();
    await expectAccessible(page, 'hr employee');
    await screenshot(page, 'hr-employee');

    // Edited on their page.
    await page.getByRole('button', { name: 'Edit', exact: true }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Grace Hopper' });
    expect(await edit.getByLabel('Monthly salary').inputValue()).toBe('4200.50');
    await edit.getByLabel('Phone').fill('+44 20 7946 0001');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Changes saved.').waitFor();
    expect(await page.locator('dl.facts').textContent()).toContain('+44 20 7946 0001');
    expect(
      (await unwrap(owner.client.hr.employees.getEmployee({ params: { id: graceId! } }))).employee.phone,
    ).toBe('+44 20 7946 0001');

    // Grace heads the Roastery, chosen in its edit dialog.
    await nav(page, 'Departments').click();
    await page.getByRole('button', { name: 'Edit Roastery' }).click();
    const editDepartment = page.getByRole('dialog', { name: 'Edit Roastery' });
    await editDepartment.getByLabel('Head of department').selectOption(graceId!);
    await editDepartment.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Roastery was saved.').waitFor();
    const row = page.getByRole('row', { name: /Roastery/ });
    await row.getByRole('link', { name: 'Grace Hopper' }).waitFor();
    expect(await row.getByRole('link', { name: '1 employee in Roastery' }).textContent()).toBe('1');
    expect(
      (await unwrap(owner.client.hr.departments.getDepartment({ params: { id: roastery.id } }))).department,
    ).toMatchObject({ head: graceId, employee_count: 1 });

    // A department with people cannot be deleted: the service's refusal is shown; an empty one goes.
    await row.getByRole('button', { name: 'Delete' }).click();
    const refuse = page.getByRole('dialog', { name: 'Delete Roastery?' });
    await refuse.getByRole('button', { name: 'Delete department' }).click();
    expect(await refuse.getByRole('alert').textContent()).toBe(
      'The department has employees; move them to another department first.',
    );
    await expectAccessible(page, 'hr department delete refused');
    await refuse.getByRole('button', { name: 'Close' }).click();
    const spare = await createDepartment(owner.client, { name: 'Spare room' });
    await page.reload();
    await page
      .getByRole('row', { name: /Spare room/ })
      .getByRole('button', { name: 'Delete' })
      .click();
    await page
      .getByRole('dialog', { name: 'Delete Spare room?' })
      .getByRole('button', { name: 'Delete department' })
      .click();
    await page.getByText('Spare room was deleted.').waitFor();
    expect((await owner.client.hr.departments.getDepartment({ params: { id: spare.id } })).status).toBe(404);
    await expectAccessible(page, 'hr departments');
    await screenshot(page, 'hr-departments');

    // The list sorts by name from the header and filters by status, all in the URL.
    const ada = await createEmployee(owner.client, {
      first_name: 'Ada',
      last_name: 'Byron',
      department_id: roastery.id,
      position: 'Roaster',
      hire_date: '2025-01-06',
      status: 'on_leave',
    });
    await nav(page, 'Employees').click();
    await page.getByRole('row', { name: /Ada Byron/ }).waitFor();
    const nameHeader = page.getByRole('columnheader', { name: 'Name', exact: true }).getByRole('link');
    await nameHeader.click();
    await expect.poll(() => firstCells(page)).toEqual(['Ada Byron', 'Grace Hopper']);
    expect(new URL(page.url()).searchParams.get('sort')).toBe('last_name');
    await nameHeader.click();
    await expect.poll(() => firstCells(page)).toEqual(['Grace Hopper', 'Ada Byron']);
    expect(new URL(page.url()).searchParams.get('sort')).toBe('-last_name');
    await page
      .getByRole('navigation', { name: 'Employee status' })
      .getByRole('link', { name: 'On leave' })
      .click();
    await expect.poll(() => firstCells(page)).toEqual(['Ada Byron']);
    expect(new URL(page.url()).searchParams.get('status')).toBe('on_leave');
    await page.reload();
    await expect.poll(() => firstCells(page)).toEqual(['Ada Byron']);
    await expectAccessible(page, 'hr employees');
    await screenshot(page, 'hr-employees');

    // Soft delete, asked first.
    await page.getByRole('link', { name: 'Ada Byron' }).click();
    await page.getByRole('heading', { name: 'Ada Byron' }).waitFor();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page
      .getByRole('dialog', { name: 'Delete Ada Byron?' })
      .getByRole('button', { name: 'Delete employee' })
      .click();
    await page.getByRole('heading', { name: 'Employees' }).waitFor();
    await page.getByRole('row', { name: /Grace Hopper/ }).waitFor();
    expect(await page.getByRole('row', { name: /Ada Byron/ }).count()).toBe(0);
    expect((await owner.client.hr.employees.getEmployee({ params: { id: ada.id } })).status).toBe(404);

    // Leave: requested with the working days shown while typing, then approved.
    await nav(page, 'Leaves').click();
    await page.getByText('No leave requested yet').waitFor();
    await expectAccessible(page, 'hr leaves, empty');
    await page.getByRole('button', { name: 'Request leave' }).click();
    const request = page.getByRole('dialog', { name: 'Request leave' });
    await request.getByLabel('Employee').selectOption(graceId!);
    await request.getByLabel('First day').fill('2099-03-02');
    await request.getByLabel('Last day').fill('2099-03-06');
    await expect.poll(() => request.locator('[data-working-days]').textContent()).toBe('5 working days');
    await request.getByLabel('Last day').fill('2099-03-10');
    await expect.poll(() => request.locator('[data-working-days]').textContent()).toBe('7 working days');
    expect(await request.locator('.working-days').textContent()).toContain('estimate');
    await request.getByLabel('Reason').fill('Spring break');
    await expectAccessible(page, 'hr request leave');
    await screenshot(page, 'hr-leave-request');
    await request.getByRole('button', { name: 'Request leave' }).click();
    await page.getByText('Leave requested for Grace Hopper: 7 working days').waitFor();
    const leaveRow = page.getByRole('row', { name: /Grace Hopper/ });
    await expect.poll(() => leaveRow.locator('.badge').textContent()).toBe('pending');
    await leaveRow.getByRole('button', { name: /^Approve/ }).click();
    await page.getByText('The leave of Grace Hopper was approved: 7 working days.').waitFor();
    await expect.poll(() => leaveRow.locator('.badge').textContent()).toBe('approved');
    const { leaves } = await unwrap(owner.client.hr.leaves.listLeaves({ query: { employee_id: graceId! } }));
    expect(leaves).toMatchObject([
      {
        start_date: '2099-03-02',
        end_date: '2099-03-10',
        days: 7,
        status: 'approved',
        type: 'annual',
        reason: 'Spring break',
      },
    ]);
    // Approved: cancelling stays possible, approving again does not.
    expect(await leaveRow.getByRole('button', { name: /^Approve/ }).count()).toBe(0);
    await leaveRow.getByRole('button', { name: /^Cancel leave of Grace Hopper/ }).waitFor();

    // An overlapping request: the service's refusal beside the dates.
    await page.getByRole('button', { name: 'Request leave' }).click();
    await request.getByLabel('Employee').selectOption(graceId!);
    await request.getByLabel('Type').selectOption('sick');
    await request.getByLabel('First day').fill('2099-03-09');
    await request.getByLabel('Last day').fill('2099-03-12');
    await request.getByRole('button', { name: 'Request leave' }).click();
    expect(await errorBeside(request.getByLabel('First day'))).toBe(
      'The leave overlaps a pending or approved leave of the same employee.',
    );
    await expectAccessible(page, 'hr leave overlap refused');
    await screenshot(page, 'hr-leave-overlap');
    await request.getByRole('button', { name: 'Cancel' }).click();
    expect(
      (await unwrap(owner.client.hr.leaves.listLeaves({ query: { employee_id: graceId! } }))).total_count,
    ).toBe(1);

    // Filters in the URL.
    await page
      .getByRole('navigation', { name: 'Leave status' })
      .getByRole('link', { name: 'Pending' })
      .click();
    await page.getByText('No pending leave').waitFor();
    expect(new URL(page.url()).searchParams.get('status')).toBe('pending');
    await page
      .getByRole('navigation', { name: 'Leave status' })
      .getByRole('link', { name: 'Approved' })
      .click();
    await page.getByRole('row', { name: /Grace Hopper/ }).waitFor();
    await expectAccessible(page, 'hr leaves');
    await screenshot(page, 'hr-leaves');

    // The calendar: February is empty, March shows the nine days, seven of them working days.
    await page.goto('/app/hr/calendar?month=2099-02');
    await page.getByText('Nobody is on approved leave in February 2099').waitFor();
    await page.getByRole('link', { name: /March 2099 →/ }).click();
    expect(new URL(page.url()).searchParams.get('month')).toBe('2099-03');
    const calendar = page.getByRole('table', { name: /Approved leave in March 2099/ });
    const graceRow = calendar.getByRole('row', { name: /Grace Hopper/ });
    await graceRow.waitFor();
    expect(await calendar.locator('tr.department-row td').allTextContents()).toEqual([
      'Roastery · 1 person away',
    ]);
    expect(await graceRow.locator('td.away').count()).toBe(9);
    expect(await graceRow.locator('td.away').first().textContent()).toContain('Annual leave');
    expect(await graceRow.locator('td').last().textContent()).toBe('7');
    await expectAccessible(page, 'hr calendar');
    await screenshot(page, 'hr-calendar');

    // A pending request rejected with a reason; the approved one cancelled, leaving the month empty.
    const pending = await createLeave(owner.client, graceId!, {
      type: 'other',
      start_date: '2099-04-06',
      end_date: '2099-04-08',
    });
    await nav(page, 'Leaves').click();
    const pendingRow = page.getByRole('row', { name: /Other leave/ });
    await pendingRow.getByRole('button', { name: /^Reject/ }).click();
    const reject = page.getByRole('dialog', { name: 'Reject the leave of Grace Hopper?' });
    await reject.getByLabel('Reason (optional)').fill('Stock-take week');
    await expectAccessible(page, 'hr reject leave');
    await reject.getByRole('button', { name: 'Reject leave' }).click();
    await page.getByText('The leave of Grace Hopper was rejected.').waitFor();
    await expect.poll(() => pendingRow.locator('.badge').textContent()).toBe('rejected');
    expect(await pendingRow.textContent()).toContain('Decision: Stock-take week');
    expect(await pendingRow.getByRole('button').count()).toBe(0);
    expect(
      (await unwrap(owner.client.hr.leaves.getLeave({ params: { id: pending.id } }))).leave,
    ).toMatchObject({ status: 'rejected', status_reason: 'Stock-take week' });

    const approvedRow = page.getByRole('row', { name: /Annual leave/ });
    await approvedRow.getByRole('button', { name: /^Cancel leave of Grace Hopper/ }).click();
    const cancel = page.getByRole('dialog', { name: 'Cancel the leave of Grace Hopper?' });
    await cancel.getByRole('button', { name: 'Cancel the leave' }).click();
    await page.getByText('The leave of Grace Hopper was cancelled.').waitFor();
    await expect.poll(() => approvedRow.locator('.badge').textContent()).toBe('cancelled');
    await page.goto('/app/hr/calendar?month=2099-03');
    await page.getByText('Nobody is on approved leave in March 2099').waitFor();

    expectClean(app, [409]);
    await app.close();
  });
});

describe('the sandbox: reset with demo data, the test clock and captured mail', () => {
  it('opens the sandbox, resets it with demo data, advances the clock and reads the mail that went out', async () => {
    const owner = await registerBusiness(server(), 'Sandbox Tools Ltd');
    const app = await open(owner, '');
    const { page } = app;
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    // The sandbox's tools are not listed in live (its captured mail is, without SMTP_URL).
    expect(await nav(page, 'Reset and clock').count()).toBe(0);

    await page.getByRole('button', { name: 'Open the sandbox' }).click();
    await page.getByRole('note').getByText('Sandbox: test data only').waitFor();
    await nav(page, 'Captured mail').click();
    await page.getByText('No mail captured yet').waitFor();
    await expectAccessible(page, 'sandbox inbox, empty');
    await screenshot(page, 'sandbox-inbox-empty');

    await nav(page, 'Reset and clock').click();
    await page.getByRole('heading', { name: 'Test clock' }).waitFor();
    await page.getByText('On real time.', { exact: true }).waitFor();
    await expectAccessible(page, 'sandbox controls');
    await screenshot(page, 'sandbox-controls');

    // Reset with demo data, asked first.
    await page.getByRole('button', { name: 'Reset with demo data' }).click();
    const confirm = page.getByRole('dialog', { name: 'Reset the sandbox with demo data?' });
    await expectAccessible(page, 'sandbox reset dialog');
    // Seeding runs for seconds on the embedded database, which serves nothing else meanwhile.
    await confirm.getByRole('button', { name: 'Reset and fill with demo data' }).click({ timeout: 120_000 });
    await page.getByText('The sandbox was reset').waitFor({ timeout: 120_000 });
    const seeded = page.getByRole('list', { name: 'Demo data created' });
    expect(await seeded.textContent()).toMatch(/Customers: \d+/);
    expect(await seeded.textContent()).toMatch(/Employees: \d+/);
    const sandbox = await sandboxOf(server(), owner);
    const customers = await unwrap(sandbox.client.general.customers.listCustomers({ query: {} }));
    expect(customers.pagination.total).toBeGreaterThan(0);

    // A time in the past is refused beside the field, in the service's words.
    const advanceTo = page.getByLabel('Advance to');
    await advanceTo.fill('2020-01-01T09:00');
    await page.getByRole('button', { name: 'Advance the clock' }).click();
    expect(await errorBeside(advanceTo)).toMatch(/^The test clock only moves forward/);

    // Thirty days on: the demo's scheduled campaign starts sending.
    await page.getByRole('button', { name: '+30 days' }).click();
    await page.getByRole('button', { name: 'Advance the clock' }).click();
    await page.getByText('The clock moved to').waitFor({ timeout: 60_000 });
    expect(await page.locator('.ran-list').textContent()).toContain('Scheduled campaigns started: 1');
    await page.getByText(/^30 days ahead of real time\.$/).waitFor();
    const clock = (await unwrap(sandbox.client.sandbox.clock.getClock())).data;
    expect(clock.advanced_by_seconds).toBeGreaterThan(29 * 86_400);
    await expectAccessible(page, 'sandbox controls, advanced');
    await screenshot(page, 'sandbox-controls-advanced');

    // The campaign's mail is captured, not sent: listed in the inbox, read beside the list.
    await page.getByRole('link', { name: 'Captured mail' }).last().click();
    await page.getByRole('heading', { name: 'Captured mail' }).waitFor();
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return page.locator('a.mail-item').count();
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toBeGreaterThan(0);
    // The campaign may still be sending: the message opened is looked up by its id.
    await page.locator('a.mail-item').first().click();
    const openedId = new URL(page.url()).searchParams.get('message');
    expect(openedId).toMatch(/^mail_/);
    const captured = await unwrap(sandbox.client.sandbox.messages.listMessages({ query: { limit: 200 } }));
    const newest = captured.messages.find((m) => m.id === openedId)!;
    expect(newest).toBeDefined();
    expect(await page.locator('a.mail-item[aria-current="true"]').textContent()).toContain(newest.subject);
    const view = page.getByRole('article');
    expect(await view.getByRole('heading', { level: 2 }).textContent()).toBe(newest.subject);
    expect(await view.locator('dl.facts').first().textContent()).toContain(newest.to);
    expect(await view.getByLabel('Text of the message').textContent()).toBe(newest.text || '(empty)');
    if (newest.html) {
      // Rendered in a sandboxed frame, its source readable below.
      expect(await view.locator('iframe.mail-frame').getAttribute('sandbox')).toBe('');
      await view.getByText('HTML part (source)').click();
      expect(await view.getByLabel('HTML source of the message').textContent()).toBe(newest.html);
    }
    await expectAccessible(page, 'sandbox inbox');
    await screenshot(page, 'sandbox-inbox');

    expectClean(app, [422]);
    await app.close();
  });
});
