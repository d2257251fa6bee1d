import { useState } from 'preact/hooks';
import { general, unwrap } from '../../../../client/index.js';
import { useNotice } from '../../../components/outcome.js';
import { RecordHeader, RecordStatus, RecordUnavailable } from '../../../components/record.js';
import { ScheduleActions, ScheduleFacts, scheduleStatusWords } from '../../../components/schedule.js';
import { Link } from '../../../components/ui.js';
import { dateTime, number } from '../../../lib/format.js';
import { useLoad } from '../../../lib/forms.js';
import { api, can } from '../../../lib/api.js';
import { allowed } from '../../../lib/session.js';
import type { ScreenProps } from '../../../lib/screen.js';
import { DocumentLines } from '../documents/tables.js';

const RECURRING_INVOICES = { to: '/recurring-invoices', name: 'Recurring invoices' };

/**
 * One recurring invoice: its schedule with the next dates, the lines each invoice is made with, how
 * many it made (and where to find them), and pause, resume or end.
 */
export default function RecurringInvoice({ params }: ScreenProps) {
  const id = params.id!;
  const load = useLoad(
    () => unwrap(api.value.general.recurringInvoices.getRecurringInvoice({ params: { id } })),
    [id],
  );
  const [current, setCurrent] = useState<general.RecurringInvoice | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const { notice, setNotice } = useNotice();

  if (load.error || !load.data) {
    return <RecordUnavailable load={load} title="Recurring invoice" list={RECURRING_INVOICES} />;
  }
  const recurring = current && current.id === id ? current : load.data.data;
  const calls = api.value.general.recurringInvoices;
  const customer = recurring.customer;

  return (
    <>
      <RecordHeader list={RECURRING_INVOICES} title={`Recurring invoice for ${customer.name}`}>
        <ScheduleActions
          status={recurring.status}
          noun="invoice"
          allowed={can('pauseRecurringInvoice')}
          pause={async () => (await unwrap(calls.pauseRecurringInvoice({ params: { id } }))).data}
          resume={async () => (await unwrap(calls.resumeRecurringInvoice({ params: { id } }))).data}
          end={async () => (await unwrap(calls.endRecurringInvoice({ params: { id } }))).data}
          onDone={(next, message) => {
            setCurrent(next);
            setNotice(message);
          }}
          onError={(message) => {
            setActionError(message);
            if (message === null) setNotice(null);
          }}
        />
      </RecordHeader>
      <RecordStatus status={recurring.status} error={actionError} notice={notice}>
        {scheduleStatusWords(recurring, 'invoice')}
      </RecordStatus>
      <section class="panel" aria-labelledby="recurring-details">
        <h2 id="recurring-details">Details</h2>
        <dl class="facts">
          <dt>Customer</dt>
          <dd>
            {allowed('customers.read') ? (
              <Link to={`/customers/${customer.id}`}>{customer.name}</Link>
            ) : (
              customer.name
            )}
          </dd>
          <dt>Currency</dt>
          <dd>{recurring.currency}</dd>
          <dt>Mailed</dt>
          <dd>{recurring.auto_send ? 'Each invoice, to the customer’s email' : 'No: issued only'}</dd>
          <dt>Created</dt>
          <dd>{dateTime(recurring.created_at)}</dd>
          {recurring.notes ? (
            <>
              <dt>Notes</dt>
              <dd class="notes">{recurring.notes}</dd>
            </>
          ) : null}
        </dl>
      </section>
      <ScheduleFacts schedule={recurring} made={recurring.invoices_created} noun="invoice" />
      <section aria-labelledby="recurring-lines">
        <h2 id="recurring-lines">Lines of each invoice</h2>
        <DocumentLines document={recurring} />
      </section>
      <section aria-labelledby="recurring-made">
        <h2 id="recurring-made">Invoices made</h2>
        <p>
          {recurring.invoices_created === 0
            ? 'None yet.'
            : `${number(recurring.invoices_created)} so far, each issued with this schedule named on it.`}{' '}
          {/* The invoices list cannot filter by schedule: the customer's invoices hold them (docs/decisions.md D261). */}
          {recurring.invoices_created > 0 ? (
            <Link to={`/invoices?customer_id=${customer.id}`}>See {customer.name}’s invoices</Link>
          ) : null}
        </p>
      </section>
    </>
  );
}
