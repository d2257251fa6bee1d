import { describe, expect, it } from 'vitest';
import { createClient, unwrap } from '../../client/index.js';
import { expectAccessible, expectClean, openApp, screenshot, useBrowser } from '../support/browser.js';
import { raw, registerBusiness, signedInMember, uniqueEmail } from '../support/business.js';
import { createCustomer, issuedInvoice } from '../support/general.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ worker: false });
const browser = useBrowser();

const PASSWORD = 'correct horse battery staple';

describe('signing in and out', () => {
  it('registers a business and lands on the overview, signed in; a reload keeps the session', async () => {
    const app = await openApp(browser(), server().baseUrl, '/app/register');
    const { page } = app;
    await page.getByLabel('Business name').fill('Browser Ltd');
    await page.getByLabel('Your email').fill(uniqueEmail('browser'));
    await page.getByLabel('Password').fill(PASSWORD);
    await expectAccessible(page, 'register');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await page.locator('.brand').textContent()).toBe('Browser Ltd');
    await page.reload();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await page.locator('.brand').textContent()).toBe('Browser Ltd');
    // Never in localStorage.
    expect(await page.evaluate('Object.keys(localStorage)')).toEqual([]);
    expectClean(app);
    await app.close();
  });

  it('shows a refused sign-in, signs in, and signs out revoking the token', async () => {
    const owner = await registerBusiness(server(), 'Sign In Ltd');
    const app = await openApp(browser(), server().baseUrl, '/app');
    const { page } = app;
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await expectAccessible(page, 'sign-in');
    await screenshot(page, 'sign-in');

    await page.getByLabel('Email').fill('not an email');
    await page.getByLabel('Password').fill('x');
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Checked with the contract's schema before sending: the message sits beside the field.
    await expect.poll(() => page.locator('.field.invalid').count()).toBeGreaterThan(0);
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');

    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill('wrong password here');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Invalid email or password').waitFor();

    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const token = String(
      await page.evaluate("JSON.parse(sessionStorage.getItem('bms.session') ?? '{}').accessToken"),
    );
    expect(token).toMatch(/^bms_/);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate("sessionStorage.getItem('bms.session')")).toBeNull();
    // Revoked with the service before the page forgets it.
    const revoked = createClient({ baseUrl: server().baseUrl, accessToken: token, maxRetries: 0 });
    expect((await revoked.auth.getSession()).status).toBe(401);
    expectClean(app, [401]);
    await app.close();
  });

  it('asks a person of several businesses which one, and signs in to the one chosen', async () => {
    const first = await registerBusiness(server(), 'First Choice Ltd');
    const second = await registerBusiness(server(), 'Second Choice Ltd');
    await server()
      .deps.db.insertInto('memberships')
      .values({
        business_id: second.businessId,
        user_id: (await unwrap(first.client.auth.getSession())).data.user!.id,
        role: 'viewer',
      })
      .execute();
    const app = await openApp(browser(), server().baseUrl, '/app');
    const { page } = app;
    await page.getByLabel('Email').fill(first.email);
    await page.getByLabel('Password').fill(first.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByLabel('Business').waitFor();
    await page.getByLabel('Business').selectOption({ label: 'Second Choice Ltd' });
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await page.locator('.brand').textContent()).toBe('Second Choice Ltd');
    expect(await page.locator('.who').textContent()).toContain('Viewer');
    expectClean(app, [422]);
    await app.close();
  });
});

describe('the overview', () => {
  it("shows the month's revenue, the latest invoice and the VAT tile, and links to the invoice", async () => {
    const owner = await registerBusiness(server(), 'Overview Ltd');
    const customer = await createCustomer(owner.client, { name: 'Ada Buyer' });
    const invoice = await issuedInvoice(owner.client, {
      customer_id: customer.id,
      items: [{ description: 'Consulting', quantity: 3, unit_price: 50 }],
    });
    const app = await openApp(browser(), server().baseUrl, '/app', { accessToken: owner.accessToken });
    const { page } = app;
    const revenue = page.getByRole('region', { name: 'Revenue by month' });
    await revenue.getByText('net over the last 12 months').waitFor();
    const figure = await revenue.locator('.figure').textContent();
    expect(figure).toBe(new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(150));
    expect(await revenue.locator('canvas').count()).toBeGreaterThan(0);
    const latest = page.getByRole('region', { name: 'Latest invoices' });
    await latest.getByRole('link', { name: invoice.number }).waitFor();
    await page.getByRole('region', { name: 'VAT threshold' }).getByText('No threshold is set up').waitFor();
    await page.getByRole('region', { name: 'Loyalty' }).getByText('Members').waitFor();
    await screenshot(page, 'overview');
    await expectAccessible(page, 'overview');

    await latest.getByRole('link', { name: invoice.number }).click();
    await page.waitForURL(`**/app/invoices/${invoice.id}`);
    expectClean(app);
    await app.close();
  });

  it('shows a role only what it may read: an HR member sees no sales or finance, and is told why a deep link is closed', async () => {
    const owner = await registerBusiness(server(), 'Roles Ltd');
    const hr = await signedInMember(server(), owner, 'hr');
    const app = await openApp(browser(), server().baseUrl, '/app', { accessToken: hr.accessToken });
    const { page } = app;
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Main' });
    expect(await nav.getByRole('link', { name: 'Invoices' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'API keys' }).count()).toBe(0);
    expect(await nav.getByRole('link', { name: 'Audit log' }).count()).toBe(0);
    expect(await page.locator('.tile').count()).toBe(0);

    await page.goto('/app/invoices');
    await page.getByText('cannot open this screen').waitFor();
    expect(await page.locator('main').textContent()).toContain('sales.read');
    await expectAccessible(page, 'forbidden');
    expectClean(app);
    await app.close();
  });
});

describe('the sandbox switch', () => {
  it('opens the sandbox with a bar on every page and its own data, and leaves it', async () => {
    const owner = await registerBusiness(server(), 'Switching Ltd');
    const customer = await createCustomer(owner.client, { name: 'Live Customer' });
    await issuedInvoice(owner.client, { customer_id: customer.id });
    const app = await openApp(browser(), server().baseUrl, '/app', { accessToken: owner.accessToken });
    const { page } = app;
    await page.getByRole('region', { name: 'Latest invoices' }).getByRole('link').first().waitFor();

    await page.getByRole('button', { name: 'Open the sandbox' }).click();
    await page.getByRole('note').getByText('Sandbox: test data only').waitFor();
    await page.getByRole('region', { name: 'Latest invoices' }).getByText('No invoices yet').waitFor();
    expect(await page.evaluate("JSON.parse(sessionStorage.getItem('bms.session') ?? '{}').environment")).toBe(
      'sandbox',
    );
    await screenshot(page, 'overview-sandbox');
    await expectAccessible(page, 'overview-sandbox');
    await page.reload();
    await page.getByRole('note').getByText('Sandbox: test data only').waitFor();

    await page.getByRole('button', { name: 'Leave the sandbox' }).click();
    await page.getByRole('button', { name: 'Open the sandbox' }).waitFor();
    expect(await page.getByRole('note').count()).toBe(0);
    await page.getByRole('region', { name: 'Latest invoices' }).getByRole('link').first().waitFor();
    expectClean(app);
    await app.close();
  });
});

describe('serving /app', () => {
  it('answers every path with the page under CSP default-src self and no inline script; /docs and /app link each other', async () => {
    for (const path of ['/app', '/app/', '/app/invoices?status=paid', '/app/no/such/screen']) {
      const res = await raw(server(), 'GET', path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toMatch(/^default-src 'self'/);
      expect(String(res.body)).not.toMatch(/<script(?![^>]*\bsrc=)/);
      expect(String(res.body)).not.toMatch(/<style/);
    }
    const missing = await raw(server(), 'GET', '/app/assets/nothing-here.js');
    expect(missing.status).toBe(404);
    const docs = await raw(server(), 'GET', '/docs');
    expect(String(docs.body)).toContain('href="/app"');
    const signIn = await raw(server(), 'GET', '/app');
    expect(String(signIn.body)).toContain('href="/docs"');
  });

  it('shows a path that names no screen as not found, within the app', async () => {
    const owner = await registerBusiness(server(), 'Lost Ltd');
    const app = await openApp(browser(), server().baseUrl, '/app/no/such/screen', {
      accessToken: owner.accessToken,
    });
    await app.page.getByRole('heading', { name: 'Not found' }).waitFor();
    await app.page.getByRole('link', { name: 'Go to the overview' }).click();
    await app.page.getByRole('heading', { name: 'Overview' }).waitFor();
    expectClean(app);
    await app.close();
  });
});
