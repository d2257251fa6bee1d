import { contract, general } from '../../../../client/index.js';
import { everyWords, ScheduleListPage } from '../../../components/schedule.js';
import { Badge, Link, type Column } from '../../../components/ui.js';
import { date, money, number } from '../../../lib/format.js';
import { usePagedList } from '../../../lib/list-query.js';
import { apiSort, oneOf, sortOf } from '../../../lib/lists.js';
import { statusLabel } from '../../../lib/messages.js';
import { here } from '../../../lib/router.js';
import { api, can } from '../../../lib/api.js';

/** Recurring invoices by status (the URL's `status`), sorted and paged from the URL. */

const COLUMNS: Column<general.RecurringInvoice>[] = [
  {
    label: 'Customer',
    render: (r) => <Link to={`/recurring-invoices/${r.id}`}>{r.customer.name}</Link>,
  },
  { label: 'Status', render: (r) => <Badge value={r.status} label={statusLabel(r.status)} /> },
  { label: 'Repeats', render: (r) => everyWords(r.interval, r.interval_count) },
  {
    label: 'Next invoice',
    sort: 'next_run_on',
    render: (r) => (r.status === 'active' ? date(r.next_run_on) : '—'),
  },
  { label: 'Each invoice', numeric: true, render: (r) => money(r.total, r.currency) },
  { label: 'Made', numeric: true, render: (r) => number(r.invoices_created) },
];

export default function RecurringInvoices() {
  const query = here.value.query;
  const sort = sortOf(query, general.RECURRING_SORT_FIELDS);
  const status = oneOf(query, 'status', general.RECURRING_STATUSES);
  const filters = { sort: apiSort(sort), status };
  const list = usePagedList(
    20,
    (paging, page) =>
      api.value.general.recurringInvoices.listRecurringInvoices({
        query: { page, limit: paging.limit, ...filters },
      }),
    (answer) => ({ rows: answer.data, total: answer.pagination.total }),
    [sort, status],
  );
  return (
    <ScheduleListPage
      noun="invoice"
      status={status}
      list={list}
      columns={COLUMNS}
      sort={sort}
      export={{ route: contract.general.recurringInvoices.listRecurringInvoices, query: filters }}
      create={{ allowed: can('createRecurringInvoice'), to: '/recurring-invoices/new' }}
      lead="Invoices made and issued on a schedule: one on each date, numbered and posted as usual."
      canAdd="Create one to bill a customer the same lines every week, month, quarter or year."
    />
  );
}
