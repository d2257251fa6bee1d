import { randomUUID } from 'node:crypto';
import { sweep } from '../../platform/sweep.js';
import { publicBaseUrl } from '../../config.js';
import { businessClock } from '../../platform/clock.js';
import { inTransaction, jobCtx, type Ctx, type CtxSource, type TxCtx } from '../../platform/context.js';
import { isConcurrencyFailure } from '../../platform/db/errors.js';
import type { Deps } from '../../platform/deps.js';
import { queueMail } from '../../platform/mail.js';
import { businessEmail } from '../../platform/settings.js';
import * as queries from '../campaigns/queries.js';
import * as recipients from './queries.js';
import {
  lockParts,
  missingParts,
  orphanNotice,
  startSending,
  type MissingPart,
} from '../campaigns/service.js';
import { type OutgoingMessage } from './compose.js';
import { pace } from './pacer.js';
import { deliver, type SendOutcome } from './transport.js';
import * as domains from '../domains/queries.js';
import type { MergeFields } from '../templates/render.js';
import { compileTemplate } from '../templates/render.js';
import { findTemplate, type TemplateRow } from '../templates/queries.js';
import { linksOf, trackLinks } from '../tracking/service.js';

/**
 * Recipients one claim takes. Those a dying worker claimed and never attempted go back to the queue
 * when their lease runs out; only the ones whose message was accepted and not yet recorded (one per
 * lane at most) can be sent twice.
 */
export const CLAIM_BATCH = 200;
/**
 * Messages under way per pooled SMTP connection (docs/decisions.md D266): enough that signing, the
 * SMTP exchange and the commit of outcomes overlap, as few as that takes, since each lane may hold
 * one message a crash could send twice, and one a pause lets finish.
 */
const LANES_PER_CONNECTION = 6;

/** How many messages a worker has under way at most: one per lane. */
export const sendingLanes = (config: Pick<Deps['config'], 'MAIL_POOL_SIZE'>): number =>
  LANES_PER_CONNECTION * config.MAIL_POOL_SIZE;
/** Attempts of one recipient: the first and three retries. */
const MAX_ATTEMPTS = 4;
/** How many times one record of outcomes is written before its failure stops the sending. */
const SETTLE_ATTEMPTS = 5;
/** The automatic pause: more than this share failing among the last 100 attempts (of at least 20). */
const PAUSE_SHARE = 0.2;
const PAUSE_MIN_ATTEMPTS = 20;
const PAUSE_CHECK_EVERY = 20;
const JOB = 'marketing sending';

type Campaign = queries.CampaignRow;

// ---------------------------------------------------------------------------------------------
// Messages

const addressOf = (mailbox: string) => /<([^>]+)>/.exec(mailbox)?.[1] ?? mailbox;

/** What every message of a campaign shares: the compiled template, the sender and its DKIM key. */
async function preparedCampaign(ctx: Ctx, campaign: Campaign, template: TemplateRow) {
  const render = await compileTemplate({
    subject: campaign.subject_override ?? template.subject,
    html_body: template.html_body,
    text_body: template.text_body,
  });
  const fromAddress = campaign.from_email_override ?? template.from_email ?? addressOf(ctx.config.MAIL_FROM);
  const fromName = campaign.from_name_override ?? template.from_name;
  const domainName = fromAddress.slice(fromAddress.lastIndexOf('@') + 1).toLowerCase();
  const domain = await domains.findVerifiedDomain(ctx.db, ctx.businessId, domainName);
  const dkim = domain
    ? { domainName, keySelector: domain.dkim_selector, privateKey: ctx.secrets.open(domain.dkim_private_key) }
    : null;
  return { render, from: { name: fromName, address: fromAddress }, domainName, dkim };
}

type Prepared = Awaited<ReturnType<typeof preparedCampaign>>;

function messageFor(ctx: Ctx, campaign: Campaign, prepared: Prepared, recipient: recipients.RecipientRow) {
  const rendered = prepared.render(recipient.fields as MergeFields);
  const links = linksOf(ctx.secrets, publicBaseUrl(ctx.config), {
    businessId: ctx.businessId,
    campaignId: campaign.id,
    customerId: recipient.customer_id,
  });
  const footer =
    `<p style="font-size:12px;color:#666">You receive this email as a contact of the sender. ` +
    `<a href="${links.unsubscribe}">Unsubscribe</a></p>`;
  const pixel = `<img src="${links.open}" width="1" height="1" alt="" style="display:block;border:0">`;
  const tracked = trackLinks(rendered.html, links.click);
  const html = /<\/body>/i.test(tracked)
    ? tracked.replace(/<\/body>/i, `${footer}${pixel}</body>`)
    : `${tracked}${footer}${pixel}`;
  const mailto = ctx.config.MAIL_UNSUBSCRIBE_MAILTO;
  return {
    from: prepared.from,
    to: recipient.email,
    replyTo: campaign.reply_to,
    subject: rendered.subject,
    html,
    text: `${rendered.text}\n\n--\nUnsubscribe: ${links.unsubscribe}\n`,
    messageId: `<${campaign.id}.${recipient.customer_id}@${prepared.domainName}>`,
    headers: {
      'List-Unsubscribe': `<${links.unsubscribe}>${mailto ? `, <mailto:${mailto}?subject=unsubscribe>` : ''}`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
    dkim: prepared.dkim,
  } satisfies OutgoingMessage;
}

// ---------------------------------------------------------------------------------------------
// The worker

/**
 * Group commit of outcomes: what the lanes report while a write is under way goes in the next
 * one, so a campaign costs a statement per handful of messages, and each lane still waits for
 * its own outcome to be committed.
 */
class Settler {
  private pending: { settlement: recipients.Settlement; done: () => void; failed: (err: unknown) => void }[] =
    [];
  private writing = false;

  constructor(
    private readonly deps: Deps,
    private readonly businessId: string,
    private readonly campaignId: string,
    private readonly token: string,
  ) {}

  add(settlement: recipients.Settlement): Promise<void> {
    return new Promise((done, failed) => {
      this.pending.push({ settlement, done, failed });
      if (!this.writing) void this.write();
    });
  }

  private async write(): Promise<void> {
    this.writing = true;
    while (this.pending.length > 0) {
      const batch = this.pending;
      this.pending = [];
      try {
        await this.settle(batch.map((p) => p.settlement));
        for (const p of batch) p.done();
      } catch (err) {
        for (const p of batch) p.failed(err);
      }
    }
    this.writing = false;
  }

  /**
   * One statement, so one that PostgreSQL ended as a deadlock or a serialization failure wrote
   * nothing and is written again: a record lost would have the lease send those messages twice
   * (docs/decisions.md D275).
   */
  private async settle(settlements: recipients.Settlement[]): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        await recipients.settleRecipients(
          this.deps.db,
          this.businessId,
          this.campaignId,
          this.token,
          settlements,
        );
        return;
      } catch (err) {
        if (attempt >= SETTLE_ATTEMPTS || !isConcurrencyFailure(err)) throw err;
      }
    }
  }
}

/** Whether the campaign is still sending, read at most every 100 ms. */
function stillSending(deps: Deps, businessId: string, campaignId: string): () => Promise<boolean> {
  let checked = performance.now();
  let answer: Promise<boolean> = Promise.resolve(true);
  return () => {
    if (performance.now() - checked >= 100) {
      checked = performance.now();
      answer = recipients
        .campaignStatus(deps.db, businessId, campaignId)
        .then((status) => status === 'sending');
    }
    return answer;
  };
}

/**
 * The service pauses a campaign (locked by the caller) and tells its business why and what to do:
 * `reason` becomes the campaign's paused_reason.
 */
async function pauseWithNotice(
  ctx: TxCtx,
  campaign: Campaign,
  reason: string,
  advice: string,
): Promise<void> {
  await queries.updateCampaign(ctx.db, ctx.businessId, campaign.id, {
    status: 'paused',
    paused_reason: reason,
    updated_at: ctx.clock.now(),
  });
  const to = await businessEmail(ctx);
  if (to) {
    await queueMail(ctx, {
      to,
      subject: `Campaign "${campaign.name}" paused`,
      text: `Sending the campaign "${campaign.name}" (${campaign.id}) was paused: ${reason}. ${advice}\n`,
    });
  }
}

/** Pauses a campaign failing too often, and tells its business. */
async function pauseIfFailing(deps: Deps, ctx: Ctx, campaign: Campaign): Promise<boolean> {
  const { attempts, failed } = await recipients.recentFailures(deps.db, ctx.businessId, campaign.id, 100);
  if (attempts < PAUSE_MIN_ATTEMPTS || failed <= attempts * PAUSE_SHARE) return false;
  return inTransaction(ctx, async (ctx) => {
    const current = await queries.findCampaign(ctx.db, ctx.businessId, campaign.id, true);
    if (current?.status !== 'sending') return false;
    await pauseWithNotice(
      ctx,
      campaign,
      `${failed} of the last ${attempts} attempts failed`,
      'Check its recipients for the errors, then resume it.',
    );
    return true;
  });
}

/**
 * Pauses a campaign whose template or segment is gone (locked by the caller, in the state the
 * caller found it in): it has nothing it can send, and it stays cancellable. Resuming it is refused
 * while they are gone, so a worker meets it once.
 */
async function pauseOrphan(ctx: TxCtx, campaign: Campaign, missing: readonly MissingPart[]) {
  const { reason, advice } = orphanNotice(missing);
  await pauseWithNotice(ctx, campaign, reason, advice);
}

/** The one warning an orphaned campaign is worth (not an error: nothing failed, nothing is retried). */
function warnOrphan(deps: Pick<Deps, 'log'>, campaign: Campaign, missing: readonly MissingPart[]): void {
  deps.log.warn(
    { campaignId: campaign.id, businessId: campaign.business_id, missing },
    `campaign paused: ${orphanNotice(missing).reason}`,
  );
}

/**
 * The recipients a worker holds for one campaign: claimed in batches, the next claim made while the
 * lanes still send the last one's, so the SMTP connections never wait for the database.
 *
 * Its claims carry its own token, and it knows how long ago the database last confirmed each one
 * (the claim, or a renewal that returned it), on the process's monotonic clock. A recipient whose
 * confirmation is older than two thirds of the lease is never handed to a lane: a sender stalled
 * past its lease (a busy host, a slow database) may have lost that claim to another worker, which
 * sends it (docs/decisions.md D279).
 */
export class ClaimQueue {
  private readonly queue: recipients.RecipientRow[] = [];
  /**
   * Recipients claimed and neither settled nor released, each with when (performance.now()) the
   * statement that last confirmed the claim began: the claims this sender renews.
   */
  private readonly held = new Map<string, number>();
  private refilling: Promise<void> | null = null;
  private exhausted = false;
  /** The claims' holder, named by every statement that renews, records or releases them. */
  readonly token = randomUUID();
  /** Set when the campaign paused itself (too many failures) or a claim failed. */
  stopped = false;
  error: unknown = null;
  claimed = 0;
  /** Recipients left unsent because their claim was no longer known to be this sender's. */
  readonly lapsed: string[] = [];

  constructor(
    private readonly deps: Deps,
    private readonly ctx: Ctx,
    private readonly campaign: Campaign,
    private readonly lowWater: number,
  ) {}

  /** The next recipient to send, or undefined when there is none (or sending stopped). */
  async next(): Promise<recipients.RecipientRow | undefined> {
    for (;;) {
      if (this.stopped) return undefined;
      if (this.queue.length <= this.lowWater && !this.exhausted && !this.refilling) {
        this.refilling = this.refill().finally(() => (this.refilling = null));
      }
      const recipient = this.queue.shift();
      if (recipient && this.stillHeld(recipient.customer_id)) return recipient;
      if (recipient) continue;
      if (!this.refilling) return undefined;
      await this.refilling;
    }
  }

  /**
   * Whether the claim was confirmed within two thirds of the lease; one that was not is let go
   * unsent, to be claimed again once its lease has run out, by whichever worker comes first.
   */
  private stillHeld(customerId: string): boolean {
    const confirmed = this.held.get(customerId);
    if (
      confirmed !== undefined &&
      performance.now() - confirmed < (2 * this.deps.config.MAIL_CLAIM_LEASE_MS) / 3
    )
      return true;
    this.held.delete(customerId);
    this.lapsed.push(customerId);
    return false;
  }

  /**
   * What was claimed and never attempted (sending stopped, or the claim lapsed): back to the queue,
   * where it is still this sender's claim.
   */
  async release(): Promise<void> {
    await this.refilling;
    const unsent = [...this.queue.splice(0).map((r) => r.customer_id), ...this.lapsed];
    for (const id of unsent) this.held.delete(id);
    if (unsent.length > 0)
      await recipients.releaseClaims(this.deps.db, this.ctx.businessId, this.campaign.id, this.token, unsent);
  }

  /** The recipient's outcome is recorded: its claim is no longer this sender's to renew. */
  settled(customerId: string): void {
    this.held.delete(customerId);
  }

  /**
   * Every claim still held under this sender's token starts its lease again at `now`; one the
   * statement did not return (taken over, or held by another statement a moment) keeps its last
   * confirmation.
   */
  async renew(now: Date): Promise<void> {
    if (this.held.size === 0) return;
    const began = performance.now();
    const renewed = await recipients.renewClaims(
      this.deps.db,
      this.ctx.businessId,
      this.campaign.id,
      this.token,
      [...this.held.keys()],
      now,
    );
    for (const id of renewed) if (this.held.has(id)) this.held.set(id, began);
  }

  private async refill(): Promise<void> {
    const { deps, ctx, campaign } = this;
    try {
      const began = performance.now();
      const claimed = await recipients.claimRecipients(
        deps.db,
        ctx.businessId,
        campaign.id,
        this.token,
        deps.clock.now(),
        CLAIM_BATCH,
        ctx.clock.now(),
      );
      if (claimed.length === 0) {
        this.exhausted = true;
        return;
      }
      this.claimed += claimed.length;
      for (const r of claimed) this.held.set(r.customer_id, began);
      // Who unsubscribed, was suppressed or was deleted since sending started is skipped.
      const skipped = new Set(
        await recipients.skipUnreachable(
          deps.db,
          ctx.businessId,
          campaign.id,
          claimed.map((r) => r.customer_id),
          ctx.clock.now(),
        ),
      );
      for (const id of skipped) this.held.delete(id);
      this.queue.push(...claimed.filter((r) => !skipped.has(r.customer_id)));
    } catch (err) {
      this.error = err;
      this.stopped = true;
    }
  }
}

/**
 * Keeps a live sender's claims from looking abandoned: every third of the lease (on the service's
 * clock, looked at every second at most) the claims it holds start their lease again, so only a dead
 * worker's claims go stale, and the lease can be short (a crashed worker's recipients are sent again
 * soon after it died). Returns the stop, which waits for a renewal under way.
 */
function renewWhileHeld(deps: Deps, claims: ClaimQueue, campaignId: string): () => Promise<void> {
  const every = deps.config.MAIL_CLAIM_LEASE_MS / 3;
  let renewedAt = deps.clock.now().getTime();
  let renewing: Promise<void> | null = null;
  const timer = setInterval(
    () => {
      const now = deps.clock.now();
      // A clock set back (tests, a corrected host clock) renews too rather than waiting it out.
      if (renewing || Math.abs(now.getTime() - renewedAt) < every) return;
      renewedAt = now.getTime();
      renewing = claims
        .renew(now)
        .catch((err: unknown) => deps.log.warn({ err, campaignId }, 'renewing campaign claims failed'))
        .finally(() => (renewing = null));
    },
    Math.min(1000, every),
  );
  // Never what keeps a stopping process alive: the sender's end stops it anyway.
  timer.unref();
  return async () => {
    clearInterval(timer);
    await renewing;
  };
}

/**
 * Sends a campaign's due recipients until none is due or it stops sending: lanes (`sendingLanes`)
 * take recipients from the claim queue; each outcome is recorded right after the
 * SMTP server's answer. Returns how many recipients were claimed.
 */
async function sendCampaign(deps: Deps, businessId: string, campaignId: string): Promise<number> {
  // What the sending records (sent times, captured mail, notices) is dated by the business's clock;
  // claims, leases and retries go by `deps.clock`, real time, as every worker's do.
  const ctx = { ...jobCtx(deps, businessId, JOB), clock: await businessClock(deps, businessId) };
  const campaign = await queries.findCampaign(deps.db, businessId, campaignId);
  if (campaign?.status !== 'sending') return 0;
  const template = await findTemplate(deps.db, businessId, campaign.template_id);
  if (!template) {
    await pauseWithoutTemplate(deps, ctx, campaign);
    return 0;
  }
  const prepared = await preparedCampaign(ctx, campaign, template);
  const laneCount = sendingLanes(deps.config);
  const claims = new ClaimQueue(deps, ctx, campaign, 2 * laneCount);
  const stopRenewing = renewWhileHeld(deps, claims, campaignId);
  try {
    return await sendClaimed(deps, ctx, campaign, prepared, claims, laneCount);
  } finally {
    await stopRenewing();
  }
}

/**
 * A sending campaign whose template is gone (a row older than the rule that refuses it): paused
 * once, with one warning, rather than failing on every pass.
 */
async function pauseWithoutTemplate(deps: Deps, ctx: Ctx, campaign: Campaign): Promise<void> {
  const paused = await inTransaction(ctx, async (ctx) => {
    const current = await queries.findCampaign(ctx.db, ctx.businessId, campaign.id, true);
    if (current?.status !== 'sending') return false;
    await pauseOrphan(ctx, current, ['template']);
    return true;
  });
  if (paused) warnOrphan(deps, campaign, ['template']);
}

/** The lanes of sendCampaign, over its claim queue; returns how many recipients were claimed. */
async function sendClaimed(
  deps: Deps,
  ctx: Ctx,
  campaign: Campaign,
  prepared: Prepared,
  claims: ClaimQueue,
  laneCount: number,
): Promise<number> {
  const { businessId } = ctx;
  const campaignId = campaign.id;
  const settler = new Settler(deps, businessId, campaignId, claims.token);
  const sending = stillSending(deps, businessId, campaignId);
  let sinceCheck = 0;
  let checking = false;
  const lanes = Array.from({ length: laneCount }, async () => {
    for (;;) {
      await pace(deps, businessId, deps.config.MAIL_RATE_PER_SECOND);
      // A pause (or cancel) takes effect before the next message, not after the claim.
      if (!(await sending())) return;
      const recipient = await claims.next();
      if (!recipient) return;
      // A retry's delay counts from when its attempt began, not from when the server answered.
      const retryBase = deps.clock.now().getTime();
      let outcome: SendOutcome;
      try {
        outcome = await deliver(deps, businessId, messageFor(ctx, campaign, prepared, recipient), ctx.clock);
      } catch (err) {
        outcome = { ok: false, permanent: false, error: String((err as Error).message ?? err).slice(0, 500) };
      }
      const at = ctx.clock.now();
      const retry = !outcome.ok && !outcome.permanent && recipient.attempts < MAX_ATTEMPTS;
      // The lane waits for its outcome to be committed: at any moment, at most one accepted and
      // unrecorded message per lane, which a crash could send again.
      await settler.add({
        customerId: recipient.customer_id,
        email: recipient.email,
        status: outcome.ok ? 'sent' : outcome.permanent ? 'bounced' : retry ? 'queued' : 'failed',
        error: outcome.ok ? null : outcome.error,
        nextAttemptAt: retry
          ? new Date(retryBase + deps.config.MAIL_RETRY_BASE_MS * 2 ** (recipient.attempts - 1))
          : null,
        at,
      });
      claims.settled(recipient.customer_id);
      // The automatic pause is decided every PAUSE_CHECK_EVERY outcomes, by one lane at a time.
      if (++sinceCheck >= PAUSE_CHECK_EVERY && !checking) {
        sinceCheck = 0;
        checking = true;
        try {
          if (await pauseIfFailing(deps, ctx, campaign)) claims.stopped = true;
        } finally {
          checking = false;
        }
      }
    }
  });
  const settled = await Promise.allSettled(lanes);
  await claims.release();
  if (claims.lapsed.length > 0) {
    deps.log.warn(
      { campaignId, businessId, recipients: claims.lapsed.length },
      'campaign claims lapsed before sending (the sender was held up past its lease); queued again',
    );
  }
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
  if (claims.error) throw claims.error;
  await recipients.markSent(deps.db, businessId, campaignId, ctx.clock.now());
  return claims.claimed - claims.lapsed.length;
}

/**
 * Scheduled campaigns whose time has come start sending; one whose template or segment is gone is
 * paused instead (with one warning), and one that fails is logged without holding up the others.
 */
/** Whether a scheduled campaign of the business is due by `deps.clock`'s time. */
export async function hasDueCampaigns(deps: CtxSource, businessId: string): Promise<boolean> {
  return (await recipients.dueCampaigns(deps.db, deps.clock.now(), 1, businessId)).length > 0;
}

export async function startDue(deps: CtxSource, businessId?: string, realTime = false): Promise<number> {
  const due = await recipients.dueCampaigns(deps.db, deps.clock.now(), 100, businessId);
  const failure = {
    message: 'starting a scheduled campaign failed',
    describe: (d: (typeof due)[number]) => ({ campaignId: d.id }),
  };
  return sweep(deps, due, failure, async (due) => {
    // The sending worker looks on real time; what it starts is dated by the business's clock (a
    // test-clock advance gives its own step's time in `deps.clock`).
    const clock = realTime ? await businessClock(deps, due.business_id) : deps.clock;
    const ctx = { ...jobCtx(deps, due.business_id, JOB), clock };
    const outcome = await inTransaction(ctx, async (ctx) => {
      const campaign = await queries.findCampaign(ctx.db, ctx.businessId, due.id, true);
      if (campaign?.status !== 'scheduled') return { started: 0 };
      const parts = await lockParts(ctx.db, ctx.businessId, campaign);
      if (!parts.template || !parts.segment) {
        const missing = missingParts(parts);
        await pauseOrphan(ctx, campaign, missing);
        return { started: 0, campaign, missing };
      }
      await startSending(ctx, campaign, parts.segment);
      return { started: 1 };
    });
    if (outcome.campaign) warnOrphan(deps, outcome.campaign, outcome.missing);
    return outcome.started;
  });
}

/**
 * One pass of the sending worker: scheduled campaigns that are due start, claims a dead worker left
 * are released, then every sending campaign's due recipients are sent; finished campaigns are sent.
 * Returns how many recipients it attempted.
 */
export async function runSending(deps: Deps): Promise<number> {
  await startDue(deps, undefined, true);
  const now = deps.clock.now();
  await recipients.releaseStaleClaims(
    deps.db,
    new Date(now.getTime() - deps.config.MAIL_CLAIM_LEASE_MS),
    now,
  );
  let attempted = 0;
  for (const c of await recipients.campaignsToSend(deps.db, now, 50)) {
    try {
      attempted += await sendCampaign(deps, c.business_id, c.id);
    } catch (err) {
      deps.log.error({ err, campaignId: c.id }, 'campaign sending failed');
    }
  }
  for (const done of await recipients.finishedCampaigns(deps.db)) {
    const clock = await businessClock(deps, done.business_id);
    await recipients.markSent(deps.db, done.business_id, done.id, clock.now());
  }
  return attempted;
}
