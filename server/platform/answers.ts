/**
 * The answers a handler gives, so every routes file reads the same way:
 * `ok(success({ data }))`, `created({ data })`. The statuses are literal types, which is what lets
 * ts-rest check each answer against the statuses the contract declares for its route.
 */

/** 200 with this body. */
export const ok = <B>(body: B) => ({ status: 200 as const, body });

/** 201 with this body: a POST that made a resource with its own id. */
export const created = <B>(body: B) => ({ status: 201 as const, body });

/** The `{ result: 'success', ... }` envelope the business groups answer in. */
export const success = <F extends object>(fields: F) => ({ result: 'success' as const, ...fields });
