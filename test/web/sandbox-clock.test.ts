import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { expectAccessible, expectClean, openApp, screenshot, useBrowser } from '../support/browser.js';
import { registerBusiness, sandboxOf } from '../support/business.js';
import { createCustomer, issuedInvoice } from '../support/general.js';
import {
  campaignReaches,
  createCampaign,
  createSegment,
  createTemplate,
  MARKETING_ENV,
} from '../support/marketing.js';
import { useTestServer } from '../support/setup.js';

/**
 * The dashboard on a sandbox whose clock was advanced a year: every default range ends at the
 * sandbox's today (not the browser's), a campaign sent after the advance is sent and created on the
 * same sandbox day, and the captured inbox lists the newest mail by the sandbox's clock first.
 */

const server = useTestServer({
  env: { ...MARKETING_ENV, MARKETING_POLL_MS: '40', MAIL_RATE_PER_SECOND: '0', ACCESS_TOKEN_TTL: '3650d' },
});
const browser = useBrowser();

const YEAR = 365 * 86_400_000;

describe("the sandbox's clock in the dashboard", () => {
  it('follows the advanced clock in default ranges, campaign dates and the inbox order', async () => {
    const owner = await registerBusiness(server(), 'Clockwork Ltd');
    const sandbox = await sandboxOf(server(), owner);
    // Before the advance: an invoice mailed (captured at the sandbox's then real time).
    const ada = await createCustomer(sandbox.client, {
      name: 'Ada Example',
      email: 'ada@contacts.example.test',
    });
    const invoice = await issuedInvoice(sandbox.client, { customer_id: ada.id });
    await unwrap(sandbox.client.general.invoices.sendInvoice({ params: { id: invoice.id }, body: {} }));
    const start = Date.parse((await unwrap(sandbox.client.sandbox.clock.getClock())).data.now);
    await unwrap(
      sandbox.client.sandbox.clock.advanceClock({
        body: { advance_to: new Date(start + YEAR).toISOString() },
      }),
    );
    // After it: a campaign sent to Ada.
    const campaign = await createCampaign(sandbox.client, {
      name: 'A year on',
      template_id: (await createTemplate(sandbox.client)).id,
      segment_id: (await createSegment(sandbox.client)).id,
    });
    await unwrap(sandbox.client.marketing.campaigns.sendCampaign({ params: { id: campaign.id } }));
    const sent = await campaignReaches(sandbox.client, campaign.id, 'sent');
    const session = (await unwrap(sandbox.client.auth.getSession())).data;
    const sandboxToday = session.clock.today;
    expect(sandboxToday).toBe(new Date(start + YEAR).toISOString().slice(0, 10));

    const app = await openApp(browser(), server().baseUrl, '/app', {
      accessToken: sandbox.accessToken,
      environment: 'sandbox',
    });
    const { page } = app;
    page.setDefaultTimeout(10_000);

    // The overview's chart asks for the twelve months ending at the sandbox's today.
    const asked = page.waitForRequest((r) => r.url().includes('/v1/get/salesSchedule'));
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const window = new URL((await asked).url()).searchParams;
    expect(window.get('endDate')).toBe(sandboxToday);
    const [year, month] = sandboxToday.split('-').map(Number) as [number, number];
    expect(window.get('startDate')).toBe(new Date(Date.UTC(year, month - 12, 1)).toISOString().slice(0, 10));
    await expectAccessible(page, 'sandbox overview, a year on');
    await screenshot(page, 'sandbox-clock-overview');

    // The sales schedule's default range ends there too.
    await page.goto('/app/finance/sales-schedule');
    await page.getByRole('heading', { name: 'Sales schedule' }).waitFor();
    expect(await page.getByLabel('To', { exact: true }).inputValue()).toBe(sandboxToday);
    await screenshot(page, 'sandbox-clock-sales-schedule');

    // The campaign: sent and created on the same sandbox day.
    const day = await page.evaluate(
      (at) => new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' }).format(new Date(at)),
      sent.sent_at!,
    );
    await page.goto(`/app/marketing/campaigns/${campaign.id}`);
    await page.getByRole('heading', { name: 'A year on' }).waitFor();
    const facts = page.locator('dl.facts').filter({ hasText: 'Created' });
    const sentText = await facts.locator('dt:text-is("Sent") + dd').textContent();
    const createdText = await facts.locator('dt:text-is("Created") + dd').textContent();
    expect(sentText).toContain(day);
    expect(createdText).toContain(day);
    await expectAccessible(page, 'sandbox campaign, a year on');
    await screenshot(page, 'sandbox-clock-campaign');

    // The inbox: the campaign's mail, a year after the invoice's, first.
    await page.goto('/app/sandbox/inbox');
    await page.getByRole('heading', { name: 'Captured mail' }).waitFor();
    const items = page.locator('a.mail-item');
    await expect.poll(() => items.count()).toBeGreaterThanOrEqual(2);
    expect(await items.first().textContent()).toContain(day);
    expect(await items.first().textContent()).not.toContain('Invoice');
    expect(await items.last().textContent()).toContain('Invoice');
    await expectAccessible(page, 'sandbox inbox, a year on');
    await screenshot(page, 'sandbox-clock-inbox');

    expectClean(app);
    await app.close();
  });
});
