import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type RequestListener, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError, errorBody } from './errors.js';

/**
 * The request line and headers together may take this many bytes (Node's default, stated here so
 * the document and the refusal can name it).
 */
export const MAX_HEADER_BYTES = 16 * 1024;

/** How long a refused connection may go on sending what it had started before it is closed. */
const DRAIN_MS = 5_000;

/**
 * The HTTP server of the service (and of the tests). Requests Node's parser refuses before
 * Express sees them (a URL or headers over the limit, bytes that are not HTTP) are answered in the
 * error envelope like every other refusal (docs/decisions.md D27), never with an empty body or a reset.
 */
export function createHttpServer(listener?: RequestListener): Server {
  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES }, listener);
  // Longer than the idle timeout of the load balancers in front (60 s is common), so an idle
  // keep-alive connection is closed by them, never by the service as a request is on its way.
  server.keepAliveTimeout = 65_000;
  const answered = new WeakSet<Socket>();
  server.on('clientError', (err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    // The parser reports every later chunk of a refused request again: answer once.
    if (answered.has(socket)) return;
    answered.add(socket);
    socket.on('error', () => {
      // The peer may reset while its request is being drained: nothing left to tell it.
    });
    if (err.code === 'ECONNRESET' || !socket.writable) {
      socket.destroy();
      return;
    }
    const refusal = refusalOf(err, err.rawPacket);
    if (!refusal) {
      socket.destroy();
      return;
    }
    const { error, path } = refusal;
    const body = JSON.stringify(errorBody(path, error));
    const head = [
      `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? 'Error'}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      `X-Request-Id: ${randomUUID()}`,
      'X-Content-Type-Options: nosniff',
      'Cache-Control: no-store',
      'Connection: close',
    ];
    // Half-close after the answer and read what the client still sends: closing a socket with
    // unread bytes would reset the connection and lose the answer on the way.
    socket.resume();
    socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
    setTimeout(() => socket.destroy(), DRAIN_MS).unref();
  });
  return server;
}

/** The request line's target as far as it arrived, when the packet starts a request. */
function targetOf(raw: Buffer | undefined): { path: string; complete: boolean } | undefined {
  if (!raw) return undefined;
  const text = raw.subarray(0, Math.min(raw.length, MAX_HEADER_BYTES + 16)).toString('latin1');
  const line = /^[A-Z]{1,20} (\S+)/.exec(text);
  if (!line) return undefined;
  return { path: line[1]!.split('?')[0]!, complete: text.indexOf('\r\n') >= 0 };
}

/** The error a parser refusal answers with, and the path whose envelope it takes. */
function refusalOf(err: NodeJS.ErrnoException, raw: Buffer | undefined) {
  const target = targetOf(raw);
  // The path decides the envelope; a request whose path never arrived gets the result envelope,
  // which carries `error` as the general one does.
  const path = target?.path ?? '/';
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      // The limit covers the request line and the headers together: when the line alone never
      // ended, the URL is what was too long.
      return target && !target.complete
        ? {
            path,
            error: new ApiError(
              'URI_TOO_LONG',
              `The URL is longer than ${MAX_HEADER_BYTES / 1024} KiB; send long filters in fewer or shorter parameters`,
            ),
          }
        : {
            path,
            error: new ApiError(
              'HEADERS_TOO_LARGE',
              `The request line and headers exceed ${MAX_HEADER_BYTES / 1024} KiB together; send shorter headers or URL`,
            ),
          };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'ERR_HTTP_HEADERS_TIMEOUT':
      // No answer owed to a client that stopped sending its request.
      return undefined;
    default:
      return { path, error: new ApiError('BAD_REQUEST', 'The request is not valid HTTP/1.1') };
  }
}
