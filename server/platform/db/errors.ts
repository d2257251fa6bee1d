/** PostgreSQL unique violation, optionally on a named constraint or index. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string } | null;
  return e?.code === '23505' && (!constraint || e.constraint === constraint);
}

/** PostgreSQL check violation, optionally on a named constraint. */
export function isCheckViolation(err: unknown, constraint?: string): boolean {
  const e = err as { code?: string; constraint?: string } | null;
  return e?.code === '23514' && (!constraint || e.constraint === constraint);
}
