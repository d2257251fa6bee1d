import { useMemo } from 'preact/hooks';
import { unwrap } from '../../client/index.js';
import { useLoad, type Load } from './forms.js';
import { pageOf, pageQuery } from './lists.js';
import { here } from './router.js';

/** A list as PagedList shows it: its rows and count (undefined while loading), or the refusal. */
export interface ListLoad<T> {
  data: { rows: T[]; total: number } | undefined;
  error: string | null;
  reload: () => void;
  /** The page shown (the URL's `?page=`) and its size; a list the service answers whole has neither. */
  page?: number;
  size?: number;
}

/** A list operation's answer, as the SDK gives it before `unwrap`. */
type Answer<D> = Promise<{ status: 200; body: D } | { status: number; body: unknown }>;

/**
 * Loads the page of a list the URL names (`?page=`, `size` rows a page: `paging` is the API's limit
 * and offset) again whenever the page or `deps` change; `pick` says where the answer holds its rows and
 * its count.
 */
export function usePagedList<D, T>(
  size: number,
  /** `paging` for an API paged by offset; `page` for one paged by page number (with `paging.limit`). */
  call: (paging: { limit: number; offset: number }, page: number) => Answer<D>,
  pick: (answer: D) => { rows: T[]; total: number },
  deps: readonly unknown[],
): ListLoad<T> & { answer: D | undefined } {
  const page = pageOf(here.value.query);
  const load = useLoad<D>(() => unwrap(call(pageQuery(page, size), page)), [page, ...deps]);
  // The same answer gives the same rows, so a load that depends on them does not run again.
  const data = useMemo(() => load.data && pick(load.data), [load.data]);
  return { ...load, data, answer: load.data, page, size };
}

/** Loads a list the service answers whole (`pick` finds its rows) whenever `deps` change. */
export function useWholeList<D, T>(
  call: () => Answer<D>,
  pick: (answer: D) => T[],
  deps: readonly unknown[],
): ListLoad<T> & { answer: D | undefined } {
  const load = useLoad<D>(() => unwrap(call()), deps);
  const data = useMemo(() => {
    const rows = load.data && pick(load.data);
    return rows && { rows, total: rows.length };
  }, [load.data]);
  return { ...load, data, answer: load.data };
}

/** A list loaded whole some other way (several calls, a shared load) as PagedList shows it. */
export function listOf<T>(load: Pick<Load<T[]>, 'data' | 'error' | 'reload'>): ListLoad<T> {
  const rows = load.data;
  return { data: rows && { rows, total: rows.length }, error: load.error, reload: load.reload };
}
