import { useState } from 'preact/hooks';
import { general, unwrap } from '../../../../client/index.js';
import { RecordHeader, RecordUnavailable } from '../../../components/record.js';
import { Badge, Button, ErrorMessage, Link, Notice } from '../../../components/ui.js';
import { date, dateTime, money } from '../../../lib/format.js';
import { useLoad } from '../../../lib/forms.js';
import { api, can } from '../../../lib/api.js';
import { allowed } from '../../../lib/session.js';
import type { ScreenProps } from '../../../lib/screen.js';
import { DeliveryPanel, PdfButton, SendDocumentDialog } from '../documents/delivery.js';
import { PAYMENT_METHOD_LABELS } from '../documents/methods.js';
import { DocumentLines } from '../documents/tables.js';
import { VoidCreditNoteButton, voidable } from './actions.js';

const REFUND_STATUS_LABELS: Record<general.CreditNoteRefund['status'], string> = {
  pending: 'pending',
  succeeded: 'refunded',
  failed: 'failed',
};

const PROVIDER_NAMES: Record<NonNullable<general.CreditNoteRefund['provider']>, string> = {
  test: 'the test provider',
  stripe: 'Stripe',
};

/** A refund to the card through the payment provider: where it stands, and the provider's id of it. */
function CardRefund({ refund }: { refund: general.CreditNoteRefund }) {
  return (
    <>
      {` through ${PROVIDER_NAMES[refund.provider!]} `}
      <Badge value={`refund_${refund.status}`} label={REFUND_STATUS_LABELS[refund.status]} />
      {refund.status === 'pending' ? (
        <span class="hint"> Posted to the ledger once the provider confirms it.</span>
      ) : null}
      {refund.status === 'failed' ? (
        <span class="hint"> The provider could not pay it back: it is still owed to the customer.</span>
      ) : null}
      {refund.provider_refund_id ? <span class="hint mono"> {refund.provider_refund_id}</span> : null}
    </>
  );
}

const CREDIT_NOTES = { to: '/credit-notes', name: 'Credit notes' };

/** One credit note: what it credits and why, where its money went; its PDF, send and void. */
export default function CreditNote({ params }: ScreenProps) {
  const id = params.id!;
  const load = useLoad(() => unwrap(api.value.general.creditNotes.getCreditNote({ params: { id } })), [id]);
  const [current, setCurrent] = useState<general.CreditNote | null>(null);
  const [sending, setSending] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  if (load.error || !load.data) {
    return <RecordUnavailable load={load} title="Credit note" list={CREDIT_NOTES} />;
  }
  const note = current && current.id === id ? current : load.data.data;
  const show = (amount: number) => money(amount, note.currency);

  return (
    <>
      <RecordHeader list={CREDIT_NOTES} title={`Credit note ${note.number}`}>
        {note.status === 'issued' && can('sendCreditNote') ? (
          <Button
            kind={note.sent_at ? 'secondary' : 'primary'}
            onClick={() => {
              setNotice(null);
              setActionError(null);
              setSending(true);
            }}
          >
            {note.sent_at ? 'Send again' : 'Send'}
          </Button>
        ) : null}
        {can('getCreditNotePdf') ? (
          <PdfButton
            fetch={() => api.value.general.creditNotes.getCreditNotePdf({ params: { id } })}
            fallbackName={`${note.number}.pdf`}
            onError={setActionError}
          />
        ) : null}
        {voidable(note) ? (
          <VoidCreditNoteButton
            note={note}
            onVoided={(voided) => {
              setCurrent(voided);
              setNotice(`${voided.number} is void: ${voided.invoice_number} owes what it credited again.`);
            }}
          />
        ) : null}
      </RecordHeader>
      <p class="status-line">
        <Badge value={note.status} />{' '}
        {note.status === 'void'
          ? `Voided on ${dateTime(note.voided_at)}.`
          : note.sent_at
            ? `Issued on ${date(note.issue_date)}; sent ${dateTime(note.sent_at)}.`
            : `Issued on ${date(note.issue_date)}; not sent yet.`}
      </p>
      <ErrorMessage message={actionError} />
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      <section class="panel" aria-labelledby="credit-note-details">
        <h2 id="credit-note-details">Details</h2>
        <dl class="facts">
          <dt>Invoice</dt>
          <dd>
            <Link to={`/invoices/${note.invoice_id}`}>{note.invoice_number}</Link>
          </dd>
          <dt>Customer</dt>
          <dd>
            {allowed('customers.read') ? (
              <Link to={`/customers/${note.customer.id}`}>{note.customer.name}</Link>
            ) : (
              note.customer.name
            )}
          </dd>
          <dt>Reason</dt>
          <dd class="notes">{note.reason}</dd>
          <dt>Currency</dt>
          <dd>{note.currency}</dd>
          <dt>Created</dt>
          <dd>{dateTime(note.created_at)}</dd>
        </dl>
      </section>
      <DeliveryPanel kind="credit note" sentAt={note.sent_at} hostedUrl={note.hosted_url} />
      <section class="panel" aria-labelledby="credit-note-parts">
        <h2 id="credit-note-parts">Where the money goes</h2>
        <dl class="facts">
          <dt>Off the amount due</dt>
          <dd data-credit="">{show(note.credit_amount)}</dd>
          <dt>Refunded</dt>
          <dd data-refund="">
            {show(note.refund_amount)}
            {note.refund_method ? ` by ${PAYMENT_METHOD_LABELS[note.refund_method].toLowerCase()}` : ''}
            {note.refund?.provider ? <CardRefund refund={note.refund} /> : null}
          </dd>
          <dt>To the customer's credit</dt>
          <dd data-customer-credit="">{show(note.customer_credit_amount)}</dd>
        </dl>
      </section>
      <section aria-labelledby="credit-note-lines">
        <h2 id="credit-note-lines">{note.items.length > 0 ? 'Lines' : 'Amount'}</h2>
        <DocumentLines document={note} />
      </section>
      <SendDocumentDialog
        title={`Send credit note ${note.number}`}
        open={sending}
        onClose={() => setSending(false)}
        kind="credit note"
        customerId={note.customer.id}
        send={async (body) =>
          (await unwrap(api.value.general.creditNotes.sendCreditNote({ params: { id }, body }))).data
        }
        onSent={(sent, to) => {
          setCurrent(sent);
          setSending(false);
          setNotice(to ? `${sent.number} was sent to ${to}.` : `${sent.number} was sent.`);
        }}
      />
    </>
  );
}
