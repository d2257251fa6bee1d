/**
 * A list's view in the URL query: `page`, `sort` as the table headers write it (`name` ascending,
 * `-name` descending) and its filters, so a reload or a bookmark lands on the same rows; and a page
 * as the API's limit and offset. Pure: `useQueryText` (web/lib/router.ts) writes a typed filter back.
 */

/** The page in the query (1 when absent or not a page number). */
export function pageOf(query: URLSearchParams): number {
  const page = Number(query.get('page'));
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** The query's `sort` if it names one of `fields`, as the table header reads it (`-total`). */
export function sortOf<F extends string>(query: URLSearchParams, fields: readonly F[]): string | undefined {
  const sort = query.get('sort') ?? '';
  const field = sort.startsWith('-') ? sort.slice(1) : sort;
  return (fields as readonly string[]).includes(field) ? sort : undefined;
}

/** The header's `-total` as the API's `total:desc` (`total` as `total:asc`). */
export function apiSort(sort: string | undefined): string | undefined {
  if (!sort) return undefined;
  return sort.startsWith('-') ? `${sort.slice(1)}:desc` : `${sort}:asc`;
}

/** A query value if it is one of `values`. */
export function oneOf<V extends string>(
  query: URLSearchParams,
  key: string,
  values: readonly V[],
): V | undefined {
  const value = query.get(key);
  return value !== null && (values as readonly string[]).includes(value) ? (value as V) : undefined;
}

/** Page `page` (from 1) of `size` rows as the API's `limit` and `offset`. */
export const pageQuery = (page: number, size: number) => ({ limit: size, offset: (page - 1) * size });

/** How many pages `total` rows make (1 for none: an empty list is still a page). */
export const pagesOf = (total: number, size: number) => Math.max(1, Math.ceil(total / size));
