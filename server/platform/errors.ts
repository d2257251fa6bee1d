import { RequestValidationError } from '@ts-rest/express';
import type { ErrorRequestHandler } from 'express';
import type { ZodError } from 'zod';
import { isBaseCurrencyFixed, isConcurrencyFailure, isPeriodLocked } from './db/errors.js';
import {
  ERROR_STATUS,
  envelopeForPath,
  type ErrorCode,
  type ErrorObject,
} from '../../contract/common/errors.js';

export type ErrorDetail = { field: string; message: string };

/** The one error type services throw; the error handler maps it to the envelope. */
export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }

  toObject(): ErrorObject {
    return {
      code: this.code,
      message: this.message,
      status: this.status,
      ...(this.details ? { details: this.details } : {}),
    };
  }
}

export const notFound = (what: string) => new ApiError('NOT_FOUND', `${what} not found`);
export const invalid = (field: string, message: string) =>
  new ApiError('VALIDATION_ERROR', 'Request validation failed', [{ field, message }]);
export const invalidState = (message: string) => new ApiError('INVALID_STATE', message);
export const conflict = (message: string) => new ApiError('CONFLICT', message);

/** What the JSON body parser throws for a body that is not UTF-8 (a 400, typed for toApiError). */
export const notUtf8 = () =>
  Object.assign(new Error('body is not UTF-8'), { status: 400, type: 'encoding.not_utf8' });

function zodDetails(error: ZodError, prefix?: string): ErrorDetail[] {
  return error.issues.flatMap((issue) => {
    const base = [...(prefix ? [prefix] : []), ...issue.path].join('.');
    if (issue.code === 'unrecognized_keys') {
      return issue.keys.map((key) => ({ field: base ? `${base}.${key}` : key, message: 'Unknown field' }));
    }
    return [{ field: base || 'body', message: issue.message }];
  });
}

/** `start_date`, `startDate` and `StartDate` are the same name spelt differently. */
const spelling = (name: string) => name.toLowerCase().replace(/[_-]/g, '');

/**
 * A request refused by the contract's validation, with a hint on each missing query parameter the
 * caller sent under another spelling (`start_date` where the route takes `startDate`).
 */
export function refusalOfRequest(err: RequestValidationError, query: Record<string, unknown>): ApiError {
  const refusal = toApiError(err);
  if (!err.query || !refusal.details) return refusal;
  const sent = Object.keys(query);
  const details = refusal.details.map((detail) => {
    const other = sent.find((name) => name !== detail.field && spelling(name) === spelling(detail.field));
    return other && !(detail.field in query)
      ? { ...detail, message: `${detail.message}: the parameter is spelt "${detail.field}", not "${other}"` }
      : detail;
  });
  return new ApiError(refusal.code, refusal.message, details, refusal.headers);
}

/** Maps anything thrown to the service's error object; unknown errors become a bare 500. */
export function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof RequestValidationError) {
    if (err.pathParams) return new ApiError('NOT_FOUND', 'Resource not found');
    const details = [
      ...(err.headers ? zodDetails(err.headers) : []),
      ...(err.query ? zodDetails(err.query) : []),
      ...(err.body ? zodDetails(err.body) : []),
    ];
    return new ApiError('VALIDATION_ERROR', 'Request validation failed', details);
  }
  const type = (err as { type?: string } | null)?.type;
  if (type === 'entity.too.large') return new ApiError('PAYLOAD_TOO_LARGE', 'Request body exceeds 1 MiB');
  if (type === 'entity.parse.failed') return new ApiError('BAD_REQUEST', 'Malformed JSON in request body');
  if (type === 'encoding.not_utf8') {
    return new ApiError('BAD_REQUEST', 'The request body is not valid UTF-8; send JSON encoded as UTF-8');
  }
  if (type === 'encoding.unsupported' || type === 'charset.unsupported') {
    return new ApiError('BAD_REQUEST', 'Unsupported body encoding');
  }
  // Any other refusal of the HTTP layer (body parser, path decoding): a body that cannot be
  // decoded as its Content-Encoding says, an aborted upload, a malformed percent-escape.
  const status = (err as { status?: unknown; statusCode?: unknown } | null)?.status;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (status === 413) return new ApiError('PAYLOAD_TOO_LARGE', 'Request body exceeds 1 MiB');
    if (err instanceof URIError)
      return new ApiError('BAD_REQUEST', 'Malformed percent-escape in the request path');
    return new ApiError('BAD_REQUEST', 'The request body could not be read as sent');
  }
  if (isPeriodLocked(err)) return new ApiError('PERIOD_LOCKED', err.message);
  if (isBaseCurrencyFixed(err)) {
    return new ApiError('VALIDATION_ERROR', 'Request validation failed', [
      { field: 'base_currency', message: `${err.message}; convert with exchange rates instead` },
    ]);
  }
  if (isConcurrencyFailure(err)) {
    // Still failing after inTransaction's new attempts, or in a transaction only its owner could
    // start again: the client can (Retry-After also keeps the answer out of the idempotency store).
    return new ApiError(
      'CONFLICT',
      'The request met a concurrent change to the same records; retry it',
      undefined,
      { 'Retry-After': '1' },
    );
  }
  if ((err as { code?: string } | null)?.code === '57014') {
    return new ApiError('INTERNAL_ERROR', 'The request took too long and was cancelled');
  }
  return new ApiError('INTERNAL_ERROR', 'Internal server error');
}

export function errorBody(path: string, error: ApiError): unknown {
  return envelopeForPath(path) === 'general'
    ? { error: error.toObject() }
    : { result: 'error', error: error.toObject() };
}

/** The one place errors become responses. */
export const errorHandler: ErrorRequestHandler = (err, req, res, next) => {
  if (res.headersSent) {
    next(err);
    return;
  }
  const apiError = toApiError(err);
  if (apiError.status >= 500) {
    req.log.error({ err }, 'request failed');
  }
  if (apiError.headers) res.set(apiError.headers);
  // A credential refused after it was first let in (a cached key the public earn found revoked,
  // docs/decisions.md D234) reaches no business: its answer names no environment.
  if (apiError.status === 401) res.removeHeader('Bms-Environment');
  res.status(apiError.status).json(errorBody(req.path, apiError));
};
