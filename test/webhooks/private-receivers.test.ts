import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { registerBusiness } from '../support/business.js';
import { expectError } from '../support/expect.js';
import type { TestServer } from '../support/server.js';
import { useTestServer } from '../support/setup.js';

/**
 * A receiver on the developer's own machine or network is refused unless the service allows private
 * receivers; outside production the refusal says which setting does, in production only the rule.
 */

const HINT =
  'For a receiver on this machine or a private network during development, start the service with ' +
  'WEBHOOK_ALLOW_PRIVATE=true.';

async function refusal(server: TestServer, url: string): Promise<string> {
  const owner = await registerBusiness(server, 'Receivers Ltd');
  const res = await owner.client.webhooks.createWebhook({ body: { url, events: ['invoice.paid'] } });
  const error = expectError(res, 422, 'VALIDATION_ERROR', 'url');
  const detail = error.details?.find((d) => d.field === 'url');
  expect(detail?.message).toBeDefined();
  return detail!.message;
}

describe('outside production', () => {
  const server = useTestServer({ env: { NODE_ENV: 'development' }, worker: false });

  it('refuses a plain HTTP receiver on loopback, naming WEBHOOK_ALLOW_PRIVATE (422 on url)', async () => {
    expect(await refusal(server(), 'http://127.0.0.1:4000/hooks')).toBe(
      `Webhook URLs must use HTTPS. ${HINT}`,
    );
  });

  it.each(['https://127.0.0.1:4000/hooks', 'https://192.168.1.20/hooks', 'https://localhost/hooks'])(
    'refuses %s, a private host, naming WEBHOOK_ALLOW_PRIVATE (422 on url)',
    async (url) => {
      expect(await refusal(server(), url)).toBe(`The URL points at a private or reserved address. ${HINT}`);
    },
  );

  it('says nothing of the setting where it would not help (another scheme)', async () => {
    expect(await refusal(server(), 'ftp://example.com/hooks')).toBe('Webhook URLs must use HTTPS');
  });
});

describe('in production', () => {
  const server = useTestServer({
    env: { NODE_ENV: 'production', ENCRYPTION_KEY: randomBytes(32).toString('hex') },
    worker: false,
  });

  it('refuses a plain HTTP receiver with the rule only (422 on url)', async () => {
    expect(await refusal(server(), 'http://127.0.0.1:4000/hooks')).toBe('Webhook URLs must use HTTPS');
  });

  it('refuses a private host with the rule only (422 on url)', async () => {
    expect(await refusal(server(), 'https://10.0.0.5/hooks')).toBe(
      'The URL points at a private or reserved address',
    );
  });
});
