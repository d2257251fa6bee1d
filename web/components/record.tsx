import type { ComponentChildren } from 'preact';
import type { Load } from '../lib/forms.js';
import { navigate } from '../lib/router.js';
import { ConfirmButton } from './confirm.js';
import { Badge, ErrorMessage, Link, Loading, Notice, PageHeader } from './ui.js';

/**
 * A page under a list (one bill, a new invoice, an employee): the way back to the list above its
 * title, and, while the record is not there, the page that says it is loading or was refused.
 */

/** The list a page belongs to: where it is and what it is called ("Bills"). */
export interface RecordList {
  to: string;
  name: string;
}

/** The list's link above the page's title and actions. */
export function RecordHeader(props: { list: RecordList; title: string; children?: ComponentChildren }) {
  return (
    <>
      <p class="breadcrumb">
        <Link to={props.list.to}>{props.list.name}</Link>
      </p>
      <PageHeader title={props.title}>{props.children}</PageHeader>
    </>
  );
}

/**
 * The record's page while it loads, or refused with a retry and the way back to its list (when it
 * has one: a business's one loyalty program, its VAT threshold have none).
 */
export function RecordUnavailable(props: { load: Load<unknown>; title: string; list?: RecordList }) {
  const { load, list } = props;
  if (!load.error) return <Loading />;
  return (
    <>
      <PageHeader title={props.title} />
      <ErrorMessage message={load.error} onRetry={load.reload} />
      {list ? (
        <p>
          <Link to={list.to}>Back to {list.name.toLowerCase()}</Link>
        </p>
      ) : null}
    </>
  );
}

/**
 * The record's status below its title: its badge and what the status means, then the last action's
 * refusal and its notice.
 */
export function RecordStatus(props: {
  status: string;
  children: ComponentChildren;
  error?: string | null;
  notice?: ComponentChildren;
}) {
  return (
    <>
      <p class="status-line">
        <Badge value={props.status} /> {props.children}
      </p>
      <ErrorMessage message={props.error} />
      {props.notice ? <Notice kind="success">{props.notice}</Notice> : null}
    </>
  );
}

/**
 * The button deleting the record (`label`, also the confirm button's words unless `confirmLabel`),
 * asking `title` first with what deleting does (`children`); then back to its list.
 */
export function DeleteRecordButton(props: {
  list: RecordList;
  label: string;
  confirmLabel?: string;
  title: string;
  remove: () => Promise<unknown>;
  children: ComponentChildren;
}) {
  return (
    <ConfirmButton
      label={props.label}
      title={props.title}
      confirmLabel={props.confirmLabel ?? props.label}
      onConfirm={async () => {
        await props.remove();
        navigate(props.list.to);
      }}
    >
      {props.children}
    </ConfirmButton>
  );
}
