import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll } from 'vitest';
import type { TestServer } from './server.js';
import { waitFor } from './wait.js';

/** One request a receiver got: the raw body as sent (for signatures) and its parsed JSON. */
export interface ReceivedRequest<B> {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  rawBody: string;
  body: B;
}

/**
 * How to answer the n-th request (from 0); `'hang'` never answers; `'reset'` resets the connection
 * unanswered.
 */
export type Reply = { status: number; headers?: Record<string, string> } | 'hang' | 'reset';

/** What a reply can know of the request besides its number. */
export interface Arrival<B> {
  body: B;
  /** It came on a connection that `closeIdleConnections()` marked closed. */
  staleConnection: boolean;
}

export interface ReceiverOptions {
  /** How long the receiver keeps an idle connection open (node's default: 5 s). */
  keepAliveTimeoutMs?: number;
}

export interface Receiver<B> {
  url: string;
  port: number;
  hits: ReceivedRequest<B>[];
  /** TCP connections accepted, whether or not a request followed. */
  readonly connections: number;
  /** Requests answered by resetting their connection (not in `hits`). */
  readonly resets: number;
  /**
   * Marks every connection open now as closed by the receiver's idle timeout, in the instant before
   * a client writes on it: a request that later comes on one is told so (`staleConnection`), and a
   * reply of `'reset'` plays the rest of it.
   */
  closeIdleConnections(): void;
  close(): Promise<void>;
}

/**
 * Webhook receivers on 127.0.0.1 for one test file, closed after it. `start(reply)` scripts the
 * answer per request (200 by default) and records every request.
 */
export function useReceivers<B = unknown>() {
  const started: Receiver<B>[] = [];
  afterAll(async () => {
    await Promise.all(started.map((r) => r.close()));
  });

  return async function start(
    reply: (index: number, arrival: Arrival<B>) => Reply = () => ({ status: 200 }),
    options: ReceiverOptions = {},
  ): Promise<Receiver<B>> {
    const hits: ReceivedRequest<B>[] = [];
    let connections = 0;
    let resets = 0;
    const open = new Set<Socket>();
    const stale = new WeakSet<Socket>();
    const http = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        let body: B;
        try {
          body = JSON.parse(rawBody) as B;
        } catch {
          body = undefined as B;
        }
        const answer = reply(hits.length, { body, staleConnection: stale.has(req.socket) });
        if (answer === 'reset') {
          resets++;
          req.socket.resetAndDestroy();
          return;
        }
        hits.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, rawBody, body });
        if (answer === 'hang') return;
        res.writeHead(answer.status, answer.headers).end('receiver body, never stored');
      });
    });
    if (options.keepAliveTimeoutMs !== undefined) http.keepAliveTimeout = options.keepAliveTimeoutMs;
    http.on('connection', (socket: Socket) => {
      connections++;
      open.add(socket);
      socket.on('close', () => open.delete(socket));
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const { port } = http.address() as AddressInfo;
    const receiver: Receiver<B> = {
      url: `http://127.0.0.1:${port}/hook`,
      port,
      hits,
      get connections() {
        return connections;
      },
      get resets() {
        return resets;
      },
      closeIdleConnections() {
        for (const socket of open) stale.add(socket);
      },
      close: () =>
        new Promise<void>((resolve) => {
          http.closeAllConnections();
          http.close(() => resolve());
        }),
    };
    started.push(receiver);
    return receiver;
  };
}

/**
 * Waits until every event of the business is fanned out, no delivery is in flight and no retry is
 * due: from then on, whatever the receivers have not got, they will not get without the clock moving.
 */
export async function settleDeliveries(server: TestServer, businessId: string): Promise<void> {
  const db = server.deps.db;
  await waitFor(`the deliveries of ${businessId} to settle`, async () => {
    const undispatched = await db
      .selectFrom('events')
      .select('id')
      .where('business_id', '=', businessId)
      .where('dispatched_at', 'is', null)
      .execute();
    const busy = await db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('business_id', '=', businessId)
      .where((eb) =>
        eb.or([
          eb('status', '=', 'pending'),
          eb.and([eb('status', '=', 'retrying'), eb('next_attempt_at', '<=', server.clock.now())]),
        ]),
      )
      .execute();
    return undispatched.length === 0 && busy.length === 0;
  });
}
