import type { Insertable, Updateable } from 'kysely';
import { LRUCache } from 'lru-cache';
import { slot } from './state.js';
import type { Ctx, TxCtx } from './context.js';
import type { Executor } from './db/database.js';
import type { BusinessesTable, Environment } from './db/types.js';
import * as queries from './settings.queries.js';

/** What every domain reads of a business's settings (`GET /v1/business` shows them all). */
export interface BusinessSettings {
  /** ISO 4217: the currency wherever a request names none. */
  baseCurrency: string;
  /** IANA time zone: where the business's days begin and end. */
  timezone: string;
  /** `sandbox` for a live business's staging twin: its mail is captured, never sent. */
  environment: Environment;
  /** The month (1-12) the financial year starts in. */
  financialYearStartMonth: number;
}

/** A business without settings of its own (or gone): what a new business starts with. */
export const DEFAULT_SETTINGS: Readonly<BusinessSettings> = Object.freeze({
  baseCurrency: 'USD',
  timezone: 'UTC',
  environment: 'live',
  financialYearStartMonth: 1,
});

/** How long this process reuses a business's settings without reading them again. */
export const SETTINGS_CACHE_MS = 10_000;

/**
 * Settings by business, read at most once per SETTINGS_CACHE_MS, so that defaulting a currency or
 * taking "today" costs no query on the hot paths. A change made through `PATCH /v1/business` is
 * forgotten here at once (`forgetSettings`); other processes see it within the cache time.
 */
const SETTINGS = slot('business settings', () => ({
  cache: new LRUCache<string, BusinessSettings>({ max: 10_000, ttl: SETTINGS_CACHE_MS }),
  /**
   * Raised by every `forgetSettings`: a read that began before a change must not put what it read
   * into the cache after the change forgot it.
   */
  generation: 0,
}));

type SettingsCtx = Pick<Ctx, 'db' | 'businessId' | 'state'>;

/**
 * The business's settings, read on the context's database (inside a transaction, on the
 * transaction: a read beside it would wait for it on the embedded database's one connection).
 */
export async function businessSettings(ctx: SettingsCtx): Promise<BusinessSettings> {
  const held = ctx.state.get(SETTINGS);
  const cached = held.cache.get(ctx.businessId);
  if (cached) return cached;
  const seen = held.generation;
  const row = await queries.findSettings(ctx.db, ctx.businessId);
  if (!row) return DEFAULT_SETTINGS;
  const settings: BusinessSettings = Object.freeze({
    baseCurrency: row.base_currency,
    timezone: row.timezone,
    environment: row.environment,
    financialYearStartMonth: row.financial_year_start_month,
  });
  if (seen === held.generation) held.cache.set(ctx.businessId, settings);
  return settings;
}

/** The business's base currency: the default wherever a request may leave the currency out. */
export async function baseCurrency(ctx: SettingsCtx): Promise<string> {
  return (await businessSettings(ctx)).baseCurrency;
}

/** Drops the business's settings from this service's cache, after they changed. */
function forgetSettings(ctx: Pick<Ctx, 'businessId' | 'state'>): void {
  const held = ctx.state.get(SETTINGS);
  held.generation++;
  held.cache.delete(ctx.businessId);
}

/** Every time zone some business is in. */
export const timeZonesInUse = (db: Executor): Promise<string[]> => queries.timeZonesInUse(db);

/*
 * The tenant registry: `businesses` belongs to the platform (docs/decisions.md D72),
 * so the domains create, read, change and lock a business through these.
 */

export type { BusinessRow } from './settings.queries.js';

/** Records a new business (sign-up and the CLI), on the context's database or transaction. */
export async function createBusinessRow(
  ctx: Pick<Ctx, 'db'>,
  row: Insertable<BusinessesTable>,
): Promise<void> {
  await queries.insertBusiness(ctx.db, row);
}

/** The business as `GET /v1/business` shows it; undefined when it is gone. */
export const findBusiness = (ctx: Pick<Ctx, 'db' | 'businessId'>) =>
  queries.findBusiness(ctx.db, ctx.businessId);

/**
 * Changes the business's settings; the business as it is afterwards (undefined when it is gone).
 * This process forgets the settings it cached at once.
 */
export async function updateBusiness(ctx: SettingsCtx, changes: Updateable<BusinessesTable>) {
  const row = await queries.updateBusiness(ctx.db, ctx.businessId, changes);
  forgetSettings(ctx);
  return row;
}

/**
 * Whether every member of the live business (and its sandbox) needs a second factor to sign in; a
 * restriction, so their access generation is raised with it.
 */
export async function setRequireTwoFactor(ctx: Pick<Ctx, 'db'>, liveBusinessId: string, required: boolean) {
  await queries.setRequireTwoFactor(ctx.db, liveBusinessId, required);
}

/**
 * Raises the access generation of the businesses (and their sandbox twins), in the context's
 * transaction: called with every change that restricts access, so that credentials cached before
 * it are resolved again at their next use in every process (docs/decisions.md D221, "Access
 * changes reach every process").
 */
export const raiseAccessGeneration = (ctx: Pick<Ctx, 'db'>, businessIds: readonly string[]): Promise<void> =>
  queries.raiseAccessGeneration(ctx.db, [...new Set(businessIds)]);

/** The business's access generation as a string; undefined when the business is gone. */
export const accessGeneration = (ctx: Pick<Ctx, 'db' | 'businessId'>): Promise<string | undefined> =>
  queries.findAccessGeneration(ctx.db, ctx.businessId);

/** What a credential carries of its business; undefined when it is gone. */
export async function businessAccess(ctx: Pick<Ctx, 'db' | 'businessId'>): Promise<
  | {
      plan: string;
      environment: Environment;
      clockOffsetMs: number;
      teamBusinessId: string;
      requireTwoFactor: boolean;
      accessGeneration: string;
    }
  | undefined
> {
  const row = await queries.findAccess(ctx.db, ctx.businessId);
  return (
    row && {
      plan: row.plan,
      environment: row.environment,
      clockOffsetMs: Number(row.clock_offset_ms),
      // A sandbox's team is its live business's (docs/decisions.md D73).
      teamBusinessId: row.live_business_id ?? ctx.businessId,
      requireTwoFactor: row.require_two_factor,
      accessGeneration: String(row.access_generation),
    }
  );
}

/** Whether the business is a sandbox (its mail captured, never handed to SMTP). */
export const isSandbox = async (ctx: SettingsCtx): Promise<boolean> =>
  (await businessSettings(ctx)).environment === 'sandbox';

/*
 * Sandboxes (docs/decisions.md D73): each live business has at most one twin, a business of its own.
 */

/** The live business's sandbox twin, if it has been made. */
export const existingSandboxOf = async (ctx: Pick<Ctx, 'db'>, liveBusinessId: string) =>
  (await queries.findSandboxOf(ctx.db, liveBusinessId))?.id;

/** The live business's sandbox twin, made with its settings at the first call. */
export async function sandboxOf(ctx: Pick<Ctx, 'db' | 'clock'>, liveBusinessId: string, newTwinId: string) {
  const found = await existingSandboxOf(ctx, liveBusinessId);
  if (found) return found;
  await queries.insertSandboxOf(ctx.db, liveBusinessId, newTwinId, ctx.clock.now());
  return existingSandboxOf(ctx, liveBusinessId);
}

/**
 * Reads the business's environment and clock offset (undefined when it is gone), locking its row
 * until the transaction ends when `forUpdate` (an advance or a reset), sharing it otherwise.
 */
export async function lockClock(ctx: TxCtx, forUpdate: boolean) {
  const row = await queries.lockClock(ctx.db, ctx.businessId, forUpdate);
  return row && { environment: row.environment, clockOffsetMs: Number(row.clock_offset_ms) };
}

/** Moves the sandbox's test clock to `offsetMs` ahead of real time. */
export const setClockOffset = (ctx: TxCtx, offsetMs: number): Promise<void> =>
  queries.setClockOffset(ctx.db, ctx.businessId, offsetMs);

/** The sandboxes whose clock runs ahead, a page at a time. */
export const movedClocks = (ctx: Pick<Ctx, 'db'>, limit: number, after?: string) =>
  queries.movedClocks(ctx.db, limit, after);

/** The business's own email address, where notices about its account go; undefined when it is gone. */
export const businessEmail = (ctx: Pick<Ctx, 'db' | 'businessId'>): Promise<string | undefined> =>
  queries.findEmail(ctx.db, ctx.businessId);

/**
 * Locks the business's row until the transaction ends, so that work that must not run concurrently
 * for one business (checking a per-business limit, then creating) runs one after the other.
 */
export const lockBusiness = (ctx: TxCtx): Promise<void> => queries.lockBusiness(ctx.db, ctx.businessId);
