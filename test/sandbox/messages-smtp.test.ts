import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { registerBusiness, sandboxOf } from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import { useTestServer } from '../support/setup.js';
import { useSmtpSink } from '../support/smtp.js';

// With SMTP_URL set, live mail is sent: there is no captured live mail to list.
const { env } = useSmtpSink({});
const server = useTestServer({ env, worker: false });

describe('GET /v1/sandbox/messages with SMTP_URL set', () => {
  it('refuses a live credential (403 FORBIDDEN saying live mail is sent, not captured)', async () => {
    const biz = await registerBusiness(server());
    const error = expectResultError(
      await biz.client.sandbox.messages.listMessages({ query: {} }),
      403,
      'FORBIDDEN',
    );
    expect(error.message).toMatch(/Live mail is sent through SMTP, not captured/);
  });

  it('tells a live credential its mail is sent (session: mail smtp), a sandbox one that it is captured', async () => {
    const biz = await registerBusiness(server());
    expect((await unwrap(biz.client.auth.getSession())).data.mail).toBe('smtp');
    const sandbox = await sandboxOf(server(), biz);
    expect((await unwrap(sandbox.client.auth.getSession())).data.mail).toBe('captured');
  });
});
