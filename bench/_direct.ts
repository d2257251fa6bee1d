import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { createClient, unwrap } from '../client/index.js';
import { earn } from '../server/public-loyalty/service.js';
import { scratchDatabase, spawnService, stop, waitHealthy } from './support.js';
const database = await scratchDatabase();
const svc = spawnService({ DATABASE_URL: database.url, PORT: '3852', WORKER_ENABLED: 'false' });
try {
  await waitHealthy(3852, svc);
  const anon = createClient({ baseUrl: 'http://127.0.0.1:3852' });
  const { data: s } = await unwrap(
    anon.auth.register({
      body: { businessName: 'B', email: `b-${database.name}@example.test`, password: 'bench password 123' },
    }),
  );
  const c = createClient({ baseUrl: 'http://127.0.0.1:3852', accessToken: s.accessToken });
  await unwrap(
    c.loyalty.program.createProgram({
      body: {
        name: 'C',
        pointsName: 'P',
        pointsPerCurrency: 10,
        currency: 'USD',
        enrollmentType: 'automatic',
      },
    }),
  );
  const { data: key } = await unwrap(c.auth.createApiKey({ body: { name: 'k' } }));
  const pos = createClient({ baseUrl: 'http://127.0.0.1:3852', apiKey: key.key, maxRetries: 0 });
  await unwrap(pos.publicLoyalty.publicEarn({ body: { email: `m1@x.test`, amount: 1 } }));
  const db = new Kysely<any>({
    dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: database.url, max: 4 }) }),
  });
  const log: any = { child: () => log, info() {}, debug() {}, warn() {}, error() {} };
  const ctx: any = {
    db,
    businessId: s.businessId,
    clock: { now: () => new Date() },
    log,
    requestId: 'x',
    jobs: { sendSoon() {} },
  };
  const time = async (label: string, f: () => Promise<unknown>) => {
    for (let i = 0; i < 50; i++) await f();
    const t = performance.now();
    for (let i = 0; i < 300; i++) await f();
    console.log(label, ((performance.now() - t) / 300).toFixed(2), 'ms');
  };
  await time('earn direct', () => earn(ctx, { email: 'm1@x.test', amount: 1 }));
  await time('select 1', () => sql`select 1`.execute(db));
  await time('insert+commit', () =>
    sql`insert into events (business_id, id, type, data, occurred_at) values (${s.businessId}, ${'evt_' + Math.random()}, 'x', '{}', now())`.execute(
      db,
    ),
  );
  await time('synchronous_commit off insert', async () => {
    await sql`set synchronous_commit = off`.execute(db);
  });
  await db.destroy();
} finally {
  await stop(svc);
  await database.drop();
}
