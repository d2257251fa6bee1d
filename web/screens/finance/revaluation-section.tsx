import { useEffect, useRef, useState } from 'preact/hooks';
import { BmsApiError, finance, unwrap } from '../../../client/index.js';
import { Button, Empty, ErrorMessage, Field, Link, Loading, Notice, Table } from '../../components/ui.js';
import { api, can } from '../../lib/api.js';
import { date, dateTime, minorMoney, minorMoneyCode, rateText, today } from '../../lib/format.js';
import { useForm, useLoad } from '../../lib/forms.js';
import { summaryOf } from '../../lib/refusals.js';
import { accountName, useAccounts } from './chart.js';

/**
 * The exchange rates screen's revaluation: what receivables, payables and cash are held in other
 * currencies, restated at the rate of a day (once a day, today or earlier), the lines and the gain or
 * loss it posted, and the revaluations made so far.
 */

const LIST_SIZE = 10;

/** The journal's entries of a revaluation: posted on its day, reversed on the next. */
const journalOf = (r: finance.Revaluation) =>
  `/finance/journal?start_date=${r.as_of}&end_date=${r.reversal_date}`;

/** What a revaluation posted, in a sentence. */
function outcome(r: finance.Revaluation, base: string): string {
  if (r.lines.length === 0)
    return `Nothing was held in another currency at the end of ${date(r.as_of)}: nothing to post.`;
  const parts = [
    r.gain > 0 ? `an unrealised gain of ${minorMoney(r.gain, base)}` : '',
    r.loss > 0 ? `an unrealised loss of ${minorMoney(r.loss, base)}` : '',
  ].filter(Boolean);
  if (parts.length === 0)
    return `Revalued at the rates of ${date(r.as_of)}: the balances were already carried at them.`;
  return (
    `Revalued at the rates of ${date(r.as_of)}: ${parts.join(' and ')}, posted on ${date(r.as_of)} and ` +
    `reversed on ${date(r.reversal_date)}.`
  );
}

function RevaluationResult(props: {
  revaluation: finance.Revaluation;
  base: string;
  accounts: finance.Account[] | undefined;
}) {
  const { revaluation: r, base } = props;
  type Line = finance.RevaluationLine;
  return (
    <section class="panel revaluation-result" aria-labelledby="revaluation-result" data-revaluation={r.id}>
      <h3 id="revaluation-result">Revaluation of {date(r.as_of)}</h3>
      {r.lines.length === 0 ? (
        <p>Nothing was held in another currency at the end of that day.</p>
      ) : (
        <Table
          caption={`Balances revalued on ${date(r.as_of)}`}
          rows={r.lines}
          rowKey={(l) => `${l.account_code}-${l.currency}`}
          columns={[
            { label: 'Account', render: (l: Line) => accountName(props.accounts, l.account_code) },
            { label: 'Balance', numeric: true, render: (l) => minorMoneyCode(l.balance, l.currency) },
            { label: 'Carried at', numeric: true, render: (l) => minorMoneyCode(l.base_balance, base) },
            { label: 'Rate of the day', numeric: true, render: (l) => rateText(l.currency, base, l.rate) },
            { label: 'Revalued', numeric: true, render: (l) => minorMoneyCode(l.revalued, base) },
            {
              label: 'Difference',
              numeric: true,
              render: (l) => <span data-difference={l.difference}>{minorMoneyCode(l.difference, base)}</span>,
            },
          ]}
        />
      )}
      <dl class="totals">
        <dt>Unrealised gain (4910)</dt>
        <dd data-gain={r.gain}>{minorMoney(r.gain, base)}</dd>
        <dt>Unrealised loss (5910)</dt>
        <dd data-loss={r.loss}>{minorMoney(r.loss, base)}</dd>
      </dl>
      {r.entry_ids.length > 0 ? (
        <p>
          Posted on {date(r.as_of)} and reversed on {date(r.reversal_date)}, so the next revaluation starts
          from the rates the balances were posted at.{' '}
          <Link to={journalOf(r)}>See the entries in the journal</Link>
        </p>
      ) : null}
    </section>
  );
}

function RevalueForm(props: { asOf: string | undefined; onRevalued: (r: finance.Revaluation) => void }) {
  const [asOf, setAsOf] = useState(props.asOf ?? today());
  const [conflict, setConflict] = useState<string | null>(null);
  const form = useForm();
  const field = useRef<HTMLDivElement>(null);
  // Opened from a report to revalue on its day: the field is where the person is headed.
  useEffect(() => {
    if (!props.asOf) return;
    const input = field.current?.querySelector('input');
    input?.scrollIntoView({ block: 'center' });
    input?.focus({ preventScroll: true });
  }, []);
  const submit = (event: Event) => {
    event.preventDefault();
    setConflict(null);
    void form
      .submit(finance.CreateRevaluationBodySchema, { as_of: asOf || undefined }, async (body) => {
        try {
          return await unwrap(api.value.finance.revaluations.createRevaluation({ body }));
        } catch (err) {
          if (err instanceof BmsApiError && err.code === 'CONFLICT') {
            setConflict(
              `The books were already revalued on ${date(body.as_of)}: that revaluation is listed below. Choose another day.`,
            );
          }
          throw err;
        }
      })
      .then((answer) => {
        if (answer) props.onRevalued(answer.revaluation);
      });
  };
  return (
    <form onSubmit={submit} noValidate class="revalue-form" aria-label="Revalue">
      <div ref={field}>
        <Field
          label="As of"
          name="as_of"
          type="date"
          value={asOf}
          onValue={setAsOf}
          max={today()}
          error={form.errors.as_of}
          hint="The balances at the end of this day, at its rates: today or earlier, once a day."
        />
      </div>
      <div class="form-actions">
        <Button type="submit" kind="primary" busy={form.busy}>
          Revalue
        </Button>
      </div>
      <ErrorMessage message={conflict ?? summaryOf(form)} />
    </form>
  );
}

export function RevaluationSection(props: { base: string; asOf: string | undefined }) {
  const { base } = props;
  const accounts = useAccounts();
  const [offset, setOffset] = useState(0);
  const list = useLoad(
    async () =>
      unwrap(api.value.finance.revaluations.listRevaluations({ query: { limit: LIST_SIZE, offset } })),
    [offset],
  );
  const [shown, setShown] = useState<finance.Revaluation | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const rows = list.data?.revaluations;
  const total = list.data?.total_count ?? 0;
  return (
    <section aria-labelledby="revaluation" class="revaluation">
      <h2 id="revaluation">Revaluation</h2>
      <p>
        Receivables (1200), payables (2000) and cash held in another currency are carried at the rates they
        were posted at. Revaluing restates them at the rate of a day: the unrealised gain or loss posts to
        4910 or 5910 on that day and is reversed the next.
      </p>
      {can('createRevaluation') ? (
        <section class="panel" aria-labelledby="revalue">
          <h3 id="revalue">Revalue</h3>
          <RevalueForm
            asOf={props.asOf}
            onRevalued={(made) => {
              setShown(made);
              setNotice(outcome(made, base));
              if (offset === 0) list.reload();
              else setOffset(0);
            }}
          />
        </section>
      ) : null}
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      {shown ? <RevaluationResult revaluation={shown} base={base} accounts={accounts.data} /> : null}
      <h3 id="revaluations-list">Revaluations made</h3>
      {list.error ? (
        <ErrorMessage message={list.error} onRetry={list.reload} />
      ) : !rows ? (
        <Loading />
      ) : rows.length === 0 ? (
        <Empty title="No revaluation yet">
          <p>
            Revalue at a month’s end, before reading its balance sheet, to carry foreign balances at its
            rates.
          </p>
        </Empty>
      ) : (
        <>
          <Table
            caption="Revaluations made"
            rows={rows}
            rowKey={(r) => r.id}
            columns={[
              { label: 'As of', render: (r: finance.Revaluation) => date(r.as_of) },
              {
                label: 'Currencies',
                render: (r) => [...new Set(r.lines.map((l) => l.currency))].join(', ') || 'None held',
              },
              { label: 'Gain', numeric: true, render: (r) => minorMoney(r.gain, base) },
              { label: 'Loss', numeric: true, render: (r) => minorMoney(r.loss, base) },
              { label: 'Made', render: (r) => dateTime(r.created_at) },
              {
                label: 'Lines',
                render: (r) => (
                  <Button
                    class="button small secondary"
                    aria-label={`Show the revaluation of ${date(r.as_of)}`}
                    onClick={() => {
                      setNotice(null);
                      setShown(r);
                    }}
                  >
                    Show
                  </Button>
                ),
              },
            ]}
          />
          {total > LIST_SIZE ? (
            <nav class="pager" aria-label="Pages of revaluations">
              <Button disabled={offset === 0} onClick={() => setOffset(Math.max(0, offset - LIST_SIZE))}>
                ← Newer
              </Button>
              <span>
                {offset + 1}–{Math.min(offset + LIST_SIZE, total)} of {total}
              </span>
              <Button disabled={offset + LIST_SIZE >= total} onClick={() => setOffset(offset + LIST_SIZE)}>
                Older →
              </Button>
            </nav>
          ) : null}
        </>
      )}
    </section>
  );
}
