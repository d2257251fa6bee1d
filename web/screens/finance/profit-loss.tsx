import { unwrap, type finance } from '../../../client/index.js';
import { currencyOf, rangeOf, RANGE_FIELDS, ReportPage } from './report.js';
import { ReportPdf } from './report-pdf.js';
import { Link, ScrollRegion } from '../../components/ui.js';
import { date, money, today } from '../../lib/format.js';
import { useLoad } from '../../lib/forms.js';
import { here } from '../../lib/router.js';
import { api, can } from '../../lib/api.js';

/** Revenue and expenses of the ledger over a range of days (the URL's, this year by default), and the net profit. */

const SECTIONS = [
  {
    id: 'pnl-revenue',
    title: 'Revenue',
    block: 'revenue',
    empty: 'No revenue posted in this range: issued invoices post it.',
  },
  {
    id: 'pnl-expenses',
    title: 'Expenses',
    block: 'expenses',
    empty: 'No expenses posted in this range: recorded bills post them.',
  },
] as const;

const yearStart = () => `${today().slice(0, 4)}-01-01`;

function Section(props: {
  id: string;
  title: string;
  block: finance.ProfitLoss['revenue'];
  currency: string;
  empty: string;
}) {
  return (
    <section aria-labelledby={props.id} class="pnl-section">
      <h2 id={props.id}>{props.title}</h2>
      <ScrollRegion label={`${props.title} by account`}>
        <table class="pnl">
          <caption class="visually-hidden">{props.title} by account</caption>
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Account</th>
              <th scope="col" class="numeric">
                Amount
              </th>
            </tr>
          </thead>
          <tbody>
            {props.block.accounts.length === 0 ? (
              <tr>
                <td colSpan={3} class="muted">
                  {props.empty}
                </td>
              </tr>
            ) : (
              props.block.accounts.map((a) => (
                <tr key={a.code}>
                  <td>{a.code}</td>
                  <td>{a.name}</td>
                  <td class="numeric">{money(a.amount, props.currency)}</td>
                </tr>
              ))
            )}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={2}>
                Total {props.title.toLowerCase()}
              </th>
              <td class="numeric" data-total="">
                {money(props.block.total, props.currency)}
              </td>
            </tr>
          </tfoot>
        </table>
      </ScrollRegion>
    </section>
  );
}

export default function ProfitLoss() {
  const query = here.value.query;
  const { start, end } = rangeOf(query, yearStart);
  const currency = currencyOf(query);
  const load = useLoad(
    async () =>
      (
        await unwrap(
          api.value.finance.reports.getProfitLoss({ query: { start_date: start, end_date: end, currency } }),
        )
      ).data,
    [start, end, currency],
  );
  return (
    <ReportPage
      title="Profit and loss"
      filterLabel="Profit and loss range"
      defaults={{ start_date: start, end_date: end }}
      fields={RANGE_FIELDS}
      load={load}
      actions={
        can('getProfitLossPdf') ? (
          <ReportPdf
            fetch={() =>
              api.value.finance.books.getProfitLossPdf({
                query: { start_date: start, end_date: end, currency },
              })
            }
            fallbackName={`profit-loss-${start}-${end}.pdf`}
            what="the profit and loss report"
          />
        ) : null
      }
    >
      {(data) => (
        <>
          <p class="lead">
            From {date(data.start_date)} to {date(data.end_date)}, in {data.currency}, from the ledger’s
            revenue and expense accounts.
          </p>
          <div class="pnl-grid">
            {SECTIONS.map((section) => (
              <Section key={section.id} {...section} block={data[section.block]} currency={data.currency} />
            ))}
          </div>
          <dl class="totals net-profit">
            <dt class="strong">{data.net_profit < 0 ? 'Net loss' : 'Net profit'}</dt>
            <dd class="strong" data-net="">
              {money(data.net_profit, data.currency)}
            </dd>
          </dl>
          <p class="hint">
            The postings behind these figures are in the{' '}
            <Link to={`/finance/journal?start_date=${data.start_date}&end_date=${data.end_date}`}>
              journal
            </Link>
            .
          </p>
        </>
      )}
    </ReportPage>
  );
}
