import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { CURRENCY_EXPONENTS } from './currencies.js';

/** Opaque resource id: a type prefix and a ULID. Path parameters are only length-checked. */
export const IdSchema = z.string().min(1).max(64);
export const idOf = (prefix: string) =>
  extendApi(z.string().max(64), { example: `${prefix}_01JD7X2R5VQ8N3K4M6P9T1W2Y3` });

export const IdParamsSchema = z.object({ id: IdSchema.describe('Resource id') });

function isCalendarDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return (
    d.getUTCFullYear() === Number(m[1]) &&
    d.getUTCMonth() === Number(m[2]) - 1 &&
    d.getUTCDate() === Number(m[3])
  );
}

/** `YYYY-MM-DD`, a real calendar date. */
export const DateSchema = extendApi(
  z.string().max(10).refine(isCalendarDate, { message: 'Expected a calendar date as YYYY-MM-DD' }),
  { format: 'date', example: '2026-12-31' },
);

/**
 * A date field with its own description. (`DateSchema.describe(...)` would make a new schema
 * without the OpenAPI `format: date` that `extendApi` put on DateSchema.)
 */
export const dateField = (description: string) => extendApi(DateSchema, { description });

/** ISO 8601 UTC with milliseconds, e.g. `2026-11-21T09:30:00.000Z`. */
export const TimestampSchema = extendApi(z.string(), {
  format: 'date-time',
  example: '2026-11-21T09:30:00.000Z',
});

export const CurrencySchema = extendApi(
  z
    .string()
    .length(3)
    .refine((c) => c in CURRENCY_EXPONENTS, { message: 'Unknown ISO 4217 currency code' }),
  { description: 'ISO 4217 currency code, upper case.', example: 'USD' },
);

export const EmailSchema = extendApi(z.string().max(254).email(), { example: 'ada@example.com' });

/** The longest `Idempotency-Key` accepted (DESIGN.md section 7). */
export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;

/** Optional `Idempotency-Key` request header of POST routes. */
export const IdempotencyHeadersSchema = z.object({
  'idempotency-key': extendApi(z.string().min(1).max(IDEMPOTENCY_KEY_MAX_LENGTH).optional(), {
    description:
      'A unique key (e.g. a UUID) so that retrying the same request does not repeat it. The first completed ' +
      'response is kept for 24 h and replayed to a retry with the same key and request, with the header ' +
      '`Idempotent-Replayed: true`. The same key with a different request: 422 IDEMPOTENCY_KEY_REUSED; while ' +
      'the first request still runs: 409 IDEMPOTENCY_IN_PROGRESS (with Retry-After). Keys are per business.',
  }),
});

export const MessageSchema = z.string();
