import nodemailer, { type Transporter } from 'nodemailer';
import { newId } from './ids.js';
import type { Clock } from './clock.js';
import type { Config } from '../config.js';
import type { Db, Trx } from './db/database.js';
import { QUEUES, type JobEngine } from './jobs.js';
import type { Logger } from './logger.js';
import * as queries from './mail.queries.js';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
}

export interface SendMailJob {
  businessId: string;
  messageId: string;
}

/**
 * Records a message in the caller's transaction and enqueues its sending: a rolled-back change
 * sends nothing, a committed one is never lost.
 */
export async function queueMail(
  trx: Trx,
  env: { businessId: string; clock: Clock; jobs: JobEngine },
  mail: OutgoingMail,
): Promise<void> {
  const id = newId('mail');
  await queries.insertMessage(trx, {
    business_id: env.businessId,
    id,
    to_address: mail.to,
    subject: mail.subject,
    body: mail.text,
    created_at: env.clock.now(),
  });
  await env.jobs.send(trx, QUEUES.sendMail, {
    businessId: env.businessId,
    messageId: id,
  } satisfies SendMailJob);
}

/**
 * Records a message that is not sent (no SMTP server is configured) as `logged`: kept in the mail
 * outbox, never silently dropped.
 */
export async function recordMail(
  db: Db | Trx,
  env: { businessId: string; clock: Clock },
  mail: OutgoingMail,
): Promise<void> {
  await queries.insertMessage(
    db,
    {
      business_id: env.businessId,
      id: newId('mail'),
      to_address: mail.to,
      subject: mail.subject,
      body: mail.text,
      created_at: env.clock.now(),
    },
    'logged',
  );
}

/**
 * The mail transport: nodemailer over `SMTP_URL`; without it the message stays recorded in
 * `mail_messages` (status `logged`) and is written to the log, never silently dropped.
 */
export function mailSender(config: Readonly<Config>, db: Db, clock: Clock, log: Logger) {
  const transport: Transporter | undefined = config.SMTP_URL
    ? nodemailer.createTransport(config.SMTP_URL)
    : undefined;
  return async (job: SendMailJob): Promise<void> => {
    const message = await queries.findQueued(db, job.businessId, job.messageId);
    if (!message) return;
    const mark = (status: 'sent' | 'logged' | 'failed', error: string | null = null) =>
      queries.markMessage(db, job.businessId, job.messageId, { status, sent_at: clock.now(), error });
    if (!transport) {
      log.info(
        { mailId: message.id, to: message.to_address, subject: message.subject },
        'mail recorded (no SMTP_URL set)',
      );
      await mark('logged');
      return;
    }
    await transport.sendMail({
      from: config.MAIL_FROM,
      to: message.to_address,
      subject: message.subject,
      text: message.body,
    });
    await mark('sent');
  };
}
