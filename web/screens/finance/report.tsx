import type { ComponentChildren } from 'preact';
import { currencyChoices, useBaseCurrency } from '../../lib/currencies.js';
import { can } from '../../lib/api.js';
import { date, today } from '../../lib/format.js';
import type { Load } from '../../lib/forms.js';
import { ErrorMessage, Link, Loading, PageHeader } from '../../components/ui.js';
import { dateOf, FilterForm, type FilterField } from '../../components/filter-form.js';

/**
 * What the finance reports (profit and loss, trial balance, balance sheet, cash flow, ageing, ledger,
 * VAT return, revenue, sales schedule) have in common:
 * days and a currency read from the URL, the filter that sets them, and the report once loaded.
 */

/** The days a report covers: the URL's `start_date` and `end_date`, `from()` to today by default. */
export function rangeOf(query: URLSearchParams, from: () => string): { start: string; end: string } {
  return { start: dateOf(query, 'start_date') ?? from(), end: dateOf(query, 'end_date') ?? today() };
}

/** The filter's fields of a range of days. */
export const RANGE_FIELDS: FilterField[] = [
  { key: 'start_date', label: 'From' },
  { key: 'end_date', label: 'To' },
];

/** The filter's field of a report as of a day (today when empty). */
export const AS_OF_FIELDS: FilterField[] = [{ key: 'as_of', label: 'As of' }];

/** The currency the URL names; none means the business's base currency. */
export const currencyOf = (query: URLSearchParams): string | undefined => query.get('currency') || undefined;

/**
 * Under a report of the whole books as of a day (balance sheet, trial balance): balances held in other
 * currencies are carried at the rates they posted at, and revaluing them at that day's rates is one
 * link away (the exchange rates screen, its day filled in), for a role that may.
 */
export function RevalueLink(props: { asOf: string }) {
  if (!can('createRevaluation')) return null;
  return (
    <p class="hint report-revalue">
      Balances in other currencies are carried at the rates they were posted at.{' '}
      <Link to={`/finance/exchange-rates?revalue=${props.asOf}`}>
        Revalue them at the rates of {date(props.asOf)}
      </Link>
    </p>
  );
}

/** A report: its title, its filter (`fields`, then the currency), and `children` once `load` has the data. */
export function ReportPage<T>(props: {
  title: string;
  filterLabel: string;
  fields: FilterField[];
  defaults?: Record<string, string>;
  load: Load<T>;
  /** Beside the title: the report's downloads (CSV, PDF). */
  actions?: ComponentChildren;
  children: (data: T) => ComponentChildren;
}) {
  const base = useBaseCurrency();
  const { load } = props;
  return (
    <>
      <PageHeader title={props.title}>{props.actions}</PageHeader>
      <FilterForm
        label={props.filterLabel}
        defaults={props.defaults}
        fields={[
          ...props.fields,
          {
            key: 'currency',
            label: 'Currency',
            type: 'select',
            options: currencyChoices(`${base.currency} (base currency)`),
          },
        ]}
      />
      {load.error ? (
        <ErrorMessage message={load.error} onRetry={load.reload} />
      ) : load.data === undefined ? (
        <Loading />
      ) : (
        props.children(load.data)
      )}
    </>
  );
}
