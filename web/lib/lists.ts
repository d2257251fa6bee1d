import { useEffect, useRef, useState } from 'preact/hooks';
import { here, navigate, withQuery } from './router.js';

/**
 * A list's view in the URL query: `page`, `sort` as the table headers write it (`name` ascending,
 * `-name` descending) and its filters, so a reload or a bookmark lands on the same rows.
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

/**
 * A filter typed in a field: shown at once, written to the URL (replacing the history entry, back to
 * page 1) a moment after the typing stops.
 */
export function useQueryText(key: string, delayMs = 250): [string, (value: string) => void] {
  const fromUrl = here.value.query.get(key) ?? '';
  const [text, setText] = useState(fromUrl);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The URL changed under the field (back, a link): the field follows it.
  useEffect(() => {
    if (timer.current === undefined) setText(fromUrl);
  }, [fromUrl]);
  useEffect(() => () => clearTimeout(timer.current), []);
  const set = (value: string) => {
    setText(value);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      timer.current = undefined;
      navigate(withQuery({ [key]: value.trim(), page: null }), { replace: true });
    }, delayMs);
  };
  return [text, set];
}

/** Page `page` (from 1) of `size` rows as the API's `limit` and `offset`. */
export const pageQuery = (page: number, size: number) => ({ limit: size, offset: (page - 1) * size });

/** How many pages `total` rows make (1 for none: an empty list is still a page). */
export const pagesOf = (total: number, size: number) => Math.max(1, Math.ceil(total / size));
