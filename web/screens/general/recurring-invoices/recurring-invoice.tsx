import { general, unwrap } from '../../../../client/index.js';
import { RecordUnavailable } from '../../../components/record.js';
import { ScheduleFacts, ScheduleMade, ScheduleRecord } from '../../../components/schedule.js';
import { Link } from '../../../components/ui.js';
import { dateTime } from '../../../lib/format.js';
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
  if (load.error || !load.data) {
    return <RecordUnavailable load={load} title="Recurring invoice" list={RECURRING_INVOICES} />;
  }
  const calls = api.value.general.recurringInvoices;

  return (
    <ScheduleRecord
      loaded={load.data.data}
      list={RECURRING_INVOICES}
      title={(s) => `Recurring invoice for ${s.customer.name}`}
      noun="invoice"
      allowed={can('pauseRecurringInvoice')}
      pause={async () => (await unwrap(calls.pauseRecurringInvoice({ params: { id } }))).data}
      resume={async () => (await unwrap(calls.resumeRecurringInvoice({ params: { id } }))).data}
      end={async () => (await unwrap(calls.endRecurringInvoice({ params: { id } }))).data}
    >
      {(recurring) => <RecurringInvoiceBody recurring={recurring} />}
    </ScheduleRecord>
  );
}

function RecurringInvoiceBody({ recurring }: { recurring: general.RecurringInvoice }) {
  const customer = recurring.customer;
  return (
    <>
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
      <ScheduleMade
        made={recurring.invoices_created}
        noun="invoice"
        how="issued"
        where={{ to: `/invoices?customer_id=${customer.id}`, name: `See ${customer.name}’s invoices` }}
      />
    </>
  );
}
