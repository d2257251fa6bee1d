import { useState } from 'preact/hooks';
import { general, unwrap } from '../../../../client/index.js';
import { ConfirmButton } from '../../../components/confirm.js';
import { DeliveryPanel, PdfButton, SendDocumentDialog } from '../documents/delivery.js';
import {
  Badge,
  Button,
  Dialog,
  ErrorMessage,
  Field,
  Link,
  Loading,
  Notice,
  PageHeader,
  Select,
  Table,
} from '../../../components/ui.js';
import { date, dateTime, money, today } from '../../../lib/format.js';
import { describeError, useForm, useLoad } from '../../../lib/forms.js';
import { invoiceStatus } from '../../../lib/messages.js';
import { summaryOf } from '../../../lib/refusals.js';
import { decimalText } from '../../../lib/lines.js';
import { navigate } from '../../../lib/router.js';
import { allowed, api, can } from '../../../lib/session.js';
import type { ScreenProps } from '../../../lib/screen.js';
import { DocumentLines } from '../documents/tables.js';
import { DocumentForm, ISSUE_DATE_HINT } from '../documents/form.js';

/**
 * One invoice: its lines, totals and payments; issue, send, record a payment, void or delete as its
 * status allows; its PDF, and when the customer was sent it and opened it.
 */

const METHOD_LABELS: Record<(typeof general.RECORDED_PAYMENT_METHODS)[number], string> = {
  bank_transfer: 'Bank transfer',
  card: 'Card',
  cash: 'Cash',
  check: 'Cheque',
  mobile_money: 'Mobile money',
  credit: 'Customer credit',
};

function PaymentForm(props: {
  invoice: general.Invoice;
  onSaved: (invoice: general.Invoice) => void;
  onCancel: () => void;
}) {
  const { invoice } = props;
  const [amount, setAmount] = useState(() => decimalText(invoice.amount_due, invoice.currency));
  const [method, setMethod] = useState<string>('bank_transfer');
  const [paidOn, setPaidOn] = useState(today());
  const [reference, setReference] = useState('');
  const form = useForm();
  const submit = (event: Event) => {
    event.preventDefault();
    const body = {
      amount: amount.trim() === '' ? undefined : Number(amount.trim()),
      payment_method: method,
      payment_date: paidOn || undefined,
      reference: reference.trim() || undefined,
    };
    void form
      .submit(
        general.CreatePaymentBodySchema,
        body,
        (value) =>
          unwrap(api.value.general.invoices.createPayment({ params: { id: invoice.id }, body: value })),
        { currency: invoice.currency },
      )
      .then((saved) => {
        if (saved) props.onSaved(saved.data);
      });
  };
  const e = form.errors;
  return (
    <form onSubmit={submit} noValidate>
      <p>
        {money(invoice.amount_due, invoice.currency)} of {money(invoice.total, invoice.currency)} is due.
      </p>
      <div class="form-row">
        <Field
          label={`Amount in ${invoice.currency}`}
          name="amount"
          inputMode="decimal"
          value={amount}
          onValue={setAmount}
          error={e.amount}
          required
        />
        <Field
          label="Paid on"
          name="payment_date"
          type="date"
          value={paidOn}
          onValue={setPaidOn}
          error={e.payment_date}
        />
      </div>
      <Select
        label="Method"
        name="payment_method"
        value={method}
        options={general.PAYMENT_METHODS.map((m) => ({ value: m, label: METHOD_LABELS[m] }))}
        onValue={setMethod}
        error={e.payment_method}
      />
      <Field
        label="Reference"
        name="reference"
        hint="Optional: the bank reference or receipt number"
        value={reference}
        onValue={setReference}
        error={e.reference}
      />
      <ErrorMessage message={summaryOf(form)} />
      <div class="dialog-actions">
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button type="submit" kind="primary" busy={form.busy}>
          Record payment
        </Button>
      </div>
    </form>
  );
}

const PAYMENT_COLUMNS = (currency: string) => [
  { label: 'Date', render: (p: general.Payment) => date(p.payment_date) },
  { label: 'Method', render: (p: general.Payment) => METHOD_LABELS[p.payment_method] },
  { label: 'Reference', render: (p: general.Payment) => p.reference ?? '—' },
  { label: 'Amount', numeric: true, render: (p: general.Payment) => money(p.amount, currency) },
];

export default function Invoice({ params }: ScreenProps) {
  const id = params.id!;
  const load = useLoad(() => unwrap(api.value.general.invoices.getInvoice({ params: { id } })), [id]);
  const [current, setCurrent] = useState<general.Invoice | null>(null);
  const [paying, setPaying] = useState(false);
  const [sending, setSending] = useState(false);
  const [issuing, setIssuing] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);

  if (load.error) {
    return (
      <>
        <PageHeader title="Invoice" />
        <ErrorMessage message={load.error} onRetry={load.reload} />
        <p>
          <Link to="/invoices">Back to invoices</Link>
        </p>
      </>
    );
  }
  if (!load.data) return <Loading />;
  const invoice = current && current.id === id ? current : load.data.data;
  const open = invoice.status === 'unpaid' || invoice.status === 'overdue';
  const shown = invoiceStatus(invoice);

  if (editing && invoice.status === 'draft') {
    return (
      <>
        <p class="breadcrumb">
          <Link to="/invoices">Invoices</Link>
        </p>
        <PageHeader title={`Edit draft ${invoice.number}`} />
        <DocumentForm
          schema={general.UpdateInvoiceBodySchema}
          existing={invoice}
          dates={[
            {
              key: 'issue_date',
              label: 'Issue date',
              initial: invoice.issue_date ?? '',
              hint: ISSUE_DATE_HINT,
            },
            { key: 'due_date', label: 'Due date', initial: invoice.due_date },
          ]}
          saveLabel="Save changes"
          cancel={() => setEditing(false)}
          save={async (body) =>
            (await unwrap(api.value.general.invoices.updateInvoice({ params: { id }, body }))).data
          }
          onSaved={(saved) => {
            setCurrent(saved);
            setEditing(false);
            setNotice('Changes saved.');
          }}
        />
      </>
    );
  }

  const issue = () => {
    setIssuing(true);
    setActionError(null);
    unwrap(api.value.general.invoices.issueInvoice({ params: { id } })).then(
      (res) => {
        setIssuing(false);
        setCurrent(res.data);
        setNotice(`Issued: ${res.data.number} is now due on ${date(res.data.due_date)}.`);
      },
      (err: unknown) => {
        setIssuing(false);
        setActionError(describeError(err).message);
      },
    );
  };

  return (
    <>
      <p class="breadcrumb">
        <Link to="/invoices">Invoices</Link>
      </p>
      <PageHeader title={`Invoice ${invoice.number}`}>
        {invoice.status === 'draft' && can('updateInvoice') ? (
          <Button
            onClick={() => {
              setNotice(null);
              setEditing(true);
            }}
          >
            Edit draft
          </Button>
        ) : null}
        {invoice.status === 'draft' && can('issueInvoice') ? (
          <Button kind="primary" busy={issuing} onClick={issue}>
            Issue invoice
          </Button>
        ) : null}
        {invoice.status !== 'void' && can('sendInvoice') ? (
          <Button
            kind={invoice.status === 'draft' || invoice.sent_at ? 'secondary' : 'primary'}
            onClick={() => {
              setNotice(null);
              setActionError(null);
              setSending(true);
            }}
          >
            {invoice.sent_at ? 'Send again' : 'Send'}
          </Button>
        ) : null}
        {can('getInvoicePdf') ? (
          <PdfButton
            fetch={() => api.value.general.invoices.getInvoicePdf({ params: { id } })}
            fallbackName={`${invoice.number}.pdf`}
            onError={setActionError}
          />
        ) : null}
        {open && can('createPayment') ? (
          <Button
            kind="primary"
            onClick={() => {
              setNotice(null);
              setPaying(true);
            }}
          >
            Record payment
          </Button>
        ) : null}
        {open && invoice.payments.length === 0 && can('voidInvoice') ? (
          <ConfirmButton
            label="Void"
            title={`Void invoice ${invoice.number}?`}
            confirmLabel="Void invoice"
            onConfirm={async () => {
              const voided = (await unwrap(api.value.general.invoices.voidInvoice({ params: { id } }))).data;
              setCurrent(voided);
              setNotice(`${voided.number} is void: nothing is owed on it any more.`);
            }}
          >
            <p>
              {invoice.customer.name} will owe nothing on {invoice.number} (
              {money(invoice.total, invoice.currency)}). A void invoice keeps its number and cannot be issued
              again.
            </p>
          </ConfirmButton>
        ) : null}
        {invoice.status === 'draft' && can('deleteInvoice') ? (
          <ConfirmButton
            label="Delete draft"
            title={`Delete draft ${invoice.number}?`}
            confirmLabel="Delete draft"
            onConfirm={async () => {
              await unwrap(api.value.general.invoices.deleteInvoice({ params: { id } }));
              navigate('/invoices');
            }}
          >
            <p>The draft is removed; its number stays recorded as deleted.</p>
          </ConfirmButton>
        ) : null}
      </PageHeader>
      <p class="status-line">
        <Badge value={shown.key} />{' '}
        {shown.key === 'partially_paid' || (invoice.status === 'overdue' && invoice.amount_paid > 0)
          ? `${shown.label}: ${money(invoice.amount_due, invoice.currency)} of ${money(invoice.total, invoice.currency)} still due${invoice.status === 'overdue' ? `; it was due on ${date(invoice.due_date)}` : ` on ${date(invoice.due_date)}`}.`
          : invoice.status === 'draft'
            ? 'Not issued yet: check it, then issue it.'
            : invoice.status === 'overdue'
              ? `Was due on ${date(invoice.due_date)}.`
              : invoice.status === 'unpaid'
                ? `Due on ${date(invoice.due_date)}.`
                : invoice.status === 'paid'
                  ? `Paid in full on ${dateTime(invoice.paid_at)}.`
                  : `Voided on ${dateTime(invoice.voided_at)}.`}
      </p>
      <ErrorMessage message={actionError} />
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      <section class="panel" aria-labelledby="invoice-details">
        <h2 id="invoice-details">Details</h2>
        <dl class="facts">
          <dt>Customer</dt>
          <dd>
            {allowed('customers.read') ? (
              <Link to={`/customers/${invoice.customer.id}`}>{invoice.customer.name}</Link>
            ) : (
              invoice.customer.name
            )}
          </dd>
          <dt>Currency</dt>
          <dd>{invoice.currency}</dd>
          <dt>Issue date</dt>
          <dd>{invoice.issue_date ? date(invoice.issue_date) : 'When issued'}</dd>
          <dt>Due date</dt>
          <dd>{date(invoice.due_date)}</dd>
          <dt>Created</dt>
          <dd>{dateTime(invoice.created_at)}</dd>
          {invoice.notes ? (
            <>
              <dt>Notes</dt>
              <dd class="notes">{invoice.notes}</dd>
            </>
          ) : null}
        </dl>
      </section>
      <DeliveryPanel
        kind="invoice"
        sentAt={invoice.sent_at}
        viewedAt={invoice.viewed_at}
        hostedUrl={invoice.hosted_url}
      />
      <section aria-labelledby="invoice-lines">
        <h2 id="invoice-lines">Lines</h2>
        <DocumentLines
          document={invoice}
          extra={
            invoice.status === 'draft' || invoice.status === 'void'
              ? []
              : [
                  { label: 'Paid', value: invoice.amount_paid },
                  { label: 'Amount due', value: invoice.amount_due, strong: true },
                ]
          }
        />
      </section>
      {invoice.status !== 'draft' && !(invoice.status === 'void' && invoice.payments.length === 0) ? (
        <section aria-labelledby="invoice-payments">
          <h2 id="invoice-payments">Payments</h2>
          {invoice.payments.length === 0 ? (
            <p class="muted">
              No payments yet.
              {open && can('createPayment') ? ' Record one when the customer pays.' : ''}
            </p>
          ) : (
            <Table
              caption="Payments"
              columns={PAYMENT_COLUMNS(invoice.currency)}
              rows={invoice.payments}
              rowKey={(p) => p.id}
            />
          )}
        </section>
      ) : null}
      <SendDocumentDialog
        title={`Send invoice ${invoice.number}`}
        open={sending}
        onClose={() => setSending(false)}
        kind="invoice"
        customerId={invoice.customer.id}
        issuesFirst={invoice.status === 'draft'}
        send={async (body) =>
          (await unwrap(api.value.general.invoices.sendInvoice({ params: { id }, body }))).data
        }
        onSent={(sent, to) => {
          setCurrent(sent);
          setSending(false);
          setNotice(to ? `${sent.number} was sent to ${to}.` : `${sent.number} was sent.`);
        }}
      />
      <Dialog title={`Record a payment of ${invoice.number}`} open={paying} onClose={() => setPaying(false)}>
        <PaymentForm
          invoice={invoice}
          onCancel={() => setPaying(false)}
          onSaved={(next) => {
            setCurrent(next);
            setPaying(false);
            setNotice(
              next.status === 'paid'
                ? `Payment recorded: ${next.number} is paid in full.`
                : `Payment recorded: ${money(next.amount_due, next.currency)} is still due.`,
            );
          }}
        />
      </Dialog>
    </>
  );
}
