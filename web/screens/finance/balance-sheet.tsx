import { contract, unwrap, type finance } from '../../../client/index.js';
import { dateOf } from '../../components/filter-form.js';
import { ExportButton } from '../../components/csv.js';
import { AS_OF_FIELDS, currencyOf, ReportPage, RevalueLink } from './report.js';
import { ReportPdf } from './report-pdf.js';
import { Link, Notice, ScrollRegion } from '../../components/ui.js';
import { date, minorMoney, today } from '../../lib/format.js';
import { useLoad } from '../../lib/forms.js';
import { here } from '../../lib/router.js';
import { api, can } from '../../lib/api.js';

/**
 * What the business owns and owes at the end of a day: assets, liabilities and equity by account with
 * their totals, the year's and the retained earnings (computed by the service, never posted), and the
 * check that assets equal liabilities plus equity.
 */

type Section = finance.BalanceSheetLine['section'];

const SECTIONS: { section: Section; title: string; empty: string }[] = [
  { section: 'asset', title: 'Assets', empty: 'No asset holds a balance on this day.' },
  { section: 'liability', title: 'Liabilities', empty: 'Nothing is owed on this day.' },
  { section: 'equity', title: 'Equity', empty: 'No equity on this day.' },
];

function SectionTable(props: {
  title: string;
  lines: finance.BalanceSheetLine[];
  total: number;
  currency: string;
  empty: string;
}) {
  const id = `bs-${props.title.toLowerCase()}`;
  return (
    <section aria-labelledby={id} class="pnl-section">
      <h2 id={id}>{props.title}</h2>
      <ScrollRegion label={`${props.title} by account`}>
        <table class="pnl" data-section={props.title.toLowerCase()}>
          <caption class="visually-hidden">{props.title} by account</caption>
          <thead>
            <tr>
              <th scope="col">Code</th>
              <th scope="col">Account</th>
              <th scope="col" class="numeric">
                Balance
              </th>
            </tr>
          </thead>
          <tbody>
            {props.lines.length === 0 ? (
              <tr>
                <td colSpan={3} class="muted">
                  {props.empty}
                </td>
              </tr>
            ) : (
              props.lines.map((line) => (
                <tr key={line.code ?? line.name} class={line.code === null ? 'computed' : undefined}>
                  <td>
                    {line.code === null ? (
                      <span class="muted">Computed</span>
                    ) : (
                      <Link
                        to={`/finance/general-ledger?account=${encodeURIComponent(line.code)}`}
                        aria-label={`General ledger of ${line.code} ${line.name}`}
                      >
                        {line.code}
                      </Link>
                    )}
                  </td>
                  <td>{line.name}</td>
                  <td class="numeric">{minorMoney(line.balance, props.currency)}</td>
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
                {minorMoney(props.total, props.currency)}
              </td>
            </tr>
          </tfoot>
        </table>
      </ScrollRegion>
    </section>
  );
}

export default function BalanceSheet() {
  const query = here.value.query;
  const asOf = dateOf(query, 'as_of');
  const currency = currencyOf(query);
  const request = { as_of: asOf, currency };
  const load = useLoad(
    async () => unwrap(api.value.finance.books.getBalanceSheet({ query: request })),
    [asOf, currency],
  );
  const data = load.data?.data;
  return (
    <ReportPage
      title="Balance sheet"
      filterLabel="Balance sheet date and currency"
      defaults={{ as_of: today() }}
      fields={AS_OF_FIELDS}
      load={load}
      actions={
        <>
          <ExportButton
            route={contract.finance.books.getBalanceSheet}
            query={request}
            label="Download CSV"
            what="the balance sheet"
          />
          {can('getBalanceSheetPdf') ? (
            <ReportPdf
              fetch={() => api.value.finance.books.getBalanceSheetPdf({ query: request })}
              fallbackName={`balance-sheet-${data?.as_of ?? asOf ?? 'today'}.pdf`}
              what="the balance sheet"
            />
          ) : null}
        </>
      }
    >
      {({ data, lines }) => {
        const totals: Record<Section, number> = {
          asset: data.total_assets,
          liability: data.total_liabilities,
          equity: data.total_equity,
        };
        const balanced = data.total_assets === data.total_liabilities_and_equity;
        return (
          <>
            <p class="lead">
              At the end of {date(data.as_of)}, in {data.currency}. The financial year began on{' '}
              {date(data.financial_year_start)}; its earnings so far and those of earlier years are computed
              from revenue and expenses, not posted.
            </p>
            {currency ? null : <RevalueLink asOf={data.as_of} />}
            {balanced ? (
              <Notice kind="success">
                <span data-balanced="yes">
                  Balanced: assets of {minorMoney(data.total_assets, data.currency)} equal liabilities and
                  equity.
                </span>
              </Notice>
            ) : (
              <Notice kind="warning">
                <span data-balanced="no">
                  Out of balance by{' '}
                  {minorMoney(Math.abs(data.total_assets - data.total_liabilities_and_equity), data.currency)}
                  .
                </span>
              </Notice>
            )}
            <div class="pnl-grid">
              {SECTIONS.map((s) => (
                <SectionTable
                  key={s.section}
                  title={s.title}
                  empty={s.empty}
                  lines={lines.filter((line) => line.section === s.section)}
                  total={totals[s.section]}
                  currency={data.currency}
                />
              ))}
            </div>
            <dl class="totals balance-check">
              <dt>Current year earnings</dt>
              <dd data-earnings="">{minorMoney(data.current_year_earnings, data.currency)}</dd>
              <dt>Retained earnings</dt>
              <dd data-retained="">{minorMoney(data.retained_earnings, data.currency)}</dd>
              <dt>Total assets</dt>
              <dd data-assets="">{minorMoney(data.total_assets, data.currency)}</dd>
              <dt class="strong">Liabilities and equity</dt>
              <dd class="strong" data-liabilities-equity="">
                {minorMoney(data.total_liabilities_and_equity, data.currency)}
              </dd>
            </dl>
          </>
        );
      }}
    </ReportPage>
  );
}
