import { createHash } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { ErrorCode } from '../../contract/common/errors.js';
import { IDEMPOTENCY_KEY_MAX_LENGTH } from '../../contract/common/schemas.js';
import type { Clock } from './clock.js';
import type { AppRoute } from '@ts-rest/core';
import type { ControlledTransaction } from 'kysely';
import {
  actorOf,
  operationOf,
  recordChange,
  resourceIdOf,
  SELF_AUDITED,
  summaryOf,
  type AuditActor,
} from './audit.js';
import type { Executor } from './db/database.js';
import type { Database } from './db/types.js';
import type { Deps } from './deps.js';
import { ApiError, errorBody, toApiError } from './errors.js';
import * as queries from './idempotency.queries.js';
import type { Logger } from './logger.js';

/** How long a completed response is replayed for its key. */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;

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

/** The advisory lock that marks a key's request as running: 64 bits of a hash of business and key. */
export const lockIdOf = (businessId: string, key: string): bigint =>
  createHash('sha256').update(businessId).update('\0').update(key).digest().readBigInt64BE(0);

const SAVEPOINT = 'idempotent_request';

/**
 * `Idempotency-Key` on every authenticated POST (docs/decisions.md D8). The request runs in one
 * transaction that also stores its response, so the change and the stored answer commit together:
 * no crash, at any instant, lets a retry apply the change twice (a crash before the commit leaves
 * nothing, and the retry runs afresh). A transaction-scoped advisory lock marks the key as running:
 * a second request with it meanwhile gets 409 IDEMPOTENCY_IN_PROGRESS, and a dead process's lock
 * goes with its connection. A completed response is replayed for 24 h to the same request, with
 * `Idempotent-Replayed: true`; another request with the key is 422 IDEMPOTENCY_KEY_REUSED.
 * Refusals (validation, auth, rate limits) and server errors keep nothing. Keys are scoped to the
 * business. A route middleware after `requireAuth`, so the route's own authentication decides the
 * business; routes without authentication (register, sign-in) take no key.
 *
 * Every other authenticated change (a request other than a read, without a key) runs in a request
 * transaction too, so that its audit row (server/platform/audit.ts) is written in the change's own
 * transaction just before the commit, and only for a 2xx answer. The operations that write their own
 * audit row (the public earn, with its two statements and no transaction) run as they are.
 */
export function idempotency(deps: Deps): RequestHandler {
  return (req, res, next) => {
    if (READS.has(req.method)) return next();
    // Runs after requireAuth: only a credential this route accepts reaches a claim or a replay.
    const auth = req.auth;
    if (!auth) return next();
    const route = (req as Request & { tsRestRoute: AppRoute }).tsRestRoute;
    const operation = operationOf(route);
    const audit: Audit | undefined = SELF_AUDITED.has(operation)
      ? undefined
      : { actor: actorOf(auth), operation };
    const key = req.method === 'POST' ? req.get('idempotency-key') : undefined;
    // A missing key opts out; an empty or over-long one is refused by the route's header schema.
    if (key === undefined || key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
      if (!audit) return next();
      deps.db
        .startTransaction()
        .execute()
        .then((trx) => {
          req.transaction = trx;
          settleAudited(deps, req, res, trx, auth.businessId, audit);
          next();
        }, next);
      return;
    }
    begin(deps, req, res, auth.businessId, key, audit).then((outcome) => {
      if (outcome === 'run') next();
      else if (outcome) next(outcome);
    }, next);
  };
}

const READS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Who made the change and with which operation; its resource is read from the answer. */
interface Audit {
  actor: AuditActor;
  operation: string;
}

/** Writes the change's audit row in `trx` when the answer is a success. */
async function auditSuccess(
  deps: Deps,
  req: Request,
  res: Response,
  trx: Executor,
  businessId: string,
  audit: Audit | undefined,
  body: unknown,
): Promise<void> {
  if (!audit || res.statusCode < 200 || res.statusCode >= 300) return;
  await recordChange(trx, {
    businessId,
    actor: audit.actor,
    operation: audit.operation,
    resourceId: resourceIdOf(req.params, body),
    requestId: req.requestId,
    at: deps.clock.now(),
    summary: summaryOf(audit.operation, req.body, body),
  });
}

/** Sends the answer of a request whose transaction could not commit: nothing was changed. */
function answerFailure(req: Request, res: Response, err: unknown, what: string): void {
  const failure = toApiError(err);
  if (failure.status >= 500) req.log.error({ err }, what);
  if (failure.headers) res.set(failure.headers);
  res
    .status(failure.status)
    .type('application/json')
    .send(JSON.stringify(errorBody(req.path, failure)));
}

/**
 * Ends an unkeyed change's request transaction when its answer is ready, before sending it: a 2xx
 * writes the audit row and commits; anything else rolls the request's work back.
 */
function settleAudited(
  deps: Deps,
  req: Request,
  res: Response,
  trx: ControlledTransaction<Database>,
  businessId: string,
  audit: Audit,
): void {
  res.json = (body: unknown) => {
    const text = JSON.stringify(body);
    const settle = async () => {
      if (res.statusCode < 200 || res.statusCode >= 300) return trx.rollback().execute();
      await auditSuccess(deps, req, res, trx, businessId, audit, body);
      await trx.commit().execute();
    };
    settle().then(
      () => res.type('application/json').send(text),
      async (err: unknown) => {
        await trx
          .rollback()
          .execute()
          .catch(() => undefined);
        answerFailure(req, res, err, 'request failed at commit');
      },
    );
    return res;
  };
  // An answer not sent through res.json (none today) must not leave the transaction open.
  res.on('close', () => {
    if (!trx.isCommitted && !trx.isRolledBack)
      void trx
        .rollback()
        .execute()
        .catch(() => undefined);
  });
}

/**
 * Opens the request's transaction and decides what the key allows: `run` the route in it, an error
 * to answer, or undefined when the stored response was replayed.
 */
async function begin(
  deps: Deps,
  req: Request,
  res: Response,
  businessId: string,
  key: string,
  audit: Audit | undefined,
): Promise<ApiError | 'run' | undefined> {
  const trx = await deps.db.startTransaction().execute();
  try {
    if (!(await queries.tryLockKey(trx, lockIdOf(businessId, key)))) {
      await trx.rollback().execute();
      return new ApiError(
        'IDEMPOTENCY_IN_PROGRESS',
        'A request with this Idempotency-Key is still being processed; retry shortly',
        undefined,
        { 'Retry-After': '1' },
      );
    }
    const fingerprint = fingerprintOf(req);
    const stored = await queries.findKey(trx, businessId, key);
    const retainedSince = deps.clock.now().getTime() - IDEMPOTENCY_RETENTION_MS;
    if (stored && new Date(stored.created_at).getTime() > retainedSince) {
      await trx.rollback().execute();
      if (stored.fingerprint !== fingerprint) {
        return new ApiError(
          'IDEMPOTENCY_KEY_REUSED',
          'This Idempotency-Key was used with a different request; use a new key for a new request',
        );
      }
      res.setHeader('Idempotent-Replayed', 'true');
      res.status(stored.status_code).type('application/json').send(deps.secrets.open(stored.response_body));
      return undefined;
    }
    const work = await trx.savepoint(SAVEPOINT).execute();
    req.transaction = work;
    settleOnResponse(deps, req, res, { trx: work, businessId, key, fingerprint, audit });
    return 'run';
  } catch (err) {
    await trx
      .rollback()
      .execute()
      .catch(() => undefined);
    throw err;
  }
}

/**
 * Ends the request's transaction when its response is ready, before sending it: a success commits
 * with its response stored; a refusal worth keeping (a 404, a 409 of the resource's state, ...)
 * undoes the request's work and commits only the stored refusal; refusals not kept and server
 * errors roll everything back. A success writes its audit row before the commit. Stored responses are sealed like other secrets at rest: some carry
 * one (a new API key, a webhook signing secret) and are replayable for a day.
 */
function settleOnResponse(
  deps: Deps,
  req: Request,
  res: Response,
  request: {
    trx: ControlledTransaction<Database, [typeof SAVEPOINT]>;
    businessId: string;
    key: string;
    fingerprint: string;
    audit: Audit | undefined;
  },
): void {
  const { trx } = request;
  res.json = (body: unknown) => {
    const code = (body as { error?: { code?: ErrorCode } } | null)?.error?.code;
    // An answer that asks for a retry later (a concurrency conflict) is not the request's outcome.
    const kept =
      res.statusCode < 500 && !(code && NOT_KEPT.has(code)) && res.getHeader('Retry-After') === undefined;
    const text = JSON.stringify(body);
    const settle = async () => {
      if (!kept) return trx.rollback().execute();
      const ended =
        res.statusCode < 400 ? trx.releaseSavepoint(SAVEPOINT) : trx.rollbackToSavepoint(SAVEPOINT);
      const tx = await ended.execute();
      await auditSuccess(deps, req, res, tx, request.businessId, request.audit, body);
      await queries.storeKey(tx, {
        business_id: request.businessId,
        key: request.key,
        fingerprint: request.fingerprint,
        status_code: res.statusCode,
        response_body: deps.secrets.seal(text),
        created_at: deps.clock.now(),
      });
      await tx.commit().execute();
    };
    settle().then(
      () => res.type('application/json').send(text),
      async (err: unknown) => {
        await trx
          .rollback()
          .execute()
          .catch(() => undefined);
        // Nothing was committed: the client learns the request failed and may retry it.
        const failure = toApiError(err);
        if (failure.status >= 500)
          req.log.error({ err, key: request.key }, 'idempotent request failed at commit');
        res
          .status(failure.status)
          .type('application/json')
          .send(JSON.stringify(errorBody(req.path, failure)));
      },
    );
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
  const purged = await queries.deleteKeysBefore(deps.db, before);
  if (purged) deps.log.debug({ purged }, 'idempotency keys purged');
  return purged;
}
