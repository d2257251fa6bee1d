import { signal } from '@preact/signals';
import { useEffect, useRef, useState } from 'preact/hooks';

/**
 * The dashboard's location under /app: its path and query, a signal every screen reads. Filters,
 * sort and paging live in the query, so a view can be bookmarked and a reload lands on it.
 */

export const BASE = '/app';

export interface Location {
  /** The path below /app, starting with `/`. */
  path: string;
  query: URLSearchParams;
}

function read(): Location {
  const path = location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) || '/' : '/';
  return { path, query: new URLSearchParams(location.search) };
}

export const here = signal<Location>(read());

addEventListener('popstate', () => {
  here.value = read();
});

/** The full URL of a dashboard path (`/invoices?status=paid` becomes `/app/invoices?status=paid`). */
export const href = (to: string): string => (to.startsWith('/') ? `${BASE}${to === '/' ? '' : to}` : to);

/** Goes to a dashboard path; `replace` keeps the history entry (filters typed in a field). */
export function navigate(to: string, options: { replace?: boolean } = {}): void {
  const url = href(to);
  if (url === location.pathname + location.search) return;
  if (options.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  here.value = read();
  if (!options.replace) scrollTo(0, 0);
}

/** The current path with some query parameters changed (empty values removed). */
export function withQuery(changes: Record<string, string | number | undefined | null>): string {
  const query = new URLSearchParams(here.value.query);
  for (const [key, value] of Object.entries(changes)) {
    if (value === undefined || value === null || value === '') query.delete(key);
    else query.set(key, String(value));
  }
  const text = query.toString();
  return `${here.value.path}${text ? `?${text}` : ''}`;
}

/** Matches `/invoices/:id` against a path: the parameters, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const got = path.split('/').filter(Boolean);
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    const w = want[i]!;
    const g = got[i]!;
    if (w.startsWith(':')) params[w.slice(1)] = decodeURIComponent(g);
    else if (w !== g) return null;
  }
  return params;
}

/** Internal links: a click stays in the app (modifier keys still open a new tab). */
export function onLinkClick(event: MouseEvent): void {
  if (
    event.defaultPrevented ||
    event.button !== 0 ||
    event.metaKey ||
    event.ctrlKey ||
    event.shiftKey ||
    event.altKey
  )
    return;
  const anchor = (event.target as Element | null)?.closest?.('a');
  if (!anchor || anchor.target || anchor.hasAttribute('download')) return;
  const url = new URL(anchor.href, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith(BASE)) return;
  event.preventDefault();
  navigate(url.pathname.slice(BASE.length) + url.search || '/');
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
