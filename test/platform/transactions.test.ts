import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withTransaction } from '../../server/platform/db/database.js';
import { toApiError } from '../../server/platform/errors.js';
import { onPostgres } from '../support/database.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ env: { DB_POOL_SIZE: '10' }, worker: false });

/** Resolves once `n` parties have arrived. */
function barrier(n: number) {
  let arrived = 0;
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return () => {
    if (++arrived === n) open();
    return opened;
  };
}

const failure = (code: string) => Object.assign(new Error(`failure ${code}`), { code });

beforeAll(async () => {
  await sql`CREATE TABLE probe_rows (id int PRIMARY KEY, n int NOT NULL)`.execute(server().deps.db);
  await sql`INSERT INTO probe_rows VALUES (1, 0), (2, 0)`.execute(server().deps.db);
});

afterAll(async () => {
  await sql`DROP TABLE probe_rows`.execute(server().deps.db);
});

describe('withTransaction runs a transaction again when the database ends it for a concurrent one', () => {
  it(`completes two transactions that lock two rows in opposite orders (${
    onPostgres ? 'PostgreSQL: one of them deadlocks and runs again' : 'PGlite: serialised'
  })`, async () => {
    const { db } = server().deps;
    const bothHoldOne = barrier(2);
    const runs = { forward: 0, backward: 0 };
    const bump = (id: number) => sql`UPDATE probe_rows SET n = n + 1 WHERE id = ${id}`;
    const crossing = (first: number, second: number, name: keyof typeof runs) =>
      withTransaction(db, async (trx) => {
        runs[name]++;
        await bump(first).execute(trx);
        // Only the first run waits for the other to hold its row: that is what deadlocks. PGlite
        // runs one transaction at a time, so there nobody waits.
        if (onPostgres && runs[name] === 1) await bothHoldOne();
        await bump(second).execute(trx);
        return name;
      });
    expect(await Promise.all([crossing(1, 2, 'forward'), crossing(2, 1, 'backward')])).toEqual([
      'forward',
      'backward',
    ]);
    const { rows } = await sql<{ n: number }>`SELECT n FROM probe_rows ORDER BY id`.execute(db);
    // Each row bumped once by each transaction that committed: the deadlocked run left nothing.
    expect(rows.map((r) => r.n)).toEqual([2, 2]);
    expect(runs.forward + runs.backward).toBe(onPostgres ? 3 : 2);
  });

  it.each(['40P01', '40001'])('runs the work again after a %s, which then succeeds', async (code) => {
    let runs = 0;
    const result = await withTransaction(server().deps.db, async () => {
      if (++runs < 3) throw failure(code);
      return 'done';
    });
    expect(result).toBe('done');
    expect(runs).toBe(3);
  });

  it('gives up after four runs, passing the failure on', async () => {
    let runs = 0;
    const work = withTransaction(server().deps.db, async () => {
      runs++;
      throw failure('40P01');
    });
    await expect(work).rejects.toMatchObject({ code: '40P01' });
    expect(runs).toBe(4);
  });

  it('does not run again after any other failure', async () => {
    let runs = 0;
    const work = withTransaction(server().deps.db, async () => {
      runs++;
      throw failure('23505');
    });
    await expect(work).rejects.toMatchObject({ code: '23505' });
    expect(runs).toBe(1);
  });

  it('leaves a transaction it was given to its owner: the failure goes up at once', async () => {
    let runs = 0;
    const outer = server()
      .deps.db.transaction()
      .execute((trx) =>
        withTransaction(trx, async () => {
          runs++;
          throw failure('40001');
        }),
      );
    await expect(outer).rejects.toMatchObject({ code: '40001' });
    expect(runs).toBe(1);
  });
});

describe('a concurrency failure that reaches the client', () => {
  it.each(['40P01', '40001'])('answers %s as 409 CONFLICT asking for a retry, never 500', (code) => {
    const error = toApiError(failure(code));
    expect(error.toObject()).toEqual({
      code: 'CONFLICT',
      status: 409,
      message: 'The request met a concurrent change to the same records; retry it',
    });
    expect(error.headers).toEqual({ 'Retry-After': '1' });
  });
});
