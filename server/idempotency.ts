import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { ErrorCode } from '../contract/common/errors.js';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../contract/common/schemas.js';
import type { Clock } from './common/clock.js';
import type { Executor } from './db/database.js';
import type { Deps } from './deps.js';
import { ApiError } from './errors.js';
import type { Logger } from './logger.js';

/** How long a completed response is replayed for its key. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
/**
 * How long a claim may stay running before it counts as abandoned (its process died mid-request)
 * and a retry may run the request again. Well above the statement timeout and any request's time.
 */
const CLAIM_LEASE_MS = 60 * 1000;

/**
 * Outcomes that mean the request was refused before it did anything: nothing is kept for them,
 * so a corrected retry with the same key runs (IETF Idempotency-Key draft; Stripe does the same).
 */
const NOT_KEPT: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'BAD_REQUEST',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'PAYLOAD_TOO_LARGE',
  'VALIDATION_ERROR',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
]);

declare module 'http' {
  interface IncomingMessage {
    /** The request body as received (set by the JSON parser), for the idempotency fingerprint. */
    rawBody?: Buffer;
  }
}

const fingerprintOf = (req: Request) =>
  createHash('sha256')
    .update(`${req.method} ${req.originalUrl}\n`)
    .update(req.rawBody ?? Buffer.alloc(0))
    .digest('hex');

/** What a request finds when it presents its key. */
type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'in_progress' }
  | { kind: 'reused' }
  | { kind: 'vanished' };

/**
 * Takes the key for this request, in one statement unless the key is already known: a new key, an
 * expired one, or an abandoned claim is (re)claimed; otherwise the stored row decides.
 */
async function claim(
  deps: Pick<Deps, 'db' | 'clock' | 'secrets'>,
  businessId: string,
  key: string,
  fingerprint: string,
): Promise<Claim> {
  const { db, clock } = deps;
  const now = clock.now();
  const claimed = await db
    .insertInto('idempotency_keys')
    .values({
      business_id: businessId,
      key,
      fingerprint,
      state: 'running',
      status_code: null,
      response_body: null,
      created_at: now,
      locked_until: new Date(now.getTime() + CLAIM_LEASE_MS),
    })
    .onConflict((oc) =>
      oc
        .columns(['business_id', 'key'])
        .doUpdateSet((eb) => ({
          fingerprint: eb.ref('excluded.fingerprint'),
          state: 'running',
          status_code: null,
          response_body: null,
          created_at: eb.ref('excluded.created_at'),
          locked_until: eb.ref('excluded.locked_until'),
        }))
        .where((eb) =>
          eb.or([
            eb('idempotency_keys.created_at', '<=', new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS)),
            // An abandoned claim is taken over by a retry of the same request only: another
            // request with its key is still a reuse (422), as while the claim was live.
            eb.and([
              eb('idempotency_keys.state', '=', 'running'),
              eb('idempotency_keys.locked_until', '<', now),
              eb('idempotency_keys.fingerprint', '=', eb.ref('excluded.fingerprint')),
            ]),
          ]),
        ),
    )
    .returning('key')
    .executeTakeFirst();
  if (claimed) return { kind: 'claimed' };

  const existing = await db
    .selectFrom('idempotency_keys')
    .select(['fingerprint', 'state', 'status_code', 'response_body'])
    .where('business_id', '=', businessId)
    .where('key', '=', key)
    .executeTakeFirst();
  // Gone in between (released by its request, or purged): the caller claims again.
  if (!existing) return { kind: 'vanished' };
  if (existing.fingerprint !== fingerprint) return { kind: 'reused' };
  if (existing.state === 'running') return { kind: 'in_progress' };
  return { kind: 'replay', status: existing.status_code!, body: deps.secrets.open(existing.response_body!) };
}

/**
 * Claims the key; when its row went away between the insert and the read (its request was refused
 * and released it), tries again a few times before answering 409 IDEMPOTENCY_IN_PROGRESS.
 */
async function takeKey(
  deps: Pick<Deps, 'db' | 'clock' | 'secrets'>,
  businessId: string,
  key: string,
  fingerprint: string,
): Promise<Exclude<Claim, { kind: 'vanished' }>> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const outcome = await claim(deps, businessId, key, fingerprint);
    if (outcome.kind !== 'vanished') return outcome;
  }
  return { kind: 'in_progress' };
}

/**
 * `Idempotency-Key` on every authenticated POST (DESIGN section 7): the first completed response is
 * stored before it is sent and replayed for 24 h to a retry with the same key and the same request,
 * with `Idempotent-Replayed: true`; the same key with another request is 422 IDEMPOTENCY_KEY_REUSED;
 * while the first is still running, 409 IDEMPOTENCY_IN_PROGRESS. Refusals (validation, auth, rate
 * limits) and server errors keep nothing. Keys are scoped to the business. A route middleware after
 * `requireAuth`, so the route's own authentication decides the business; routes without
 * authentication (register, sign-in) take no key.
 */
export function idempotency(deps: Deps): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'POST') return next();
    const key = req.get('idempotency-key');
    // A missing key opts out; an empty or over-long one is refused by the route's header schema.
    if (key === undefined || key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) return next();
    // Runs after requireAuth: only a credential this route accepts reaches a claim or a replay.
    const businessId = req.auth?.businessId;
    if (!businessId) return next();

    takeKey(deps, businessId, key, fingerprintOf(req)).then((outcome) => {
      switch (outcome.kind) {
        case 'claimed':
          keepResponse(deps, req, res, businessId, key);
          return next();
        case 'replay':
          res.setHeader('Idempotent-Replayed', 'true');
          res.status(outcome.status).type('application/json').send(outcome.body);
          return;
        case 'in_progress':
          return next(
            new ApiError(
              'IDEMPOTENCY_IN_PROGRESS',
              'A request with this Idempotency-Key is still being processed; retry shortly',
              undefined,
              { 'Retry-After': '1' },
            ),
          );
        case 'reused':
          return next(
            new ApiError(
              'IDEMPOTENCY_KEY_REUSED',
              'This Idempotency-Key was used with a different request; use a new key for a new request',
            ),
          );
      }
    }, next);
  };
}

/**
 * Stores the response of a claimed request before sending it, so a retry that arrives after the
 * client saw (or lost) the response is answered from it; refusals release the key instead. Stored
 * responses are sealed like other secrets at rest: some carry one (a new API key, a webhook signing
 * secret) and are replayable for a day.
 */
function keepResponse(deps: Deps, req: Request, res: Response, businessId: string, key: string): void {
  res.json = (body: unknown) => {
    const code = (body as { error?: { code?: ErrorCode } } | null)?.error?.code;
    const kept = res.statusCode < 500 && !(code && NOT_KEPT.has(code));
    const text = JSON.stringify(body);
    const row = deps.db
      .updateTable('idempotency_keys')
      .where('business_id', '=', businessId)
      .where('key', '=', key)
      .where('state', '=', 'running');
    const stored = kept
      ? row
          .set({ state: 'done', status_code: res.statusCode, response_body: deps.secrets.seal(text) })
          .execute()
      : deps.db
          .deleteFrom('idempotency_keys')
          .where('business_id', '=', businessId)
          .where('key', '=', key)
          .where('state', '=', 'running')
          .execute();
    const send = () => {
      try {
        res.type('application/json').send(text);
      } catch (err) {
        req.log.error({ err, key }, 'could not send the idempotent response');
      }
    };
    void stored.then(send, (err: unknown) => {
      req.log.error({ err, key }, 'could not store the idempotent response');
      send();
    });
    return res;
  };
}

/** Deletes keys past their 24 h retention (a periodic job). Returns how many went. */
export async function purgeIdempotencyKeys(deps: {
  db: Executor;
  clock: Clock;
  log: Logger;
}): Promise<number> {
  const before = new Date(deps.clock.now().getTime() - IDEMPOTENCY_RETENTION_MS);
  const result = await deps.db
    .deleteFrom('idempotency_keys')
    .where('created_at', '<=', before)
    .executeTakeFirst();
  const purged = Number(result.numDeletedRows);
  if (purged) deps.log.debug({ purged }, 'idempotency keys purged');
  return purged;
}
