import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  allOrNothing,
  isolatesFailures,
  refreshStatistics,
  withTransaction,
  type Trx,
} from '../../server/platform/db/database.js';
import { toApiError } from '../../server/platform/errors.js';
import { sweep } from '../../server/platform/sweep.js';
import { onPostgres } from '../support/database.js';
import { captureLog } from '../support/log.js';
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

describe('an all-or-nothing transaction (a sandbox clock advance)', () => {
  const insertThenFail = (trx: Trx, id: number) =>
    withTransaction(trx, async (inner) => {
      await sql`INSERT INTO probe_rows VALUES (${id}, 0)`.execute(inner);
      throw new Error('the nested work failed');
    });
  const has = async (trx: Trx, id: number) =>
    (await sql`SELECT 1 FROM probe_rows WHERE id = ${id}`.execute(trx)).rows.length === 1;

  it('runs nested transactions in it directly: no savepoint undoes a failed one, the failure is its owner’s', async () => {
    const trx = await server().deps.db.startTransaction().execute();
    try {
      // A request's transaction: the nested failure is undone by its savepoint.
      expect(isolatesFailures(trx)).toBe(true);
      await expect(insertThenFail(trx, 10)).rejects.toThrow('the nested work failed');
      expect(await has(trx, 10)).toBe(false);

      const whole = allOrNothing(trx);
      expect(isolatesFailures(whole)).toBe(false);
      await expect(insertThenFail(whole, 11)).rejects.toThrow('the nested work failed');
      expect(await has(whole, 11)).toBe(true);
    } finally {
      await trx.rollback().execute();
    }
  });

  it('ends a sweep at the first failure, where on the database handle the sweep logs it and goes on', async () => {
    const { log, lines } = captureLog();
    const worked: number[] = [];
    const work = async (n: number) => {
      if (n === 2) throw new Error(`item ${n} failed`);
      worked.push(n);
      return 1;
    };
    const failure = { message: 'item failed', describe: (n: number) => ({ n }) };
    expect(await sweep({ db: server().deps.db, log }, [1, 2, 3], failure, work)).toBe(2);
    expect(worked).toEqual([1, 3]);
    expect(lines.map((l) => JSON.parse(l) as { msg: string; n: number })).toContainEqual(
      expect.objectContaining({ msg: 'item failed', n: 2 }),
    );

    worked.length = 0;
    const trx = await server().deps.db.startTransaction().execute();
    try {
      await expect(sweep({ db: allOrNothing(trx), log }, [1, 2, 3], failure, work)).rejects.toThrow(
        'item 2 failed',
      );
      expect(worked).toEqual([1]);
    } finally {
      await trx.rollback().execute();
    }
  });

  it('refreshes the planner statistics of a table with the rows it wrote, still uncommitted', async () => {
    const tuples = async (trx: Trx) =>
      (
        await sql<{
          n: number;
        }>`SELECT reltuples::int AS n FROM pg_class WHERE relname = 'probe_rows'`.execute(trx)
      ).rows[0]!.n;
    const trx = await server().deps.db.startTransaction().execute();
    try {
      await sql`INSERT INTO probe_rows SELECT g, 0 FROM generate_series(100, 2099) AS g`.execute(trx);
      expect(await tuples(trx)).toBeLessThan(2000);
      await refreshStatistics(trx, ['probe_rows' as never]);
      expect(await tuples(trx)).toBeGreaterThanOrEqual(2000);
    } finally {
      await trx.rollback().execute();
    }
  });

  it(`goes on with lock_timeout as it was${
    onPostgres
      ? ', skipping the refresh while another transaction holds the statistics lock'
      : ' (PGlite: no other transaction can hold the lock)'
  }`, async () => {
    const { db } = server().deps;
    const holder = onPostgres ? await db.startTransaction().execute() : undefined;
    const trx = await db.startTransaction().execute();
    try {
      if (holder) await sql`ANALYZE probe_rows`.execute(holder);
      await sql`SET LOCAL lock_timeout = '7s'`.execute(trx);
      // Waiting for the holder would end in a lock timeout of 7 s, thrown here.
      await refreshStatistics(trx, ['probe_rows' as never]);
      const { rows } = await sql<{ t: string }>`SELECT current_setting('lock_timeout') AS t`.execute(trx);
      expect(rows[0]!.t).toBe('7s');
      expect(await has(trx, 1)).toBe(true);
    } finally {
      await trx.rollback().execute();
      await holder?.rollback().execute();
    }
  });
});
