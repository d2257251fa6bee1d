import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, unwrap, type Client } from '../../client/index.js';
import { sendingLanes } from '../../server/marketing/sending/service.js';
import { uniqueEmail } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import {
  campaignReaches,
  campaignRecipients,
  createCampaign,
  createSegment,
  createTemplate,
  MARKETING_ENV,
} from '../support/marketing.js';
import { useReceivers } from '../support/receiver.js';
import { useServiceDatabase } from '../support/setup.js';
import { SmtpSink } from '../support/smtp.js';
import { waitFor } from '../support/wait.js';

// Several processes on one database behave as one (docs/decisions.md D62): two API processes
// (`npm start -- --api-only`) and two workers (`npm run worker`), driven round-robin.

const ROOT = new URL('../../', import.meta.url).pathname;
const databaseEnv = useServiceDatabase('multi-process');

/** A service process as `node dist/server/main.js <flag>` runs it; its stdout and stderr kept. */
interface Service {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startProcess(flag: string, env: Record<string, string>): Service {
  const child = spawn(process.execPath, ['dist/server/main.js', flag], {
    cwd: ROOT,
    env: { ...process.env, ...databaseEnv(), HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  return { child, output: () => output, exited: new Promise((resolve) => child.once('exit', resolve)) };
}

async function kill(service: Service): Promise<void> {
  if (service.child.exitCode === null && service.child.signalCode === null) service.child.kill('SIGKILL');
  await service.exited;
}

describe('the process flags', () => {
  it('refuses --api-only together with --worker-only, naming both', async () => {
    const both = spawn(process.execPath, ['dist/server/main.js', '--api-only', '--worker-only'], {
      cwd: ROOT,
      env: { ...process.env, ...databaseEnv(), PORT: '0', HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    both.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const code = await new Promise((resolve) => both.once('exit', resolve));
    expect(code).toBe(1);
    expect(stderr).toContain('--api-only and --worker-only exclude each other');
  });

  if (!onPostgres) {
    it('refuses --api-only on the embedded database, which one process holds, and says what to do', async () => {
      const service = startProcess('--api-only', { PORT: '0' });
      expect(await service.exited).toBe(1);
      expect(service.output()).toContain('--api-only needs DATABASE_URL');
      expect(service.output()).toContain('leave --api-only out');
    });
  }
});

if (onPostgres) {
  describe('two API processes and two workers on one PostgreSQL', () => {
    /** Requests per minute of the `free` plan, which the rate-limit test's business is moved to. */
    const LIMIT = 30;
    /** Campaign messages per second per business (MAIL_RATE_PER_SECOND). */
    const RATE = 200;
    const PORT = 4600 + Math.floor(Math.random() * 300);
    const apiUrls = [`http://127.0.0.1:${PORT}`, `http://127.0.0.1:${PORT + 1}`];
    const sinks = [new SmtpSink(), new SmtpSink()];
    const receivers = useReceivers<{ type: string; data: { id: string } }>();
    const apis: Service[] = [];
    const workers: Service[] = [];
    let database: pg.Pool;
    const idleErrors: Error[] = [];

    const env = () => ({
      ...MARKETING_ENV,
      RATE_LIMIT_STORE: 'postgres',
      RATE_LIMITS: `free:${LIMIT},standard:1000000,enterprise:1000000`,
      // Every request resolves its credential afresh: a plan changed in the database counts at once.
      CREDENTIAL_CACHE_MS: '0',
      WEBHOOK_ALLOW_PRIVATE: 'true',
      MARKETING_POLL_MS: '50',
      MAIL_RATE_PER_SECOND: String(RATE),
      MAIL_CLAIM_LEASE_MS: '3000',
      SMTP_URL: sinks[0]!.url,
    });

    async function healthy(url: string, service: Service): Promise<void> {
      await waitFor(
        `${url} ready`,
        async () => {
          if (service.child.exitCode !== null) throw new Error(`exited: ${service.output()}`);
          try {
            return (await fetch(`${url}/readyz`)).ok;
          } catch {
            return false;
          }
        },
        90_000,
      );
    }

    beforeAll(async () => {
      await Promise.all(sinks.map((s) => s.start()));
      database = new pg.Pool({ connectionString: databaseEnv().DATABASE_URL, max: 2 });
      // An idle connection the server ends (57P01, as when the scratch database is dropped with its
      // connections) is reported by the pool as an event, which unheard would fail the whole run.
      database.on('error', (err) => idleErrors.push(err));
      // The first process migrates; the others start on the migrated database together.
      apis.push(startProcess('--api-only', { ...env(), PORT: String(PORT) }));
      await healthy(apiUrls[0]!, apis[0]!);
      apis.push(startProcess('--api-only', { ...env(), PORT: String(PORT + 1) }));
      for (const sink of sinks) workers.push(startProcess('--worker-only', { ...env(), SMTP_URL: sink.url }));
      await healthy(apiUrls[1]!, apis[1]!);
      for (const worker of workers) {
        await waitFor('a worker started', () => worker.output().includes('worker started'), 60_000);
      }
    }, 180_000);

    afterAll(async () => {
      try {
        await Promise.all([...apis, ...workers].map(kill));
      } finally {
        await database?.end();
        await Promise.all(sinks.map((s) => s.close()));
      }
      expect(idleErrors.filter((err) => (err as { code?: string }).code !== '57P01')).toEqual([]);
    });

    /** Clients of one business on each API process, registered through the first. */
    async function business(name: string): Promise<{ clients: Client[]; token: string; businessId: string }> {
      const anonymous = createClient({ baseUrl: apiUrls[0]!, maxRetries: 0 });
      const { data } = await unwrap(
        anonymous.auth.register({
          body: { businessName: name, email: uniqueEmail('owner'), password: 'correct horse battery staple' },
        }),
      );
      const clients = apiUrls.map((baseUrl) =>
        createClient({ baseUrl, accessToken: data.accessToken, maxRetries: 0 }),
      );
      return { clients, token: data.accessToken, businessId: data.businessId };
    }

    /** `n` contacts through a CSV import on the second process; their addresses. */
    async function contacts(token: string, n: number, tag: string): Promise<string[]> {
      const emails = Array.from({ length: n }, (_, i) => `${tag}-${i}-${uniqueEmail('c')}`);
      const csv = ['name,email', ...emails.map((email, i) => `Contact${i} Smith,${email}`)].join('\n');
      const res = await fetch(`${apiUrls[1]}/v1/imports/customers`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'text/csv' },
        body: csv,
      });
      expect(res.status, await res.clone().text()).toBe(200);
      return emails;
    }

    async function campaignToEveryone(client: Client) {
      const template = await createTemplate(client);
      const segment = await createSegment(client);
      return createCampaign(client, { template_id: template.id, segment_id: segment.id });
    }

    const delivered = (emails: readonly string[]) => {
      const wanted = new Set(emails);
      return sinks.map((sink) => sink.messages.filter((m) => wanted.has(m.to)));
    };

    it('holds a business to its rate limit across both API processes: of 2L requests, L pass', async () => {
      const { token, businessId } = await business('Limited Shop');
      await database.query(`UPDATE businesses SET plan = 'free' WHERE id = $1`, [businessId]);
      const statuses: number[] = [];
      for (let i = 0; i < 2 * LIMIT; i++) {
        const res = await fetch(`${apiUrls[i % 2]}/v1/customers`, {
          headers: { authorization: `Bearer ${token}` },
        });
        statuses.push(res.status);
        await res.arrayBuffer();
      }
      expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
      expect(statuses.filter((s) => s === 429)).toHaveLength(LIMIT);
      // Each process's own counters would have let 2L through.
      expect(statuses.slice(LIMIT).every((s) => s === 429)).toBe(true);
    });

    it('answers a keyed request once when it is sent to both processes and retried on the other', async () => {
      const { clients, token } = await business('Keyed Shop');
      const email = uniqueEmail('keyed');
      const send = (url: string) =>
        fetch(`${url}/v1/customers`, {
          method: 'POST',
          headers: {
            authorization: `Bearer ${token}`,
            'content-type': 'application/json',
            'idempotency-key': `create-${email}`,
          },
          body: JSON.stringify({ name: 'Keyed Customer', email }),
        });
      const together = await Promise.all(apiUrls.map(send));
      const bodies = await Promise.all(together.map((r) => r.json() as Promise<Record<string, any>>));
      const created = together.flatMap((r, i) => (r.status === 201 ? [bodies[i]!] : []));
      expect(created.length, JSON.stringify(bodies)).toBeGreaterThanOrEqual(1);
      for (const [i, res] of together.entries()) {
        if (res.status !== 201) {
          expect(res.status).toBe(409);
          expect(bodies[i]!.error.code).toBe('IDEMPOTENCY_IN_PROGRESS');
        }
      }
      const retried = await send(apiUrls[1]!);
      expect(retried.status).toBe(201);
      expect(retried.headers.get('idempotent-replayed')).toBe('true');
      const replayed = (await retried.json()) as Record<string, any>;
      expect(replayed.data.id).toBe(created[0]!.data.id);
      for (const c of created) expect(c.data.id).toBe(created[0]!.data.id);
      const listed = await unwrap(clients[0]!.general.customers.listCustomers({ query: { search: email } }));
      expect(listed.data.map((c) => c.id)).toEqual([created[0]!.data.id]);
    });

    it('delivers each webhook event once per attempt with two workers', async () => {
      const { clients, businessId } = await business('Hooked Shop');
      const receiver = await receivers();
      await unwrap(
        clients[0]!.webhooks.createWebhook({ body: { url: receiver.url, events: ['customer.created'] } }),
      );
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) {
        const { data } = await unwrap(
          clients[i % 2]!.general.customers.createCustomer({
            body: { name: `Hooked${i} Smith`, email: uniqueEmail(`hooked${i}`) },
          }),
        );
        ids.push(data.id);
      }
      const attempts = async () =>
        Number(
          (
            await database.query<{ n: string }>(
              `SELECT count(*) AS n FROM webhook_attempts WHERE business_id = $1`,
              [businessId],
            )
          ).rows[0]!.n,
        );
      await waitFor(
        'every delivery',
        async () => receiver.hits.length >= 40 && (await attempts()) >= 40,
        60_000,
      );
      // A second run of any delivery job would show as a second request or attempt row.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(receiver.hits).toHaveLength(40);
      expect(new Set(receiver.hits.map((h) => h.headers['webhook-id'])).size).toBe(40);
      expect(receiver.hits.map((h) => h.body.data.id).sort()).toEqual([...ids].sort());
      expect(await attempts()).toBe(40);
    });

    it('shares a campaign between both workers: everyone mailed once, paced for the business across them', async () => {
      const { clients, token } = await business('Paced Shop');
      const n = 1200;
      const emails = await contacts(token, n, 'paced');
      const campaign = await campaignToEveryone(clients[0]!);
      await unwrap(clients[1]!.marketing.campaigns.sendCampaign({ params: { id: campaign.id } }));
      await campaignReaches(clients[0]!, campaign.id, 'sent', 90_000);

      const [a, b] = delivered(emails);
      // Both workers sent part of it, and nobody got it twice.
      expect(a!.length).toBeGreaterThan(0);
      expect(b!.length).toBeGreaterThan(0);
      const all = [...a!, ...b!];
      expect(all).toHaveLength(n);
      expect(new Set(all.map((m) => m.to)).size).toBe(n);
      // At RATE a second for the business, n messages take (n - 1) / RATE seconds; one worker's own
      // pacing alone would let the two of them send it in half that.
      const times = all.map((m) => m.at);
      const seconds = (Math.max(...times) - Math.min(...times)) / 1000;
      expect(seconds).toBeGreaterThan((0.85 * n) / RATE);
      const recipients = await campaignRecipients(clients[0]!, campaign.id);
      expect(recipients.filter((r) => r.status === 'sent')).toHaveLength(n);
    }, 150_000);

    it('loses nothing when one worker is killed mid-campaign: the other sends what it held', async () => {
      const { clients, token } = await business('Crash Shop');
      const n = 600;
      const emails = await contacts(token, n, 'crash');
      const campaign = await campaignToEveryone(clients[0]!);
      await unwrap(clients[0]!.marketing.campaigns.sendCampaign({ params: { id: campaign.id } }));
      // Both workers are sending it; then the second dies without a word.
      await waitFor('both workers sending', () => delivered(emails).every((m) => m.length >= 20), 30_000);
      await kill(workers[1]!);
      const deliveredAtKill = delivered(emails).flat().length;
      expect(deliveredAtKill).toBeLessThan(n);
      const inFlight = (
        await database.query<{ email: string }>(
          `SELECT email FROM marketing_recipients WHERE campaign_id = $1 AND status = 'sending'`,
          [campaign.id],
        )
      ).rows.map((r) => r.email);

      // Its claims' lease runs out (3 s here) and the surviving worker sends them.
      await campaignReaches(clients[0]!, campaign.id, 'sent', 90_000);
      const all = delivered(emails).flat();
      const counts = new Map<string, number>();
      for (const m of all) counts.set(m.to, (counts.get(m.to) ?? 0) + 1);
      for (const email of emails) expect(counts.get(email) ?? 0, email).toBeGreaterThanOrEqual(1);
      const twice = emails.filter((email) => counts.get(email)! > 1);
      // Only a message the dead worker had handed over and not yet recorded may go twice: at most
      // one per lane of its default pool of SMTP connections.
      for (const email of twice) expect(inFlight, email).toContain(email);
      expect(twice.length).toBeLessThanOrEqual(sendingLanes({ MAIL_POOL_SIZE: 5 }));
      const recipients = await campaignRecipients(clients[0]!, campaign.id);
      expect(recipients.filter((r) => r.status === 'sent')).toHaveLength(n);
    }, 150_000);
  });
}
