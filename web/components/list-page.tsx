import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { ListLoad } from '../lib/list-query.js';
import { can } from '../lib/session.js';
import { ExportButton } from './csv.js';
import { PagedList } from './paged-list.js';
import { StatusTabs } from './status-tabs.js';
import { Button, Dialog, Notice, PageHeader } from './ui.js';

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

/**
 * A list screen: its title with Export CSV and the button that adds one, a lead paragraph, the filter
 * tabs and any other filters, the last action's notice, then the rows (PagedList: the refusal, loading,
 * why it is empty, or the caller's table and the pager).
 */
export function ListPage<T, R extends ListRoute>(props: {
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
  list: ListLoad<T>;
  filtered?: Parameters<typeof PagedList<T>>[0]['filtered'];
  empty: Parameters<typeof PagedList<T>>[0]['empty'];
  children: (rows: T[]) => ComponentChildren;
}) {
  const { list } = props;
  return (
    <>
      <PageHeader title={props.title}>
        {props.export ? <ExportButton {...props.export} /> : null}
        {props.actions}
        {props.create ? <CreateButton create={props.create} /> : null}
      </PageHeader>
      {props.lead ? <p class="lead">{props.lead}</p> : null}
      {props.tabs ? <StatusTabs {...props.tabs} /> : null}
      {props.filters}
      {props.notice ? <Notice kind="success">{props.notice}</Notice> : null}
      <PagedList
        error={list.error}
        reload={list.reload}
        data={list.data}
        page={list.page}
        size={list.size}
        filtered={props.filtered}
        empty={props.empty}
      >
        {props.children}
      </PagedList>
    </>
  );
}
