import { contract, unwrap, type finance } from '../../../client/index.js';
import { dateOf } from '../../components/filter-form.js';
import { ExportButton } from '../../components/csv.js';
import { AS_OF_FIELDS, currencyOf, ReportPage } from './report.js';
import { Empty, Link, ScrollRegion } from '../../components/ui.js';
import { date, minorMoney, today, number } from '../../lib/format.js';
import { useLoad } from '../../lib/forms.js';
import { here, href } from '../../lib/router.js';
import { api } from '../../lib/api.js';
import { allowed } from '../../lib/session.js';

/**
 * Aged receivables (what customers owe) and aged payables (what the business owes its vendors) at the
 * end of a day, each customer or vendor in buckets of days past the due date, the bucket totals as
 * bars with their amounts; one screen, two paths, a switch between them keeping the day and currency.
 */

const BUCKETS: { key: finance.AgeingBucket; label: string }[] = [
  { key: 'current', label: 'Current' },
  { key: 'days_1_30', label: '1–30 days' },
  { key: 'days_31_60', label: '31–60 days' },
  { key: 'days_61_90', label: '61–90 days' },
  { key: 'days_over_90', label: 'Over 90 days' },
];

type Side = 'receivables' | 'payables';

const PATHS: Record<Side, string> = {
  receivables: '/finance/aged-receivables',
  payables: '/finance/aged-payables',
};

/** A customer's or a vendor's row, as the table shows it. */
interface Row extends finance.AgeingTotals {
  id: string;
  name: string;
  documents: number;
  to: string | null;
}

interface Ageing {
  data: { as_of: string; currency: string; totals: finance.AgeingTotals };
  rows: Row[];
}

async function loadAgeing(side: Side, query: finance.AgeingQuery): Promise<Ageing> {
  const books = api.value.finance.books;
  if (side === 'receivables') {
    const answer = await unwrap(books.getAgedReceivables({ query }));
    const canOpen = allowed('customers.read');
    return {
      data: answer.data,
      rows: answer.customers.map((c) => ({
        ...c,
        id: c.customer_id,
        name: c.customer_name,
        documents: c.invoices,
        to: canOpen ? `/customers/${c.customer_id}` : null,
      })),
    };
  }
  const answer = await unwrap(books.getAgedPayables({ query }));
  return {
    data: answer.data,
    rows: answer.vendors.map((v) => ({
      ...v,
      id: v.vendor_id,
      name: v.vendor_name,
      documents: v.bills,
      to: `/finance/bills?vendor_id=${v.vendor_id}`,
    })),
  };
}

/** The bucket totals as bars, each with its amount written beside it. */
function BucketBars(props: { totals: finance.AgeingTotals; currency: string; title: string }) {
  const largest = Math.max(1, ...BUCKETS.map((b) => Math.abs(props.totals[b.key])));
  return (
    <figure class="bucket-bars">
      <figcaption>{props.title}</figcaption>
      <ul>
        {BUCKETS.map((b) => {
          const amount = props.totals[b.key];
          return (
            <li key={b.key} data-bucket={b.key}>
              <span class="bucket-label">{b.label}</span>
              <span class="bucket-track" aria-hidden="true">
                <span
                  class={`bucket-bar ${b.key}`}
                  style={{ width: `${(Math.abs(amount) / largest) * 100}%` }}
                />
              </span>
              <span class="numeric bucket-amount">{minorMoney(amount, props.currency)}</span>
            </li>
          );
        })}
      </ul>
    </figure>
  );
}

export default function AgeingReport() {
  const side: Side = here.value.path === PATHS.payables ? 'payables' : 'receivables';
  const query = here.value.query;
  const asOf = dateOf(query, 'as_of');
  const currency = currencyOf(query);
  const request = { as_of: asOf, currency };
  const load = useLoad(() => loadAgeing(side, request), [side, asOf, currency]);
  const words =
    side === 'receivables'
      ? { title: 'Aged receivables', who: 'Customer', documents: 'Invoices', owes: 'customers owe' }
      : { title: 'Aged payables', who: 'Vendor', documents: 'Bills', owes: 'the business owes its vendors' };
  const search = query.toString();
  return (
    <ReportPage
      title={words.title}
      filterLabel={`${words.title} date and currency`}
      defaults={{ as_of: today() }}
      fields={AS_OF_FIELDS}
      load={load}
      actions={
        <ExportButton
          route={
            side === 'receivables'
              ? contract.finance.books.getAgedReceivables
              : contract.finance.books.getAgedPayables
          }
          query={request}
          label="Download CSV"
          what={`the ${words.title.toLowerCase()}`}
        />
      }
    >
      {({ data, rows }) => (
        <>
          <nav class="status-filter" aria-label="Receivables or payables">
            <ul>
              {(['receivables', 'payables'] as const).map((s) => (
                <li key={s}>
                  <a
                    href={href(`${PATHS[s]}${search ? `?${search}` : ''}`)}
                    aria-current={side === s ? 'page' : undefined}
                  >
                    {s === 'receivables' ? 'Receivables' : 'Payables'}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <p class="lead">
            What {words.owes} at the end of {date(data.as_of)}, in {data.currency}, by days past the due date.
          </p>
          <dl class="figures">
            <div>
              <dt>Total open</dt>
              <dd data-total="">{minorMoney(data.totals.total, data.currency)}</dd>
            </div>
            <div>
              <dt>Past due</dt>
              <dd data-overdue="">{minorMoney(data.totals.total - data.totals.current, data.currency)}</dd>
            </div>
          </dl>
          <BucketBars totals={data.totals} currency={data.currency} title="Open by days past due" />
          {rows.length === 0 ? (
            <Empty title="Nothing open on this day">
              <p>
                {side === 'receivables' ? (
                  <>
                    Issued <Link to="/invoices">invoices</Link> not yet paid show here.
                  </>
                ) : (
                  <>
                    Approved <Link to="/finance/bills">bills</Link> not yet paid show here.
                  </>
                )}
              </p>
            </Empty>
          ) : (
            <ScrollRegion label={`${words.title} by ${words.who.toLowerCase()}`}>
              <table class="ageing">
                <caption class="visually-hidden">
                  {words.title} by {words.who.toLowerCase()} as of {date(data.as_of)}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">{words.who}</th>
                    <th scope="col" class="numeric">
                      {words.documents}
                    </th>
                    {BUCKETS.map((b) => (
                      <th key={b.key} scope="col" class="numeric">
                        {b.label}
                      </th>
                    ))}
                    <th scope="col" class="numeric">
                      Total
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map((row) => (
                    <tr key={row.id} data-id={row.id}>
                      <th scope="row">{row.to ? <Link to={row.to}>{row.name}</Link> : row.name}</th>
                      <td class="numeric">{number(row.documents)}</td>
                      {BUCKETS.map((b) => (
                        <td key={b.key} class="numeric">
                          {minorMoney(row[b.key], data.currency)}
                        </td>
                      ))}
                      <td class="numeric strong">{minorMoney(row.total, data.currency)}</td>
                    </tr>
                  ))}
                </tbody>
                <tfoot>
                  <tr>
                    <th scope="row" colSpan={2}>
                      Total
                    </th>
                    {BUCKETS.map((b) => (
                      <td key={b.key} class="numeric">
                        {minorMoney(data.totals[b.key], data.currency)}
                      </td>
                    ))}
                    <td class="numeric">{minorMoney(data.totals.total, data.currency)}</td>
                  </tr>
                </tfoot>
              </table>
            </ScrollRegion>
          )}
        </>
      )}
    </ReportPage>
  );
}
