import type { z } from 'zod';
import type { ImportKind } from '../../contract/imports/index.js';
import type { Ctx, TxCtx } from './context.js';

/*
 * What a domain imports from a CSV file (docs/decisions.md D160, D231). The platform's module
 * interface names it (a module's `imports`), so it lives here; the imports module (server/imports/)
 * reads the file and runs the import.
 */

/** What a domain imports, through its own services so that the usual rules and events apply. */
export interface ImportTarget {
  kind: ImportKind;
  /** The create and update bodies' schemas: a row's fields and checks. */
  create: z.ZodObject<z.ZodRawShape>;
  update: z.ZodObject<z.ZodRawShape>;
  /** The field a row is matched to an existing record by. */
  key: 'email' | 'sku' | 'date';
  /**
   * A key of several fields (an exchange rate is of a currency on a date): the row's key, null when
   * its cells cannot make one, and what the key is called where a row repeats an earlier one. Without
   * it, the key is the `key` field's text, trimmed and lower-cased.
   */
  compositeKey?: { of(body: Record<string, unknown>): string | null; name: string };
  /** The ids of the existing records with these keys (lower-cased), by lower-cased key. */
  existing(ctx: Ctx, keys: readonly string[]): Promise<Map<string, string>>;
  createOne(ctx: TxCtx, body: Record<string, unknown>): Promise<{ id: string }>;
  updateOne(ctx: TxCtx, id: string, body: Record<string, unknown>): Promise<{ id: string }>;
  /** Many creations at once, each as `createOne` would make it, ids in order (the large-file path). */
  createMany?(ctx: TxCtx, bodies: readonly Record<string, unknown>[]): Promise<string[]>;
  /**
   * Many updates at once, each as `updateOne` would make it (its rules, events and webhooks), ids in
   * order. A target with both `createMany` and `updateMany` has no rule beyond its schemas and its
   * unique key, so its dry run checks and matches the rows without writing them.
   */
  updateMany?(
    ctx: TxCtx,
    updates: readonly { id: string; body: Record<string, unknown> }[],
  ): Promise<string[]>;
}
