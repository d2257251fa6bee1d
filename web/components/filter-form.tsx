import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { here, href, navigate, withQuery } from '../lib/router.js';
import { Button, Field, Select } from './ui.js';

/** The filters of the journal, the reports and a customer's statement, whose values live in the URL so a view can be bookmarked. */

/** A filter's field: a date unless it is a choice of `options`. */
export interface FilterField {
  key: string;
  label: string;
  type?: 'date' | 'select';
  options?: { value: string; label: string }[];
}

/** A query value if it is a date (`YYYY-MM-DD`). */
export function dateOf(query: URLSearchParams, key: string): string | undefined {
  const value = query.get(key);
  return value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;
}

/**
 * A filter form whose fields apply together (Apply writes them to the URL, back to page 1), so the
 * view can be bookmarked; Clear removes them.
 */
export function FilterForm(props: {
  label: string;
  fields: FilterField[];
  defaults?: Record<string, string>;
  children?: ComponentChildren;
}) {
  const query = here.value.query;
  const initial = () =>
    Object.fromEntries(props.fields.map((f) => [f.key, query.get(f.key) ?? props.defaults?.[f.key] ?? '']));
  const [values, setValues] = useState<Record<string, string>>(initial);
  const [seen, setSeen] = useState(query.toString());
  // The URL changed under the form (back, a link): the fields follow it.
  if (seen !== query.toString()) {
    setSeen(query.toString());
    setValues(initial());
  }
  const apply = (event: Event) => {
    event.preventDefault();
    const changes: Record<string, string | null> = { page: null };
    for (const f of props.fields) changes[f.key] = values[f.key] || null;
    navigate(withQuery(changes));
  };
  const filtered = props.fields.some((f) => query.get(f.key));
  return (
    <form class="filters" role="search" aria-label={props.label} onSubmit={apply}>
      {props.fields.map((f) =>
        f.type === 'select' ? (
          <Select
            key={f.key}
            label={f.label}
            name={f.key}
            value={values[f.key] ?? ''}
            options={f.options ?? []}
            onValue={(value) => setValues((v) => ({ ...v, [f.key]: value }))}
          />
        ) : (
          <Field
            key={f.key}
            label={f.label}
            name={f.key}
            type="date"
            value={values[f.key] ?? ''}
            onValue={(value) => setValues((v) => ({ ...v, [f.key]: value }))}
          />
        ),
      )}
      {props.children}
      <div class="filter-actions">
        <Button type="submit" kind="primary">
          Apply
        </Button>
        {filtered ? (
          <a
            class="button secondary"
            href={href(
              withQuery({ ...Object.fromEntries(props.fields.map((f) => [f.key, null])), page: null }),
            )}
          >
            Clear
          </a>
        ) : null}
      </div>
    </form>
  );
}
