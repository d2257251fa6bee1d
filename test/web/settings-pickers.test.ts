import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { expectAccessible, expectClean, openApp, screenshot, useBrowser } from '../support/browser.js';
import { registerBusiness } from '../support/business.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ worker: false });
const browser = useBrowser();

/** Whether the element lies wholly inside the viewport. */
const inView = (field: Locator): Promise<boolean> =>
  field.evaluate((e) => {
    const box = e.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= (globalThis as unknown as { innerHeight: number }).innerHeight;
  });

describe('business settings pickers', () => {
  it('chooses a time zone and a country from lists, keeps them across a reload, and focuses the first refused field', async () => {
    const owner = await registerBusiness(server(), 'Pickers Ltd');
    const app = await openApp(browser(), server().baseUrl, '/app/settings/business', {
      accessToken: owner.accessToken,
    });
    const { page } = app;
    const zone = page.getByRole('combobox', { name: 'Time zone' });
    const country = page.getByRole('combobox', { name: 'Country of registration' });
    await expect.poll(() => zone.inputValue()).toBe('UTC');
    // Every zone the browser knows, UTC among them; the countries by name.
    const zones = await zone
      .locator('option')
      .evaluateAll((options) => options.map((o) => (o as unknown as { value: string }).value));
    expect(zones).toContain('UTC');
    expect(zones).toContain('Pacific/Auckland');
    expect(await country.locator('option[value="NZ"]').textContent()).toBe('New Zealand (NZ)');
    expect(await country.inputValue()).toBe('');

    // Chosen by keyboard: focus the list and type the start of the name.
    await zone.selectOption('Pacific/Auckland');
    await country.focus();
    await page.keyboard.type('New Zealand');
    await expect.poll(() => country.inputValue()).toBe('NZ');
    await expectAccessible(page, 'settings pickers');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved.').waitFor();
    expect((await unwrap(owner.client.auth.getBusiness())).data).toMatchObject({
      timezone: 'Pacific/Auckland',
      country: 'NZ',
    });
    await page.reload();
    await expect.poll(() => zone.inputValue()).toBe('Pacific/Auckland');
    expect(await country.inputValue()).toBe('NZ');
    await screenshot(page, 'settings-pickers');

    // A refused save: the first field with an error takes the focus and is scrolled into view.
    const name = page.getByLabel('Business name');
    await name.fill('');
    await page.getByLabel('Days after the due date').fill('0, 400');
    const save = page.getByRole('button', { name: 'Save settings' });
    await save.scrollIntoViewIfNeeded();
    expect(await inView(name), 'the name is out of view when Save is pressed').toBe(false);
    await save.click();
    await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
    await expect.poll(() => page.evaluate('document.activeElement?.getAttribute("name")')).toBe('name');
    await expect.poll(() => inView(name)).toBe(true);
    await screenshot(page, 'settings-pickers-refused');
    await expectAccessible(page, 'settings pickers refused');
    expect((await unwrap(owner.client.auth.getBusiness())).data.name).toBe('Pickers Ltd');

    expectClean(app);
    await app.close();
  });
});
