import { sql } from 'kysely';
import type { Executor } from './db/database.js';

/**
 * Jobs waiting to be worked (created or waiting for a retry) per queue, read from pg-boss's own
 * table. `state < 'active' AND NOT blocked` is the predicate of pg-boss's fetch index (job_i11), so
 * the count reads that partial index rather than the whole table of finished jobs it keeps.
 */
export async function queuedJobCounts(db: Executor): Promise<{ name: string; queued: number }[]> {
  const { rows } = await sql<{ name: string; queued: number }>`
    SELECT name, count(*)::int AS queued
    FROM pgboss.job
    WHERE state < 'active' AND NOT blocked
    GROUP BY name
  `.execute(db);
  return rows;
}
