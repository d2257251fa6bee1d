import { describe, expect, it } from 'vitest';
import { expectAccessible, expectClean, openApp, screenshot, useBrowser } from '../support/browser.js';
import { uniqueEmail } from '../support/business.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ worker: false });
const browser = useBrowser();

describe('the dashboard', () => {
  it('registers a business and lands on the overview, signed in', async () => {
    const app = await openApp(browser(), server().baseUrl, '/app/register');
    const { page } = app;
    await page.getByLabel('Business name').fill('Browser Ltd');
    await page.getByLabel('Your email').fill(uniqueEmail('browser'));
    await page.getByLabel('Password').fill('correct horse battery staple');
    await page.getByRole('button', { name: 'Register' }).click();
    await page.getByRole('heading', { name: 'Overview' }).waitFor();
    expect(await page.locator('.brand').textContent()).toBe('Browser Ltd');
    await screenshot(page, 'overview');
    await expectAccessible(page, 'overview');
    expectClean(app);
    await app.close();
  });
});
