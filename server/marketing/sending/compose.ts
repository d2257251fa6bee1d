import type { Readable } from 'node:stream';
import DKIM from 'nodemailer/lib/dkim';
import MailComposer from 'nodemailer/lib/mail-composer';

/** One campaign message, as plain data (it crosses to a worker thread). */
export interface OutgoingMessage {
  from: { name: string | null; address: string };
  to: string;
  replyTo: string | null;
  subject: string;
  html: string;
  text: string;
  messageId: string;
  headers: Record<string, string>;
  dkim: { domainName: string; keySelector: string; privateKey: string } | null;
}

/** The headers a signature covers, List-Unsubscribe and List-Unsubscribe-Post included (RFC 8058). */
const DKIM_HEADERS =
  'from:sender:reply-to:subject:date:message-id:to:cc:mime-version:content-type:content-transfer-encoding:' +
  'list-unsubscribe:list-unsubscribe-post';

const collect = (stream: Readable): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.once('error', reject);
    stream.once('end', () => resolve(Buffer.concat(chunks)));
  });

/**
 * The message as the SMTP server receives it: MIME built by nodemailer's composer and, from a
 * verified domain, DKIM-signed by nodemailer's signer. CPU-bound (the RSA signature above all),
 * so the sending worker runs it on a thread pool when it can.
 */
export async function composeMessage(message: OutgoingMessage): Promise<Buffer> {
  const mime = new MailComposer({
    from: { name: message.from.name ?? '', address: message.from.address },
    to: message.to,
    ...(message.replyTo && { replyTo: message.replyTo }),
    subject: message.subject,
    html: message.html,
    text: message.text,
    messageId: message.messageId,
    headers: message.headers,
  })
    .compile()
    .createReadStream();
  if (!message.dkim) return collect(mime);
  return collect(new DKIM({ ...message.dkim, headerFieldNames: DKIM_HEADERS }).sign(mime));
}
