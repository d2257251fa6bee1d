import type { ComponentChildren } from 'preact';
import { pagesOf } from '../lib/lists.js';
import { withQuery } from '../lib/router.js';
import { Empty, ErrorMessage, Link, Loading, Pager } from './ui.js';

/**
 * A list page's body below its filters: the refusal with a retry, loading, or when nothing came back
 * why (the filter left nothing, the page is past the end, or there is nothing yet), else the rows (the
 * caller's table) and the pager.
 */
export function PagedList<T>(props: {
  error: string | null;
  reload: () => void;
  /** The rows of the page and the total count; undefined while loading. */
  data: { rows: T[]; total: number } | undefined;
  /** The page shown and the page size; a list the service answers whole has neither (and no pager). */
  page?: number;
  size?: number;
  /**
   * When filters in the query are what may leave the list empty: what to say then, the query keys a
   * link clears and its words, and any words before the link ("Check the spelling, or ") and after it
   * (a full stop unless told).
   */
  filtered?: {
    active: boolean;
    title: string;
    clear: readonly string[];
    show: string;
    before?: string;
    after?: string;
  };
  empty: { title: string; children: ComponentChildren };
  children: (rows: T[]) => ComponentChildren;
}) {
  const { data, page = 1, size, filtered } = props;
  if (props.error) return <ErrorMessage message={props.error} onRetry={props.reload} />;
  if (!data) return <Loading />;
  if (data.rows.length === 0) {
    if (filtered?.active) {
      const clear = Object.fromEntries(filtered.clear.map((key) => [key, null]));
      return (
        <Empty title={filtered.title}>
          <p>
            {filtered.before}
            <Link to={withQuery({ ...clear, page: null })}>{filtered.show}</Link>
            {filtered.after ?? '.'}
          </p>
        </Empty>
      );
    }
    if (page > 1) {
      return (
        <Empty title={`There is no page ${page}`}>
          <p>
            <Link to={withQuery({ page: null })}>Go to the first page</Link>.
          </p>
        </Empty>
      );
    }
    return <Empty title={props.empty.title}>{props.empty.children}</Empty>;
  }
  return (
    <>
      {props.children(data.rows)}
      {size ? <Pager page={page} total={data.total} totalPages={pagesOf(data.total, size)} /> : null}
    </>
  );
}
