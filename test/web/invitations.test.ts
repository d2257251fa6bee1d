import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { unwrap, type Role } from '../../client/index.js';
import {
  errorBeside,
  expectAccessible,
  expectClean,
  openApp,
  screenshot,
  useBrowser,
  type AppPage,
} from '../support/browser.js';
import { registerBusiness, uniqueEmail, type TestBusiness } from '../support/business.js';
import { useTestServer } from '../support/setup.js';
import { waitFor } from '../support/wait.js';

// The worker runs, so the invitation mail is captured (no SMTP_URL) and listed to the owner.
const server = useTestServer({ env: { SIGNIN_MAX_FAILURES: '1000' } });
const browser = useBrowser();

const heading = (page: Page, name: string) => page.getByRole('heading', { name, level: 1 }).waitFor();

/** The invitation mails to `email` the owner reads in the captured mail, newest first. */
async function mailsTo(owner: TestBusiness, email: string) {
  const { messages } = await unwrap(owner.client.sandbox.messages.listMessages({ query: {} }));
  return messages.filter((m) => m.to === email);
}

/** The invitation mailed to `email`: its subject, text and the path of its link on this server. */
async function invitationMail(owner: TestBusiness, email: string, count = 1) {
  const mails = await waitFor(`invitation mail ${count} to ${email}`, async () => {
    const found = await mailsTo(owner, email);
    return found.length >= count ? found : null;
  });
  const mail = mails[0]!;
  const link = /https?:\/\/\S+\/invitations\/\S+/.exec(mail.text)?.[0];
  if (!link) throw new Error(`no link in ${mail.text}`);
  const url = new URL(link);
  return { mail, link, path: url.pathname };
}

async function invite(owner: TestBusiness, email: string, role: Role) {
  return (await unwrap(owner.client.team.inviteMember({ body: { email, role } }))).data;
}

/** Checks and closes a page: nothing logged but the refusals it provoked, no request off the origin. */
async function finish(app: AppPage, allowedStatuses: number[] = []) {
  expectClean(app, allowedStatuses);
  await app.close();
}

const navLinks = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();

describe('accepting an invitation', () => {
  it('a new person follows the mailed link, chooses a password and lands in the dashboard with their role', async () => {
    const owner = await registerBusiness(server(), 'Acme Ltd');
    const ownerApp = await openApp(browser(), server().baseUrl, '/app/settings/team', {
      accessToken: owner.accessToken,
    });
    const email = uniqueEmail('ada');
    await heading(ownerApp.page, 'Team');
    await ownerApp.page.getByRole('button', { name: 'Invite a member' }).click();
    const dialog = ownerApp.page.getByRole('dialog', { name: 'Invite a team member' });
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Role').selectOption('hr');
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await ownerApp.page.getByText(`Invitation sent to ${email}.`).waitFor();
    await finish(ownerApp);

    const { mail, path } = await invitationMail(owner, email);
    expect(mail.subject).toBe(`${owner.email} invited you to Acme Ltd`);
    expect(mail.text).not.toContain('/v1/');
    expect(mail.html).toContain('Accept the invitation');

    // A fresh browser: nobody signed in.
    const app = await openApp(browser(), server().baseUrl, path);
    const { page } = app;
    await heading(page, 'Join Acme Ltd');
    // The token stays in the fragment: the address bar shows the dashboard's screen.
    expect(new URL(page.url()).pathname).toBe('/app/invitation');
    const facts = await page.locator('dl.invitation-facts').textContent();
    expect(facts).toContain('Acme Ltd');
    expect(facts).toContain(email);
    expect(facts).toContain('Employees, departments and leave.');
    expect(await page.locator('main').textContent()).toContain(`${owner.email} invited you to join`);
    await expectAccessible(page, 'invitation-new-person');
    await screenshot(page, 'invitation-new-person');

    const password = page.getByLabel('Choose a password');
    await password.fill('short');
    await page.getByRole('button', { name: 'Create my account and join' }).click();
    expect(await errorBeside(password)).toMatch(/12 characters/);
    await password.fill('a long enough password for ada');
    await page.getByRole('button', { name: 'Create my account and join' }).click();

    // Signed in, in the dashboard, with the HR role's navigation.
    await heading(page, 'Overview');
    expect(new URL(page.url()).pathname).toBe('/app');
    expect(await page.locator('.who').textContent()).toContain(email);
    const links = await navLinks(page);
    expect(links).toEqual(expect.arrayContaining(['Employees', 'Departments', 'Leaves']));
    for (const hidden of ['Invoices', 'Bills', 'API keys']) expect(links).not.toContain(hidden);
    const stored = await page.evaluate<string | null>("sessionStorage.getItem('bms.session')");
    expect(stored).toContain('bms_at_');
    await expectAccessible(page, 'invitation-landed');
    await screenshot(page, 'invitation-landed');

    // The link worked once.
    await page.goto(path);
    await heading(page, 'This invitation cannot be used');
    await expectAccessible(page, 'invitation-used');
    await screenshot(page, 'invitation-used');
    await finish(app, [422]);
  }, 120_000);

  it('a person with an account gives their password (a wrong one is refused) and keeps their other session', async () => {
    const owner = await registerBusiness(server(), 'Join Me Ltd');
    const person = await registerBusiness(server(), 'Own Ltd');
    await invite(owner, person.email, 'accountant');
    const { path } = await invitationMail(owner, person.email);

    const app = await openApp(browser(), server().baseUrl, path);
    const { page } = app;
    await heading(page, 'Join Join Me Ltd');
    const password = page.getByLabel('Your password');
    await password.fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in and join' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: `That is not the password of ${person.email}` })
      .waitFor();
    expect((await unwrap(owner.client.team.getTeam())).data.members.map((m) => m.email)).not.toContain(
      person.email,
    );
    await expectAccessible(page, 'invitation-existing-person');
    await screenshot(page, 'invitation-existing-person');

    await password.fill(person.password);
    await page.getByRole('button', { name: 'Sign in and join' }).click();
    await heading(page, 'Overview');
    expect(await page.locator('.topbar .brand').textContent()).toBe('Join Me Ltd');
    expect(await navLinks(page)).toEqual(expect.arrayContaining(['Invoices', 'Bills']));
    // Signed in elsewhere as before: that session still works.
    expect((await person.client.auth.getSession()).status).toBe(200);
    await finish(app, [401]);
  }, 120_000);

  it('a person signed in as themselves joins with one click', async () => {
    const owner = await registerBusiness(server(), 'One Click Ltd');
    const person = await registerBusiness(server(), 'Their Own Ltd');
    await invite(owner, person.email, 'viewer');
    const { path } = await invitationMail(owner, person.email);

    const app = await openApp(browser(), server().baseUrl, path, { accessToken: person.accessToken });
    const { page } = app;
    await heading(page, 'Join One Click Ltd');
    await page.getByText(`You are signed in as ${person.email}`).waitFor();
    await expectAccessible(page, 'invitation-signed-in');
    await screenshot(page, 'invitation-signed-in');
    await page.getByRole('button', { name: 'Join One Click Ltd' }).click();
    await heading(page, 'Overview');
    expect(await page.locator('.topbar .brand').textContent()).toBe('One Click Ltd');
    const team = (await unwrap(owner.client.team.getTeam())).data;
    expect(team.members.find((m) => m.email === person.email)?.role).toBe('viewer');
    await finish(app);
  }, 120_000);
});

describe('pending invitations in settings > team', () => {
  it('lists them with email, role, sent and expiry; copies the link, resends and revokes', async () => {
    const owner = await registerBusiness(server(), 'Pending Ltd');
    const email = uniqueEmail('pending');
    await invite(owner, email, 'marketing');
    const { link } = await invitationMail(owner, email);

    const app = await openApp(browser(), server().baseUrl, '/app/settings/team', {
      accessToken: owner.accessToken,
    });
    const { page } = app;
    await heading(page, 'Team');
    const table = page.getByRole('table', { name: 'Pending invitations' });
    const row = table.getByRole('row', { name: new RegExp(email) });
    await row.waitFor();
    const headers = await table.getByRole('columnheader').allTextContents();
    expect(headers).toEqual(['Email', 'Role', 'Sent', 'Expires', 'Actions']);
    expect(await row.textContent()).toContain('Marketing');

    await page.getByRole('button', { name: `Copy link of the invitation to ${email}` }).click();
    await page.getByText(`The invitation link for ${email} is copied.`).waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(link);

    await page.getByRole('button', { name: `Resend the invitation to ${email}` }).click();
    await page.getByText(`Invitation sent again to ${email}`).waitFor();
    await invitationMail(owner, email, 2);
    await expectAccessible(page, 'settings-team-pending');
    await screenshot(page, 'settings-team-pending');

    await page.getByRole('button', { name: `Revoke the invitation to ${email}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Revoke this invitation?' });
    await screenshot(page, 'settings-team-revoke');
    await confirm.getByRole('button', { name: 'Revoke invitation' }).click();
    await page.getByText(`The invitation to ${email} is revoked.`).waitFor();
    await page.getByText('No pending invitations').waitFor();
    expect((await unwrap(owner.client.team.getTeam())).data.invitations).toEqual([]);
    await finish(app);
  }, 120_000);
});
