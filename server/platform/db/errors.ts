import type { ApiError } from '../errors.js';

/** PostgreSQL unique violation, optionally on a named constraint or index. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string } | null;
  return e?.code === '23505' && (!constraint || e.constraint === constraint);
}

/** PostgreSQL exclusion violation (two rows an EXCLUDE constraint keeps apart), optionally on a named constraint. */
export function isExclusionViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string } | null;
  return e?.code === '23P01' && (!constraint || e.constraint === constraint);
}

/**
 * A deadlock (40P01) or serialisation failure (40001): PostgreSQL ended the transaction because of
 * another one running at the same moment; run again, it may well succeed.
 */
export function isConcurrencyFailure(err: unknown): boolean {
  const code = (err as { code?: string } | null)?.code;
  return code === '40P01' || code === '40001';
}

/** A lock not granted within `lock_timeout` (55P03). */
export function isLockTimeout(err: unknown): boolean {
  return (err as { code?: string } | null)?.code === '55P03';
}

/** PostgreSQL check violation, optionally on a named constraint. */
export function isCheckViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string } | null;
  return e?.code === '23514' && (!constraint || e.constraint === constraint);
}

/**
 * Runs `work`; a unique, exclusion or check violation of a constraint named in `refusals` becomes that
 * constraint's ApiError (a duplicate email, SKU, reference, overlapping leave, a cash account given
 * another cash-flow group, ...), the one place such violations are translated.
 * Any other error passes through unchanged.
 */
export async function refuseDuplicates<T>(
  work: () => Promise<T>,
  refusals: Readonly<Record<string, () => ApiError>>,
): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const constraint = (err as { constraint?: string } | null)?.constraint;
    const duplicate = isUniqueViolation(err) || isExclusionViolation(err) || isCheckViolation(err);
    const refuse = duplicate && constraint ? refusals[constraint] : undefined;
    if (refuse) throw refuse();
    throw err;
  }
}

/**
 * The journal refused an entry dated on or before the business's lock date (the database's
 * `finance_period_open` trigger, docs/decisions.md D276); its message names the lock date.
 */
export function isPeriodLocked(err: unknown): err is { message: string } {
  const e = err as { code?: string; constraint?: string } | null;
  return e?.code === 'P0001' && e.constraint === 'finance_period_locked';
}

/**
 * The base currency of a business whose journal holds entries was to change (the database's
 * `finance_base_currency_fixed` trigger, docs/decisions.md D278); its message names the currency.
 */
export function isBaseCurrencyFixed(err: unknown): err is { message: string } {
  const e = err as { code?: string; constraint?: string } | null;
  return e?.code === 'P0001' && e.constraint === 'finance_base_currency_fixed';
}
