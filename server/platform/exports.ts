import { PassThrough } from 'node:stream';
import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { stringify } from 'csv-stringify/sync';
import type { Request, Response } from 'express';
import type { ControlledTransaction } from 'kysely';
import { csvCell, csvListingOf, valueAt, type CsvListing } from '../../contract/common/exports.js';
import type { Ctx } from './context.js';
import type { Database } from './db/types.js';
import { ctxOf, type Deps } from './deps.js';
import { invalid } from './errors.js';

/**
 * CSV export of every list (docs/decisions.md D155). A list operation asked for `text/csv` (by `Accept` or
 * `?format=csv`) runs its own handler page after page, with the same filters and order, inside one
 * read-only REPEATABLE READ transaction: the file is one snapshot even while others write, and no row
 * is repeated or skipped between pages. Pages are written as they come, waiting for the client to
 * take each one, so memory stays flat whatever the size. A list too long to page by offset (the
 * journal) names a faster source of the same items.
 */

/** Items per page read for an export. */
export const EXPORT_PAGE_SIZE = 1000;

/** A domain's own way of reading every item of a list, in the list's order, a batch at a time. */
export type ExportSource = (ctx: Ctx, query: Record<string, unknown>) => AsyncIterable<readonly unknown[]>;

type Handler = (args: HandlerArgs) => Promise<{ status: number; body: unknown }>;
interface HandlerArgs {
  query: Record<string, unknown>;
  req: Request;
  res: Response;
  [key: string]: unknown;
}

/** Which format the request asks for: `?format=` first, then `Accept`. */
export function requestedFormat(req: Request): 'json' | 'csv' {
  const format = req.query.format;
  if (format !== undefined) {
    if (format === 'csv' || format === 'json') return format;
    throw invalid('format', 'Expected json or csv');
  }
  if (!req.get('accept')) return 'json';
  return req.accepts(['application/json', 'text/csv']) === 'text/csv' ? 'csv' : 'json';
}

/**
 * The implementation of `router` with every list handler also answering CSV; `sources` gives a list
 * its own reader of items (by its route).
 */
export function withCsvExports<T extends object>(
  deps: Deps,
  router: AppRouter,
  implementation: T,
  sources: ReadonlyMap<AppRoute, ExportSource> = new Map(),
): T {
  const wrapped = { ...implementation } as Record<string, unknown>;
  for (const [name, route] of Object.entries(router)) {
    const own = wrapped[name];
    if (own === undefined) continue;
    if (!isAppRoute(route)) {
      wrapped[name] = withCsvExports(deps, route, own as object, sources);
      continue;
    }
    const listing = csvListingOf(route);
    if (!listing) continue;
    const handler = (typeof own === 'function' ? own : (own as { handler: Handler }).handler) as Handler;
    const exporting: Handler = async (args) =>
      requestedFormat(args.req) === 'csv'
        ? exportCsv(deps, route, listing, handler, args, sources.get(route))
        : handler(args);
    wrapped[name] = typeof own === 'function' ? exporting : { ...(own as object), handler: exporting };
  }
  return wrapped as T;
}

/** `customers-2026-11-26.csv`: the list's last path segment and the day of the export. */
function filenameOf(route: AppRoute, now: Date): string {
  const segment =
    route.path
      .split('/')
      .filter((s) => s && !s.startsWith(':'))
      .at(-1) ?? 'export';
  return `${segment}-${now.toISOString().slice(0, 10)}.csv`;
}

/** A page-based (`page`), offset-based (`offset`) or unpaged list's query for the n-th export page. */
function pageQuery(query: Record<string, unknown>, n: number): Record<string, unknown> | null {
  if ('offset' in query) return { ...query, limit: EXPORT_PAGE_SIZE, offset: n * EXPORT_PAGE_SIZE };
  if ('page' in query) return { ...query, limit: EXPORT_PAGE_SIZE, page: n + 1 };
  return n === 0 ? query : null;
}

async function exportCsv(
  deps: Deps,
  route: AppRoute,
  listing: CsvListing,
  handler: Handler,
  args: HandlerArgs,
  source: ExportSource | undefined,
): Promise<{ status: 200; body: PassThrough }> {
  const { req, res } = args;
  const trx = await deps.db
    .startTransaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute();
  req.transaction = trx;
  const batches = source
    ? source(ctxOf(req, deps), args.query)[Symbol.asyncIterator]()
    : handlerPages(handler, args, listing.itemsField);
  let first: IteratorResult<readonly unknown[]>;
  try {
    // The first page before any byte is sent: a refusal (an unknown segment) is still an error answer.
    first = await batches.next();
  } catch (err) {
    await trx.rollback().execute();
    throw err;
  }
  const out = new PassThrough();
  res.setHeader('Content-Type', 'text/csv; charset=utf-8');
  res.setHeader('Content-Disposition', `attachment; filename="${filenameOf(route, deps.clock.now())}"`);
  void stream(out, res, trx, listing, first, batches).catch((err: unknown) => {
    req.log.error({ err }, 'CSV export failed while streaming');
  });
  return { status: 200, body: out };
}

/** The list's items, page after page, from its own handler. */
async function* handlerPages(
  handler: Handler,
  args: HandlerArgs,
  itemsField: string,
): AsyncGenerator<readonly unknown[]> {
  for (let n = 0; ; n++) {
    const query = pageQuery(args.query, n);
    if (!query) return;
    const result = await handler({ ...args, query });
    const items = (result.body as Record<string, unknown[]>)[itemsField] ?? [];
    yield items;
    // A short page is the last; an unpaged list has no second (pageQuery says so).
    if (items.length < EXPORT_PAGE_SIZE) return;
  }
}

/** Writes the header and every batch as CSV, waiting for the client between batches. */
async function stream(
  out: PassThrough,
  res: Response,
  trx: ControlledTransaction<Database>,
  listing: CsvListing,
  first: IteratorResult<readonly unknown[]>,
  batches: AsyncIterator<readonly unknown[]>,
): Promise<void> {
  let closed = false;
  let wake: (() => void) | undefined;
  res.once('close', () => {
    closed = true;
    wake?.();
  });
  const options = { record_delimiter: 'windows', quoted_match: /[\r\n]/ } as const;
  try {
    out.write(stringify([listing.columns], options));
    const paths = listing.columns.map((column) => column.split('.'));
    for (let next = first; !next.done && !closed; next = await batches.next()) {
      const records = next.value.flatMap((item) =>
        listing.rowsOf(item).map((row) => paths.map((path) => csvCell(valueAt(row, path)))),
      );
      if (records.length > 0 && !out.write(stringify(records, options)) && !closed) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          out.once('drain', resolve);
        });
      }
    }
    await trx.commit().execute();
    out.end();
  } catch (err) {
    await trx
      .rollback()
      .execute()
      .catch(() => undefined);
    // Headers are gone: cutting the connection is how a client learns the file is incomplete.
    res.destroy();
    out.destroy();
    throw err;
  }
}
