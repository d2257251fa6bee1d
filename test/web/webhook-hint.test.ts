import { describe, expect, it } from 'vitest';
import {
  errorBeside,
  expectAccessible,
  expectClean,
  openApp,
  screenshot,
  useBrowser,
} from '../support/browser.js';
import { registerBusiness } from '../support/business.js';
import { useTestServer } from '../support/setup.js';

// Outside production and without WEBHOOK_ALLOW_PRIVATE, as a developer first starts the service.
const server = useTestServer({ env: { NODE_ENV: 'development' }, worker: false });
const browser = useBrowser();

describe('a webhook receiver on this machine', () => {
  it('is refused beside the URL field with the setting that allows it', async () => {
    const owner = await registerBusiness(server(), 'Local Hooks Ltd');
    const app = await openApp(browser(), server().baseUrl, '/app/settings/webhooks', {
      accessToken: owner.accessToken,
    });
    const { page } = app;
    await page.getByRole('button', { name: 'Add endpoint' }).first().click();
    const url = page.getByLabel('Endpoint URL');
    await url.fill('http://127.0.0.1:4000/hooks');
    await page.getByRole('checkbox', { name: 'customer.created' }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    expect(await errorBeside(url)).toBe(
      'Webhook URLs must use HTTPS. For a receiver on this machine or a private network during ' +
        'development, start the service with WEBHOOK_ALLOW_PRIVATE=true.',
    );
    await screenshot(page, 'webhook-private-hint');
    await expectAccessible(page, 'webhook private hint');
    expectClean(app, [422]);
    await app.close();
  });
});
