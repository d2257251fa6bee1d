import { BmsApiError, exchange, unwrap } from '../../client/index.js';
import { api, can } from '../lib/api.js';
import { date, minorMoney, rateText } from '../lib/format.js';
import { useBaseCurrency } from '../lib/currencies.js';
import { useLoad } from '../lib/forms.js';
import { allowed as permitted } from '../lib/session.js';
import { Link } from './ui.js';

/**
 * A document in another currency than the base (an invoice, a bill): its total in the base currency
 * at the rate it posts at, as the service posts it: its own `exchange_rate` when it was given one,
 * otherwise the table's of its issue date (`GET /finance/exchange-rates/lookup`), then the one
 * conversion rule of the SDK. Terms of a `dl.facts`; nothing for a document in the base currency,
 * or for a role that does not read the books.
 */
export function BaseEquivalent(props: {
  /** The total in minor units of `currency`. */
  amount: number;
  currency: string;
  /** The issue date; none for a draft not yet dated (today's rate then). */
  date: string | null;
  /** The document's own rate (`exchange_rate`), which it posts at instead of the table's. */
  rate?: string | null;
}) {
  const { amount, currency } = props;
  const own = props.rate ?? null;
  const allowed = can('lookupExchangeRate');
  const load = useLoad(async () => {
    if (!allowed) return null;
    try {
      const query = props.date ? { currency, date: props.date } : { currency };
      return (await unwrap(api.value.finance.exchangeRates.lookupExchangeRate({ query }))).exchange_rate;
    } catch (err) {
      // No rate known yet on that day: said beside the total, with where to set one.
      if (err instanceof BmsApiError && err.status === 404) return 'none' as const;
      throw err;
    }
  }, [allowed, currency, props.date]);
  // A document with its own rate needs no rate of the table, only the base currency: the lookup's,
  // or the business's when the table has no rate of the currency.
  const business = useBaseCurrency();
  const found = load.data;
  if (!found || (found !== 'none' && found.source === 'base')) return null;
  const day = props.date ? 'the issue date' : 'today';
  if (own !== null) {
    const baseCurrency =
      found !== 'none'
        ? found.base_currency
        : permitted('settings.read') && business.loaded
          ? business.currency
          : null;
    if (baseCurrency === null) return null;
    const base = exchange.toBase(amount, currency, baseCurrency, own);
    return (
      <>
        <dt>Total in {baseCurrency}</dt>
        <dd>
          <span data-base-equivalent={base}>{minorMoney(base, baseCurrency)}</span>
          <small class="hint base-rate">
            The base equivalent at {rateText(currency, baseCurrency, own)}, the rate it was given to post at.
          </small>
        </dd>
      </>
    );
  }
  if (found === 'none') {
    return (
      <>
        <dt>In the base currency</dt>
        <dd data-base-equivalent="">
          No rate of {currency} is known on or before {day}
          {can('createExchangeRate') ? (
            <>
              : <Link to="/finance/exchange-rates">set one</Link>
            </>
          ) : null}
          .
        </dd>
      </>
    );
  }
  const base = exchange.toBase(amount, currency, found.base_currency, found.rate);
  return (
    <>
      <dt>Total in {found.base_currency}</dt>
      <dd>
        <span data-base-equivalent={base}>{minorMoney(base, found.base_currency)}</span>
        <small class="hint base-rate">
          The base equivalent at {rateText(currency, found.base_currency, found.rate)}, the rate of{' '}
          {props.date ? 'its issue date' : 'today'}
          {found.rate_date !== found.date ? ` (set on ${date(found.rate_date)})` : ''}
          {props.date ? '' : '; it posts at the rate of the day it is issued'}.
        </small>
      </dd>
    </>
  );
}
