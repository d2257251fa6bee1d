import { createRequire } from 'node:module';
import type { TxCtx } from './context.js';
import type { Transporter } from 'nodemailer';
import { newId } from './ids.js';
import { businessClock, type Clock } from './clock.js';
import type { Config } from '../config.js';
import type { Db, Trx } from './db/database.js';
import { QUEUES, type JobPayloads } from './jobs.js';
import type { Logger } from './logger.js';
import * as queries from './mail.queries.js';
import { countMail, mailFailureOutcome } from './metrics.js';
import { isSandbox } from './settings.js';
import type { ServiceState } from './state.js';

/** A file attached to a message (an invoice's PDF), kept with the message until it is sent. */
export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface OutgoingMail {
  to: string;
  /** Addresses copied on the message. */
  cc?: readonly string[];
  /** Where replies go, when not the sender (the business's own address on its documents). */
  replyTo?: string;
  attachments?: readonly MailAttachment[];
  subject: string;
  text: string;
  /** The sender, when not the service's own `MAIL_FROM`. */
  from?: string;
  html?: string;
  /** Headers beyond From, To and Subject (List-Unsubscribe, ...). */
  headers?: Record<string, string>;
}

/** The columns a message is stored with. */
const rowOf = (env: { businessId: string; clock: Clock }, id: string, mail: OutgoingMail) => ({
  business_id: env.businessId,
  id,
  to_address: mail.to,
  subject: mail.subject,
  body: mail.text,
  from_address: mail.from ?? null,
  html: mail.html ?? null,
  headers: JSON.stringify(mail.headers ?? {}),
  cc_addresses: [...(mail.cc ?? [])],
  reply_to: mail.replyTo ?? null,
  created_at: env.clock.now(),
});

const attachmentRows = (businessId: string, messageId: string, mail: OutgoingMail) =>
  (mail.attachments ?? []).map((a, position) => ({
    business_id: businessId,
    message_id: messageId,
    position,
    filename: a.filename,
    content_type: a.contentType,
    content: a.content,
  }));

/**
 * A sender shown as `name` at the address of the service's `MAIL_FROM` (documents go out under the
 * business's name; replies reach the business through Reply-To).
 */
export function senderNamed(config: Readonly<Config>, name: string): string {
  const address = /<([^<>]+)>\s*$/.exec(config.MAIL_FROM)?.[1] ?? config.MAIL_FROM.trim();
  const quoted = name.replace(/[\\"]/g, (c) => `\\${c}`).replace(/[\r\n]+/g, ' ');
  return `"${quoted}" <${address}>`;
}

/** Where mail goes: handed to SMTP, or captured and listed at `GET /v1/sandbox/messages`. */
export const mailDestination = (config: Readonly<Config>) =>
  config.SMTP_URL
    ? 'mail is sent through SMTP_URL'
    : 'SMTP_URL is not set: mail is captured, not sent, and listed at GET /v1/sandbox/messages';

export type SendMailJob = JobPayloads['mail.send'];

/**
 * Records a message in the caller's transaction and enqueues its sending: a rolled-back change
 * sends nothing, a committed one is never lost.
 */
export async function queueMail(ctx: TxCtx, mail: OutgoingMail): Promise<void> {
  const id = newId('mail');
  await queries.insertMessage(ctx.db, rowOf(ctx, id, mail));
  await queries.insertAttachments(ctx.db, attachmentRows(ctx.businessId, id, mail));
  await ctx.jobs.send(ctx.db, QUEUES.sendMail, {
    businessId: ctx.businessId,
    messageId: id,
  } satisfies SendMailJob);
}

/**
 * Captures a message that is not sent (no SMTP server is configured) as `logged`: kept whole in the
 * mail outbox and listed at `GET /v1/sandbox/messages`, never silently dropped.
 */
export async function recordMail(
  db: Db | Trx,
  env: { businessId: string; clock: Clock },
  mail: OutgoingMail,
): Promise<void> {
  const id = newId('mail');
  await queries.insertMessage(db, rowOf(env, id, mail), 'logged');
  await queries.insertAttachments(db, attachmentRows(env.businessId, id, mail));
}

/** The business's captured mail, newest first. */
export async function listCapturedMail(
  db: Db | Trx,
  businessId: string,
  page: { limit: number; offset: number },
) {
  const { rows, total } = await queries.listCaptured(db, businessId, page);
  const attached =
    rows.length === 0
      ? []
      : await queries.attachmentSummaries(
          db,
          businessId,
          rows.map((r) => r.id),
        );
  return {
    messages: rows.map((row) => ({
      id: row.id,
      to: row.to_address,
      from: row.from_address,
      subject: row.subject,
      text: row.body,
      html: row.html,
      headers: row.headers,
      cc: row.cc_addresses,
      reply_to: row.reply_to,
      attachments: attached
        .filter((a) => a.message_id === row.id)
        .map((a) => ({ filename: a.filename, content_type: a.content_type, size: Number(a.size) })),
      created_at: row.created_at.toISOString(),
    })),
    total,
  };
}

/**
 * Whether the business's mail is captured rather than handed to SMTP: a sandbox's always, every
 * business's when no `SMTP_URL` is set (docs/decisions.md D16, D78).
 */
export async function mailCaptured(
  deps: { config: Readonly<Config>; db: Db | Trx; state: ServiceState },
  businessId: string,
): Promise<boolean> {
  return !deps.config.SMTP_URL || (await isSandbox({ db: deps.db, businessId, state: deps.state }));
}

/**
 * The mail transport: nodemailer over `SMTP_URL`; without it, and for a sandbox's mail, the message
 * stays recorded in `mail_messages` (status `logged`) and is written to the log, never silently dropped.
 */
export function mailSender(config: Readonly<Config>, db: Db, clock: Clock, log: Logger, state: ServiceState) {
  // Pooled: the connections stay open between messages, so a burst (a thousand invoices sent at
  // the end of the month) is not a thousand SMTP handshakes.
  const transport: Transporter | undefined = config.SMTP_URL
    ? (createRequire(import.meta.url)('nodemailer') as typeof import('nodemailer')).createTransport({
        url: config.SMTP_URL,
        pool: true,
        maxConnections: config.MAIL_POOL_SIZE,
        maxMessages: Infinity,
        // A message whose connection dropped is the job's to retry, never sent again by the pool.
        maxRequeues: 0,
      })
    : undefined;
  const send = async (job: SendMailJob): Promise<void> => {
    const message = await queries.findQueued(db, job.businessId, job.messageId);
    if (!message) return;
    // Dated by the business's clock (a sandbox's test clock), as the message itself was.
    const stamp = await businessClock({ db, clock }, job.businessId);
    const mark = (status: 'sent' | 'logged' | 'failed', error: string | null = null) =>
      queries.markMessage(db, job.businessId, job.messageId, { status, sent_at: stamp.now(), error });
    if (!transport || (await mailCaptured({ config, db, state }, job.businessId))) {
      log.info(
        { mailId: message.id, to: message.to_address, subject: message.subject },
        'mail captured (sandbox, or no SMTP_URL set): GET /v1/sandbox/messages lists it',
      );
      await mark('logged');
      return;
    }
    const attachments = await queries.attachmentsOf(db, job.businessId, job.messageId);
    try {
      await transport.sendMail({
        from: message.from_address ?? config.MAIL_FROM,
        to: message.to_address,
        ...(message.cc_addresses.length > 0 && { cc: message.cc_addresses }),
        ...(message.reply_to && { replyTo: message.reply_to }),
        subject: message.subject,
        text: message.body,
        ...(message.html && { html: message.html }),
        headers: message.headers,
        attachments: attachments.map((a) => ({
          filename: a.filename,
          contentType: a.content_type,
          content: Buffer.from(a.content),
        })),
      });
    } catch (err) {
      // The job fails and is retried: each refused attempt counts.
      countMail(state, mailFailureOutcome(err));
      throw err;
    }
    countMail(state, 'sent');
    await mark('sent');
  };
  /** Closes the pooled connections (at shutdown). */
  const close = () => transport?.close();
  return { send, close };
}
