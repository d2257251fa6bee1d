import { z } from 'zod';
import { PaginationSchema } from './pagination.js';

/**
 * The success envelopes of the API. Two families (docs/decisions.md D222): the general group answers
 * `{ data }` (lists add `pagination`); every other group answers `{ result: 'success', ... }`.
 * Their error envelopes are in errors.ts.
 */

const success = z.literal('success');

/** `{ result: 'success', ...fields }`: the result envelope around the given fields. */
export const resultEnvelope = <S extends z.ZodRawShape>(fields: S) =>
  z.object({ result: success }).extend(fields);

/** `{ result: 'success', data }`. */
export const resultData = <T extends z.ZodTypeAny>(data: T) => resultEnvelope({ data });

/** `{ result: 'success', message }`: an action that returns no resource. */
export const ResultMessageSchema = resultEnvelope({ message: z.string() });

/** `{ result: 'success', message, data }`: a creation that also says what it did. */
export const resultCreated = <T extends z.ZodTypeAny>(data: T) =>
  resultEnvelope({ message: z.string(), data });

/** `{ result: 'success', data: [...], totalCount }`: a loyalty list page (`limit` / `offset`). */
export const resultPage = <T extends z.ZodTypeAny>(item: T) =>
  resultEnvelope({ data: z.array(item), totalCount: z.number().int() });

/** The general group's success envelope: `{ data }`. */
export const dataEnvelope = <T extends z.ZodTypeAny>(schema: T) => z.object({ data: schema });

/** The general group's list page: `{ data: [...], pagination }`. */
export const pageEnvelope = <T extends z.ZodTypeAny>(item: T) =>
  z.object({ data: z.array(item), pagination: PaginationSchema });
