import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import type { Transporter } from 'nodemailer';
import { Piscina } from 'piscina';
import type { Clock } from '../../platform/clock.js';
import type { Deps } from '../../platform/deps.js';
import { mailCaptured, recordMail } from '../../platform/mail.js';
import { countMail, mailFailureOutcome } from '../../platform/metrics.js';
import type { OutgoingMessage } from './compose.js';
import { slot } from '../../platform/state.js';

/** The SMTP server's answer: accepted, refused for now (4xx), refused for good (5xx). */
export type SendOutcome = { ok: true } | { ok: false; permanent: boolean; error: string };

/** The service's pooled SMTP transport, made on first use; none without SMTP_URL. */
const TRANSPORT = slot('campaign SMTP transport', () => ({
  transport: undefined as Transporter | undefined,
}));

function transportOf(deps: Pick<Deps, 'config' | 'state'>): Transporter | undefined {
  const { config } = deps;
  if (!config.SMTP_URL) return undefined;
  const held = deps.state.get(TRANSPORT);
  if (!held.transport) {
    // nodemailer is loaded with the first campaign: most processes never send one.
    const nodemailer = createRequire(import.meta.url)('nodemailer') as typeof import('nodemailer');
    held.transport = nodemailer.createTransport({
      url: config.SMTP_URL,
      pool: true,
      maxConnections: config.MAIL_POOL_SIZE,
      maxMessages: Infinity,
      // A message whose connection dropped is this service's to retry (with its backoff and its
      // attempt count), never silently sent again by the pool.
      maxRequeues: 0,
    });
  }
  return held.transport;
}

type Composer = (message: OutgoingMessage) => Promise<Uint8Array>;

/** The compiled thread-pool task (absent when the service runs from its TypeScript sources). */
const COMPOSE_WORKER = fileURLToPath(new URL('./compose.worker.js', import.meta.url));
const compiled = existsSync(COMPOSE_WORKER);
/** The service's composing threads, started on first use. */
const COMPOSERS = slot('campaign composing threads', () => ({ pool: undefined as Piscina | undefined }));

/**
 * Composing and DKIM-signing a message is CPU work (an RSA signature each): done on a pool of
 * worker threads, so the event loop keeps the SMTP connections and the database busy meanwhile.
 * Run from sources (tests), it is done in-line.
 */
function composerOf(deps: Pick<Deps, 'state'>): Composer {
  if (!compiled) return async (message) => (await import('./compose.js')).composeMessage(message);
  const held = deps.state.get(COMPOSERS);
  if (!held.pool) {
    const threads = Math.max(1, availableParallelism());
    // Threads stay up between campaigns' batches: starting one loads the composer again. Each
    // thread holds a few tasks, so it starts the next as soon as one ends rather than waiting for
    // the event loop to hand it one (docs/decisions.md D269).
    held.pool = new Piscina({
      filename: COMPOSE_WORKER,
      minThreads: threads,
      maxThreads: threads,
      concurrentTasksPerWorker: 4,
      idleTimeout: 60_000,
    });
  }
  const running = held.pool;
  return (message) => running.run(message) as Promise<Uint8Array>;
}

/** Closes the service's pooled transport and composing threads (at shutdown). */
export async function closeTransport(deps: Pick<Deps, 'state'>): Promise<void> {
  const transport = deps.state.get(TRANSPORT);
  transport.transport?.close();
  transport.transport = undefined;
  const composers = deps.state.get(COMPOSERS);
  await composers.pool?.destroy();
  composers.pool = undefined;
}

/** Sends `message`, or captures it dated by `clock`, the business's own (a sandbox's test clock). */
export async function deliver(
  deps: Deps,
  businessId: string,
  message: OutgoingMessage,
  clock: Clock,
): Promise<SendOutcome> {
  const transport = transportOf(deps);
  if (!transport || (await mailCaptured(deps, businessId))) {
    // A sandbox's campaign, or no SMTP server configured: the message is recorded (mail outbox) and
    // logged, never dropped, and every recipient's state, link and unsubscribe page works as sent.
    await recordMail(
      deps.db,
      { businessId, clock },
      {
        to: message.to,
        from: message.from.name ? `${message.from.name} <${message.from.address}>` : message.from.address,
        subject: message.subject,
        text: message.text,
        html: message.html,
        headers: { ...message.headers, ...(message.replyTo && { 'Reply-To': message.replyTo }) },
      },
    );
    deps.log.info(
      { to: message.to, subject: message.subject },
      'campaign mail captured (sandbox, or no SMTP_URL set)',
    );
    return { ok: true };
  }
  try {
    const raw = await composerOf(deps)(message);
    await transport.sendMail({
      envelope: { from: message.from.address, to: [message.to] },
      raw: Buffer.from(raw),
    });
    countMail(deps.state, 'sent');
    return { ok: true };
  } catch (err) {
    const outcome = mailFailureOutcome(err);
    countMail(deps.state, outcome);
    const error = String((err as Error).message ?? err)
      .replace(/\u0000/g, '')
      .slice(0, 500);
    return { ok: false, permanent: outcome === 'bounced', error };
  }
}
