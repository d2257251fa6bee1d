import { unwrap } from '../../../client/index.js';
import { dateOf } from '../../components/filter-form.js';
import { AS_OF_FIELDS, currencyOf, ReportPage } from './report.js';
import { Link } from '../../components/ui.js';
import { date, minorMoney, percent } from '../../lib/format.js';
import { useLoad } from '../../lib/forms.js';
import { here } from '../../lib/router.js';
import { api } from '../../lib/api.js';

/** Revenue as of a day (the URL's, today by default): year to date, the last 12 months, their average, the year projected. */

export default function Revenue() {
  const query = here.value.query;
  const asOf = dateOf(query, 'as_of');
  const currency = currencyOf(query);
  const load = useLoad(
    async () =>
      (await unwrap(api.value.finance.reports.getRevenueCalculator({ query: { asOfDate: asOf, currency } })))
        .data,
    [asOf, currency],
  );
  return (
    <ReportPage title="Revenue calculator" filterLabel="Revenue as of" fields={AS_OF_FIELDS} load={load}>
      {(data) => (
        <>
          <p class="lead">
            Net invoiced revenue in {data.currency} as of {date(data.asOfDate)}.
          </p>
          <dl class="figures">
            <div>
              <dt>Year to date</dt>
              <dd data-ytd="">{minorMoney(data.ytdRevenue, data.currency)}</dd>
            </div>
            <div>
              <dt>Last 12 months</dt>
              <dd data-rolling="">{minorMoney(data.rolling12MonthRevenue, data.currency)}</dd>
            </div>
            <div>
              <dt>Monthly average</dt>
              <dd data-average="">{minorMoney(data.monthlyAverage, data.currency)}</dd>
            </div>
            <div>
              <dt>Projected for the year</dt>
              <dd data-projected="">{minorMoney(data.projectedAnnual, data.currency)}</dd>
            </div>
          </dl>
          <p class="hint">
            The projection scales the year to date to the whole year by the days elapsed; the monthly average
            is the last 12 months divided by 12.
          </p>
          {data.vatThreshold?.configured ? (
            <section class="panel" aria-labelledby="revenue-vat">
              <h2 id="revenue-vat">VAT threshold</h2>
              <p>
                {percent(data.vatThreshold.percentageReached / 100)} of{' '}
                {minorMoney(data.vatThreshold.thresholdAmount, data.currency)} reached
                {data.vatThreshold.registered
                  ? `; registered${data.vatThreshold.registrationNumber ? ` (${data.vatThreshold.registrationNumber})` : ''}`
                  : data.vatThreshold.projectedCrossingDate
                    ? `; projected to be crossed on ${date(data.vatThreshold.projectedCrossingDate)}`
                    : ''}
                . <Link to="/finance/vat">Open the VAT threshold</Link>
              </p>
            </section>
          ) : (
            <p class="muted">
              No VAT threshold is set up: <Link to="/finance/vat">set one up</Link> to follow it here.
            </p>
          )}
        </>
      )}
    </ReportPage>
  );
}
