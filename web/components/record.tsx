import type { Load } from '../lib/forms.js';
import { ErrorMessage, Link, Loading, PageHeader } from './ui.js';

/**
 * One record's screen (a bill, an invoice, a quote, a customer, an employee) while it is not there:
 * loading, or refused with a retry and the way back to its list.
 */
export function RecordUnavailable(props: {
  load: Load<unknown>;
  title: string;
  back: { to: string; label: string };
}) {
  const { load } = props;
  if (!load.error) return <Loading />;
  return (
    <>
      <PageHeader title={props.title} />
      <ErrorMessage message={load.error} onRetry={load.reload} />
      <p>
        <Link to={props.back.to}>{props.back.label}</Link>
      </p>
    </>
  );
}
