import { useState } from 'preact/hooks';
import { finance, unwrap } from '../../../client/index.js';
import { ImportButton } from '../../components/csv-import.js';
import { FilterForm, dateOf } from '../../components/filter-form.js';
import { PagedList } from '../../components/paged-list.js';
import { Button, ErrorMessage, Field, Notice, PageHeader, Select, Table } from '../../components/ui.js';
import { api, can } from '../../lib/api.js';
import { currencyChoices, currencyOptions, isCurrency, useBaseCurrency } from '../../lib/currencies.js';
import { date, dateTime, rateText, today } from '../../lib/format.js';
import { useDraft, useForm } from '../../lib/forms.js';
import { usePagedList } from '../../lib/list-query.js';
import { summaryOf } from '../../lib/refusals.js';
import { here } from '../../lib/router.js';
import { RATE_SOURCE_LABELS } from './labels.js';
import { RevaluationSection } from './revaluation-section.js';

/**
 * Exchange rates to the base currency: the business's own, by day and currency (filtered, paged), a
 * form that sets one, their CSV import; then revaluation of what is held in other currencies, reached
 * from the balance sheet and the trial balance (`?revalue=` names the day).
 */

const PAGE_SIZE = 20;

function RateForm(props: { base: string; currency: string; onSaved: (rate: finance.ExchangeRate) => void }) {
  const { draft, setDraft, bind } = useDraft(() => ({ date: today(), currency: props.currency, rate: '' }));
  const form = useForm();
  const submit = (event: Event) => {
    event.preventDefault();
    const input = {
      date: draft.date || undefined,
      currency: draft.currency || undefined,
      rate: draft.rate.trim() || undefined,
    };
    void form
      .submit(finance.CreateExchangeRateBodySchema, input, (body) =>
        unwrap(api.value.finance.exchangeRates.createExchangeRate({ body })),
      )
      .then((answer) => {
        if (!answer) return;
        setDraft((d) => ({ ...d, rate: '' }));
        props.onSaved(answer.exchange_rate);
      });
  };
  return (
    <form onSubmit={submit} noValidate class="rate-form" aria-labelledby="rate-set">
      <h2 id="rate-set">Set a rate</h2>
      <div class="rate-fields">
        <Field label="Date" type="date" {...bind('date', form.errors)} />
        <Select
          label="Currency"
          {...bind('currency', form.errors)}
          options={[{ value: '', label: 'Choose a currency' }, ...currencyOptions()]}
        />
        <Field
          label={`Rate in ${props.base}`}
          inputMode="decimal"
          autoComplete="off"
          placeholder="1.0842"
          hint={`What one unit buys in ${props.base}; up to 10 significant digits.`}
          {...bind('rate', form.errors)}
        />
        <div class="rate-submit">
          <Button type="submit" kind="primary" busy={form.busy}>
            Set rate
          </Button>
        </div>
      </div>
      <ErrorMessage message={summaryOf(form)} />
    </form>
  );
}

export default function ExchangeRates() {
  const query = here.value.query;
  const picked = query.get('currency') ?? '';
  const currency = isCurrency(picked) ? picked : undefined;
  const start = dateOf(query, 'start_date');
  const end = dateOf(query, 'end_date');
  const base = useBaseCurrency();
  const [notice, setNotice] = useState<string | null>(null);
  const list = usePagedList(
    PAGE_SIZE,
    (paging) =>
      api.value.finance.exchangeRates.listExchangeRates({
        query: { ...paging, currency, start_date: start, end_date: end },
      }),
    (answer) => ({ rows: answer.exchange_rates, total: answer.total_count }),
    [currency, start, end],
  );
  return (
    <>
      <PageHeader title="Exchange rates">
        <ImportButton kind="exchange_rates" onImported={list.reload} />
      </PageHeader>
      <p class="lead">
        A rate is what one unit of a currency buys in {base.loaded ? `${base.currency}, ` : ''}the base
        currency. A document or entry in another currency posts at the latest rate on or before its date: the
        business’s own, set here or imported, else the daily reference rate. Posted entries keep their rate.
      </p>
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      {can('createExchangeRate') && base.loaded ? (
        <section class="panel">
          <RateForm
            base={base.currency}
            currency={currency ?? ''}
            onSaved={(rate) => {
              setNotice(
                `Set: ${rateText(rate.currency, base.currency, rate.rate)} from ${date(rate.date)} until the next rate.`,
              );
              list.reload();
            }}
          />
        </section>
      ) : null}
      <section aria-labelledby="rates-list" class="exchange-rates">
        <h2 id="rates-list">The business’s rates</h2>
        <FilterForm
          label="Filter the rates"
          fields={[
            {
              key: 'currency',
              label: 'Currency',
              type: 'select',
              options: currencyChoices('Every currency'),
            },
            { key: 'start_date', label: 'From' },
            { key: 'end_date', label: 'To' },
          ]}
        />
        <PagedList
          error={list.error}
          reload={list.reload}
          data={base.loaded ? list.data : undefined}
          page={list.page}
          size={list.size}
          filtered={{
            active: Boolean(currency || start || end),
            title: 'No rates match these filters',
            before: 'Choose another currency or ',
            clear: ['currency', 'start_date', 'end_date'],
            show: 'clear the filters',
          }}
          empty={{
            title: 'No rates set yet',
            children: (
              <p>
                Documents in other currencies post at the daily reference rate until the business sets its own
                {can('createExchangeRate') ? ': set one above, or import a CSV file of them.' : '.'}
              </p>
            ),
          }}
        >
          {(rows) => (
            <Table
              caption="Exchange rates"
              rows={rows}
              rowKey={(r) => `${r.currency}-${r.date}`}
              columns={[
                { label: 'Date', render: (r: finance.ExchangeRate) => date(r.date) },
                {
                  label: 'Rate',
                  numeric: true,
                  render: (r) => (
                    <span data-rate={r.rate}>{rateText(r.currency, base.currency, r.rate)}</span>
                  ),
                },
                { label: 'Source', render: (r) => RATE_SOURCE_LABELS[r.source] },
                { label: 'Last changed', render: (r) => dateTime(r.updated_at) },
              ]}
            />
          )}
        </PagedList>
      </section>
      {base.loaded ? <RevaluationSection base={base.currency} asOf={dateOf(query, 'revalue')} /> : null}
    </>
  );
}
