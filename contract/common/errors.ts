import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';

/** Every error code the service returns, with the HTTP status it always travels with. */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  INVALID_STATE: 409,
  RESOURCE_IN_USE: 409,
  CONFLICT: 409,
  IDEMPOTENCY_IN_PROGRESS: 409,
  PERIOD_LOCKED: 409,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  VALIDATION_ERROR: 422,
  IDEMPOTENCY_KEY_REUSED: 422,
  INSUFFICIENT_POINTS: 422,
  INSUFFICIENT_BALANCE: 422,
  LIMIT_EXCEEDED: 422,
  RATE_LIMITED: 429,
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ErrorCodeSchema = z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]);

export const ErrorDetailSchema = z.object({
  field: z.string().describe('Dotted path of the offending field, e.g. `items.0.quantity`.'),
  message: z.string(),
});

// The error schemas are typed by interfaces: every route declares about ten error responses, and a
// declaration file names an interface where it would spell out an inferred Zod type in full at each
// use (with the domain routers' types, the SDK's declarations shrink from 16 MB to 1.4 MB).
const errorObject = z.object({
  code: ErrorCodeSchema,
  message: z.string().describe('Human-readable explanation; never contains internals.'),
  status: z.number().int().describe('The HTTP status, repeated for convenience.'),
  details: z.array(ErrorDetailSchema).optional().describe('Per-field problems, for VALIDATION_ERROR.'),
});
type ErrorObjectZod = typeof errorObject;
export interface ErrorObjectSchemaType extends ErrorObjectZod {}

export const ErrorObjectSchema: ErrorObjectSchemaType = extendApi(errorObject, {
  title: 'Error',
  example: {
    code: 'VALIDATION_ERROR',
    message: 'Request validation failed',
    status: 422,
    details: [{ field: 'email', message: 'Invalid email' }],
  },
});
export type ErrorObject = z.infer<typeof ErrorObjectSchema>;

const generalError = z.object({ error: ErrorObjectSchema });
type GeneralErrorZod = typeof generalError;
export interface GeneralErrorSchemaType extends GeneralErrorZod {}

/** `{ "error": {...} }`, used by the general group. */
export const GeneralErrorSchema: GeneralErrorSchemaType = extendApi(generalError, { title: 'GeneralError' });

const resultError = z.object({ result: z.literal('error'), error: ErrorObjectSchema });
type ResultErrorZod = typeof resultError;
export interface ResultErrorSchemaType extends ResultErrorZod {}

/** `{ "result": "error", "error": {...} }`, used by every result-envelope group. */
export const ResultErrorSchema: ResultErrorSchemaType = extendApi(resultError, { title: 'ResultError' });

export type Envelope = 'general' | 'result';

/**
 * Paths of the general group answer in the `{data}` / `{error}` envelope; every other path
 * answers in the result envelope. Used wherever an error is written before a route is known
 * (broken JSON, oversized body, unknown route).
 */
export const GENERAL_PATH_PREFIXES = [
  '/v1/invoices',
  '/v1/customers',
  '/v1/products',
  '/v1/employees',
  '/v1/reports',
  '/v1/quotes',
  '/v1/credit-notes',
  '/v1/recurring-invoices',
] as const;

export function envelopeForPath(path: string): Envelope {
  return GENERAL_PATH_PREFIXES.some((p) => path === p || path.startsWith(`${p}/`)) ? 'general' : 'result';
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Malformed request: broken JSON, a body that is not application/json, or an unknown `Bms-Environment`.',
  401: 'Missing, unknown, revoked or expired credential.',
  403: 'The credential is valid but not allowed here (wrong kind or scope).',
  404: "No such resource for this business (another business's ids answer 404 too).",
  409: 'The request conflicts with the current state of the resource.',
  413: 'The JSON body is larger than 1 MiB.',
  414: 'The URL is too long: the request line and headers may take 16 KiB together.',
  422: 'The request failed validation; `details` names each field.',
  429: 'Rate limit exceeded; retry after `Retry-After` seconds.',
  431: 'The headers are too large: the request line and headers may take 16 KiB together.',
  500: 'Unexpected server error; the response carries the request id to quote.',
};

export const errorStatusText = (status: number): string => STATUS_TEXT[status] ?? 'Error';

type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 414 | 422 | 429 | 431 | 500;

const responsesOf = <E extends z.ZodTypeAny, S extends ErrorStatus>(schema: E, statuses: readonly S[]) =>
  Object.fromEntries(statuses.map((s) => [s, schema])) as Record<S, E>;

/** The error responses a route can return, in its group's envelope. */
export function errorResponses<S extends ErrorStatus>(envelope: Envelope, statuses: readonly S[]) {
  return responsesOf(envelope === 'general' ? GeneralErrorSchema : ResultErrorSchema, statuses);
}

/** Statuses any authenticated route can produce before its handler runs. */
export const AUTHED = [400, 401, 403, 413, 414, 422, 429, 431, 500] as const;
/** Statuses any public (unauthenticated) route can produce. */
export const PUBLIC = [400, 413, 414, 422, 429, 431, 500] as const;

type Authed = (typeof AUTHED)[number];

/** The errors of an authenticated route of a result-envelope group: AUTHED and the route's own. */
export const resultErrors = <S extends 404 | 409 = never>(...own: S[]) =>
  responsesOf<typeof ResultErrorSchema, Authed | S>(ResultErrorSchema, [...AUTHED, ...own]);

/** The errors of an authenticated route of the general group: AUTHED and the route's own. */
export const generalErrors = <S extends 404 | 409 = never>(...own: S[]) =>
  responsesOf<typeof GeneralErrorSchema, Authed | S>(GeneralErrorSchema, [...AUTHED, ...own]);
