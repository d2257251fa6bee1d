import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { createApiKey } from '../support/auth.js';
import { PHONE, expectAccessible, expectClean, openApp, screenshot, useBrowser } from '../support/browser.js';
import { ensureBuilt } from '../support/build.js';
import { registerBusiness, sandboxOf } from '../support/business.js';
import { createCreditNote, createCustomer, createQuote, issuedInvoice } from '../support/general.js';
import { createRecurringBill } from '../support/finance.js';
import { createDomain } from '../support/marketing.js';
import { useTestServer } from '../support/setup.js';
import { createWebhook } from '../support/webhooks.js';

/**
 * The dashboard and the pages customers receive on a phone (390 x 844, and 360 px wide for the
 * busiest screens): every screen of the dashboard fits the width without the page scrolling
 * sideways, the navigation opens from a menu button, Sign out and the environment switch are
 * reachable, wide tables scroll inside a labelled region a keyboard can reach, and an invoice's
 * lines can be written and saved.
 */

// The browser loads the built dashboard: rebuilt first when a source is newer than the build.
beforeAll(ensureBuilt, 300_000);
const server = useTestServer();
const browser = useBrowser();

/** Every path of the dashboard's screens, read from web/routes.ts (the security screen by its constant). */
async function screenPaths(): Promise<string[]> {
  const source = await readFile(new URL('../../web/routes.ts', import.meta.url), 'utf8');
  const security = /SECURITY_PATH = '([^']+)'/.exec(source)?.[1];
  return [...source.matchAll(/path: (?:'([^']+)'|SECURITY_PATH)/g)].map((m) => m[1] ?? security!);
}

interface Widths {
  viewport: number;
  document: number;
  body: number;
  /** The outermost elements reaching past the window's right edge, to name in a failure. */
  past: string[];
}

const widths = (page: Page): Promise<Widths> =>
  page.evaluate<Widths>(`(() => {
    const past = [];
    // What scrolls inside a box of its own (a wide table) does not widen the page.
    const inScroller = (el) => {
      for (let box = el.parentElement; box && box !== document.body; box = box.parentElement) {
        if (getComputedStyle(box).overflowX !== 'visible') return true;
      }
      return false;
    };
    const beyond = (el) => el.getBoundingClientRect().right > window.innerWidth + 0.5 && !inScroller(el);
    for (const el of document.body.querySelectorAll('*')) {
      if (beyond(el) && !(el.parentElement && beyond(el.parentElement))) {
        past.push(el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').join('.') : '') + ' ' + Math.round(el.getBoundingClientRect().right));
      }
    }
    return {
      viewport: window.innerWidth,
      document: document.documentElement.scrollWidth,
      body: document.body.scrollWidth,
      past: past.slice(0, 5),
    };
  })()`);

/** The page is no wider than the window: nothing to scroll sideways. */
async function expectNoSidewaysScroll(
  page: Page,
  screen: string,
  check: typeof expect.soft = expect,
): Promise<void> {
  const { viewport, document, body, past } = await widths(page);
  check({ screen, document, body, past }).toEqual({ screen, document: viewport, body: viewport, past: [] });
}

/**
 * The tables wider than their box: each scrolls inside a region with a name that a keyboard can
 * focus (so arrow keys scroll it). Answers the regions' names, and those that fail.
 */
const scrollRegions = (page: Page): Promise<{ named: string[]; unreachable: string[] }> =>
  page.evaluate<{ named: string[]; unreachable: string[] }>(`(() => {
    const named = [];
    const unreachable = [];
    for (const wrap of document.querySelectorAll('main .table-wrap')) {
      if (wrap.scrollWidth <= wrap.clientWidth) continue;
      const name = wrap.getAttribute('aria-label');
      if (wrap.tabIndex === 0 && wrap.getAttribute('role') === 'region' && name) named.push(name);
      else unreachable.push(wrap.outerHTML.slice(0, 120));
    }
    return { named, unreachable };
  })()`);

/** Waits until the screen has its heading and has finished loading what it shows. */
async function settled(page: Page): Promise<void> {
  await page.locator('main h1').first().waitFor();
  await page.waitForLoadState('networkidle');
  await expect.poll(() => page.locator('main .loading').count()).toBe(0);
}

/** The name of the element that has the focus: its label or its text. */
const focused = (page: Page): Promise<string> =>
  page.evaluate<string>(
    "document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.textContent?.trim() ?? ''",
  );

const menuButton = (page: Page) => page.getByRole('banner').getByRole('button', { name: 'Menu' });

describe('the dashboard on a phone', () => {
  it('fits every screen into 390 px, opens the navigation from a menu, and writes an invoice', async () => {
    // A full business: the sandbox's demo data, plus what the demo leaves out.
    const owner = await registerBusiness(server(), 'Pocket Roasters Ltd');
    const sandbox = await sandboxOf(server(), owner);
    await unwrap(sandbox.client.sandbox.reset.resetSandbox({ body: { seed: true } }));
    const customer = await createCustomer(sandbox.client, {
      name: 'Augusta Ada King, Countess of Lovelace',
      email: 'ada.lovelace@analytical-engine.example.test',
    });
    const invoice = await issuedInvoice(sandbox.client, {
      customer_id: customer.id,
      items: [
        {
          description: 'Single-origin espresso beans, Ethiopia Yirgacheffe, 1 kg',
          quantity: 12,
          unit_price: 24.5,
          tax_rate: 20,
        },
        { description: 'Grinder setup and calibration', quantity: 1, unit_price: 1100.1 },
        { description: 'Barista training (hours)', quantity: 6, unit_price: 85, tax_rate: 20 },
        { description: 'Delivery', quantity: 1, unit_price: 15 },
      ],
    });
    const quote = await createQuote(sandbox.client, customer.id, 'sent');
    const creditNote = await createCreditNote(sandbox.client, { invoice_id: invoice.id, amount: 40 });
    const recurringBill = await createRecurringBill(sandbox.client, { start_date: '2030-01-31' });
    const webhook = await createWebhook(sandbox.client);
    // The demo's bank account, its statement half reconciled.
    const [bankAccount] = (await unwrap(sandbox.client.finance.bankAccounts.listBankAccounts({ query: {} })))
      .bank_accounts;
    await createApiKey(sandbox.client);
    await createDomain(sandbox.client);

    const app = await openApp(
      browser(),
      server().baseUrl,
      '/app',
      { accessToken: sandbox.accessToken, environment: 'sandbox' },
      PHONE,
    );
    const { page } = app;
    page.setDefaultTimeout(10_000);
    await settled(page);

    // The overview: no sidebar beside it, a menu button in the header.
    await expectNoSidewaysScroll(page, '/');
    const menu = menuButton(page);
    const navigation = page.getByRole('navigation', { name: 'Main' });
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await navigation.isVisible()).toBe(false);
    await expectAccessible(page, 'phone overview');
    await screenshot(page, 'phone-overview');

    // The menu by keyboard: opens the navigation with Sign out and the environment switch in view.
    await menu.focus();
    await page.keyboard.press('Enter');
    expect(await menu.getAttribute('aria-expanded')).toBe('true');
    const controlled = (await menu.getAttribute('aria-controls'))?.split(' ') ?? [];
    expect(controlled).toContain(await navigation.getAttribute('id'));
    await navigation.waitFor();
    const signOut = page.getByRole('button', { name: 'Sign out' });
    const leave = page.getByRole('button', { name: 'Leave the sandbox' });
    for (const control of [signOut, leave, navigation.getByRole('link', { name: 'Invoices', exact: true })]) {
      const box = await control.boundingBox();
      expect(box).not.toBeNull();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width).toBeLessThanOrEqual(PHONE.width);
    }
    await expectNoSidewaysScroll(page, 'menu open');
    await expectAccessible(page, 'phone navigation open');
    await screenshot(page, 'phone-menu');
    // Escape closes it and gives the focus back to the button.
    await page.keyboard.press('Escape');
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await navigation.isVisible()).toBe(false);
    expect(await focused(page)).toBe('Menu');
    // Following a link closes it.
    await page.keyboard.press('Space');
    await navigation.getByRole('link', { name: 'Customers' }).click();
    await page.getByRole('heading', { name: 'Customers', level: 1 }).waitFor();
    expect(await menu.getAttribute('aria-expanded')).toBe('false');
    expect(await navigation.isVisible()).toBe(false);

    // Every screen: the detail screens are the first of their list (or this test's own documents).
    const known: Record<string, string> = {
      '/invoices/:id': `/invoices/${invoice.id}`,
      '/quotes/:id': `/quotes/${quote.id}`,
      '/credit-notes/:id': `/credit-notes/${creditNote.id}`,
      '/finance/recurring-bills/:id': `/finance/recurring-bills/${recurringBill.id}`,
      '/customers/:id/statement': `/customers/${customer.id}/statement`,
      '/settings/webhooks/:id': `/settings/webhooks/${webhook.id}`,
      '/finance/bank-accounts/:id/import': `/finance/bank-accounts/${bankAccount!.id}/import`,
      '/finance/bank-accounts/:id/reconciliation': `/finance/bank-accounts/${bankAccount!.id}/reconciliation`,
    };
    const firstOf: Record<string, string> = {};
    const regions = new Set<string>();
    const paths = await screenPaths();
    expect(paths.length).toBeGreaterThan(40);
    for (const pattern of paths) {
      const base = pattern.replace(/\/:id$/, '');
      const path = pattern.includes(':') ? (known[pattern] ?? firstOf[base]) : pattern;
      expect(path, `a ${pattern} to open`).toBeDefined();
      await page.goto(`/app${path === '/' ? '' : path}`);
      await settled(page);
      // Every screen is checked, and every one that fails is named.
      await expectNoSidewaysScroll(page, path!, expect.soft);
      const { named, unreachable } = await scrollRegions(page);
      expect.soft({ path, unreachable }).toEqual({ path, unreachable: [] });
      for (const name of named) regions.add(name);
      // The first item of a list, for its detail screen.
      const hrefs = await page.evaluate<string[]>(
        `[...document.querySelectorAll('main a[href^="/app${base}/"]')].map((a) => a.getAttribute('href'))`,
      );
      const first = hrefs.find((h) => /^\/app\/[\w/-]+\/[\w-]+$/.test(h) && !h.endsWith('/new'));
      if (first && !pattern.includes(':')) firstOf[base] = first.slice('/app'.length);
    }
    // Some lists are wider than a phone: they scroll inside themselves.
    expect(regions.size).toBeGreaterThan(0);

    // A new invoice at 390 px: a line added and written by keyboard, the draft saved.
    await page.goto('/app/invoices/new');
    await settled(page);
    await page.getByLabel('Customer', { exact: true }).selectOption(customer.id);
    await page.getByLabel('Description, line 1').fill('Pour-over kettle');
    await page.getByLabel('Quantity, line 1').fill('2');
    await page.getByLabel('Unit price in USD, line 1').fill('39.90');
    await page.getByRole('button', { name: 'Add line' }).click();
    const description = page.getByLabel('Description, line 2');
    await description.focus();
    await page.keyboard.type('Paper filters, box of 100');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('Quantity, line 2');
    await page.keyboard.type('3');
    await page.keyboard.press('Tab');
    await page.keyboard.type('6.50');
    expect(await page.getByLabel('Unit price in USD, line 2').inputValue()).toBe('6.50');
    for (const label of [
      'Description, line 2',
      'Quantity, line 2',
      'Unit price in USD, line 2',
      'Tax percent, line 2',
    ]) {
      const box = await page.getByLabel(label).boundingBox();
      expect(box!.x).toBeGreaterThanOrEqual(0);
      expect(box!.x + box!.width, label).toBeLessThanOrEqual(PHONE.width);
    }
    await expectNoSidewaysScroll(page, 'invoice editor');
    await expectAccessible(page, 'phone invoice editor');
    await screenshot(page, 'phone-invoice-editor');
    await page.setViewportSize({ width: 360, height: 780 });
    await expectNoSidewaysScroll(page, 'invoice editor at 360 px');
    await screenshot(page, 'phone-invoice-editor-360');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('heading', { name: /^Invoice / }).waitFor();
    const saved = /\/app\/invoices\/(inv_\w+)$/.exec(page.url())?.[1];
    const draft = (await unwrap(sandbox.client.general.invoices.getInvoice({ params: { id: saved! } }))).data;
    expect(draft.items.map((i) => [i.description, i.quantity, i.unit_price])).toEqual([
      ['Pour-over kettle', 2, 39.9],
      ['Paper filters, box of 100', 3, 6.5],
    ]);
    await settled(page);
    await expectNoSidewaysScroll(page, 'invoice draft at 360 px');

    // The overview at 360 px.
    await page.goto('/app');
    await settled(page);
    await expectNoSidewaysScroll(page, 'overview at 360 px');
    expectClean(app);

    // The hosted invoice, quote and credit note pages, as the customer opens the links on a phone.
    for (const [kind, url] of [
      ['invoice', invoice.hosted_url],
      ['quote', quote.hosted_url],
      ['credit-note', creditNote.hosted_url],
    ] as const) {
      expect(url, `the ${kind} has a hosted page`).toMatch(/\/[iqc]\/[\w-]+\.[\w-]+$/);
      await page.setViewportSize(PHONE);
      const answer = await page.goto(new URL(url!).pathname);
      expect(answer?.status()).toBe(200);
      await expectNoSidewaysScroll(page, `hosted ${kind}`);
      await expectAccessible(page, `phone hosted ${kind}`);
      await screenshot(page, `phone-hosted-${kind}`);
      await page.setViewportSize({ width: 360, height: 780 });
      await expectNoSidewaysScroll(page, `hosted ${kind} at 360 px`);
    }
    expectClean(app);
    await app.close();
    // One walk over every screen of the dashboard: it grows with the screens (about 100 s alone for 90).
  }, 360_000);
});
