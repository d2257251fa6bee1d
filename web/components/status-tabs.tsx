import { href, withQuery } from '../lib/router.js';

/** The words a value is shown with when no others are given: `partially_paid` as `Partially paid`. */
export const valueLabel = (value: string): string =>
  (value.charAt(0).toUpperCase() + value.slice(1)).replace(/_/g, ' ');

/**
 * A list's filter tabs: All (or `first`: the list's own default view, such as the lines still to
 * reconcile), then one link per value, each keeping the rest of the query and going back to page 1;
 * the value is the URL's `param` (`status` unless told), the current one marked.
 */
export function StatusTabs(props: {
  label: string;
  values: readonly string[];
  current: string | null | undefined;
  param?: string;
  /** The words of each value (`valueLabel` for any not named). */
  names?: Readonly<Record<string, string>> | ((value: string) => string);
  /** The words of the tab without a value: All unless told. */
  first?: string;
}) {
  const param = props.param ?? 'status';
  const { names } = props;
  const text = (value: string) =>
    (typeof names === 'function' ? names(value) : names?.[value]) ?? valueLabel(value);
  const item = (value: string | null, words: string) => (
    <li key={value ?? 'all'}>
      <a
        href={href(withQuery({ [param]: value, page: null }))}
        aria-current={(props.current ?? null) === value ? 'page' : undefined}
      >
        {words}
      </a>
    </li>
  );
  return (
    <nav class="status-filter" aria-label={props.label}>
      <ul>
        {item(null, props.first ?? 'All')}
        {props.values.map((value) => item(value, text(value)))}
      </ul>
    </nav>
  );
}
