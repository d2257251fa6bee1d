import { contract, unwrap, type finance } from '../../../client/index.js';
import { ExportButton } from '../../components/csv.js';
import { Waterfall, type WaterfallStep } from '../../components/waterfall.js';
import { currencyOf, rangeOf, RANGE_FIELDS, ReportPage } from './report.js';
import { Empty, Link, ScrollRegion } from '../../components/ui.js';
import { date, minorMoney, today } from '../../lib/format.js';
import { useLoad } from '../../lib/forms.js';
import { here } from '../../lib/router.js';
import { api } from '../../lib/api.js';

/**
 * Where the cash went over a range of days (the URL's, this year by default): the cash and bank
 * accounts at the start, what moved them by activity (operating: customers, suppliers, tax, other;
 * investing; financing), and the cash at the end; as a waterfall with its figures, and by account.
 */

const yearStart = () => `${today().slice(0, 4)}-01-01`;

const CATEGORY_LABELS: Record<finance.CashFlowCategory, string> = {
  customers: 'Customers',
  suppliers: 'Suppliers',
  tax: 'Tax',
  other: 'Other operating',
  investing: 'Investing',
  financing: 'Financing',
};

const ACTIVITY_LABELS: Record<finance.CashFlowLine['activity'], string> = {
  operating: 'Operating',
  investing: 'Investing',
  financing: 'Financing',
};

/** The statement's steps, from the opening cash to the closing cash. */
const stepsOf = (data: finance.CashFlow): WaterfallStep[] => [
  { label: 'Opening', amount: data.opening_cash, total: true },
  { label: 'Customers', amount: data.operating.customers },
  { label: 'Suppliers', amount: data.operating.suppliers },
  { label: 'Tax', amount: data.operating.tax },
  { label: 'Other', amount: data.operating.other },
  { label: 'Investing', amount: data.investing },
  { label: 'Financing', amount: data.financing },
  { label: 'Closing', amount: data.closing_cash, total: true },
];

function Statement(props: { data: finance.CashFlow }) {
  const { data } = props;
  const show = (minor: number) => minorMoney(minor, data.currency);
  const row = (label: string, amount: number, key: string, level: 'sub' | 'main' | 'total' = 'main') => (
    <tr class={level === 'sub' ? 'sub' : level === 'total' ? 'total' : undefined}>
      <th scope="row">{label}</th>
      <td class="numeric" data-figure={key}>
        {show(amount)}
      </td>
    </tr>
  );
  return (
    <section aria-labelledby="cf-statement" class="pnl-section">
      <h2 id="cf-statement">Statement</h2>
      <table class="pnl cash-flow">
        <caption class="visually-hidden">Cash-flow statement</caption>
        <thead>
          <tr>
            <th scope="col">Activity</th>
            <th scope="col" class="numeric">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {row(`Opening cash on ${date(data.start_date)}`, data.opening_cash, 'opening', 'total')}
          {row('Customers', data.operating.customers, 'customers', 'sub')}
          {row('Suppliers', data.operating.suppliers, 'suppliers', 'sub')}
          {row('Tax', data.operating.tax, 'tax', 'sub')}
          {row('Other operating', data.operating.other, 'other', 'sub')}
          {row('Operating activities', data.operating.total, 'operating')}
          {row('Investing activities', data.investing, 'investing')}
          {row('Financing activities', data.financing, 'financing')}
          {row('Net change in cash', data.net_change, 'net')}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Closing cash on {date(data.end_date)}</th>
            <td class="numeric" data-figure="closing">
              {show(data.closing_cash)}
            </td>
          </tr>
        </tfoot>
      </table>
    </section>
  );
}

export default function CashFlow() {
  const query = here.value.query;
  const { start, end } = rangeOf(query, yearStart);
  const currency = currencyOf(query);
  const request = { start_date: start, end_date: end, currency };
  const load = useLoad(
    async () => unwrap(api.value.finance.books.getCashFlow({ query: request })),
    [start, end, currency],
  );
  return (
    <ReportPage
      title="Cash flow"
      filterLabel="Cash flow range"
      defaults={{ start_date: start, end_date: end }}
      fields={RANGE_FIELDS}
      load={load}
      actions={
        <ExportButton
          route={contract.finance.books.getCashFlow}
          query={request}
          label="Download CSV"
          what="the cash flow"
        />
      }
    >
      {({ data, lines }) => (
        <>
          <p class="lead">
            The cash and bank accounts from {date(data.start_date)} to {date(data.end_date)}, in{' '}
            {data.currency}: money in is positive, money out negative, grouped by the account it moved
            against.
          </p>
          <section aria-labelledby="cf-chart">
            <h2 id="cf-chart">From opening to closing cash</h2>
            <Waterfall title="Cash from opening to closing" steps={stepsOf(data)} currency={data.currency} />
          </section>
          <Statement data={data} />
          <section aria-labelledby="cf-accounts">
            <h2 id="cf-accounts">By account</h2>
            {lines.length === 0 ? (
              <Empty title="No cash moved in this range">
                <p>
                  Payments of invoices and bills, and <Link to="/finance/bank-accounts">bank</Link> statement
                  lines matched to the books, move cash.
                </p>
              </Empty>
            ) : (
              <ScrollRegion label="Cash flow by account">
                <table class="cash-flow-lines">
                  <caption class="visually-hidden">Cash moved against each account</caption>
                  <thead>
                    <tr>
                      <th scope="col">Activity</th>
                      <th scope="col">Group</th>
                      <th scope="col">Code</th>
                      <th scope="col">Account</th>
                      <th scope="col" class="numeric">
                        Amount
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {lines.map((line) => (
                      <tr key={`${line.category}-${line.code}`}>
                        <td>{ACTIVITY_LABELS[line.activity]}</td>
                        <td>{CATEGORY_LABELS[line.category]}</td>
                        <td>
                          <Link
                            to={`/finance/general-ledger?account=${encodeURIComponent(line.code)}&start_date=${data.start_date}&end_date=${data.end_date}`}
                            aria-label={`General ledger of ${line.code} ${line.name}`}
                          >
                            {line.code}
                          </Link>
                        </td>
                        <td>{line.name}</td>
                        <td class="numeric">{minorMoney(line.amount, data.currency)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </ScrollRegion>
            )}
          </section>
        </>
      )}
    </ReportPage>
  );
}
