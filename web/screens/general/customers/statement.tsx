import { useState } from 'preact/hooks';
import { general, unwrap } from '../../../../client/index.js';
import { dateOf, FilterForm } from '../../../components/filter-form.js';
import { RecordHeader, RecordUnavailable } from '../../../components/record.js';
import { Empty, ErrorMessage, Link, Table } from '../../../components/ui.js';
import { currencyChoices, useBaseCurrency } from '../../../lib/currencies.js';
import { date, money } from '../../../lib/format.js';
import { useLoad } from '../../../lib/forms.js';
import { here } from '../../../lib/router.js';
import { api, can } from '../../../lib/api.js';
import type { ScreenProps } from '../../../lib/screen.js';
import { PdfButton } from '../documents/delivery.js';

/**
 * A customer's statement: the days and currency from the URL (the service's defaults, this month in
 * the base currency, when it names none), the opening balance, each invoice, payment, credit note and
 * refund with the running balance, and the closing balance; the same statement as a PDF.
 */

/** Where a line's document is shown: its invoice, or its credit note. */
function documentLink(line: general.StatementLine): string {
  if (line.document_id.startsWith('cn_')) return `/credit-notes/${line.document_id}`;
  if (line.document_id.startsWith('inv_')) return `/invoices/${line.document_id}`;
  return '';
}

/** A change of the balance with its sign: what the customer owes goes up (+) or down (−). */
const signed = (amount: number, currency: string) =>
  amount > 0
    ? `+${money(amount, currency)}`
    : amount < 0
      ? `−${money(-amount, currency)}`
      : money(0, currency);

export default function Statement({ params }: ScreenProps) {
  const id = params.id!;
  const base = useBaseCurrency();
  const [pdfError, setPdfError] = useState<string | null>(null);
  const url = here.value.query;
  const query = {
    start_date: dateOf(url, 'start_date'),
    end_date: dateOf(url, 'end_date'),
    currency: url.get('currency') || undefined,
  };
  const load = useLoad(
    () => unwrap(api.value.general.statements.getCustomerStatement({ params: { id }, query })),
    [id, query.start_date, query.end_date, query.currency],
  );
  const customer = { to: `/customers/${id}`, name: load.data?.data.customer.name ?? 'Customer' };
  const filter = (
    <FilterForm
      label="Statement days and currency"
      fields={[
        { key: 'start_date', label: 'From' },
        { key: 'end_date', label: 'To' },
        {
          key: 'currency',
          label: 'Currency',
          type: 'select',
          options: currencyChoices(`${base.currency} (base currency)`),
        },
      ]}
    />
  );
  const filtered = !!(query.start_date || query.end_date || query.currency);
  // A refused range (an end before its start) keeps the filter, so it can be put right; the last
  // statement shown is not left under it as if it were the answer.
  if (load.error && filtered) {
    return (
      <>
        <RecordHeader list={customer} title="Statement" />
        {filter}
        <ErrorMessage message={load.error} onRetry={load.reload} />
      </>
    );
  }
  if (load.error || !load.data) return <RecordUnavailable load={load} title="Statement" list={customer} />;
  const statement = load.data.data;
  const { currency } = statement;
  const show = (amount: number) => money(amount, currency);
  const rows = statement.lines.map((line, index) => ({ ...line, key: `${index}` }));

  return (
    <>
      <RecordHeader list={customer} title={`Statement of ${statement.customer.name}`}>
        {can('getCustomerStatementPdf') ? (
          <PdfButton
            fetch={() => api.value.general.statements.getCustomerStatementPdf({ params: { id }, query })}
            fallbackName={`statement-${statement.start_date}-${statement.end_date}.pdf`}
            onError={setPdfError}
          />
        ) : null}
      </RecordHeader>
      {filter}
      <ErrorMessage message={pdfError} />
      <p class="lead">
        {date(statement.start_date)} to {date(statement.end_date)} in {currency}. A positive balance is what
        the customer owes; a negative one, credit they hold.
      </p>
      <dl class="facts statement-balances">
        <dt>Opening balance</dt>
        <dd data-opening="">{show(statement.opening_balance)}</dd>
        <dt>Closing balance</dt>
        <dd data-closing="" class="strong">
          {show(statement.closing_balance)}
        </dd>
      </dl>
      {rows.length === 0 ? (
        <Empty title="Nothing in these days">
          <p>No invoice, payment, credit note or refund in {currency} is dated in this range.</p>
        </Empty>
      ) : (
        <Table
          caption={`Statement of ${statement.customer.name}`}
          rows={rows}
          rowKey={(line) => line.key}
          columns={[
            { label: 'Date', render: (line) => date(line.date) },
            {
              label: 'Description',
              render: (line) => {
                const to = documentLink(line);
                return to ? <Link to={to}>{line.description}</Link> : line.description;
              },
            },
            { label: 'Change', numeric: true, render: (line) => signed(line.change, currency) },
            { label: 'Balance', numeric: true, render: (line) => show(line.balance) },
          ]}
        />
      )}
      <dl class="totals">
        <dt>Invoiced</dt>
        <dd>{show(statement.totals.invoiced)}</dd>
        <dt>Paid</dt>
        <dd>{show(statement.totals.paid)}</dd>
        <dt>Credit applied</dt>
        <dd>{show(statement.totals.credit_applied)}</dd>
        <dt>Credited</dt>
        <dd>{show(statement.totals.credited)}</dd>
        <dt>Refunded</dt>
        <dd>{show(statement.totals.refunded)}</dd>
      </dl>
    </>
  );
}
