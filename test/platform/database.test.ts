import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { onPostgres } from '../support/database.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ env: { STATEMENT_TIMEOUT_MS: '300' }, worker: false });

describe('the database connection, the same on PGlite and PostgreSQL', () => {
  it('runs every statement under the configured statement_timeout', async () => {
    const { rows } = await sql<{ statement_timeout: string }>`SHOW statement_timeout`.execute(
      server().deps.db,
    );
    expect(rows[0]?.statement_timeout).toBe('300ms');
    // PGlite records the setting but, single-threaded in WebAssembly, has no timer to cancel with.
    if (onPostgres) {
      await expect(sql`SELECT pg_sleep(2)`.execute(server().deps.db)).rejects.toMatchObject({
        code: '57014',
      });
    }
  });

  it('reads bigint as number, date as YYYY-MM-DD text and timestamps as Date in UTC', async () => {
    const { rows } = await sql<{ big: unknown; count: unknown; day: unknown; at: unknown }>`
      SELECT 9007199254740991::bigint AS big, count(*) AS count, DATE '2026-02-28' AS day,
             TIMESTAMPTZ '2026-02-28 23:30:00+00' AS at
      FROM (VALUES (1), (2)) AS v(x)`.execute(server().deps.db);
    expect(rows[0]).toEqual({
      big: 9007199254740991,
      count: 2,
      day: '2026-02-28',
      at: new Date('2026-02-28T23:30:00.000Z'),
    });
  });
});
