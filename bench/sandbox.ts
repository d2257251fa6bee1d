/**
 * The staging sandbox's two slow operations, on PostgreSQL and on the embedded database: a reset
 * with the demo business (`POST /v1/sandbox/reset {"seed": true}`) and an advance of its test clock
 * by one year over that data (`POST /v1/sandbox/clock`), which must answer within 10 s.
 *
 *   npx tsx bench/sandbox.ts        (build first: `npm run build`)
 *
 * BENCH_DB=pg|pglite|both (default both), BENCH_ROUNDS (default 5). Each round seeds the sandbox
 * afresh (the reset empties it and puts its clock back on real time), runs VACUUM ANALYZE on
 * PostgreSQL, then advances the clock by 365 days; a first round warms up and is not counted.
 * Figures: the median over rounds, with the spread (min-max). The service runs as a child process
 * on a scratch database (PostgreSQL) or a fresh data directory (PGlite), its worker off.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, unwrap, type Client, sessionOf } from '../client/index.js';
import { benchService, median, report, spawnService, stop, waitHealthy } from './support.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WHICH = process.env.BENCH_DB ?? 'both';
const DAY = 86_400_000;
const TARGET_ADVANCE_MS = 10_000;
const BENCH = 'sandbox';

interface Target {
  name: string;
  client: Client;
  analyze(): Promise<void>;
  close(): Promise<void>;
}

/** Registers a business and signs in to its sandbox. */
async function sandboxClient(baseUrl: string): Promise<Client> {
  const anonymous = createClient({ baseUrl });
  const email = `bench-sandbox-${Date.now()}@example.test`;
  const password = 'bench password 123';
  await unwrap(anonymous.auth.register({ body: { businessName: 'Bench Ltd', email, password } }));
  const data = sessionOf(
    (await unwrap(anonymous.auth.signIn({ body: { email, password, environment: 'sandbox' } }))).data,
  );
  return createClient({ baseUrl, accessToken: data.accessToken });
}

async function onPostgres(): Promise<Target> {
  const service = await benchService(3841);
  return {
    name: 'PostgreSQL',
    client: await sandboxClient(service.baseUrl),
    analyze: async () => {
      await service.data.query('VACUUM ANALYZE');
    },
    close: service.close,
  };
}

async function onPglite(): Promise<Target> {
  const port = 3842;
  const dir = mkdtempSync(join(tmpdir(), 'bms-bench-sandbox-'));
  const child = spawnService({
    DATA_DIR: dir,
    PORT: String(port),
    WORKER_ENABLED: 'false',
    RATE_LIMITS: 'free:100,standard:100000000,enterprise:100000000',
    ANONYMOUS_RATE_LIMIT: '1000000',
  });
  await waitHealthy(port, child);
  return {
    name: 'PGlite',
    client: await sandboxClient(`http://127.0.0.1:${port}`),
    analyze: async () => {},
    close: async () => {
      await stop(child);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const seconds = (ms: number) => (ms / 1000).toFixed(2);
const spread = (values: number[]) => `${seconds(Math.min(...values))}-${seconds(Math.max(...values))} s`;

async function measure(target: Target): Promise<void> {
  const seeds: number[] = [];
  const advances: number[] = [];
  let seeded: Record<string, number> = {};
  let ran: unknown;
  for (let round = 0; round <= ROUNDS; round++) {
    let start = performance.now();
    const reset = (await unwrap(target.client.sandbox.reset.resetSandbox({ body: { seed: true } }))).data;
    const seedMs = performance.now() - start;
    seeded = reset.seeded;
    await target.analyze();
    const clock = (await unwrap(target.client.sandbox.clock.getClock())).data;
    start = performance.now();
    const advanced = await unwrap(
      target.client.sandbox.clock.advanceClock({
        body: { advance_to: new Date(Date.parse(clock.now) + 365 * DAY).toISOString() },
      }),
    );
    const advanceMs = performance.now() - start;
    ran = advanced.data.ran;
    if (round === 0) continue; // warm-up
    seeds.push(seedMs);
    advances.push(advanceMs);
  }
  console.log(`\n${target.name}: ${ROUNDS} rounds after a warm-up`);
  console.log(`  seeded: ${JSON.stringify(seeded)}`);
  console.log(`  a year's due rules: ${JSON.stringify(ran)}`);
  console.log(`  reset with seed:   median ${seconds(median(seeds))} s (spread ${spread(seeds)})`);
  const verdict = median(advances) <= TARGET_ADVANCE_MS ? 'within' : 'OVER';
  console.log(
    `  advance one year:  median ${seconds(median(advances))} s (spread ${spread(advances)}), ${verdict} the 10 s target`,
  );
  report({
    bench: BENCH,
    measure: `${target.name}, advance the clock one year`,
    unit: 's',
    rounds: advances.map((ms) => ms / 1000),
    target: { op: '<=', value: TARGET_ADVANCE_MS / 1000 },
  });
  report({
    bench: BENCH,
    measure: `${target.name}, reset with the demo seed`,
    unit: 's',
    rounds: seeds.map((ms) => ms / 1000),
  });
}

for (const make of [...(WHICH === 'pglite' ? [] : [onPostgres]), ...(WHICH === 'pg' ? [] : [onPglite])]) {
  const target = await make();
  try {
    await measure(target);
  } finally {
    await target.close();
  }
}
