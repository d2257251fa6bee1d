import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient, unwrap } from '../../client/index.js';
import {
  errorBeside,
  expectAccessible,
  expectClean,
  openApp,
  screenshot,
  useBrowser,
  type AppPage,
} from '../support/browser.js';
import { ensureBuilt } from '../support/build.js';
import { json, raw, registerBusiness, signedInMember, type TestBusiness } from '../support/business.js';
import { useTestServer } from '../support/setup.js';
import { enableTwoFactor, totpCode } from '../support/two-factor.js';

// The browser loads the built dashboard: rebuilt first when a source is newer than the build.
beforeAll(ensureBuilt, 300_000);
// Credentials are read on every request, so a member's session sees the business's requirement at
// once rather than within the cache time.
const server = useTestServer({ worker: false, env: { CREDENTIAL_CACHE_MS: '0' } });
const browser = useBrowser();

const heading = (page: Page, name: string) => page.getByRole('heading', { name, level: 1 }).waitFor();

/** The dashboard's sign-in page, with nobody signed in. */
const openSignIn = () => openApp(browser(), server().baseUrl, '/app');

const openSecurity = (business: { accessToken: string }) =>
  openApp(browser(), server().baseUrl, '/app/settings/security', { accessToken: business.accessToken });

/** Email and password on the sign-in page; a person with two-factor sign-in on then sees the second step. */
async function enterPassword(page: Page, email: string, password: string) {
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The access token the tab keeps (sessionStorage), as the dashboard stored it after signing in. */
const tokenOf = async (page: Page) =>
  String(await page.evaluate("JSON.parse(sessionStorage.getItem('bms.session') ?? '{}').accessToken"));

const clientOf = (accessToken: string) =>
  createClient({ baseUrl: server().baseUrl, accessToken, maxRetries: 0 });

/** Another sign-in of the person, as a script with its own user agent would make it: its token. */
async function signInElsewhere(account: Pick<TestBusiness, 'email' | 'password'>, userAgent: string) {
  const res = await raw(server(), 'POST', '/v1/auth/token', {
    ...json({ email: account.email, password: account.password }),
    headers: { 'content-type': 'application/json', 'user-agent': userAgent },
  });
  expect(res.status).toBe(200);
  return String(res.body.data.accessToken);
}

/** The password field of setting up two-factor sign-in (the page has others, for changing it). */
const passwordOfSetUp = (page: Page) =>
  page.getByRole('region', { name: 'Two-factor sign-in' }).getByLabel('Password', { exact: true });

/** The setup key shown for typing into an app, without the spaces that group it. */
const setupKeyOn = async (page: Page) =>
  ((await page.locator('.totp-secret').textContent()) ?? '').replace(/\s+/g, '');

/** Sets two-factor sign-in up on the screen as a person with a phone does: read the key, type the code. */
async function setUpOnScreen(page: Page, password: string): Promise<{ secret: string; codes: string[] }> {
  await page.getByRole('button', { name: 'Set up' }).click();
  await passwordOfSetUp(page).fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('img', { name: 'QR code for your authenticator app' }).waitFor();
  const secret = await setupKeyOn(page);
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await page.getByLabel('Six-digit code').fill(await totpCode(server(), secret));
  await page.getByRole('button', { name: 'Turn on' }).click();
  const list = page.getByRole('list', { name: 'Recovery codes' });
  await list.waitFor();
  const codes = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
  return { secret, codes };
}

async function finish(app: AppPage, allowedStatuses: number[] = []) {
  expectClean(app, allowedStatuses);
  await app.close();
}

describe('setting up two-factor sign-in', () => {
  it('shows the QR code and the key, refuses a wrong code beside its field, and turns on with the code the app shows', async () => {
    const owner = await registerBusiness(server(), 'Scan Ltd');
    const app = await openSecurity(owner);
    const { page } = app;
    await heading(page, 'Security');
    const panel = page.getByRole('region', { name: 'Two-factor sign-in' });
    await panel.getByText('Off: signing in asks only for your password').waitFor();
    await expectAccessible(page, 'security-off');

    // The password first: a wrong one is refused beside its field, and no secret is shown.
    await page.getByRole('button', { name: 'Set up' }).click();
    await passwordOfSetUp(page).fill('not my password at all');
    await page.getByRole('button', { name: 'Continue' }).click();
    expect(await errorBeside(passwordOfSetUp(page))).toBe('Incorrect password.');
    expect(await page.getByRole('img', { name: 'QR code for your authenticator app' }).count()).toBe(0);
    await expectAccessible(page, 'security-enrolment-password');
    await passwordOfSetUp(page).fill(owner.password);
    await page.getByRole('button', { name: 'Continue' }).click();
    const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
    await qr.waitFor();
    expect(await qr.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/);
    // The image is drawn, not a broken icon.
    await expect
      .poll(() => qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    const secret = await setupKeyOn(page);
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    await page.getByRole('button', { name: 'Copy the setup key' }).click();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(secret);
    await expectAccessible(page, 'security-enrolment');
    await screenshot(page, 'security-enrolment');

    // A code that is not the app's: refused beside the field, and nothing changes.
    const right = await totpCode(server(), secret);
    await page.getByLabel('Six-digit code').fill(right === '000000' ? '111111' : '000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    expect(await errorBeside(page.getByLabel('Six-digit code'))).toMatch(/does not match/);
    expect((await unwrap(owner.client.auth.getTwoFactor())).data.enabled).toBe(false);

    await page.getByLabel('Six-digit code').fill(right);
    await page.getByRole('button', { name: 'Turn on' }).click();
    const list = page.getByRole('list', { name: 'Recovery codes' });
    await list.waitFor();
    const codes = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    const status = (await unwrap(owner.client.auth.getTwoFactor())).data;
    expect(status).toMatchObject({ enabled: true, recoveryCodesRemaining: 10 });
    await expectAccessible(page, 'security-recovery-codes');
    await screenshot(page, 'security-recovery-codes');

    // Downloaded as a text file holding every code.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('recovery-codes.txt');
    const text = await readFile(await download.path(), 'utf8');
    for (const code of codes) expect(text).toContain(code);
    expect(text).toContain(owner.email);

    // Shown once: gone after "I have saved them", and after a reload.
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await panel.getByText('10 recovery codes left of 10.').waitFor();
    expect(await page.getByRole('list', { name: 'Recovery codes' }).count()).toBe(0);
    await page.reload();
    await panel.getByText('Signing in asks for a code from your authenticator app').waitFor();
    expect(await page.content()).not.toContain(codes[0]);
    await finish(app, [422]);
  }, 90_000);

  it('signs in through the second step with a code from the app, then with a recovery code that then counts as used', async () => {
    const owner = await registerBusiness(server(), 'Two Steps Ltd');
    const app = await openSecurity(owner);
    const { page } = app;
    await heading(page, 'Security');
    const { secret, codes } = await setUpOnScreen(page, owner.password);
    await page.getByRole('button', { name: 'I have saved them' }).click();

    await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
    await enterPassword(page, owner.email, owner.password);
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await expectAccessible(page, 'sign-in-second-step');
    await screenshot(page, 'sign-in-second-step');
    // The code used to turn it on is spent: the app shows the next one 30 seconds later.
    server().clock.advance(30_000);
    await page.getByLabel('Code').fill(await totpCode(server(), secret));
    await page.getByRole('button', { name: 'Verify' }).click();
    // Signed in again where the person signed out.
    await heading(page, 'Security');
    expect((await clientOf(await tokenOf(page)).auth.getSession()).status).toBe(200);

    await page.getByRole('banner').getByRole('button', { name: 'Sign out' }).click();
    await enterPassword(page, owner.email, owner.password);
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await page.getByLabel('Code').fill(codes[3]!);
    await page.getByRole('button', { name: 'Verify' }).click();
    await heading(page, 'Security');
    await page.getByText('9 recovery codes left of 10.').waitFor();
    // A recovery code signs in once.
    const again = await raw(server(), 'POST', '/v1/auth/token', {
      ...json({ email: owner.email, password: owner.password, code: codes[3] }),
    });
    expect(again.status).toBe(401);
    await finish(app, [401]);
  }, 90_000);

  it('makes new recovery codes with an app code, and turns off with the password and a code', async () => {
    const owner = await registerBusiness(server(), 'Turn Off Ltd');
    const { secret, recoveryCodes } = await enableTwoFactor(server(), owner.client);
    const app = await openSecurity(owner);
    const { page } = app;
    await heading(page, 'Security');

    await page.getByRole('button', { name: 'New recovery codes' }).click();
    const renew = page.getByRole('dialog', { name: 'Make new recovery codes?' });
    server().clock.advance(30_000);
    await renew.getByLabel('Code from your authenticator app').fill(await totpCode(server(), secret));
    await renew.getByRole('button', { name: 'Make new codes' }).click();
    const list = page.getByRole('list', { name: 'Recovery codes' });
    await list.waitFor();
    const fresh = (await list.getByRole('listitem').allTextContents()).map((c) => c.trim());
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((c) => recoveryCodes.includes(c))).toEqual([]);
    await page.getByText('the codes you had before no longer work').waitFor();
    await page.getByRole('button', { name: 'I have saved them' }).click();

    await page.getByRole('button', { name: 'Turn off' }).click();
    const off = page.getByRole('dialog', { name: 'Turn off two-factor sign-in?' });
    await off.getByLabel('Password').fill('not the password at all');
    await off.getByLabel('Code from your authenticator app').fill(fresh[0]!);
    await off.getByRole('button', { name: 'Turn off' }).click();
    expect(await errorBeside(off.getByLabel('Password'))).toBe('Incorrect password.');
    await expectAccessible(page, 'security-turn-off');
    expect((await unwrap(owner.client.auth.getTwoFactor())).data.enabled).toBe(true);

    await off.getByLabel('Password').fill(owner.password);
    await off.getByRole('button', { name: 'Turn off' }).click();
    await page.getByText('Two-factor sign-in is off. Your recovery codes were deleted.').waitFor();
    await page.getByRole('button', { name: 'Set up' }).waitFor();
    expect((await unwrap(owner.client.auth.getTwoFactor())).data.enabled).toBe(false);
    await finish(app, [422]);
  }, 90_000);
});

describe('sessions', () => {
  it('lists where the person is signed in with this device marked, signs out one, then every other', async () => {
    const owner = await registerBusiness(server(), 'Sessions Ltd');
    const script = await signInElsewhere(owner, 'Accounting-sync/2.1 (+https://example.test)');
    const app = await openSignIn();
    const { page } = app;
    await enterPassword(page, owner.email, owner.password);
    await heading(page, 'Overview');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Security' }).click();
    await heading(page, 'Security');

    const table = page.getByRole('table', { name: 'Where you are signed in' });
    const mine = table.getByRole('row').filter({ hasText: 'This device' });
    await mine.waitFor();
    expect(await mine.textContent()).toMatch(/Chrome \d+ on Linux/);
    expect(await mine.textContent()).toContain('127.0.0.1');
    const scripted = table.getByRole('row').filter({ hasText: 'Accounting-sync/2.1' });
    await scripted.waitFor();
    expect(await scripted.textContent()).not.toContain('This device');
    // The registration's own token, from the test's HTTP client, is the third.
    await expect.poll(() => table.getByRole('row').count()).toBe(4);
    await expectAccessible(page, 'security-sessions');
    await screenshot(page, 'security-sessions');

    await scripted.getByRole('button', { name: /Sign out of Accounting-sync\/2\.1/ }).click();
    await page.getByText(/^Signed out of Accounting-sync\/2\.1/).waitFor();
    await expect.poll(() => table.getByRole('row').count()).toBe(3);
    expect((await clientOf(script).auth.getSession()).status).toBe(401);

    const more = await signInElsewhere(owner, 'curl/8.5.0');
    await page.reload();
    await expect.poll(() => table.getByRole('row').count()).toBe(4);
    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    const confirm = page.getByRole('dialog', { name: 'Sign out everywhere else?' });
    await confirm.getByText('(2 sessions)').waitFor();
    await confirm.getByRole('button', { name: 'Sign out everywhere else' }).click();
    await page.getByText('Signed out of 2 other sessions. This device stays signed in.').waitFor();
    await expect.poll(() => table.getByRole('row').count()).toBe(2);
    expect(await table.getByRole('row').nth(1).textContent()).toContain('This device');
    expect((await clientOf(more).auth.getSession()).status).toBe(401);
    expect((await owner.client.auth.getSession()).status).toBe(401);
    expect((await clientOf(await tokenOf(page)).auth.getSession()).status).toBe(200);
    expect(await page.getByRole('button', { name: 'Sign out everywhere else' }).count()).toBe(0);
    await finish(app);
  }, 90_000);
});

describe('changing the password', () => {
  it('refuses a wrong current password and a mismatch beside their fields, then changes it and says how many sessions ended', async () => {
    const owner = await registerBusiness(server(), 'Password Ltd');
    const other = await signInElsewhere(owner, 'curl/8.5.0');
    const app = await openSecurity(owner);
    const { page } = app;
    await heading(page, 'Security');
    const form = page.getByRole('region', { name: 'Change password' });
    const newPassword = 'staple battery horse correct';

    await form.getByLabel('Current password').fill(owner.password);
    await form.getByLabel('New password', { exact: true }).fill('too short');
    await form.getByLabel('Confirm new password').fill('too short');
    await form.getByRole('button', { name: 'Change password' }).click();
    expect(await errorBeside(form.getByLabel('New password', { exact: true }))).toBe(
      'Enter at least 12 characters.',
    );

    await form.getByLabel('New password', { exact: true }).fill(newPassword);
    await form.getByLabel('Confirm new password').fill(`${newPassword}!`);
    await form.getByRole('button', { name: 'Change password' }).click();
    expect(await errorBeside(form.getByLabel('Confirm new password'))).toMatch(/differ/);

    await form.getByLabel('Current password').fill('this is not it at all');
    await form.getByLabel('Confirm new password').fill(newPassword);
    await form.getByRole('button', { name: 'Change password' }).click();
    expect(await errorBeside(form.getByLabel('Current password'))).toBe('Incorrect password.');
    await expectAccessible(page, 'security-password-refused');
    expect((await clientOf(other).auth.getSession()).status).toBe(200);

    await form.getByLabel('Current password').fill(owner.password);
    await form.getByRole('button', { name: 'Change password' }).click();
    await form.getByText('Password changed. 1 other session was signed out.').waitFor();
    expect(await form.getByLabel('Current password').inputValue()).toBe('');
    expect((await clientOf(other).auth.getSession()).status).toBe(401);
    expect((await owner.client.auth.getSession()).status).toBe(200);
    const withOld = await raw(server(), 'POST', '/v1/auth/token', {
      ...json({ email: owner.email, password: owner.password }),
    });
    expect(withOld.status).toBe(401);
    const withNew = await raw(server(), 'POST', '/v1/auth/token', {
      ...json({ email: owner.email, password: newPassword }),
    });
    expect(withNew.status).toBe(200);
    await finish(app, [422]);
  }, 90_000);
});

describe('requiring two-factor sign-in', () => {
  it('explains to an owner without it that they need it first, then requires it; a member is held on the security screen until set up', async () => {
    const owner = await registerBusiness(server(), 'Strict Ltd');
    const member = await signedInMember(server(), owner, 'marketing');
    const ownerApp = await openSecurity(owner);
    const ownerPage = ownerApp.page;
    await heading(ownerPage, 'Security');
    const requirement = ownerPage.getByRole('checkbox', { name: 'Require two-factor sign-in for everyone' });
    await requirement.click();
    await ownerPage
      .getByText('Turn on two-factor sign-in for yourself first (above), then require it of everyone.')
      .waitFor();
    await expect.poll(() => requirement.isChecked()).toBe(false);
    expect((await unwrap(owner.client.auth.getBusiness())).data.require_two_factor).toBe(false);

    await setUpOnScreen(ownerPage, owner.password);
    await ownerPage.getByRole('button', { name: 'I have saved them' }).click();
    await requirement.check();
    await ownerPage.getByText('Two-factor sign-in is now required').waitFor();
    expect(await requirement.isChecked()).toBe(true);
    expect((await unwrap(owner.client.auth.getBusiness())).data.require_two_factor).toBe(true);
    // Required: the owner's own cannot be turned off while it is.
    await ownerPage.getByText('Strict Ltd requires two-factor sign-in of every member').waitFor();
    expect(await ownerPage.getByRole('button', { name: 'Turn off' }).count()).toBe(0);
    await finish(ownerApp, [409]);

    // The member signs in and lands on the security screen, told why; nothing else is offered.
    const app = await openSignIn();
    const { page } = app;
    await enterPassword(page, member.email, 'correct horse battery staple');
    await heading(page, 'Security');
    expect(new URL(page.url()).pathname).toBe('/app/settings/security');
    await page.getByText('Strict Ltd requires two-factor sign-in: set it up to continue.').waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Customers' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Overview' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Security' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Open the sandbox' }).count()).toBe(0);
    await expectAccessible(page, 'security-required');
    await screenshot(page, 'security-required');

    // A deep link to customers is held back on the security screen.
    await page.goto('/app/customers');
    await page.getByText('Strict Ltd requires two-factor sign-in: set it up to continue.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/settings/security');
    expect(await page.getByRole('heading', { name: 'Customers' }).count()).toBe(0);

    await setUpOnScreen(page, 'correct horse battery staple');
    await page.getByRole('button', { name: 'I have saved them' }).click();
    await nav.getByRole('link', { name: 'Customers' }).waitFor();
    expect(await page.getByText('set it up to continue').count()).toBe(0);
    // Required by the business: the member cannot turn it off either.
    expect(await page.getByRole('button', { name: 'Turn off' }).count()).toBe(0);
    await nav.getByRole('link', { name: 'Customers' }).click();
    await heading(page, 'Customers');
    expect(new URL(page.url()).pathname).toBe('/app/customers');
    await finish(app);
  }, 120_000);

  it('sends a member already signed in to the security screen at their next step once the requirement is on', async () => {
    const owner = await registerBusiness(server(), 'Tightened Ltd');
    await enableTwoFactor(server(), owner.client);
    const member = await signedInMember(server(), owner, 'accountant');
    const app = await openApp(browser(), server().baseUrl, '/app/customers', {
      accessToken: member.accessToken,
    });
    const { page } = app;
    await heading(page, 'Customers');
    await page.waitForLoadState('networkidle');

    await unwrap(owner.client.auth.updateBusiness({ body: { require_two_factor: true } }));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Products' }).click();
    await page.getByText('Tightened Ltd requires two-factor sign-in: set it up to continue.').waitFor();
    expect(new URL(page.url()).pathname).toBe('/app/settings/security');
    expect(
      await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Products' }).count(),
    ).toBe(0);
    await finish(app, [403]);
  }, 90_000);
});
