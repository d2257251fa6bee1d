import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient, unwrap, type Client } from '../../client/index.js';
import { openDatabase } from '../../server/platform/db/database.js';
import {
  claimRecipients,
  releaseStaleClaims,
  renewClaims,
  settleRecipients,
  type Settlement,
} from '../../server/marketing/sending/queries.js';
import { findCampaign } from '../../server/marketing/campaigns/queries.js';
import { CLAIM_BATCH, ClaimQueue, runSending } from '../../server/marketing/sending/service.js';
import { jobCtx } from '../../server/platform/context.js';
import { registerBusiness, uniqueEmail } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import {
  campaignReaches,
  campaignRecipients,
  createCampaign,
  createSegment,
  createTemplate,
  getCampaign,
  MARKETING_ENV,
} from '../support/marketing.js';
import { useServiceDatabase, useTestServer } from '../support/setup.js';
import { serviceReady, startServiceProcess } from '../support/service-process.js';
import { useSmtpSink } from '../support/smtp.js';
import { waitFor } from '../support/wait.js';

// Exactly-once sending where it is hard: two workers on one campaign, and a worker process killed
// mid-campaign. On PostgreSQL the workers really race; on PGlite the engine serialises them, and
// the same properties must still hold.

const { env, sink } = useSmtpSink({ ...MARKETING_ENV, MAIL_RATE_PER_SECOND: '0' });
const server = useTestServer({ env, worker: false });
const databaseEnv = useServiceDatabase('campaign-crash');

afterEach(() => {
  sink().reset();
  server().clock.reset();
});

/** `n` contacts through the API, a few at a time. */
async function contacts(client: Client, n: number, tag: string): Promise<string[]> {
  const emails = Array.from({ length: n }, (_, i) => `${tag}-${i}-${uniqueEmail('c')}`);
  for (let i = 0; i < n; i += 10) {
    await Promise.all(
      emails
        .slice(i, i + 10)
        .map((email, k) =>
          unwrap(client.general.customers.createCustomer({ body: { name: `Contact${i + k} Smith`, email } })),
        ),
    );
  }
  return emails;
}

async function campaignTo(client: Client) {
  const template = await createTemplate(client);
  const segment = await createSegment(client);
  return createCampaign(client, { template_id: template.id, segment_id: segment.id });
}

describe(`two workers on one campaign (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('never send one recipient twice, and together send everyone', async () => {
    const biz = await registerBusiness(server());
    const emails = await contacts(biz.client, 150, 'pair');
    const campaign = await campaignTo(biz.client);
    await unwrap(biz.client.marketing.campaigns.sendCampaign({ params: { id: campaign.id } }));
    sink().delayMs = 5;
    // Two workers, each polling as the periodic task does, until the campaign is sent.
    const worker = async () => {
      const deadline = Date.now() + 60_000;
      let attempted = 0;
      while (Date.now() < deadline) {
        const n = await runSending(server().deps);
        attempted += n;
        if (n > 0) continue;
        if ((await getCampaign(biz.client, campaign.id)).status === 'sent') return attempted;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      throw new Error('the campaign did not finish');
    };
    const [a, b] = await Promise.all([worker(), worker()]);
    expect(a + b).toBe(150);
    for (const email of emails) expect(sink().to(email), email).toHaveLength(1);
    const recipients = await campaignRecipients(biz.client, campaign.id);
    expect(recipients).toHaveLength(150);
    expect(recipients.every((r) => r.status === 'sent')).toBe(true);
  });
});

/** The campaign's recipients that are claimed (`sending`), with their lease's start. */
const claimsOf = (campaignId: string) =>
  server()
    .deps.db.selectFrom('marketing_recipients')
    .select(['email', 'claimed_at'])
    .where('campaign_id', '=', campaignId)
    .where('status', '=', 'sending')
    .execute();

describe('claim leases (on the service clock)', () => {
  it('keeps the claims of a live, slow sender past the lease: renewed while held, never swept', async () => {
    const lease = server().deps.config.MAIL_CLAIM_LEASE_MS;
    const biz = await registerBusiness(server());
    const emails = await contacts(biz.client, 4, 'renew');
    const campaign = await campaignTo(biz.client);
    await unwrap(biz.client.marketing.campaigns.sendCampaign({ params: { id: campaign.id } }));
    // The SMTP server takes its time: the sender holds its claims meanwhile.
    sink().delayMs = 6000;
    const sender = runSending(server().deps);
    const claimed = await waitFor('the claims', async () => {
      const rows = await claimsOf(campaign.id);
      return rows.length === 4 && rows;
    });
    const claimedAt = Math.max(...claimed.map((r) => r.claimed_at!.getTime()));

    // Past the lease on the clock: the sender renews what it holds (within a second of real time).
    server().clock.advance(lease + 1000);
    await waitFor('the renewal', async () => {
      const rows = await claimsOf(campaign.id);
      return rows.length === 4 && rows.every((r) => r.claimed_at!.getTime() > claimedAt + lease);
    });
    // Another worker's pass sweeps: nothing of the live sender's is taken from it.
    expect(await runSending(server().deps)).toBe(0);
    expect(await claimsOf(campaign.id)).toHaveLength(4);

    expect(await sender).toBe(4);
    expect((await getCampaign(biz.client, campaign.id)).status).toBe('sent');
    for (const email of emails) expect(sink().to(email), email).toHaveLength(1);
  });

  it('renews what a sender holds without waiting for a recipient whose outcome is being recorded', async () => {
    const { db } = server().deps;
    const biz = await registerBusiness(server());
    await contacts(biz.client, 3, 'renew');
    const campaign = await campaignTo(biz.client);
    await unwrap(biz.client.marketing.campaigns.sendCampaign({ params: { id: campaign.id } }));
    const claimed = await claimRecipients(
      db,
      biz.businessId,
      campaign.id,
      'sender',
      server().clock.now(),
      10,
    );
    const ids = claimed.map((r) => r.customer_id).sort();
    expect(ids).toHaveLength(3);
    const leases = async () =>
      Object.fromEntries(
        (
          await db
            .selectFrom('marketing_recipients')
            .select(['customer_id', 'claimed_at'])
            .where('campaign_id', '=', campaign.id)
            .execute()
        ).map((r) => [r.customer_id, r.claimed_at?.getTime()]),
      );
    const claimedAt = await leases();
    const renewedAt = new Date(server().clock.now().getTime() + 5000);

    if (onPostgres) {
      // The first recipient's outcome is being recorded: another transaction holds its row. A renewal
      // that waited for it (and it for the renewal's other rows) was a deadlock that lost the record.
      const recording = await db.startTransaction().execute();
      try {
        await recording
          .updateTable('marketing_recipients')
          .set({ error: null })
          .where('campaign_id', '=', campaign.id)
          .where('customer_id', '=', ids[0]!)
          .execute();
        const renewed = await renewClaims(db, biz.businessId, campaign.id, 'sender', ids, renewedAt);
        expect(renewed.sort()).toEqual([ids[1], ids[2]]);
      } finally {
        await recording.rollback().execute();
      }
      expect(await leases()).toEqual({
        [ids[0]!]: claimedAt[ids[0]!],
        [ids[1]!]: renewedAt.getTime(),
        [ids[2]!]: renewedAt.getTime(),
      });
    }

    // Settled recipients are no longer claims: a renewal leaves them as they are.
    await db
      .updateTable('marketing_recipients')
      .set({ status: 'sent', claimed_at: null })
      .where('campaign_id', '=', campaign.id)
      .where('customer_id', '=', ids[2]!)
      .execute();
    const later = new Date(renewedAt.getTime() + 5000);
    expect((await renewClaims(db, biz.businessId, campaign.id, 'sender', ids, later)).sort()).toEqual([
      ids[0],
      ids[1],
    ]);
    expect(await leases()).toEqual({
      [ids[0]!]: later.getTime(),
      [ids[1]!]: later.getTime(),
      [ids[2]!]: undefined,
    });
  });

  it('releases the claims of a worker that stopped renewing them within 15 s, and sends them', async () => {
    const biz = await registerBusiness(server());
    const emails = await contacts(biz.client, 3, 'stale');
    const campaign = await campaignTo(biz.client);
    await unwrap(biz.client.marketing.campaigns.sendCampaign({ params: { id: campaign.id } }));
    // A worker claims them and dies: nobody renews the claims.
    const dead = await claimRecipients(
      server().deps.db,
      biz.businessId,
      campaign.id,
      'dead worker',
      server().clock.now(),
      10,
    );
    expect(dead).toHaveLength(3);

    // Still within the lease: a pass leaves them claimed and sends nothing.
    server().clock.advance(5000);
    expect(await runSending(server().deps)).toBe(0);
    expect(await claimsOf(campaign.id)).toHaveLength(3);

    // 15 s after the claim, the lease has run out: released and sent by the same pass.
    server().clock.advance(10_000);
    expect(await runSending(server().deps)).toBe(3);
    expect(await claimsOf(campaign.id)).toEqual([]);
    expect((await getCampaign(biz.client, campaign.id)).status).toBe('sent');
    for (const email of emails) expect(sink().to(email), email).toHaveLength(1);
  });
});

describe('a sender held up past its lease', () => {
  afterEach(() => vi.restoreAllMocks());

  it('neither renews, records nor sends what another worker took over meanwhile', async () => {
    const { deps } = server();
    const { db } = deps;
    const lease = deps.config.MAIL_CLAIM_LEASE_MS;
    const biz = await registerBusiness(server());
    await contacts(biz.client, 3, 'stalled');
    const created = await campaignTo(biz.client);
    await unwrap(biz.client.marketing.campaigns.sendCampaign({ params: { id: created.id } }));
    const campaign = (await findCampaign(db, biz.businessId, created.id))!;

    // A sender claims the three and hands the first to a lane; then its process stalls.
    const stalled = new ClaimQueue(deps, jobCtx(deps, biz.businessId, 'test'), campaign, 0);
    const first = await stalled.next();
    expect(first).toBeDefined();
    expect(await claimsOf(campaign.id)).toHaveLength(3);

    // Past the lease, another worker takes the claims back and claims them for itself.
    server().clock.advance(lease + 1000);
    const takenAt = deps.clock.now();
    await releaseStaleClaims(db, new Date(takenAt.getTime() - lease), takenAt);
    const other = await claimRecipients(db, biz.businessId, campaign.id, 'other worker', takenAt, 10);
    expect(other).toHaveLength(3);

    // The stalled sender wakes a lease later. Its renewal takes nothing of the other worker's, its
    // late outcome changes nothing, it hands no lane another recipient, and what it lets go stays
    // the other worker's claim.
    vi.spyOn(performance, 'now').mockReturnValue(performance.now() + lease);
    const ids = other.map((r) => r.customer_id);
    const later = new Date(takenAt.getTime() + 1000);
    expect(await renewClaims(db, biz.businessId, campaign.id, stalled.token, ids, later)).toEqual([]);
    const outcome = (customerId: string, status: 'sent' | 'failed'): Settlement => ({
      customerId,
      email: other.find((r) => r.customer_id === customerId)!.email,
      status,
      error: status === 'failed' ? 'late' : null,
      nextAttemptAt: null,
      at: later,
    });
    await settleRecipients(db, biz.businessId, campaign.id, stalled.token, [
      outcome(first!.customer_id, 'failed'),
    ]);
    expect(await stalled.next()).toBeUndefined();
    expect(stalled.lapsed).toHaveLength(2);
    await stalled.release();
    const claims = await claimsOf(campaign.id);
    expect(claims).toHaveLength(3);
    for (const claim of claims) expect(claim.claimed_at!.getTime()).toBe(takenAt.getTime());

    // The other worker's renewal and outcomes are its own to write.
    expect((await renewClaims(db, biz.businessId, campaign.id, 'other worker', ids, later)).sort()).toEqual(
      [...ids].sort(),
    );
    await settleRecipients(
      db,
      biz.businessId,
      campaign.id,
      'other worker',
      ids.map((id) => outcome(id, 'sent')),
    );
    const recipients = await campaignRecipients(biz.client, campaign.id);
    expect(recipients.map((r) => r.status)).toEqual(['sent', 'sent', 'sent']);
  });

  it('lets a lapsed claim go unsent, and queues it again at once while it is still its own', async () => {
    const { deps } = server();
    const lease = deps.config.MAIL_CLAIM_LEASE_MS;
    const biz = await registerBusiness(server());
    const emails = await contacts(biz.client, 2, 'lapsed');
    const created = await campaignTo(biz.client);
    await unwrap(biz.client.marketing.campaigns.sendCampaign({ params: { id: created.id } }));
    const campaign = (await findCampaign(deps.db, biz.businessId, created.id))!;

    const stalled = new ClaimQueue(deps, jobCtx(deps, biz.businessId, 'test'), campaign, 0);
    expect(await stalled.next()).toBeDefined();
    // Two thirds of a lease with no confirmation: the other claim is not handed to a lane.
    const now = performance.now();
    vi.spyOn(performance, 'now').mockReturnValue(now + (2 * lease) / 3);
    expect(await stalled.next()).toBeUndefined();
    expect(stalled.lapsed).toHaveLength(1);
    await stalled.release();
    vi.restoreAllMocks();

    // Nobody took it: it is queued again without waiting for the lease, and the next pass sends it.
    const queued = (await campaignRecipients(biz.client, campaign.id)).filter((r) => r.status === 'queued');
    expect(queued).toHaveLength(1);
    expect(emails).toContain(queued[0]!.email);
    expect(await runSending(deps)).toBe(1);
    expect(sink().to(queued[0]!.email)).toHaveLength(1);
  });
});

/** The claims' lease the service below runs with (the default of `MAIL_CLAIM_LEASE_MS`). */
const LEASE_MS = 10_000;

describe(`a service process killed mid-campaign (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  const PORT = 4400 + Math.floor(Math.random() * 200);
  const BASE = `http://127.0.0.1:${PORT}`;

  const startService = () =>
    startServiceProcess({
      ...databaseEnv(),
      ...MARKETING_ENV,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      RATE_LIMITS: 'free:100,standard:1000000,enterprise:1000000',
      SMTP_URL: sink().url,
      MARKETING_POLL_MS: '50',
      MAIL_RATE_PER_SECOND: '150',
      MAIL_CLAIM_LEASE_MS: String(LEASE_MS),
    });

  it('sends every recipient once, except at most the ones in flight at the kill, counted', async () => {
    sink().reset();
    let service = startService();
    try {
      await serviceReady(BASE, service);
      const anonymous = createClient({ baseUrl: BASE, maxRetries: 0 });
      const owner = uniqueEmail();
      const { data } = await unwrap(
        anonymous.auth.register({
          body: { businessName: 'Crash Shop', email: owner, password: 'correct horse battery staple' },
        }),
      );
      const client = createClient({ baseUrl: BASE, accessToken: data.accessToken, maxRetries: 0 });
      const emails = await contacts(client, 300, 'crash');
      const campaign = await campaignTo(client);
      await unwrap(client.marketing.campaigns.sendCampaign({ params: { id: campaign.id } }));

      // At 150 messages a second, a third of the way through (mid-claim: claims take 20):
      await waitFor('a third sent', () => sink().messages.length >= 110, 30_000);
      const beforeKill = Date.now();
      service.child.kill('SIGKILL');
      await service.exited;
      const deliveredAtKill = sink().messages.length;

      // What the dead worker held: recipients claimed and not settled. Only these may be sent twice.
      const database = await openDatabase({
        databaseUrl: databaseEnv().DATABASE_URL,
        dataDir: databaseEnv().DATA_DIR ?? 'memory://',
        poolSize: 1,
        statementTimeoutMs: 10_000,
      });
      let held: { email: string; claimed_at: Date | null }[];
      try {
        held = await database.db
          .selectFrom('marketing_recipients')
          .select(['email', 'claimed_at'])
          .where('campaign_id', '=', campaign.id)
          .where('status', '=', 'sending')
          .execute();
      } finally {
        await database.close();
      }
      const inFlight = held.map((r) => r.email);
      expect(inFlight.length).toBeLessThanOrEqual(CLAIM_BATCH);
      // The dead worker renewed its claims while it lived: each is younger than one lease at the
      // kill, so a new worker has them back within a lease, not at some later sweep.
      for (const { claimed_at } of held) {
        expect(claimed_at!.getTime()).toBeGreaterThan(beforeKill - LEASE_MS);
      }
      expect(deliveredAtKill).toBeLessThan(300);

      // The new worker takes the stale claims back and finishes the campaign.
      service = startService();
      await serviceReady(BASE, service);
      await campaignReaches(client, campaign.id, 'sent', 90_000);

      const duplicated = emails.filter((email) => sink().to(email).length > 1);
      for (const email of emails) expect(sink().to(email).length, email).toBeGreaterThanOrEqual(1);
      for (const email of duplicated) expect(inFlight, email).toContain(email);
      expect(duplicated.length).toBeLessThanOrEqual(inFlight.length);
      // Each lane waits for its outcome to be recorded before the next message: at most one accepted
      // and unrecorded message per lane (2 per pooled connection, 5 connections by default).
      expect(duplicated.length).toBeLessThanOrEqual(10);
      expect(sink().messages.filter((m) => emails.includes(m.to))).toHaveLength(300 + duplicated.length);
      const recipients = await campaignRecipients(client, campaign.id);
      expect(recipients.filter((r) => r.status === 'sent')).toHaveLength(300);
    } finally {
      service.child.kill('SIGKILL');
      await service.exited;
    }
  }, 180_000);
});
