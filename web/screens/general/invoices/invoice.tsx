import { useState } from 'preact/hooks';
import { general, toMinor, unwrap } from '../../../../client/index.js';
import { BaseEquivalent } from '../../../components/base-equivalent.js';
import { ConfirmButton } from '../../../components/confirm.js';
import { DeliveryPanel, PdfButton, SendDocumentDialog } from '../documents/delivery.js';
import { PaymentDialog, PaymentsSection } from '../../../components/payment-form.js';
import { Button, Link } from '../../../components/ui.js';
import { date, dateTime, money } from '../../../lib/format.js';
import { describeError, useLoad } from '../../../lib/forms.js';
import { invoiceStatus } from '../../../lib/messages.js';
import { decimalText } from '../../../lib/lines.js';
import { api, can } from '../../../lib/api.js';
import { allowed } from '../../../lib/session.js';
import { useNotice } from '../../../components/outcome.js';
import type { ScreenProps } from '../../../lib/screen.js';
import { DocumentLines } from '../documents/tables.js';
import { PAYMENT_METHODS } from '../documents/methods.js';
import { DocumentForm, ISSUE_DATE_HINT } from '../documents/form.js';
import {
  DeleteRecordButton,
  RecordHeader,
  RecordStatus,
  RecordUnavailable,
} from '../../../components/record.js';
import { CreditNoteDialog } from '../credit-notes/credit-note-form.js';
import {
  InvoiceCreditNotes,
  leftToCredit,
  useInvoiceCreditNotes,
} from '../credit-notes/invoice-credit-notes.js';

const INVOICES = { to: '/invoices', name: 'Invoices' };

/**
 * One invoice: its lines, totals, payments and credit notes; issue, send, record a payment, credit,
 * void or delete as its status allows; its PDF, and when the customer was sent it and opened it.
 */

export default function Invoice({ params }: ScreenProps) {
  const id = params.id!;
  const load = useLoad(() => unwrap(api.value.general.invoices.getInvoice({ params: { id } })), [id]);
  const [current, setCurrent] = useState<general.Invoice | null>(null);
  const [paying, setPaying] = useState(false);
  const [sending, setSending] = useState(false);
  const [issuing, setIssuing] = useState(false);
  const [linking, setLinking] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const { notice, setNotice, opens } = useNotice();
  const [editing, setEditing] = useState(false);
  const [crediting, setCrediting] = useState(false);
  const notes = useInvoiceCreditNotes(id);

  if (load.error || !load.data) {
    return <RecordUnavailable load={load} title="Invoice" list={INVOICES} />;
  }
  const invoice = current && current.id === id ? current : load.data.data;
  const open = invoice.status === 'unpaid' || invoice.status === 'overdue';
  const creditable = open || invoice.status === 'paid';
  /** The invoice as it is now, and its credit notes, after a credit note changed both. */
  const refresh = (message: string) =>
    unwrap(api.value.general.invoices.getInvoice({ params: { id } })).then(
      (res) => {
        setCurrent(res.data);
        notes.reload();
        setNotice(message);
      },
      (err: unknown) => setActionError(describeError(err).message),
    );
  const shown = invoiceStatus(invoice);

  if (editing && invoice.status === 'draft') {
    return (
      <>
        <RecordHeader list={INVOICES} title={`Edit draft ${invoice.number}`} />
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
      <RecordHeader list={INVOICES} title={`Invoice ${invoice.number}`}>
        {invoice.status === 'draft' && can('updateInvoice') ? (
          <Button onClick={opens(setEditing)}>Edit draft</Button>
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
          <Button kind="primary" onClick={opens(setPaying)}>
            Record payment
          </Button>
        ) : null}
        {open && can('createPaymentLink') ? (
          <Button
            busy={linking}
            onClick={() => {
              setNotice(null);
              setActionError(null);
              setLinking(true);
              unwrap(api.value.general.invoices.createPaymentLink({ params: { id } })).then(
                ({ data }) => {
                  setLinking(false);
                  setNotice(
                    `${invoice.customer.name} can pay ${money(data.amount_due, data.currency)} by card at ${data.url} ` +
                      `(the customer page, with Pay; the ${data.provider} provider takes the payment).`,
                  );
                },
                (err: unknown) => {
                  setLinking(false);
                  setActionError(describeError(err).message);
                },
              );
            }}
          >
            Payment link
          </Button>
        ) : null}
        {creditable && can('createCreditNote') ? (
          <Button
            onClick={() => {
              setNotice(null);
              setCrediting(true);
            }}
          >
            Credit note
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
          <DeleteRecordButton
            list={INVOICES}
            label="Delete draft"
            title={`Delete draft ${invoice.number}?`}
            remove={() => unwrap(api.value.general.invoices.deleteInvoice({ params: { id } }))}
          >
            <p>The draft is removed; its number stays recorded as deleted.</p>
          </DeleteRecordButton>
        ) : null}
      </RecordHeader>
      <RecordStatus status={shown.key} error={actionError} notice={notice}>
        {shown.key === 'partially_paid' || (invoice.status === 'overdue' && invoice.amount_paid > 0)
          ? `${shown.label}: ${money(invoice.amount_due, invoice.currency)} of ${money(invoice.total, invoice.currency)} still due${invoice.status === 'overdue' ? `; it was due on ${date(invoice.due_date)}` : ` on ${date(invoice.due_date)}`}.`
          : invoice.status === 'draft'
            ? 'Not issued yet: check it, then issue it.'
            : invoice.status === 'overdue'
              ? `Was due on ${date(invoice.due_date)}.`
              : invoice.status === 'unpaid'
                ? `Due on ${date(invoice.due_date)}.`
                : invoice.status === 'paid'
                  ? invoice.credited
                    ? `Credited: settled in full on ${dateTime(invoice.paid_at)}, credit notes included.`
                    : `Paid in full on ${dateTime(invoice.paid_at)}.`
                  : `Voided on ${dateTime(invoice.voided_at)}.`}
      </RecordStatus>
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
          <BaseEquivalent
            amount={toMinor(invoice.total, invoice.currency)}
            currency={invoice.currency}
            date={invoice.issue_date}
            rate={invoice.exchange_rate}
          />
          <dt>Due date</dt>
          <dd>{date(invoice.due_date)}</dd>
          <dt>Created</dt>
          <dd>{dateTime(invoice.created_at)}</dd>
          {invoice.recurring_invoice_id ? (
            <>
              <dt>Made by</dt>
              <dd>
                <Link to={`/recurring-invoices/${invoice.recurring_invoice_id}`}>Its recurring invoice</Link>
              </dd>
            </>
          ) : null}
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
                  ...(invoice.amount_credited > 0
                    ? [{ label: 'Credited', value: invoice.amount_credited }]
                    : []),
                  { label: 'Amount due', value: invoice.amount_due, strong: true },
                ]
          }
        />
      </section>
      <PaymentsSection
        id="invoice-payments"
        status={invoice.status}
        payments={invoice.payments}
        currency={invoice.currency}
        money={money}
        methods={PAYMENT_METHODS}
        withReference
        none={open && can('createPayment') ? ' Record one when the customer pays.' : ''}
      />
      <InvoiceCreditNotes
        invoice={invoice}
        notes={notes}
        onError={setActionError}
        onVoided={(note) => void refresh(`${note.number} is void.`)}
      />
      <CreditNoteDialog
        invoice={invoice}
        limits={{ left: leftToCredit(invoice, notes.data) }}
        open={crediting}
        onClose={() => setCrediting(false)}
        onCreated={(note) => {
          setCrediting(false);
          void refresh(`Credit note ${note.number} issued for ${money(note.total, note.currency)}.`);
        }}
      />
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
      <PaymentDialog
        title={`Record a payment of ${invoice.number}`}
        open={paying}
        onClose={() => setPaying(false)}
        currency={invoice.currency}
        due={
          <>
            {money(invoice.amount_due, invoice.currency)} of {money(invoice.total, invoice.currency)} is due.
          </>
        }
        amountDue={decimalText(invoice.amount_due, invoice.currency)}
        methods={PAYMENT_METHODS}
        withReference
        send={async (form, payment) => {
          const body = {
            amount: payment.amount.trim() === '' ? undefined : Number(payment.amount.trim()),
            payment_method: payment.payment_method,
            payment_date: payment.payment_date || undefined,
            bank_account_id: payment.bank_account_id || undefined,
            reference: payment.reference.trim() || undefined,
          };
          const saved = await form.submit(
            general.CreatePaymentBodySchema,
            body,
            (value) => unwrap(api.value.general.invoices.createPayment({ params: { id }, body: value })),
            { currency: invoice.currency },
          );
          return saved?.data;
        }}
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
    </>
  );
}
