import { contract, finance, unwrap } from '../../../client/index.js';
import { ExportButton } from '../../components/csv.js';
import { BILL_STATUS_LABELS } from './labels.js';
import { Badge, Link, PageHeader, Select, Table, type Column } from '../../components/ui.js';
import { date, minorMoney } from '../../lib/format.js';
import { useLoad } from '../../lib/forms.js';
import { oneOf, pageOf, pageQuery } from '../../lib/lists.js';
import { here, navigate, withQuery } from '../../lib/router.js';
import { api, can } from '../../lib/api.js';
import { StatusTabs } from '../../components/status-tabs.js';
import { PagedList } from '../../components/paged-list.js';

/** Bills by status (overdue included), of one vendor or all, paged from the URL. */

const PAGE_SIZE = 20;
const STATUS_ORDER = [
  'draft',
  'pending',
  'overdue',
  'paid',
  'void',
] as const satisfies readonly finance.BillStatus[];

const COLUMNS: Column<finance.BillSummary>[] = [
  {
    label: 'Vendor',
    render: (b) => <Link to={`/finance/bills/${b.id}`}>{b.vendor_name}</Link>,
  },
  { label: 'Status', render: (b) => <Badge value={b.status} /> },
  { label: 'Issued', render: (b) => date(b.issue_date) },
  { label: 'Due', render: (b) => date(b.due_date) },
  { label: 'Amount', numeric: true, render: (b) => minorMoney(b.amount, b.currency) },
  {
    label: 'Amount due',
    numeric: true,
    render: (b) => (b.status === 'void' || b.status === 'draft' ? '—' : minorMoney(b.amount_due, b.currency)),
  },
];

/** With input tax on a bill of the page: its subtotal and tax beside the amount (the total). */
const TAX_COLUMNS: Column<finance.BillSummary>[] = [
  { label: 'Subtotal', numeric: true, render: (b) => minorMoney(b.subtotal, b.currency) },
  { label: 'Tax', numeric: true, render: (b) => minorMoney(b.tax, b.currency) },
];

/** The columns for `rows`: subtotal and tax only when some bill shown has tax. */
function columnsFor(rows: finance.BillSummary[]): Column<finance.BillSummary>[] {
  if (!rows.some((b) => b.tax !== 0)) return COLUMNS;
  const amount = COLUMNS.findIndex((column) => column.label === 'Amount');
  return [...COLUMNS.slice(0, amount), ...TAX_COLUMNS, ...COLUMNS.slice(amount)];
}

export default function Bills() {
  const query = here.value.query;
  const page = pageOf(query);
  const status = oneOf(query, 'status', finance.BILL_STATUSES);
  const vendorId = query.get('vendor_id') || undefined;
  const filters = { status, vendor_id: vendorId };
  const list = useLoad(
    () =>
      unwrap(
        api.value.finance.bills.listBills({
          query: { ...pageQuery(page, PAGE_SIZE), ...filters },
        }),
      ),
    [page, status, vendorId],
  );
  const vendors = useLoad(
    async () => (await unwrap(api.value.finance.vendors.listVendors({ query: { limit: 200 } }))).vendors,
    [],
  );
  const canCreate = can('createBill');
  const vendorOptions = [
    { value: '', label: 'Every vendor' },
    ...(vendors.data ?? []).map((v) => ({ value: v.id, label: v.name })),
  ];
  if (vendorId && !vendorOptions.some((o) => o.value === vendorId)) {
    vendorOptions.push({ value: vendorId, label: vendorId });
  }
  const label = status ? `${BILL_STATUS_LABELS[status]} bills` : 'Bills';

  return (
    <>
      <PageHeader title="Bills">
        <ExportButton route={contract.finance.bills.listBills} query={filters} />
        {canCreate ? (
          <Link
            class="button primary"
            to={vendorId ? `/finance/bills/new?vendor_id=${vendorId}` : '/finance/bills/new'}
          >
            New bill
          </Link>
        ) : null}
      </PageHeader>
      <StatusTabs label="Bill status" values={STATUS_ORDER} names={BILL_STATUS_LABELS} current={status} />
      <div class="filters">
        <Select
          label="Vendor"
          name="vendor_id"
          value={vendorId ?? ''}
          options={vendorOptions}
          onValue={(value) => navigate(withQuery({ vendor_id: value, page: null }))}
        />
      </div>
      <PagedList
        error={list.error}
        reload={list.reload}
        data={list.data && { rows: list.data.bills, total: list.data.total_count }}
        page={page}
        size={PAGE_SIZE}
        filtered={{
          active: !!(status || vendorId),
          title: status
            ? `No ${BILL_STATUS_LABELS[status].toLowerCase()} bills`
            : 'No bills from this vendor',
          clear: ['status', 'vendor_id'],
          show: 'Show every bill',
        }}
        empty={{
          title: 'No bills yet',
          children: (
            <>
              <p>
                {canCreate ? (
                  <>
                    <Link to="/finance/bills/new">Record a bill</Link> when a supplier sends one: it is posted
                    to the ledger once approved, and paid from here.
                  </>
                ) : (
                  'Bills appear here once someone with permission to record them does so.'
                )}
              </p>
            </>
          ),
        }}
      >
        {(rows) => (
          <>
            <Table caption={label} columns={columnsFor(rows)} rows={rows} rowKey={(b) => b.id} />
          </>
        )}
      </PagedList>
    </>
  );
}
