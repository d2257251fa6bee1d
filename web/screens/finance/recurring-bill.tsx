import { useState } from 'preact/hooks';
import { finance, unwrap } from '../../../client/index.js';
import { useNotice } from '../../components/outcome.js';
import { RecordHeader, RecordStatus, RecordUnavailable } from '../../components/record.js';
import { ScheduleActions, ScheduleFacts, scheduleStatusWords } from '../../components/schedule.js';
import { Link, Table } from '../../components/ui.js';
import { dateTime, minorMoney, number } from '../../lib/format.js';
import { useLoad } from '../../lib/forms.js';
import { api, can } from '../../lib/api.js';
import type { ScreenProps } from '../../lib/screen.js';

const RECURRING_BILLS = { to: '/finance/recurring-bills', name: 'Recurring bills' };

/**
 * One recurring bill: its schedule with the next dates, the items each bill is recorded with, how
 * many it recorded (and where to find them), and pause, resume or end.
 */
export default function RecurringBill({ params }: ScreenProps) {
  const id = params.id!;
  const load = useLoad(
    () => unwrap(api.value.finance.recurringBills.getRecurringBill({ params: { id } })),
    [id],
  );
  const [current, setCurrent] = useState<finance.RecurringBill | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const { notice, setNotice } = useNotice();

  if (load.error || !load.data) {
    return <RecordUnavailable load={load} title="Recurring bill" list={RECURRING_BILLS} />;
  }
  const recurring = current && current.id === id ? current : load.data.recurring_bill;
  const calls = api.value.finance.recurringBills;

  return (
    <>
      <RecordHeader list={RECURRING_BILLS} title={`Recurring bill from ${recurring.vendor_name}`}>
        <ScheduleActions
          status={recurring.status}
          noun="bill"
          allowed={can('pauseRecurringBill')}
          pause={async () => (await unwrap(calls.pauseRecurringBill({ params: { id } }))).recurring_bill}
          resume={async () => (await unwrap(calls.resumeRecurringBill({ params: { id } }))).recurring_bill}
          end={async () => (await unwrap(calls.endRecurringBill({ params: { id } }))).recurring_bill}
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
        {scheduleStatusWords(recurring, 'bill')}
      </RecordStatus>
      <section class="panel" aria-labelledby="recurring-details">
        <h2 id="recurring-details">Details</h2>
        <dl class="facts">
          <dt>Vendor</dt>
          <dd>{recurring.vendor_name}</dd>
          <dt>Currency</dt>
          <dd>{recurring.currency}</dd>
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
      <ScheduleFacts schedule={recurring} made={recurring.bills_created} noun="bill" />
      <section aria-labelledby="recurring-items">
        <h2 id="recurring-items">Items of each bill</h2>
        <Table
          caption="Items"
          columns={[
            { label: 'Description', render: (i: finance.RecurringBill['items'][number]) => i.description },
            { label: 'Quantity', numeric: true, render: (i) => i.quantity },
            {
              label: 'Unit price',
              numeric: true,
              render: (i) => minorMoney(i.unit_price, recurring.currency),
            },
            { label: 'Amount', numeric: true, render: (i) => minorMoney(i.amount, recurring.currency) },
          ]}
          rows={recurring.items}
          rowKey={(i) => `${recurring.items.indexOf(i)}`}
        />
        <dl class="totals">
          <dt class="strong">Total</dt>
          <dd class="strong" data-total="">
            {minorMoney(recurring.amount, recurring.currency)}
          </dd>
        </dl>
      </section>
      <section aria-labelledby="recurring-made">
        <h2 id="recurring-made">Bills made</h2>
        <p>
          {recurring.bills_created === 0
            ? 'None yet.'
            : `${number(recurring.bills_created)} so far, each recorded with this schedule named on it.`}{' '}
          {/* The bills list cannot filter by schedule: the vendor's bills hold them (docs/decisions.md D261). */}
          {recurring.bills_created > 0 ? (
            <Link to={`/finance/bills?vendor_id=${recurring.vendor_id}`}>
              See the bills from {recurring.vendor_name}
            </Link>
          ) : null}
        </p>
      </section>
    </>
  );
}
