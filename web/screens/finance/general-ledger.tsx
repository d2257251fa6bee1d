import { contract, unwrap, type finance } from '../../../client/index.js';
import { ExportButton } from '../../components/csv.js';
import { accountOptions, useAccounts } from './chart.js';
import { ACCOUNT_TYPE_LABELS, SOURCE_LABELS } from './labels.js';
import { currencyOf, rangeOf, RANGE_FIELDS, ReportPage } from './report.js';
import { Badge, Empty, Link, Pager, ScrollRegion } from '../../components/ui.js';
import { date, minorMoney, today } from '../../lib/format.js';
import { useLoad } from '../../lib/forms.js';
import { pageOf, pageQuery } from '../../lib/lists.js';
import { here } from '../../lib/router.js';
import { api } from '../../lib/api.js';
import { allowed } from '../../lib/session.js';

/**
 * One account's lines over a range of days (this year by default): the opening balance, each line with
 * its running balance on the account's normal side, the closing balance; paged.
 */

const PAGE_SIZE = 50;

const yearStart = () => `${today().slice(0, 4)}-01-01`;

/** Where the document behind a line can be opened, when the dashboard shows it. */
function sourceOf(source: finance.GeneralLedgerLine['source']) {
  const label = SOURCE_LABELS[source.type];
  if (source.type === 'bill' && allowed('finance.read'))
    return <Link to={`/finance/bills/${source.id}`}>{label}</Link>;
  if (source.type === 'invoice' && allowed('sales.read'))
    return <Link to={`/invoices/${source.id}`}>{label}</Link>;
  if (source.type === 'credit_note' && allowed('sales.read'))
    return <Link to={`/credit-notes/${source.id}`}>{label}</Link>;
  return <Badge value={source.type} label={label} />;
}

export default function GeneralLedger() {
  const query = here.value.query;
  const account = query.get('account') || undefined;
  const { start, end } = rangeOf(query, yearStart);
  const currency = currencyOf(query);
  const page = pageOf(query);
  const accounts = useAccounts();
  const request = { account: account ?? '', start_date: start, end_date: end, currency };
  const load = useLoad(
    async () =>
      account
        ? unwrap(
            api.value.finance.books.getGeneralLedger({
              query: { ...request, ...pageQuery(page, PAGE_SIZE) },
            }),
          )
        : null,
    [account, start, end, currency, page],
  );
  const options = [
    ...accountOptions(accounts.data, 'Choose an account'),
    ...(account && !accounts.data?.some((a) => a.code === account)
      ? [{ value: account, label: account }]
      : []),
  ];
  return (
    <ReportPage
      title="General ledger"
      filterLabel="General ledger account, range and currency"
      defaults={{ start_date: start, end_date: end }}
      fields={[{ key: 'account', label: 'Account', type: 'select', options }, ...RANGE_FIELDS]}
      load={load}
      actions={
        account ? (
          <ExportButton
            route={contract.finance.books.getGeneralLedger}
            query={request}
            label="Download CSV"
            what="the general ledger"
          />
        ) : null
      }
    >
      {(answer) =>
        answer === null ? (
          <Empty title="No account chosen yet">
            <p>
              Pick an account of the <Link to="/finance/accounts">chart of accounts</Link> above to see its
              lines with their running balance.
            </p>
          </Empty>
        ) : (
          <Ledger answer={answer} page={page} />
        )
      }
    </ReportPage>
  );
}

function Ledger(props: {
  answer: { data: finance.GeneralLedger; lines: finance.GeneralLedgerLine[]; total_count: number };
  page: number;
}) {
  const { data, lines, total_count } = props.answer;
  const show = (minor: number) => minorMoney(minor, data.currency);
  const pages = Math.max(1, Math.ceil(total_count / PAGE_SIZE));
  return (
    <>
      <p class="lead">
        {data.account.code} {data.account.name} ({ACCOUNT_TYPE_LABELS[data.account.type].toLowerCase()}) from{' '}
        {date(data.start_date)} to {date(data.end_date)}, in {data.currency}. Balances are on the account’s
        normal side.
      </p>
      <dl class="figures">
        <div>
          <dt>Opening balance</dt>
          <dd data-opening="">{show(data.opening_balance)}</dd>
        </div>
        <div>
          <dt>Debits</dt>
          <dd data-debits="">{show(data.total_debit)}</dd>
        </div>
        <div>
          <dt>Credits</dt>
          <dd data-credits="">{show(data.total_credit)}</dd>
        </div>
        <div>
          <dt>Closing balance</dt>
          <dd data-closing="">{show(data.closing_balance)}</dd>
        </div>
      </dl>
      {lines.length === 0 ? (
        <Empty title="Nothing posted to this account in this range">
          <p>Widen the dates, or choose another account.</p>
        </Empty>
      ) : (
        <>
          <ScrollRegion label={`Lines of ${data.account.code} ${data.account.name}`}>
            <table class="ledger">
              <caption class="visually-hidden">
                Lines of {data.account.code} {data.account.name}
              </caption>
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Description</th>
                  <th scope="col">Source</th>
                  <th scope="col" class="numeric">
                    Debit
                  </th>
                  <th scope="col" class="numeric">
                    Credit
                  </th>
                  <th scope="col" class="numeric">
                    Balance
                  </th>
                </tr>
              </thead>
              <tbody>
                {props.page === 1 ? (
                  <tr class="opening">
                    <td>{date(data.start_date)}</td>
                    <th scope="row" colSpan={4}>
                      Opening balance
                    </th>
                    <td class="numeric">{show(data.opening_balance)}</td>
                  </tr>
                ) : null}
                {lines.map((line, i) => (
                  <tr key={`${line.entry_id}-${i}`} data-entry={line.entry_id}>
                    <td>{date(line.date)}</td>
                    <td>{line.description}</td>
                    <td>{sourceOf(line.source)}</td>
                    <td class="numeric">{line.debit ? show(line.debit) : ''}</td>
                    <td class="numeric">{line.credit ? show(line.credit) : ''}</td>
                    <td class="numeric" data-balance="">
                      {show(line.balance)}
                    </td>
                  </tr>
                ))}
              </tbody>
              {props.page === pages ? (
                <tfoot>
                  <tr>
                    <td>{date(data.end_date)}</td>
                    <th scope="row" colSpan={2}>
                      Closing balance
                    </th>
                    <td class="numeric">{show(data.total_debit)}</td>
                    <td class="numeric">{show(data.total_credit)}</td>
                    <td class="numeric">{show(data.closing_balance)}</td>
                  </tr>
                </tfoot>
              ) : null}
            </table>
          </ScrollRegion>
          <Pager page={props.page} total={total_count} totalPages={pages} />
        </>
      )}
    </>
  );
}
