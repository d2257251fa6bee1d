import { sql, type RawBuilder } from 'kysely';

/**
 * The ageing buckets (docs/decisions.md D277), written once for receivables and payables: from a
 * relation `aged` of open amounts (`open`) with their days past due (`late`), the sums of each bucket
 * (current: not yet due; 1-30, 31-60, 61-90 and over 90 days past due) and the total, as the columns
 * of the contract's `AgeingTotals`. Used in a `SELECT ... FROM aged GROUP BY ...`.
 */
export const ageingSums: RawBuilder<unknown> = sql`
  coalesce(sum(open) FILTER (WHERE late <= 0), 0) AS current,
  coalesce(sum(open) FILTER (WHERE late BETWEEN 1 AND 30), 0) AS days_1_30,
  coalesce(sum(open) FILTER (WHERE late BETWEEN 31 AND 60), 0) AS days_31_60,
  coalesce(sum(open) FILTER (WHERE late BETWEEN 61 AND 90), 0) AS days_61_90,
  coalesce(sum(open) FILTER (WHERE late > 90), 0) AS days_over_90,
  sum(open) AS total`;

/** The bucket sums of `ageingSums`, read from a relation `b`, as text (minor units beyond 2^53 stay exact). */
export const ageingColumns: RawBuilder<unknown> = sql`
  b.current::text AS current, b.days_1_30::text AS days_1_30, b.days_31_60::text AS days_31_60,
  b.days_61_90::text AS days_61_90, b.days_over_90::text AS days_over_90, b.total::text AS total`;
