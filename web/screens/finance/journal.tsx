import { Fragment } from 'preact';
import { contract, type finance } from '../../../client/index.js';
import { ListPage } from '../../components/list-page.js';
import { accountName, accountOptions, useAccounts } from './chart.js';
import { dateOf, FilterForm } from '../../components/filter-form.js';
import { SOURCE_LABELS } from './labels.js';
import { Badge, Link, ScrollRegion } from '../../components/ui.js';
import { useBaseCurrency } from '../../lib/currencies.js';
import { date, minorMoney, minorMoneyCode, rateText } from '../../lib/format.js';
import { usePagedList } from '../../lib/list-query.js';
import { here } from '../../lib/router.js';
import { api, can } from '../../lib/api.js';
import { allowed } from '../../lib/session.js';

/**
 * The general journal: every posting, newest date first, between two dates and on one account when
 * the URL says so; paged. Each entry shows its lines, debits then credits; an entry in another
 * currency than the base shows its rate, and each line's base amount under its own.
 */

const PAGE_SIZE = 25;

/** Where the document an entry posts can be opened. */
function sourceLink(entry: finance.JournalEntry) {
  const label = SOURCE_LABELS[entry.source.type];
  if (entry.source.type === 'bill' && allowed('finance.read'))
    return <Link to={`/finance/bills/${entry.source.id}`}>{label}</Link>;
  if (entry.source.type === 'invoice' && allowed('sales.read'))
    return <Link to={`/invoices/${entry.source.id}`}>{label}</Link>;
  return <Badge value={entry.source.type} />;
}

type Line = finance.JournalEntry['debits'][number];

/** A line's amount; in an entry of another currency, its base amount under it, each currency named. */
function LineAmount(props: { line: Line; currency: string; base: string | null }) {
  const { line, currency, base } = props;
  if (base === null) return <>{minorMoney(line.amount, currency)}</>;
  return (
    <>
      <span class="fx-amount">{minorMoneyCode(line.amount, currency)}</span>
      <span class="fx-base" data-base-amount={line.base_amount}>
        {minorMoneyCode(line.base_amount, base)}
      </span>
    </>
  );
}

function EntryRows(props: {
  entry: finance.JournalEntry;
  accounts: finance.Account[] | undefined;
  /** The business's base currency once known. */
  base: string | null;
}) {
  const { entry, accounts } = props;
  // Only an entry in another currency than the base has a base amount worth showing.
  const base = props.base !== null && props.base !== entry.currency ? props.base : null;
  const lines = [
    ...entry.debits.map((l) => ({ ...l, side: 'debit' as const })),
    ...entry.credits.map((l) => ({ ...l, side: 'credit' as const })),
  ];
  const span = lines.length;
  return (
    <>
      {lines.map((line, i) => (
        <tr key={`${entry.id}-${i}`} class={i === 0 ? 'entry-start' : undefined} data-entry={entry.id}>
          {i === 0 ? (
            <>
              <td rowSpan={span}>{date(entry.date)}</td>
              <td rowSpan={span}>
                {entry.description}
                {base ? (
                  <span class="fx-rate" data-rate={entry.exchange_rate}>
                    {rateText(entry.currency, base, entry.exchange_rate)}
                  </span>
                ) : null}
              </td>
              <td rowSpan={span}>{sourceLink(entry)}</td>
            </>
          ) : null}
          <td class={line.side === 'credit' ? 'credit-account' : undefined}>
            {accountName(accounts, line.account)}
          </td>
          <td class="numeric">
            {line.side === 'debit' ? <LineAmount line={line} currency={entry.currency} base={base} /> : ''}
          </td>
          <td class="numeric">
            {line.side === 'credit' ? <LineAmount line={line} currency={entry.currency} base={base} /> : ''}
          </td>
        </tr>
      ))}
    </>
  );
}

export default function Journal() {
  const query = here.value.query;
  const start = dateOf(query, 'start_date');
  const end = dateOf(query, 'end_date');
  const account = query.get('account') || undefined;
  const accounts = useAccounts();
  const baseCurrency = useBaseCurrency();
  const base = baseCurrency.loaded ? baseCurrency.currency : null;
  const filters = { start_date: start, end_date: end, account };
  const list = usePagedList(
    PAGE_SIZE,
    (paging) => api.value.finance.journal.listJournal({ query: { ...paging, ...filters } }),
    (answer) => ({ rows: answer.entries, total: answer.total_count }),
    [start, end, account],
  );
  const canPost = can('createJournalEntry');

  return (
    <ListPage
      title="Journal"
      export={{ route: contract.finance.journal.listJournal, query: filters }}
      actions={
        canPost ? (
          <Link class="button primary" to="/finance/journal/new">
            New journal entry
          </Link>
        ) : null
      }
      notice={query.get('posted') ? 'The entry was posted.' : null}
      filters={
        <FilterForm
          label="Filter the journal"
          fields={[
            { key: 'start_date', label: 'From' },
            { key: 'end_date', label: 'To' },
            {
              key: 'account',
              label: 'Account',
              type: 'select',
              options: [
                ...accountOptions(accounts.data, 'Every account'),
                ...(account && !accounts.data?.some((a) => a.code === account)
                  ? [{ value: account, label: account }]
                  : []),
              ],
            },
          ]}
        />
      }
      list={list}
      filtered={{
        active: Boolean(start || end || account),
        title: 'No entries match these filters',
        before: 'Widen the dates or ',
        clear: ['start_date', 'end_date', 'account'],
        show: 'clear the filters',
      }}
      empty={{
        title: 'The journal is empty',
        children: (
          <p>
            Entries are posted here when a bill is recorded or paid and when an invoice is issued or paid.
            {canPost ? (
              <>
                {' '}
                <Link to="/finance/journal/new">Post a manual entry</Link> for anything else.
              </>
            ) : null}
          </p>
        ),
      }}
    >
      {(entries) => (
        <ScrollRegion label={'Journal entries'}>
          <table class="journal">
            <caption class="visually-hidden">Journal entries</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Description</th>
                <th scope="col">Source</th>
                <th scope="col">Account</th>
                <th scope="col" class="numeric">
                  Debit
                </th>
                <th scope="col" class="numeric">
                  Credit
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <Fragment key={entry.id}>
                  <EntryRows entry={entry} accounts={accounts.data} base={base} />
                </Fragment>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
    </ListPage>
  );
}
