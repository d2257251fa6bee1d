import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { ListLoad } from '../lib/list-query.js';
import { can } from '../lib/api.js';
import { ExportButton } from './csv.js';
import { PagedList } from './paged-list.js';
import { StatusTabs } from './status-tabs.js';
import { Button, Dialog, Notice, PageHeader, Table } from './ui.js';

/** A list operation of the contract, as Export CSV takes it. */
type ListRoute = Parameters<typeof ExportButton>[0]['route'];

/**
 * The button that starts a new item, shown to a role that may (`operation`): it runs `onClick`, or
 * opens a dialog titled `title` (its words unless told) holding `form`, given how to close it.
 */
export type CreateAction = {
  operation: Parameters<typeof can>[0];
  label: string;
} & (
  | { onClick: () => void; form?: never }
  | { form: (close: () => void) => ComponentChildren; title?: string; onClick?: never }
);

function CreateButton(props: { create: CreateAction }) {
  const { create } = props;
  const [open, setOpen] = useState(false);
  if (!can(create.operation)) return null;
  const close = () => setOpen(false);
  return (
    <>
      <Button kind="primary" onClick={create.form ? () => setOpen(true) : create.onClick}>
        {create.label}
      </Button>
      {create.form ? (
        <Dialog title={create.title ?? create.label} open={open} onClose={close}>
          {create.form(close)}
        </Dialog>
      ) : null}
    </>
  );
}

/** A list's filter fields, above its rows: they change the URL as they change, so nothing submits. */
export function Filters(props: { label: string; class?: string; children: ComponentChildren }) {
  return (
    <form
      class={props.class ? `filters ${props.class}` : 'filters'}
      role="search"
      aria-label={props.label}
      onSubmit={(e) => e.preventDefault()}
    >
      {props.children}
    </form>
  );
}

/**
 * What an empty list says: its title and words, or words for one who may add (the create button's
 * operation) and for one who may not.
 */
type EmptyWords =
  { title: string; children: ComponentChildren } | { title: string; canAdd: string; cannotAdd: string };

/** The rows as a table: the table's caption, columns, key and sort, its rows the page's. */
type RowsTable<T> = Omit<Parameters<typeof Table<T>>[0], 'rows'>;

/** What a list draws below its filters: PagedList with the empty words and the rows as a table. */
type RowsProps<T> = {
  list: ListLoad<T>;
  filtered?: Parameters<typeof PagedList<T>>[0]['filtered'];
  empty: EmptyWords;
} & (
  { table: RowsTable<T>; children?: never } | { children: (rows: T[]) => ComponentChildren; table?: never }
);

function Rows<T>(props: RowsProps<T> & { mayAdd: boolean }) {
  const { list, empty, table } = props;
  return (
    <PagedList
      error={list.error}
      reload={list.reload}
      data={list.data}
      page={list.page}
      size={list.size}
      filtered={props.filtered}
      empty={
        'children' in empty
          ? empty
          : { title: empty.title, children: <p>{props.mayAdd ? empty.canAdd : empty.cannotAdd}</p> }
      }
    >
      {table ? (rows) => <Table {...table} rows={rows} /> : props.children}
    </PagedList>
  );
}

/**
 * A list screen: its title with Export CSV and the button that adds one, a lead paragraph, the filter
 * tabs and any other filters, the last action's notice, then the rows (PagedList: the refusal, loading,
 * why it is empty, or the rows as `table` or as the caller draws them, and the pager).
 */
export function ListPage<T, R extends ListRoute>(
  props: {
    title: string;
    /** Export CSV of what the list's filters select. */
    export?: Parameters<typeof ExportButton<R>>[0];
    /** Header buttons between Export CSV and the create button. */
    actions?: ComponentChildren;
    create?: CreateAction;
    lead?: ComponentChildren;
    tabs?: Parameters<typeof StatusTabs>[0];
    filters?: ComponentChildren;
    notice?: string | null;
  } & RowsProps<T>,
) {
  const { create } = props;
  return (
    <>
      <PageHeader title={props.title}>
        {props.export ? <ExportButton {...props.export} /> : null}
        {props.actions}
        {create ? <CreateButton create={create} /> : null}
      </PageHeader>
      {props.lead ? <p class="lead">{props.lead}</p> : null}
      {props.tabs ? <StatusTabs {...props.tabs} /> : null}
      {props.filters}
      {props.notice ? <Notice kind="success">{props.notice}</Notice> : null}
      <Rows {...props} mayAdd={create ? can(create.operation) : false} />
    </>
  );
}

/**
 * A list within a detail screen (a member's transactions, a campaign's recipients): a section titled
 * `title` with Export CSV (and any other `actions`) beside it, its tabs, then the rows as on a list
 * screen.
 */
export function ListSection<T, R extends ListRoute>(
  props: {
    /** The heading's id, naming the section. */
    id: string;
    title: string;
    export?: Parameters<typeof ExportButton<R>>[0];
    actions?: ComponentChildren;
    tabs?: Parameters<typeof StatusTabs>[0];
    /** What shows between the tabs and the rows (the last action's notice). */
    before?: ComponentChildren;
  } & RowsProps<T>,
) {
  return (
    <section aria-labelledby={props.id}>
      <div class="section-header">
        <h2 id={props.id}>{props.title}</h2>
        {props.export ? <ExportButton {...props.export} /> : null}
        {props.actions}
      </div>
      {props.tabs ? <StatusTabs {...props.tabs} /> : null}
      {props.before}
      <Rows {...props} mayAdd={false} />
    </section>
  );
}
