import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { raw, registerBusiness, uniqueEmail } from '../support/business.js';
import { useTestServer } from '../support/setup.js';
import { useSmtpSink } from '../support/smtp.js';
import { waitFor } from '../support/wait.js';

// The mail and job-failure counters of GET /metrics, driven by a real SMTP server that refuses for
// a while, then for good, then accepts: each attempt is counted once, by its outcome.

const { env, sink } = useSmtpSink();
const server = useTestServer({ env });

/** The value of one sample of the exposition (0 when absent). */
async function metric(name: string, labels: Record<string, string>): Promise<number> {
  const res = await raw(server(), 'GET', '/metrics');
  expect(res.status).toBe(200);
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(',');
  const line = (res.body as string).split('\n').find((l) => l.startsWith(`${name}{${wanted}} `));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

const failures = () => metric('bms_job_failures_total', { queue: 'mail.send' });
const mail = (outcome: string) => metric('bms_mail_messages_total', { outcome });

describe('mail and job failures in GET /metrics', () => {
  it('counts a refused attempt as failed (4xx) or bounced (5xx) and as a failed job, and a delivery as sent', async () => {
    const owner = await registerBusiness(server());
    const invite = (email: string) =>
      unwrap(owner.client.team.inviteMember({ body: { email, role: 'accountant' } }));
    const before = {
      failures: await failures(),
      failed: await mail('failed'),
      bounced: await mail('bounced'),
    };

    // Refused for now: the job fails (and will be retried), counted once per attempt.
    sink().answer = () => ({ code: 451, message: '4.3.0 Try again later' });
    await invite(uniqueEmail('later'));
    await waitFor('a failed attempt', async () => (await mail('failed')) > before.failed, 20_000);
    expect(await failures()).toBeGreaterThan(before.failures);

    // Refused for good: counted as bounced.
    sink().answer = () => ({ code: 550, message: '5.1.1 No such user' });
    await invite(uniqueEmail('never'));
    await waitFor('a bounced attempt', async () => (await mail('bounced')) > before.bounced, 20_000);

    // Accepted: counted as sent, and the message is there.
    sink().answer = () => null;
    const sentBefore = await mail('sent');
    const welcome = uniqueEmail('welcome');
    await invite(welcome);
    await waitFor('the invitation', () => sink().to(welcome).length === 1, 20_000);
    await waitFor('the sent count', async () => (await mail('sent')) > sentBefore, 5_000);
  }, 60_000);
});
