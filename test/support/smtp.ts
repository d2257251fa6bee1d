import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll } from 'vitest';

/** A message the sink accepted: its envelope recipient, raw bytes and parsed form. */
export interface SinkMessage {
  to: string;
  raw: Buffer;
  mail: ParsedMail;
  /** When the sink received its data (Date.now()). */
  at: number;
  /** The value of a header as written (first occurrence, unfolded), or undefined. */
  header(name: string): string | undefined;
}

/** How the sink answers one RCPT TO: accept (null) or refuse with an SMTP code. */
export type RcptAnswer = { code: number; message: string } | null;

/**
 * A real SMTP server in the test process (smtp-server): it accepts plain SMTP on 127.0.0.1, parses
 * every message with mailparser and can refuse chosen recipients, for a while or for good.
 */
export class SmtpSink {
  readonly messages: SinkMessage[] = [];
  /** RCPT TO attempts per address (lower case), refused ones included. */
  readonly attempts = new Map<string, number>();
  /** Decides each RCPT TO; `attempt` counts from 1 per address. */
  answer: (address: string, attempt: number) => RcptAnswer = () => null;
  /** Errors of client connections (a reset by a client that died, say), kept rather than thrown. */
  readonly connectionErrors: Error[] = [];
  /** Delay before each message's DATA is acknowledged (messages in flight). */
  delayMs = 0;
  private server: SMTPServer | undefined;
  url = '';

  async start(): Promise<void> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['AUTH', 'STARTTLS'],
      logger: false,
      size: 10 * 1024 * 1024,
      onRcptTo: (address, _session, callback) => {
        const email = address.address.toLowerCase();
        const attempt = (this.attempts.get(email) ?? 0) + 1;
        this.attempts.set(email, attempt);
        const refusal = this.answer(email, attempt);
        if (!refusal) return callback();
        const err = Object.assign(new Error(refusal.message), { responseCode: refusal.code });
        callback(err);
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          const at = Date.now();
          const raw = Buffer.concat(chunks);
          const to = session.envelope.rcptTo.map((r) => r.address.toLowerCase());
          simpleParser(raw).then(
            (mail) => {
              const header = (name: string) => {
                const line = mail.headerLines.find((h) => h.key === name.toLowerCase())?.line;
                return line
                  ?.slice(line.indexOf(':') + 1)
                  .replace(/\r?\n[ \t]+/g, ' ')
                  .trim();
              };
              const done = () => {
                for (const address of to) this.messages.push({ to: address, raw, mail, at, header });
                callback();
              };
              if (this.delayMs > 0) setTimeout(done, this.delayMs);
              else done();
            },
            (err: Error) => callback(err),
          );
        });
      },
    });
    // A client that dies mid-session (a killed worker) resets its connection: not the sink's failure.
    this.server.on('error', (err: Error) => this.connectionErrors.push(err));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.server.address() as AddressInfo;
    this.url = `smtp://127.0.0.1:${port}`;
  }

  /** Messages accepted for `address`. */
  to(address: string): SinkMessage[] {
    return this.messages.filter((m) => m.to === address.toLowerCase());
  }

  /** Forgets what it received and accepts everyone again. */
  reset(): void {
    this.messages.length = 0;
    this.attempts.clear();
    this.answer = () => null;
    this.delayMs = 0;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/**
 * One sink per test file, started before the test server: pass `env` to useTestServer (its
 * SMTP_URL is filled in when the sink is listening).
 */
export function useSmtpSink(extraEnv: Record<string, string> = {}): {
  env: Record<string, string>;
  sink: () => SmtpSink;
} {
  const sink = new SmtpSink();
  const env: Record<string, string> = { ...extraEnv };
  beforeAll(async () => {
    await sink.start();
    env.SMTP_URL = sink.url;
  });
  afterAll(() => sink.close());
  return { env, sink: () => sink };
}
