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

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):?(\d{2}))$/;

const DATE_TIME_MESSAGE =
  'Expected an ISO 8601 date-time with a time-zone offset (Z or +hh:mm, hours 00-23), e.g. 2027-01-31T09:00:00Z';

const isLeapYear = (year: number) => year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
const daysInMonth = (year: number, month: number) =>
  month === 2 ? (isLeapYear(year) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;

/**
 * A real instant: a calendar date of the years 0001-9999, a time of day (hours 00-23, minutes and
 * seconds 00-59), and an offset of Z or at most 23:59 either way, that JavaScript reads as a date
 * whose UTC year stays within 0001-9999 too (what PostgreSQL's timestamptz and the API's output
 * both take). Zod's own `datetime()` lets any two digits through as the offset (`+99:00`), which
 * `new Date` turns into NaN.
 */
export function isInstant(value: string): boolean {
  const m = DATE_TIME.exec(value);
  if (!m) return false;
  const [, year, month, day, hours, minutes, seconds, offsetHours, offsetMinutes] = m.map(Number);
  if (!year || !month || month > 12 || !day || day > daysInMonth(year, month)) return false;
  if (hours! > 23 || minutes! > 59 || seconds! > 59) return false;
  if (offsetHours! > 23 || offsetMinutes! > 59) return false;
  const at = Date.parse(value);
  if (!Number.isFinite(at)) return false;
  const utcYear = new Date(at).getUTCFullYear();
  return utcYear >= 1 && utcYear <= 9999;
}

/**
 * The one date-time of every request (bodies and query strings): ISO 8601 with `Z` or an offset,
 * a real instant (`isInstant`). A refusal is a `datetime` string issue, as Zod's own would be.
 */
export const DateTimeSchema = extendApi(
  z
    .string()
    .max(64)
    .superRefine((value, ctx) => {
      if (!isInstant(value)) {
        ctx.addIssue({
          code: z.ZodIssueCode.invalid_string,
          validation: 'datetime',
          message: DATE_TIME_MESSAGE,
        });
      }
    }),
  { format: 'date-time', example: '2027-01-31T09:00:00Z' },
);

/**
 * A date-time field of a request with its own description (`.describe()` would drop the OpenAPI
 * format, as with `dateField`).
 */
export const dateTimeField = (description: string) => extendApi(DateTimeSchema, { description });

/** ISO 8601 UTC with milliseconds, e.g. `2026-11-21T09:30:00.000Z` (the answers' date-times). */
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

/** The longest `Idempotency-Key` accepted (docs/decisions.md D8). */
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

/** A postal address: a customer's, a vendor's, the business's own. */
export const AddressSchema = extendApi(
  z
    .object({
      line1: z.string().max(200).optional(),
      line2: z.string().max(200).optional(),
      city: z.string().max(100).optional(),
      state: z.string().max(100).optional(),
      postal_code: z.string().max(20).optional(),
      country: z
        .string()
        .length(2)
        .regex(/^[A-Z]{2}$/, 'Expected a two-letter ISO 3166 country code')
        .optional(),
    })
    .strict(),
  // No title: a titled schema becomes a $ref, and OpenAPI 3.0 cannot make a $ref nullable.
  {
    description: 'Postal address.',
    example: { line1: '1 Main St', city: 'Springfield', postal_code: '12345', country: 'US' },
  },
);
