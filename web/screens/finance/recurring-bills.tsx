import { contract, finance, general } from '../../../client/index.js';
import { everyWords, ScheduleListPage } from '../../components/schedule.js';
import { Badge, Link, type Column } from '../../components/ui.js';
import { date, minorMoney, number } from '../../lib/format.js';
import { usePagedList } from '../../lib/list-query.js';
import { oneOf } from '../../lib/lists.js';
import { statusLabel } from '../../lib/messages.js';
import { here } from '../../lib/router.js';
import { api, can } from '../../lib/api.js';

/** Recurring bills by status (the URL's `status`), paged from the URL. */

const COLUMNS: Column<finance.RecurringBill>[] = [
  {
    label: 'Vendor',
    render: (r) => <Link to={`/finance/recurring-bills/${r.id}`}>{r.vendor_name}</Link>,
  },
  { label: 'Status', render: (r) => <Badge value={r.status} label={statusLabel(r.status)} /> },
  { label: 'Repeats', render: (r) => everyWords(r.interval, r.interval_count) },
  { label: 'Next bill', render: (r) => (r.status === 'active' ? date(r.next_run_on) : '—') },
  { label: 'Each bill', numeric: true, render: (r) => minorMoney(r.amount, r.currency) },
  { label: 'Made', numeric: true, render: (r) => number(r.bills_created) },
];

export default function RecurringBills() {
  const status = oneOf(here.value.query, 'status', general.RECURRING_STATUSES);
  const filters = { status };
  const list = usePagedList(
    20,
    (paging) => api.value.finance.recurringBills.listRecurringBills({ query: { ...paging, ...filters } }),
    (answer) => ({ rows: answer.recurring_bills, total: answer.total_count }),
    [status],
  );
  return (
    <ScheduleListPage
      noun="bill"
      status={status}
      list={list}
      columns={COLUMNS}
      export={{ route: contract.finance.recurringBills.listRecurringBills, query: filters }}
      create={{ allowed: can('createRecurringBill'), to: '/finance/recurring-bills/new' }}
      lead="A vendor's bill recorded on a schedule: pending and posted to the ledger on each date."
      canAdd="Create one for a bill that comes the same every week, month, quarter or year: rent, a subscription."
    />
  );
}
