import type { ResetSandboxBody, SandboxReset } from '../../../contract/sandbox/index.js';
import { fixedClock } from '../../platform/clock.js';
import { QUEUES, type JobEngine } from '../../platform/jobs.js';
import { inTransaction, type Ctx, type TxCtx } from '../../platform/context.js';
import type { DemoSeed, DomainModule } from '../../platform/module.js';
import { lockClock, setClockOffset } from '../../platform/settings.js';
import { sandboxOnly } from '../guard.js';
import * as queries from './queries.js';

/** The span of the demo business: 18 months up to the sandbox's time. */
const DEMO_MONTHS = 18;

/**
 * Empties the sandbox in one transaction (its row locked, so an advance of its clock waits): every
 * row of its data goes, its keys, tokens, webhook endpoints and settings stay, and its clock is back
 * on real time, with what a new business starts with (each module's `restoreDefaults`). With `seed`, each module then fills in its part of the demo business, and the
 * events the demo raised are dropped with it: seeding sends no webhook. `ctx` runs on real time.
 */
export async function resetSandbox(
  ctx: Ctx,
  body: ResetSandboxBody,
  modules: readonly Pick<DomainModule, 'name' | 'seedDemo' | 'restoreDefaults'>[],
): Promise<SandboxReset> {
  await sandboxOnly(ctx);
  return inTransaction(ctx, async (tx) => {
    await lockClock(tx, true);
    let deletedRows = 0;
    for (const group of await queries.resetTables(tx.db)) {
      deletedRows += await queries.deleteRows(tx.db, group, tx.businessId);
    }
    for (const module of modules) await module.restoreDefaults?.(tx);
    await setClockOffset(tx, 0);
    const seeded: Record<string, number> = {};
    if (body.seed) {
      await seedDemo(tx, modules, seeded);
      await queries.deleteRows(tx.db, ['events'], tx.businessId);
    }
    return { deleted_rows: deletedRows, seeded, clock: tx.clock.now().toISOString() };
  });
}

/**
 * The job engine as the seed sees it: the events the demo raises are deleted before the reset
 * commits, so their dispatch jobs are never queued (a third of the seed's statements otherwise).
 */
function withoutDispatch(jobs: JobEngine): JobEngine {
  const quiet = Object.create(jobs) as JobEngine;
  quiet.send = async (trx, name, data) => {
    if (name !== QUEUES.dispatchEvent) await jobs.send(trx, name, data);
  };
  quiet.sendMany = async (trx, name, data) => {
    if (name !== QUEUES.dispatchEvent) await jobs.sendMany(trx, name, data);
  };
  return quiet;
}

/** A small deterministic generator (mulberry32): the same demo on every seed. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

async function seedDemo(
  tx: TxCtx,
  modules: readonly Pick<DomainModule, 'name' | 'seedDemo'>[],
  seeded: Record<string, number>,
): Promise<void> {
  const now = tx.clock.now();
  const start = new Date(now);
  start.setUTCMonth(start.getUTCMonth() - DEMO_MONTHS);
  const quiet = { ...tx, jobs: withoutDispatch(tx.jobs) };
  const seed: DemoSeed = {
    at: (instant) => ({ ...quiet, clock: fixedClock(instant) }),
    start,
    now,
    random: generator(0x5eed),
    count: (kind, n = 1) => {
      seeded[kind] = (seeded[kind] ?? 0) + n;
    },
  };
  for (const module of modules) await module.seedDemo?.(seed);
}
