import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createClient, unwrap } from '../../client/index.js';
import { join } from 'node:path';
import {
  ARTIFACTS,
  expectAccessible,
  expectClean,
  openApp,
  screenshot,
  useBrowser,
  type AppPage,
} from '../support/browser.js';
import { registerBusiness, signedInMember } from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import { createCustomer, createInvoice } from '../support/general.js';
import { useTestServer } from '../support/setup.js';
import { waitFor } from '../support/wait.js';

/**
 * A live business on a machine without SMTP_URL: its mail is captured, not sent. Its owner reads it
 * in the dashboard under a banner saying so, an invoice's mail rendered in a sandboxed frame; a
 * viewer neither sees the inbox nor reads it through the API (it carries invitation links).
 */

// No SMTP_URL; the worker runs, so queued mail is captured.
const server = useTestServer();
const browser = useBrowser();

async function open(accessToken: string, path: string): Promise<AppPage> {
  const app = await openApp(browser(), server().baseUrl, `/app${path}`, { accessToken });
  app.page.setDefaultTimeout(10_000);
  return app;
}

const nav = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

describe('captured mail in live without SMTP_URL', () => {
  it("shows the owner the inbox with its banner and an invoice's mail rendered in a frame", async () => {
    const owner = await registerBusiness(server(), 'Harbour Books');
    const customer = await createCustomer(owner.client, {
      name: 'Ada Lovelace',
      email: 'ada@customers.example.test',
    });
    const draft = await createInvoice(owner.client, { customer_id: customer.id });
    const sent = await unwrap(
      owner.client.general.invoices.sendInvoice({
        params: { id: draft.id },
        body: { message: 'Thank you for your order.' },
      }),
    );
    const mail = await waitFor('the invoice mail to be captured', async () => {
      const { messages } = await unwrap(owner.client.sandbox.messages.listMessages({ query: {} }));
      return messages.find((m) => m.to === 'ada@customers.example.test');
    });
    expect(mail.html).toContain('Thank you for your order.');

    const app = await open(owner.accessToken, '');
    const { page } = app;
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    // Listed in live, though not as a sandbox tool: the sandbox's own controls stay in the sandbox.
    expect(await nav(page, 'Reset and clock').count()).toBe(0);
    await nav(page, 'Captured mail').click();
    await page.getByRole('heading', { name: 'Captured mail' }).waitFor();
    const banner = page.getByRole('note').filter({ hasText: 'Mail is not leaving this machine' });
    await banner.waitFor();
    expect(await banner.textContent()).toContain('SMTP_URL is not set, so messages are kept here');

    await page.locator('a.mail-item').filter({ hasText: mail.subject }).click();
    const view = page.getByRole('article');
    expect(await view.getByRole('heading', { level: 2 }).textContent()).toBe(mail.subject);
    // Rendered, not shown as source: the frame holds the message's paragraphs, and runs nothing.
    const frame = view.locator('iframe.mail-frame');
    expect(await frame.getAttribute('sandbox')).toBe('');
    const inside = page.frameLocator('iframe.mail-frame');
    await inside.getByText('Thank you for your order.').waitFor();
    await inside.getByText('Hello Ada Lovelace,').waitFor();
    // The hosted page's link is text with its address, never followed from here.
    const link = inside.locator('a', { hasText: sent.data.hosted_url ?? 'View it online' }).first();
    expect(await link.getAttribute('href')).toBeNull();
    // The text part and the headers stay readable.
    expect(await view.getByLabel('Text of the message').textContent()).toBe(mail.text);
    await view.getByText('HTML part (source)').click();
    expect(await view.getByLabel('HTML source of the message').textContent()).toBe(mail.html);
    expect(await view.locator('dl.facts').first().textContent()).toContain('ada@customers.example.test');
    await expectAccessible(page, 'live captured mail');
    await screenshot(page, 'captured-mail-live-owner');
    // The frame as the viewport shows it (a full-page capture may leave a frame out of process blank).
    await frame.scrollIntoViewIfNeeded();
    await frame.screenshot({ path: join(ARTIFACTS, 'captured-mail-live-owner-frame.png') });

    expectClean(app);
    await app.close();
  });

  it('hides the inbox from a viewer, whom the API refuses (403 FORBIDDEN)', async () => {
    const owner = await registerBusiness(server(), 'Harbour Books');
    await unwrap(
      owner.client.team.inviteMember({ body: { email: 'new-admin@example.test', role: 'admin' } }),
    );
    const viewer = await signedInMember(server(), owner, 'viewer');
    const viewerClient = createClient({
      baseUrl: server().baseUrl,
      accessToken: viewer.accessToken,
      maxRetries: 0,
    });
    const error = expectResultError(
      await viewerClient.sandbox.messages.listMessages({ query: {} }),
      403,
      'FORBIDDEN',
    );
    expect(error.message).toContain('only owners and admins');

    const app = await open(viewer.accessToken, '');
    const { page } = app;
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await nav(page, 'Captured mail').count()).toBe(0);
    // A deep link says why, without asking the service.
    await page.goto('/app/sandbox/inbox');
    await page.getByText('only owners and admins read it').waitFor();
    expect(await page.locator('a.mail-item').count()).toBe(0);
    await expectAccessible(page, 'live captured mail, viewer');
    await screenshot(page, 'captured-mail-live-viewer');

    expectClean(app);
    await app.close();
  });
});
