import { useMemo } from 'preact/hooks';
import { finance, unwrap } from '../../../client/index.js';
import { RevenueChart } from '../../components/chart.js';
import { currencyOf, rangeOf, RANGE_FIELDS, ReportPage } from './report.js';
import { Empty, Link, Pager, Table, type Column } from '../../components/ui.js';
import { date, minorMoney, minorMoneyCode, monthStart, number, percent } from '../../lib/format.js';
import { useLoad } from '../../lib/forms.js';
import { oneOf, pageOf, pagesOf } from '../../lib/lists.js';
import { here } from '../../lib/router.js';
import { api } from '../../lib/api.js';
import { useBaseCurrency } from '../../lib/currencies.js';
import { allowed } from '../../lib/session.js';

/**
 * Net invoiced revenue by month, quarter or year over a range (the URL's; the last 12 months by
 * default): the chart with its cumulative line, the figures, the VAT block and the invoices, paged.
 * The sales of one currency in their own amounts (the base by default), or, with `converted=true`,
 * every currency's in the base currency at the rate each invoice posted at (docs/decisions.md D278).
 */

const PAGE_SIZE = 20;
const GROUP_LABELS: Record<(typeof finance.GROUP_BY)[number], string> = {
  month: 'Month',
  quarter: 'Quarter',
  year: 'Year',
};

/** The first day of the month 11 months before the business's this month. */
const defaultStart = (): string => monthStart(11);

type Item = finance.SalesSchedule['items'][number];

export default function SalesSchedule() {
  const query = here.value.query;
  const { start, end } = rangeOf(query, defaultStart);
  const groupBy = oneOf(query, 'group_by', finance.GROUP_BY) ?? 'month';
  const currency = currencyOf(query);
  const converted = query.get('converted') === 'true';
  const base = useBaseCurrency();
  const page = pageOf(query);
  const load = useLoad(
    async () =>
      (
        await unwrap(
          api.value.finance.reports.getSalesSchedule({
            query: {
              startDate: start,
              endDate: end,
              groupBy,
              currency,
              ...(converted ? { converted: true } : {}),
              limit: PAGE_SIZE,
              offset: (page - 1) * PAGE_SIZE,
            },
          }),
        )
      ).data,
    [start, end, groupBy, currency, converted, page],
  );
  const data = load.data;
  const series = useMemo(
    () => ({
      periods: data?.periods.map((p) => p.period) ?? [],
      revenue: data?.periods.map((p) => p.revenue) ?? [],
      cumulative: data?.periods.map((p) => p.cumulative) ?? [],
    }),
    [data],
  );
  const columns: Column<Item>[] = [
    {
      label: 'Invoice',
      render: (i) =>
        allowed('sales.read') ? (
          <Link to={`/invoices/${i.invoiceId}`}>{i.invoiceNumber}</Link>
        ) : (
          i.invoiceNumber
        ),
    },
    { label: 'Customer', render: (i) => i.clientName },
    { label: 'Issued', render: (i) => date(i.issueDate) },
    { label: 'Status', render: (i) => i.status },
    {
      label: 'Net amount',
      numeric: true,
      // Converted, the invoices are in several currencies: each amount names its own.
      render: (i) => (converted ? minorMoneyCode : minorMoney)(i.amount, i.currency),
    },
  ];

  return (
    <ReportPage
      title="Sales schedule"
      filterLabel="Sales schedule range"
      defaults={{ start_date: start, end_date: end, group_by: groupBy }}
      fields={[
        ...RANGE_FIELDS,
        {
          key: 'group_by',
          label: 'Group by',
          type: 'select',
          options: finance.GROUP_BY.map((g) => ({ value: g, label: GROUP_LABELS[g] })),
        },
        {
          key: 'converted',
          label: 'Sales counted',
          type: 'select',
          options: [
            { value: '', label: 'Those in the currency below' },
            { value: 'true', label: `Every currency, converted to ${base.currency}` },
          ],
        },
      ]}
      load={load}
    >
      {(data) => (
        <>
          <dl class="figures">
            <div>
              <dt>Net revenue</dt>
              <dd data-total-revenue="">{minorMoney(data.summary.totalRevenue, data.summary.currency)}</dd>
            </div>
            <div>
              <dt>Invoices</dt>
              <dd data-total-invoices="">{number(data.summary.totalInvoices)}</dd>
            </div>
            <div>
              <dt>Range</dt>
              <dd>
                {date(start)} – {date(end)}
              </dd>
            </div>
            {data.vatThreshold?.configured ? (
              <div>
                <dt>VAT threshold reached</dt>
                <dd>
                  <Link to="/finance/vat">{percent(data.vatThreshold.percentageReached / 100)}</Link>
                </dd>
              </div>
            ) : null}
          </dl>
          {converted ? (
            <p class="hint" data-converted="">
              Every currency's sales in {data.summary.currency}, each at the rate its invoice posted at; the
              invoices below keep their own currency.
            </p>
          ) : null}
          {data.summary.totalInvoices === 0 ? (
            <Empty title="No invoiced revenue in this range">
              <p>
                Issued invoices count here by their issue date, net of tax.{' '}
                {allowed('sales.write') ? <Link to="/invoices/new">Create an invoice</Link> : null}
              </p>
            </Empty>
          ) : (
            <>
              <RevenueChart
                title={`Net revenue by ${groupBy} and cumulative, ${date(start)} to ${date(end)}`}
                currency={data.summary.currency}
                periodName={GROUP_LABELS[groupBy]}
                {...series}
              />
              <h2>Invoices</h2>
              <Table
                caption="Invoices of the range"
                columns={columns}
                rows={data.items}
                rowKey={(i) => i.invoiceId}
              />
              <Pager
                page={page}
                total={data.summary.totalInvoices}
                totalPages={pagesOf(data.summary.totalInvoices, PAGE_SIZE)}
              />
            </>
          )}
        </>
      )}
    </ReportPage>
  );
}
