import { unwrap } from '../../../client/index.js';
import { ACCOUNT_TYPE_LABELS } from './labels.js';
import { dateOf } from '../../components/filter-form.js';
import { AS_OF_FIELDS, currencyOf, ReportPage, RevalueLink } from './report.js';
import { Empty, Link, Notice, ScrollRegion } from '../../components/ui.js';
import { date, minorMoney } from '../../lib/format.js';
import { useLoad } from '../../lib/forms.js';
import { here } from '../../lib/router.js';
import { api } from '../../lib/api.js';

/** Every account's debits, credits and balance up to a day, in one currency; the totals and whether they agree. */

export default function TrialBalance() {
  const query = here.value.query;
  const asOf = dateOf(query, 'as_of');
  const currency = currencyOf(query);
  const load = useLoad(
    async () =>
      (await unwrap(api.value.finance.accounts.getTrialBalance({ query: { as_of: asOf, currency } }))).data,
    [asOf, currency],
  );
  return (
    <ReportPage
      title="Trial balance"
      filterLabel="Trial balance date and currency"
      fields={AS_OF_FIELDS}
      load={load}
    >
      {(data) => (
        <>
          <p class="lead">
            {currency
              ? `Postings in ${data.currency} dated on or before ${date(data.as_of)}, in their own amounts.`
              : `Postings dated on or before ${date(data.as_of)}, in ${data.currency}: each line of another currency at the rate it posted at.`}
          </p>
          {currency ? null : <RevalueLink asOf={data.as_of} />}
          {data.accounts.length === 0 ? (
            <Empty title="Nothing posted yet">
              <p>
                Accounts show here once entries are posted in {data.currency} up to this day: record a{' '}
                <Link to="/finance/bills">bill</Link>, issue an <Link to="/invoices">invoice</Link> or post a{' '}
                <Link to="/finance/journal">journal entry</Link>.
              </p>
            </Empty>
          ) : (
            <>
              {data.total_debit === data.total_credit ? (
                <Notice kind="success">
                  <span data-balanced="yes">
                    Balanced: debits and credits are both {minorMoney(data.total_debit, data.currency)}.
                  </span>
                </Notice>
              ) : (
                <Notice kind="warning">
                  <span data-balanced="no">
                    Out of balance by{' '}
                    {minorMoney(Math.abs(data.total_debit - data.total_credit), data.currency)}.
                  </span>
                </Notice>
              )}
              <ScrollRegion label={'Trial balance'}>
                <table class="trial-balance">
                  <caption class="visually-hidden">Trial balance as of {date(data.as_of)}</caption>
                  <thead>
                    <tr>
                      <th scope="col">Code</th>
                      <th scope="col">Account</th>
                      <th scope="col">Type</th>
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
                    {data.accounts.map((a) => (
                      <tr key={a.code}>
                        <td>
                          <Link
                            to={`/finance/journal?account=${encodeURIComponent(a.code)}&end_date=${data.as_of}`}
                            aria-label={`Journal of ${a.code} ${a.name}`}
                          >
                            {a.code}
                          </Link>
                        </td>
                        <th scope="row">{a.name}</th>
                        <td>{ACCOUNT_TYPE_LABELS[a.type]}</td>
                        <td class="numeric">{minorMoney(a.debit, data.currency)}</td>
                        <td class="numeric">{minorMoney(a.credit, data.currency)}</td>
                        <td class="numeric">{minorMoney(a.balance, data.currency)}</td>
                      </tr>
                    ))}
                  </tbody>
                  <tfoot>
                    <tr>
                      <th scope="row" colSpan={3}>
                        Total
                      </th>
                      <td class="numeric" data-total-debit="">
                        {minorMoney(data.total_debit, data.currency)}
                      </td>
                      <td class="numeric" data-total-credit="">
                        {minorMoney(data.total_credit, data.currency)}
                      </td>
                      <td />
                    </tr>
                  </tfoot>
                </table>
              </ScrollRegion>
              <p class="hint">
                Balance is on the account’s normal side: debit less credit for assets and expenses, credit
                less debit otherwise.
              </p>
            </>
          )}
        </>
      )}
    </ReportPage>
  );
}
