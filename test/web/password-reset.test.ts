import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { nextResetLink } from '../support/auth.js';
import {
  errorBeside,
  expectAccessible,
  expectClean,
  openApp,
  screenshot,
  useBrowser,
} from '../support/browser.js';
import { registerBusiness, uniqueEmail } from '../support/business.js';
import { useTestServer } from '../support/setup.js';

// The worker runs: it mails the reset link.
const server = useTestServer();
const browser = useBrowser();

const heading = (page: Page, name: string) => page.getByRole('heading', { name, level: 1 }).waitFor();

const NEW_PASSWORD = 'a brand new passphrase';

/** The captured mail's link, opened on this server (the mail names the configured public address). */
const onThisServer = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.hash}`;
};

describe('a forgotten password', () => {
  it('goes from sign-in through the mailed link to signing in with the new password', async () => {
    const owner = await registerBusiness(server(), 'Forgetful Ltd');

    // Sign-in offers the way back in.
    const app = await openApp(browser(), server().baseUrl, '/app');
    const { page } = app;
    await heading(page, 'Sign in');
    await screenshot(page, 'password-sign-in');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await heading(page, 'Forgot your password?');
    expect(new URL(page.url()).pathname).toBe('/app/forgot-password');
    await expectAccessible(page, 'forgot password');
    await screenshot(page, 'password-forgot');

    // Not an email: refused beside the field, nothing sent.
    await page.getByLabel('Email').fill('not an email');
    await page.getByRole('button', { name: 'Send the link' }).click();
    expect(await errorBeside(page.getByLabel('Email'))).toMatch(/email/i);

    await page.getByLabel('Email').fill(owner.email);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await heading(page, 'Check your mail');
    await page.getByText(`If an account exists for ${owner.email}, we have sent a link`).waitFor();
    await expectAccessible(page, 'forgot password sent');
    await screenshot(page, 'password-forgot-sent');

    // An address without an account reads exactly the same.
    await page.getByRole('button', { name: 'Ask again' }).click();
    const stranger = uniqueEmail('stranger');
    await page.getByLabel('Email').fill(stranger);
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText(`If an account exists for ${stranger}, we have sent a link`).waitFor();
    expectClean(app);
    await app.close();

    // The mailed link opens the reset page, in a tab with no session.
    const link = onThisServer(await nextResetLink(server(), owner.email));
    expect(link).toMatch(/^\/app\/reset-password#token=bms_pwr_/);
    const reset = await openApp(browser(), server().baseUrl, link);
    const resetPage = reset.page;
    await heading(resetPage, 'Choose a new password');
    // The token is taken out of the address bar once read.
    expect(resetPage.url()).not.toContain('bms_pwr_');
    await expectAccessible(resetPage, 'reset password');
    await screenshot(resetPage, 'password-reset');

    const first = resetPage.getByLabel('New password', { exact: true });
    const second = resetPage.getByLabel('New password again');
    await first.fill('too short');
    await second.fill('too short');
    await resetPage.getByRole('button', { name: 'Set the new password' }).click();
    expect(await errorBeside(first)).toBe('Enter at least 12 characters.');

    await first.fill(NEW_PASSWORD);
    await second.fill(`${NEW_PASSWORD}!`);
    await resetPage.getByRole('button', { name: 'Set the new password' }).click();
    expect(await errorBeside(second)).toBe('The two passwords differ: type the same one twice.');
    // The earlier refusal of the first field is gone: it now holds a good password.
    expect(await first.getAttribute('aria-invalid')).toBeNull();
    await expectAccessible(resetPage, 'reset password refused');
    await screenshot(resetPage, 'password-reset-refused');

    await second.fill(NEW_PASSWORD);
    await resetPage.getByRole('button', { name: 'Set the new password' }).click();
    await heading(resetPage, 'Password changed');
    await expectAccessible(resetPage, 'reset password done');
    await screenshot(resetPage, 'password-reset-done');

    // On to sign-in: the old password no longer works, the new one does.
    await resetPage.getByRole('link', { name: 'Sign in with the new password' }).click();
    await heading(resetPage, 'Sign in');
    await resetPage.getByLabel('Email').fill(owner.email);
    await resetPage.getByLabel('Password', { exact: true }).fill(owner.password);
    await resetPage.getByRole('button', { name: 'Sign in' }).click();
    await resetPage.getByText('Invalid email or password').waitFor();
    await resetPage.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await resetPage.getByRole('button', { name: 'Sign in' }).click();
    await heading(resetPage, 'Overview');
    expectClean(reset, [401]);
    await reset.close();

    // The link worked once: opened again, it says so and offers a new one.
    const again = await openApp(browser(), server().baseUrl, link);
    const againPage = again.page;
    await heading(againPage, 'Choose a new password');
    await againPage.getByLabel('New password', { exact: true }).fill('yet another passphrase');
    await againPage.getByLabel('New password again').fill('yet another passphrase');
    await againPage.getByRole('button', { name: 'Set the new password' }).click();
    await againPage.getByText('This link has expired or was already used').waitFor();
    await expectAccessible(againPage, 'reset password used link');
    await screenshot(againPage, 'password-reset-used-link');
    await againPage.getByRole('link', { name: 'Ask for a new link' }).click();
    await heading(againPage, 'Forgot your password?');
    expectClean(again, [422]);
    await again.close();
  });
});
