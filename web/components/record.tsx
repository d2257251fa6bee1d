import type { ComponentChildren } from 'preact';
import type { Load } from '../lib/forms.js';
import { ErrorMessage, Link, Loading, PageHeader } from './ui.js';

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

/** The record's page while it loads, or refused with a retry and the way back to its list. */
export function RecordUnavailable(props: { load: Load<unknown>; title: string; list: RecordList }) {
  const { load, list } = props;
  if (!load.error) return <Loading />;
  return (
    <>
      <PageHeader title={props.title} />
      <ErrorMessage message={load.error} onRetry={load.reload} />
      <p>
        <Link to={list.to}>Back to {list.name.toLowerCase()}</Link>
      </p>
    </>
  );
}
