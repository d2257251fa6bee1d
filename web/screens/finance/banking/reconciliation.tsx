import { finance, unwrap } from '../../../../client/index.js';
import { dateOf, FilterForm } from '../../../components/filter-form.js';
import { Empty, ErrorMessage, Link, Loading, Notice, Table } from '../../../components/ui.js';
import { api } from '../../../lib/api.js';
import { date, minorMoney, number, today } from '../../../lib/format.js';
import { useLoad } from '../../../lib/forms.js';
import { here } from '../../../lib/router.js';
import type { ScreenProps } from '../../../lib/screen.js';
import { RECONCILIATION_ITEM_LABELS } from '../labels.js';
import { AS_OF_FIELDS } from '../report.js';
import { BankAccountFrame } from './account-frame.js';

/**
 * The reconciliation report of a bank account as of a day (the URL's `as_of`, today when absent):
 * the statement's balance, the ledger's, and the items that explain the difference between them.
 */

type Report = finance.Reconciliation;
type Item = Report['items'][number];

/** Whether the two balances agree, and what the items say of it. */
function Verdict(props: { report: Report }) {
  const { report } = props;
  const money = (minor: number) => minorMoney(minor, report.currency);
  if (report.difference === 0 && report.items.length === 0) {
    return (
      <Notice kind="success">
        <span data-reconciled="yes">
          Reconciled: the statement and the ledger agree at {money(report.statement_balance)} on{' '}
          {date(report.as_of)}.
        </span>
      </Notice>
    );
  }
  if (report.difference === 0) {
    return (
      <Notice kind="success">
        <span data-reconciled="yes">
          The balances agree on {date(report.as_of)}; the items below cancel each other out.
        </span>
      </Notice>
    );
  }
  return (
    <Notice kind="warning">
      <span data-reconciled="no">
        The statement is {money(Math.abs(report.difference))} {report.difference > 0 ? 'more' : 'less'} than
        the ledger on {date(report.as_of)}: the items below explain it.
      </span>
    </Notice>
  );
}

function ReportBody(props: { report: Report; id: string }) {
  const { report, id } = props;
  const money = (minor: number) => minorMoney(minor, report.currency);
  const lines = (status: string) => `/finance/bank-accounts/${id}${status ? `?status=${status}` : ''}`;
  return (
    <>
      <dl class="figures">
        <div>
          <dt>Statement balance</dt>
          <dd data-figure="statement">{money(report.statement_balance)}</dd>
        </div>
        <div>
          <dt>Ledger balance ({report.account_code})</dt>
          <dd data-figure="ledger">{money(report.ledger_balance)}</dd>
        </div>
        <div>
          <dt>Difference</dt>
          <dd data-figure="difference">{money(report.difference)}</dd>
        </div>
      </dl>
      <Verdict report={report} />
      <p class="report-counts">
        <Link to={lines('')}>{number(report.counts.unmatched)} to reconcile</Link> ·{' '}
        <Link to={lines('matched')}>{number(report.counts.matched)} matched</Link> ·{' '}
        <Link to={lines('excluded')}>{number(report.counts.excluded)} excluded</Link>
      </p>
      <section aria-labelledby="reconciliation-items">
        <h2 id="reconciliation-items">What makes the difference</h2>
        {report.items.length === 0 ? (
          <Empty title="Nothing">
            <p>Every line of the statement to this day is in the ledger, and every ledger entry is on it.</p>
          </Empty>
        ) : (
          <Table<Item>
            caption="Items explaining the difference"
            columns={[
              { label: 'Kind', render: (i) => RECONCILIATION_ITEM_LABELS[i.kind] },
              { label: 'Date', render: (i) => date(i.date) },
              { label: 'Description', render: (i) => i.description },
              { label: 'Amount', numeric: true, render: (i) => money(i.amount) },
              { label: 'Difference', numeric: true, render: (i) => money(i.difference) },
            ]}
            rows={report.items}
            rowKey={(i) => `${i.kind}-${i.bank_transaction_id ?? ''}-${i.journal_line_id ?? ''}`}
          />
        )}
      </section>
    </>
  );
}

export default function Reconciliation({ params }: ScreenProps) {
  const id = params.id!;
  const asOf = dateOf(here.value.query, 'as_of');
  const load = useLoad(
    async () =>
      (
        await unwrap(
          api.value.finance.bankAccounts.getReconciliation({ params: { id }, query: { as_of: asOf } }),
        )
      ).reconciliation,
    [id, asOf],
  );
  return (
    <BankAccountFrame id={id} page="report">
      {() => (
        <>
          <FilterForm label="Reconciliation date" fields={AS_OF_FIELDS} defaults={{ as_of: today() }} />
          {load.error ? (
            <ErrorMessage message={load.error} onRetry={load.reload} />
          ) : load.data === undefined ? (
            <Loading />
          ) : (
            <ReportBody report={load.data} id={id} />
          )}
        </>
      )}
    </BankAccountFrame>
  );
}
