import { expect } from 'vitest';
import type { ErrorCode, ErrorObject } from '../../client/index.js';

/** A response as the tests hold it; anything else it carries (headers, the raw text) is ignored. */
export type HttpResult = { status: number; body: unknown };

/** An error answer in the general envelope with this status and code (and `field` named in details). */
export function expectError(res: HttpResult, status: number, code: ErrorCode, field?: string): ErrorObject {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  const { error } = res.body as { error: ErrorObject };
  expect(error).toMatchObject({ code, status });
  if (field !== undefined) expect(error.details?.map((d) => d.field)).toContain(field);
  return error;
}

/** The general error envelope exactly: `{ error: { code, message, status } }` and nothing else. */
export function expectExactError(res: HttpResult, status: number, code: ErrorCode): void {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error: { code, message: expect.any(String), status } });
}

/** 422 VALIDATION_ERROR whose `details` name every field given. */
export function expectInvalid(res: HttpResult, ...fields: string[]): void {
  expect(res.status).toBe(422);
  const { error } = res.body as { error: ErrorObject };
  expect(error).toMatchObject({ code: 'VALIDATION_ERROR', status: 422, message: expect.any(String) });
  const named = (error.details ?? []).map((d) => d.field);
  expect(named.length).toBeGreaterThan(0);
  for (const field of fields) expect(named).toContain(field);
}

/**
 * The result envelope exactly: `{ result: 'error', error: { code, message, status } }` and nothing
 * else, with `details` (naming `field`) only when a field is given. Returns the error.
 */
export function expectResultError(
  res: HttpResult,
  status: number,
  code: ErrorCode,
  field?: string,
): ErrorObject {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toEqual({
    result: 'error',
    error: {
      code,
      status,
      message: expect.any(String),
      ...(field === undefined
        ? {}
        : { details: expect.arrayContaining([expect.objectContaining({ field })]) }),
    },
  });
  return (res.body as { error: ErrorObject }).error;
}

/** An error in the result envelope with this status and code (and `field` named in details). */
export async function expectApiError(
  call: HttpResult | Promise<HttpResult>,
  status: number,
  code: ErrorCode,
  field?: string,
): Promise<void> {
  const res = await call;
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body).toMatchObject({ result: 'error', error: { code, status, message: expect.any(String) } });
  if (field !== undefined) {
    const details = (res.body as { error: ErrorObject }).error.details ?? [];
    expect(details.map((d) => d.field)).toContain(field);
  }
}

/** The item at `index` of `list` (negative counts from the end); a missing one fails the test. */
export function itemAt<T>(list: readonly T[], index: number): T {
  const item = list.at(index);
  if (item === undefined) throw new Error(`No item at ${index} in a list of ${list.length}`);
  return item;
}

/** A tuple type of at least `N` items of `T` (N a literal up to a few dozen; any other number: `T[]`). */
export type AtLeast<N extends number, T, Head extends T[] = []> = number extends N
  ? T[]
  : Head['length'] extends N
    ? [...Head, ...T[]]
    : AtLeast<N, T, [...Head, T]>;

/** `list`, known to hold at least `n` items (so `const [a, b] = atLeast(rows, 2)` needs no checks). */
export function atLeast<T, N extends number>(list: readonly T[], n: N): AtLeast<N, T> {
  if (list.length < n) throw new Error(`Expected at least ${n} items, got ${list.length}`);
  return list as unknown as AtLeast<N, T>;
}
