import type { ButtonHTMLAttributes, ComponentChildren, InputHTMLAttributes } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { href, withQuery } from '../lib/router.js';

/** The dashboard's building blocks: labelled fields, buttons, tables, paging, messages. */

export function PageHeader(props: { title: string; children?: ComponentChildren }) {
  return (
    <header class="page-header">
      <h1>{props.title}</h1>
      {props.children ? <div class="actions">{props.children}</div> : null}
    </header>
  );
}

export function Link(props: {
  to: string;
  children: ComponentChildren;
  class?: string;
  'aria-label'?: string;
}) {
  return (
    <a href={href(props.to)} class={props.class} aria-label={props['aria-label']}>
      {props.children}
    </a>
  );
}

interface InputProps {
  label: string;
  name: string;
  error?: string;
  hint?: string;
  value?: string | number;
  onValue?: (value: string) => void;
  type?: 'text' | 'email' | 'password' | 'number' | 'date' | 'url' | 'search' | 'datetime-local';
  autoComplete?: string;
  required?: boolean;
  placeholder?: string;
  min?: string | number;
  max?: string | number;
  step?: string | number;
  inputMode?: 'numeric' | 'decimal' | 'text' | 'email';
  readOnly?: boolean;
  disabled?: boolean;
  /** The id of a <datalist> of suggestions. */
  list?: string;
}

/** A labelled input with its error and hint read out with it. */
export function Field({ label, name, error, hint, onValue, ...input }: InputProps) {
  const id = useId();
  const described = [error ? `${id}-error` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return (
    <div class={`field${error ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      <input
        {...({ ...input, type: input.type ?? 'text' } as InputHTMLAttributes<HTMLInputElement>)}
        id={id}
        name={name}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described || undefined}
        onInput={(e) => onValue?.(e.currentTarget.value)}
      />
      {hint ? (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      ) : null}
      {error ? (
        <small id={`${id}-error`} class="error" role="alert">
          {error}
        </small>
      ) : null}
    </div>
  );
}

export function Select(props: {
  label: string;
  name: string;
  value: string;
  options: readonly (string | { value: string; label: string })[];
  onValue: (value: string) => void;
  error?: string;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div class={`field${props.error ? ' invalid' : ''}`}>
      <label for={id}>{props.label}</label>
      <select
        id={id}
        name={props.name}
        value={props.value}
        disabled={props.disabled}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={props.error ? `${id}-error` : undefined}
        onChange={(e) => props.onValue(e.currentTarget.value)}
      >
        {props.options.map((o) =>
          typeof o === 'string' ? (
            <option key={o} value={o}>
              {o}
            </option>
          ) : (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ),
        )}
      </select>
      {props.error ? (
        <small id={`${id}-error`} class="error" role="alert">
          {props.error}
        </small>
      ) : null}
    </div>
  );
}

export function TextArea(props: {
  label: string;
  name: string;
  value: string;
  onValue: (value: string) => void;
  error?: string;
  hint?: string;
  rows?: number;
}) {
  const id = useId();
  const described = [props.error ? `${id}-error` : '', props.hint ? `${id}-hint` : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div class={`field${props.error ? ' invalid' : ''}`}>
      <label for={id}>{props.label}</label>
      <textarea
        id={id}
        name={props.name}
        rows={props.rows ?? 3}
        value={props.value}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={described || undefined}
        onInput={(e) => props.onValue(e.currentTarget.value)}
      />
      {props.hint ? (
        <small id={`${id}-hint`} class="hint">
          {props.hint}
        </small>
      ) : null}
      {props.error ? (
        <small id={`${id}-error`} class="error" role="alert">
          {props.error}
        </small>
      ) : null}
    </div>
  );
}

export function Button(
  props: ButtonHTMLAttributes<HTMLButtonElement> & {
    kind?: 'primary' | 'secondary' | 'danger';
    busy?: boolean;
  },
) {
  const { kind = 'secondary', busy, children, disabled, ...rest } = props;
  return (
    <button
      type="button"
      class={`button ${kind}`}
      disabled={Boolean(disabled) || busy}
      aria-busy={busy ? 'true' : undefined}
      {...rest}
    >
      {children}
    </button>
  );
}

/** Shown only when loading takes longer than 300 ms, so quick answers do not flicker. */
export function Loading(props: { label?: string }) {
  const [shown, setShown] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setShown(true), 300);
    return () => clearTimeout(timer);
  }, []);
  if (!shown) return null;
  return (
    <p class="loading" role="status">
      <span class="spinner" aria-hidden="true" /> {props.label ?? 'Loading…'}
    </p>
  );
}

export function ErrorMessage(props: { message: string | null | undefined; onRetry?: () => void }) {
  if (!props.message) return null;
  return (
    <div class="message error" role="alert">
      <p>{props.message}</p>
      {props.onRetry ? <Button onClick={props.onRetry}>Try again</Button> : null}
    </div>
  );
}

export function Notice(props: { children: ComponentChildren; kind?: 'info' | 'success' | 'warning' }) {
  return (
    <div class={`message ${props.kind ?? 'info'}`} role="status">
      {props.children}
    </div>
  );
}

/** An empty list: what it would hold and what to do about it. */
export function Empty(props: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p>
        <strong>{props.title}</strong>
      </p>
      {props.children}
    </div>
  );
}

/** A status as a coloured word; `label` when the value's own words are not what people read (a role). */
export function Badge(props: { value: string; label?: string }) {
  return (
    <span class={`badge badge-${props.value.replace(/[^a-z_]/gi, '')}`}>
      {props.label ?? props.value.replace(/_/g, ' ')}
    </span>
  );
}

export interface Column<T> {
  label: string;
  /** The query value that sorts by this column, when it sorts. */
  sort?: string;
  numeric?: boolean;
  render: (row: T) => ComponentChildren;
}

/**
 * The box a wide table scrolls in, sideways, when its screen is narrower than the table (a phone).
 * Only then is it a named region a keyboard can focus, so arrow keys scroll it; a table that fits
 * adds no stop to the tab order.
 */
export function ScrollRegion(props: { label: string; children: ComponentChildren }) {
  const ref = useRef<HTMLDivElement>(null);
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const measure = () => setOverflows(box.scrollWidth > box.clientWidth);
    measure();
    // The box narrows with the window; the table widens as its rows arrive.
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    if (box.firstElementChild) observer.observe(box.firstElementChild);
    return () => observer.disconnect();
  }, []);
  return (
    <div
      ref={ref}
      class="table-wrap"
      role={overflows ? 'region' : undefined}
      aria-label={overflows ? props.label : undefined}
      tabIndex={overflows ? 0 : undefined}
    >
      {props.children}
    </div>
  );
}

/** A table whose sortable headers are links that keep the rest of the query. */
export function Table<T>(props: {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  sort?: string;
}) {
  return (
    <ScrollRegion label={props.caption}>
      <table>
        <caption class="visually-hidden">{props.caption}</caption>
        <thead>
          <tr>
            {props.columns.map((column) => {
              const sorted =
                column.sort && props.sort
                  ? props.sort === column.sort
                    ? 'ascending'
                    : props.sort === `-${column.sort}`
                      ? 'descending'
                      : undefined
                  : undefined;
              return (
                <th
                  key={column.label}
                  scope="col"
                  class={column.numeric ? 'numeric' : undefined}
                  aria-sort={sorted}
                >
                  {column.sort ? (
                    <Link
                      to={withQuery({
                        sort: sorted === 'ascending' ? `-${column.sort}` : column.sort,
                        page: null,
                      })}
                    >
                      {column.label}
                      <span aria-hidden="true">
                        {sorted === 'ascending' ? ' ▲' : sorted === 'descending' ? ' ▼' : ''}
                      </span>
                    </Link>
                  ) : (
                    column.label
                  )}
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {props.rows.map((row) => (
            <tr key={props.rowKey(row)}>
              {props.columns.map((column) => (
                <td key={column.label} class={column.numeric ? 'numeric' : undefined}>
                  {column.render(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/** Previous / next by page number in the URL (`?page=2`). */
export function Pager(props: { page: number; total?: number; totalPages?: number; hasMore?: boolean }) {
  const last = props.totalPages ?? (props.hasMore ? props.page + 1 : props.page);
  if (last <= 1 && props.page <= 1)
    return props.total !== undefined ? <p class="pager">{props.total} in all</p> : null;
  return (
    <nav class="pager" aria-label="Pages">
      {props.page > 1 ? (
        <Link to={withQuery({ page: props.page - 1 === 1 ? null : props.page - 1 })}>← Previous</Link>
      ) : (
        <span />
      )}
      <span>
        Page {props.page}
        {props.totalPages ? ` of ${props.totalPages}` : ''}
        {props.total !== undefined ? ` · ${props.total} in all` : ''}
      </span>
      {props.page < last ? <Link to={withQuery({ page: props.page + 1 })}>Next →</Link> : <span />}
    </nav>
  );
}

/** A secret shown once, with a button that copies it. */
export function Secret(props: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const id = useId();
  return (
    <div class="secret">
      <label for={id}>{props.label}</label>
      <div class="secret-row">
        <input id={id} readOnly value={props.value} onFocus={(e) => e.currentTarget.select()} />
        <Button
          onClick={() => {
            void navigator.clipboard?.writeText(props.value).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      </div>
      <small class="hint">Shown once: store it now. The service keeps only a hash.</small>
    </div>
  );
}

/** A modal dialog (the browser's own, so focus and Escape behave). */
export function Dialog(props: {
  title: string;
  open: boolean;
  onClose: () => void;
  children: ComponentChildren;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (props.open && !dialog.open) dialog.showModal();
    if (!props.open && dialog.open) dialog.close();
  }, [props.open]);
  return (
    <dialog ref={ref} aria-labelledby={id} onClose={props.onClose}>
      <h2 id={id}>{props.title}</h2>
      {props.open ? props.children : null}
    </dialog>
  );
}
