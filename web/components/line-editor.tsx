import type { ComponentChildren } from 'preact';
import { useId } from 'preact/hooks';
import { Button, ScrollRegion } from './ui.js';

/**
 * The lines typed in a form (a bill's items, an invoice's or quote's lines, a journal entry's debits
 * and credits): a table of inputs, a row a line with its remove button, Add below it, and the totals
 * panel beside it.
 */

/** A cell input of a line editor: labelled for screen readers, its error or hint read out with it. */
export function CellInput(props: {
  label: string;
  name: string;
  value: string;
  onValue: (value: string) => void;
  error?: string;
  /** Advice while typing, until a refusal takes its place. */
  hint?: string;
  inputMode?: 'decimal' | 'text';
}) {
  const id = useId();
  const hint = props.error ? undefined : props.hint;
  return (
    <>
      <input
        id={id}
        name={props.name}
        value={props.value}
        aria-label={props.label}
        inputMode={props.inputMode}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={props.error ? `${id}-error` : hint ? `${id}-hint` : undefined}
        onInput={(e) => props.onValue(e.currentTarget.value)}
      />
      <CellError message={props.error} id={`${id}-error`} />
      {!props.error && hint ? (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      ) : null}
    </>
  );
}

/** A refusal under a cell's input, read out as it appears. */
export function CellError(props: { message: string | undefined; id?: string }) {
  return props.message ? (
    <small id={props.id} class="error" role="alert">
      {props.message}
    </small>
  ) : null;
}

/** A choice in a cell (a line's product or account), labelled for screen readers. */
export function CellSelect(props: {
  label: string;
  name: string;
  value: string;
  options: { value: string; label: string }[];
  onValue: (value: string) => void;
  error?: string;
}) {
  return (
    <>
      <select
        aria-label={props.label}
        name={props.name}
        value={props.value}
        aria-invalid={props.error ? 'true' : undefined}
        onChange={(e) => props.onValue(e.currentTarget.value)}
      >
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <CellError message={props.error} />
    </>
  );
}

/** A column of a line editor: its heading, the heading's class, the cell's class and what the cell holds. */
export interface LineColumn<L> {
  label: string;
  class?: string;
  cellClass?: string;
  /** A `data-` attribute naming the cell for tests and styles (`amount`). */
  data?: string;
  cell: (line: L, index: number) => ComponentChildren;
}

/**
 * The lines as a table of inputs: `noun` names a line in the remove buttons ("Remove item 2"), and
 * fewer than `minimum` lines cannot be removed.
 */
export function LineTable<L extends { key: number }>(props: {
  caption: string;
  class?: string;
  noun: string;
  columns: LineColumn<L>[];
  lines: L[];
  minimum?: number;
  onRemove: (key: number) => void;
  onAdd: () => void;
  /** A refusal naming the lines as a whole. */
  error?: string;
}) {
  const { lines, noun } = props;
  return (
    <>
      <ScrollRegion label={props.caption}>
        <table class={props.class ?? 'items-table'}>
          <caption class="visually-hidden">{props.caption}</caption>
          <thead>
            <tr>
              {props.columns.map((column) => (
                <th key={column.label} scope="col" class={column.class}>
                  {column.label}
                </th>
              ))}
              <th scope="col" class="col-remove">
                <span class="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line, index) => (
              <tr key={line.key}>
                {props.columns.map((column) => (
                  <td
                    key={column.label}
                    class={column.cellClass}
                    data-label={column.label}
                    {...(column.data ? { [`data-${column.data}`]: '' } : {})}
                  >
                    {column.cell(line, index)}
                  </td>
                ))}
                <td>
                  <Button
                    aria-label={`Remove ${noun} ${index + 1}`}
                    title={`Remove ${noun} ${index + 1}`}
                    disabled={lines.length <= (props.minimum ?? 1)}
                    onClick={() => props.onRemove(line.key)}
                  >
                    ×
                  </Button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollRegion>
      {props.error ? (
        <p class="error" role="alert">
          {props.error}
        </p>
      ) : null}
      <p>
        <Button onClick={props.onAdd}>Add {noun}</Button>
      </p>
    </>
  );
}

/**
 * The totals as the lines are typed, read out as they change, and what is still missing for them
 * (`hint`) below.
 */
export function TotalsPanel(props: {
  rows: { label: string; value: string; strong?: boolean; data: string; class?: string }[];
  hint?: ComponentChildren;
}) {
  return (
    <div class="totals-panel">
      <dl class="totals" aria-live="polite">
        {props.rows.map((row) => {
          const strong = row.strong ? 'strong' : undefined;
          return [
            <dt key={`${row.data}-label`} class={strong}>
              {row.label}
            </dt>,
            <dd
              key={row.data}
              class={[strong, row.class].filter(Boolean).join(' ') || undefined}
              {...{ [`data-${row.data}`]: '' }}
            >
              {row.value}
            </dd>,
          ];
        })}
      </dl>
      {props.hint}
    </div>
  );
}

/** Replaces the line `key` with its `patch`ed copy. */
export const patchLine = <L extends { key: number }>(lines: L[], key: number, patch: Partial<L>): L[] =>
  lines.map((line) => (line.key === key ? { ...line, ...patch } : line));
