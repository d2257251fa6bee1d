import { Fragment, type ComponentChildren } from 'preact';
import { general } from '../../../../client/index.js';
import { date, money } from '../../../lib/format.js';
import { invoiceStatus } from '../../../lib/messages.js';
import { allowed } from '../../../lib/session.js';
import { Badge, Link, ScrollRegion, Table, type Column } from '../../../components/ui.js';

/** How invoices, quotes and credit notes are shown: their lists, and the lines and totals of one as priced. */

const customerCell = (d: { customer: { id: string; name: string } }) =>
  allowed('customers.read') ? (
    <Link to={`/customers/${d.customer.id}`}>{d.customer.name}</Link>
  ) : (
    d.customer.name
  );

export function InvoiceTable({
  showCustomer,
  ...table
}: {
  caption: string;
  rows: general.Invoice[];
  sort?: string;
  showCustomer?: boolean;
}) {
  const columns: Column<general.Invoice>[] = [
    { label: 'Number', sort: 'number', render: (i) => <Link to={`/invoices/${i.id}`}>{i.number}</Link> },
    ...(showCustomer === false ? [] : [{ label: 'Customer', render: customerCell }]),
    { label: 'Status', render: (i) => <Badge value={invoiceStatus(i).key} /> },
    { label: 'Issued', render: (i) => date(i.issue_date) },
    { label: 'Due', sort: 'due_date', render: (i) => date(i.due_date) },
    { label: 'Total', sort: 'total', numeric: true, render: (i) => money(i.total, i.currency) },
    {
      label: 'Amount due',
      numeric: true,
      render: (i) => (i.status === 'void' || i.status === 'draft' ? '—' : money(i.amount_due, i.currency)),
    },
  ];
  return <Table {...table} columns={columns} rowKey={(i) => i.id} />;
}

export function QuoteTable(props: { caption: string; rows: general.Quote[]; sort?: string }) {
  const columns: Column<general.Quote>[] = [
    { label: 'Number', sort: 'number', render: (q) => <Link to={`/quotes/${q.id}`}>{q.number}</Link> },
    { label: 'Customer', render: customerCell },
    { label: 'Status', render: (q) => <Badge value={q.status} /> },
    { label: 'Valid until', sort: 'valid_until', render: (q) => date(q.valid_until) },
    { label: 'Total', sort: 'total', numeric: true, render: (q) => money(q.total, q.currency) },
  ];
  return <Table {...props} columns={columns} rowKey={(q) => q.id} />;
}

/**
 * Credit notes: on their own list (with the invoice and customer they belong to) or on their invoice's
 * screen (`actions`: what may be done to each there).
 */
export function CreditNoteTable(props: {
  caption: string;
  rows: general.CreditNote[];
  sort?: string;
  /** Left out on an invoice's screen, where every row is that invoice's. */
  showInvoice?: boolean;
  actions?: (note: general.CreditNote) => ComponentChildren;
}) {
  const { showInvoice = true, actions, ...table } = props;
  const columns: Column<general.CreditNote>[] = [
    {
      label: 'Number',
      sort: 'number',
      render: (n) => <Link to={`/credit-notes/${n.id}`}>{n.number}</Link>,
    },
    ...(showInvoice
      ? [
          {
            label: 'Invoice',
            render: (n: general.CreditNote) => (
              <Link to={`/invoices/${n.invoice_id}`}>{n.invoice_number}</Link>
            ),
          },
          { label: 'Customer', render: customerCell },
        ]
      : []),
    { label: 'Status', render: (n) => <Badge value={n.status} /> },
    { label: 'Issued', sort: 'issue_date', render: (n) => date(n.issue_date) },
    { label: 'Total', sort: 'total', numeric: true, render: (n) => money(n.total, n.currency) },
    ...(actions ? [{ label: 'Actions', render: actions }] : []),
  ];
  return <Table {...table} columns={columns} rowKey={(n) => n.id} />;
}

/** The lines of an invoice, quote or credit note as they were priced, and its totals (plus `extra` rows: paid, due). */
export function DocumentLines(props: {
  document: Pick<general.Invoice, 'items' | 'currency' | 'subtotal' | 'tax' | 'total'>;
  extra?: { label: string; value: number; strong?: boolean }[];
}) {
  const { document: d } = props;
  const anyTax = d.items.some((item) => item.tax_rate !== 0);
  // As on the PDF: a Discount column only when some line has one (docs/decisions.md D240).
  const anyDiscount = d.items.some((item) => item.discount_percent !== 0);
  return (
    <>
      {d.items.length === 0 ? null : (
        <ScrollRegion label={'Lines'}>
          <table class="lines">
            <caption class="visually-hidden">Lines</caption>
            <thead>
              <tr>
                <th scope="col">Description</th>
                <th scope="col" class="numeric">
                  Quantity
                </th>
                <th scope="col" class="numeric">
                  Unit price
                </th>
                {anyDiscount ? (
                  <th scope="col" class="numeric">
                    Discount
                  </th>
                ) : null}
                {anyTax ? (
                  <>
                    <th scope="col" class="numeric">
                      Tax rate
                    </th>
                    <th scope="col" class="numeric">
                      Tax
                    </th>
                  </>
                ) : null}
                <th scope="col" class="numeric">
                  Amount
                </th>
              </tr>
            </thead>
            <tbody>
              {d.items.map((item) => (
                <tr key={item.id}>
                  <td>{item.description}</td>
                  <td class="numeric">{item.quantity}</td>
                  <td class="numeric">{money(item.unit_price, d.currency)}</td>
                  {anyDiscount ? (
                    <td class="numeric" data-discount="">
                      {item.discount_percent === 0 ? '—' : `${item.discount_percent}%`}
                    </td>
                  ) : null}
                  {anyTax ? (
                    <>
                      <td class="numeric">{item.tax_rate}%</td>
                      <td class="numeric">{money(item.tax, d.currency)}</td>
                    </>
                  ) : null}
                  <td class="numeric">{money(item.total, d.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollRegion>
      )}
      <dl class="totals">
        <dt>Subtotal</dt>
        <dd>{money(d.subtotal, d.currency)}</dd>
        <dt>Tax</dt>
        <dd>{money(d.tax, d.currency)}</dd>
        <dt class="strong">Total</dt>
        <dd class="strong" data-total="">
          {money(d.total, d.currency)}
        </dd>
        {props.extra?.map((row) => (
          <Fragment key={row.label}>
            <dt class={row.strong ? 'strong' : undefined}>{row.label}</dt>
            <dd class={row.strong ? 'strong' : undefined}>{money(row.value, d.currency)}</dd>
          </Fragment>
        ))}
      </dl>
    </>
  );
}

/* ---------------------------------------------------------------- the form of a new invoice or quote */
