import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { general, unwrap } from '../../../../client/index.js';
import { ConfirmButton } from '../../../components/confirm.js';
import { DeliveryPanel, PdfButton, SendDocumentDialog } from '../documents/delivery.js';
import { Button, Link } from '../../../components/ui.js';
import { date, dateTime } from '../../../lib/format.js';
import { describeError, useLoad } from '../../../lib/forms.js';
import { api, can } from '../../../lib/api.js';
import { allowed } from '../../../lib/session.js';
import { useNotice } from '../../../components/outcome.js';
import type { ScreenProps } from '../../../lib/screen.js';
import { DocumentLines } from '../documents/tables.js';
import { DocumentForm, VALID_UNTIL_HINT } from '../documents/form.js';
import {
  DeleteRecordButton,
  RecordHeader,
  RecordStatus,
  RecordUnavailable,
} from '../../../components/record.js';

const QUOTES = { to: '/quotes', name: 'Quotes' };

/**
 * One quote: its lines and totals; send, accept, decline, convert into an invoice or delete, as its
 * status allows; its PDF, and when the customer was sent it and opened it.
 */

function InvoiceLink(props: { id: string }) {
  const invoice = useLoad(
    () => unwrap(api.value.general.invoices.getInvoice({ params: { id: props.id } })),
    [props.id],
  );
  return (
    <Link to={`/invoices/${props.id}`}>
      {invoice.data ? `Invoice ${invoice.data.data.number}` : 'The invoice'}
    </Link>
  );
}

function statusText(quote: general.Quote): string {
  switch (quote.status) {
    case 'draft':
      return 'Not sent yet: check it, then send it to the customer.';
    case 'sent':
      return `Sent on ${dateTime(quote.sent_at)}; the customer may accept it until ${date(quote.valid_until)}.`;
    case 'expired':
      return `It was valid until ${date(quote.valid_until)} and can no longer be accepted.`;
    case 'accepted':
      return `Accepted on ${dateTime(quote.accepted_at)}: convert it into an invoice to bill it.`;
    case 'declined':
      return `Declined on ${dateTime(quote.declined_at)}.`;
    case 'converted':
      return `Converted into an invoice on ${dateTime(quote.converted_at)}.`;
  }
}

export default function Quote({ params }: ScreenProps) {
  const id = params.id!;
  const load = useLoad(() => unwrap(api.value.general.quotes.getQuote({ params: { id } })), [id]);
  const [current, setCurrent] = useState<general.Quote | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const { notice, setNotice, opens } = useNotice<ComponentChildren>();
  const [editing, setEditing] = useState(false);
  const [sending, setSending] = useState(false);

  if (load.error || !load.data) {
    return <RecordUnavailable load={load} title="Quote" list={QUOTES} />;
  }
  const quote = current && current.id === id ? current : load.data.data;
  const quotes = api.value.general.quotes;

  if (editing && quote.status === 'draft') {
    return (
      <>
        <RecordHeader list={QUOTES} title={`Edit draft ${quote.number}`} />
        <DocumentForm
          schema={general.UpdateQuoteBodySchema}
          existing={quote}
          dates={[
            { key: 'valid_until', label: 'Valid until', initial: quote.valid_until, hint: VALID_UNTIL_HINT },
          ]}
          saveLabel="Save changes"
          cancel={() => setEditing(false)}
          save={async (body) => (await unwrap(quotes.updateQuote({ params: { id }, body }))).data}
          onSaved={(saved) => {
            setCurrent(saved);
            setEditing(false);
            setNotice('Changes saved.');
          }}
        />
      </>
    );
  }

  /** Runs an action; the quote as it is afterwards replaces the one shown. */
  const run = (name: string, action: () => Promise<{ quote: general.Quote; notice: ComponentChildren }>) => {
    setBusy(name);
    setActionError(null);
    setNotice(null);
    action().then(
      (done) => {
        setBusy(null);
        setCurrent(done.quote);
        setNotice(done.notice);
      },
      (err: unknown) => {
        setBusy(null);
        setActionError(describeError(err).message);
      },
    );
  };
  const simple = (name: string, call: () => Promise<{ data: general.Quote }>, message: string) =>
    run(name, async () => ({ quote: (await call()).data, notice: message }));

  const actions: ComponentChildren[] = [];
  if (quote.status === 'draft' && can('sendQuote')) {
    actions.push(
      <Button
        key="send"
        kind="primary"
        onClick={() => {
          setNotice(null);
          setActionError(null);
          setSending(true);
        }}
      >
        Send
      </Button>,
    );
  }
  if (quote.status === 'sent' && can('acceptQuote')) {
    actions.push(
      <Button
        key="accept"
        kind="primary"
        busy={busy === 'accept'}
        onClick={() =>
          simple(
            'accept',
            () => unwrap(quotes.acceptQuote({ params: { id } })),
            `${quote.number} was accepted: it can now be converted into an invoice.`,
          )
        }
      >
        Mark as accepted
      </Button>,
    );
  }
  if ((quote.status === 'sent' || quote.status === 'expired') && can('declineQuote')) {
    actions.push(
      <ConfirmButton
        key="decline"
        label="Mark as declined"
        title={`Mark ${quote.number} as declined?`}
        confirmLabel="Mark as declined"
        onConfirm={async () => {
          const declined = (await unwrap(quotes.declineQuote({ params: { id } }))).data;
          setCurrent(declined);
          setNotice(`${declined.number} was declined.`);
        }}
      >
        <p>A declined quote cannot be accepted or converted any more.</p>
      </ConfirmButton>,
    );
  }
  if (quote.status === 'accepted' && can('convertQuote')) {
    actions.push(
      <Button
        key="convert"
        kind="primary"
        busy={busy === 'convert'}
        onClick={() =>
          run('convert', async () => {
            const invoice = (await unwrap(quotes.convertQuote({ params: { id } }))).data;
            const converted = (await unwrap(quotes.getQuote({ params: { id } }))).data;
            return {
              quote: converted,
              notice: (
                <>
                  Converted into draft invoice <Link to={`/invoices/${invoice.id}`}>{invoice.number}</Link>:
                  open it to check and issue it.
                </>
              ),
            };
          })
        }
      >
        Convert to invoice
      </Button>,
    );
  }
  if (quote.status === 'draft' && can('updateQuote')) {
    actions.push(
      <Button key="edit" onClick={opens(setEditing)}>
        Edit draft
      </Button>,
    );
  }
  if (quote.status === 'draft' && can('deleteQuote')) {
    actions.push(
      <DeleteRecordButton
        key="delete"
        list={QUOTES}
        label="Delete draft"
        title={`Delete draft ${quote.number}?`}
        remove={() => unwrap(quotes.deleteQuote({ params: { id } }))}
      >
        <p>The draft is removed; its number stays used.</p>
      </DeleteRecordButton>,
    );
  }

  if (can('getQuotePdf')) {
    actions.push(
      <PdfButton
        key="pdf"
        fetch={() => quotes.getQuotePdf({ params: { id } })}
        fallbackName={`${quote.number}.pdf`}
        onError={setActionError}
      />,
    );
  }

  return (
    <>
      <RecordHeader list={QUOTES} title={`Quote ${quote.number}`}>
        {actions}
      </RecordHeader>
      <RecordStatus status={quote.status} error={actionError} notice={notice}>
        {statusText(quote)}
      </RecordStatus>
      <section class="panel" aria-labelledby="quote-details">
        <h2 id="quote-details">Details</h2>
        <dl class="facts">
          <dt>Customer</dt>
          <dd>
            {allowed('customers.read') ? (
              <Link to={`/customers/${quote.customer.id}`}>{quote.customer.name}</Link>
            ) : (
              quote.customer.name
            )}
          </dd>
          <dt>Currency</dt>
          <dd>{quote.currency}</dd>
          <dt>Valid until</dt>
          <dd>{date(quote.valid_until)}</dd>
          <dt>Created</dt>
          <dd>{dateTime(quote.created_at)}</dd>
          {quote.invoice_id ? (
            <>
              <dt>Invoice</dt>
              <dd>
                <InvoiceLink id={quote.invoice_id} />
              </dd>
            </>
          ) : null}
          {quote.notes ? (
            <>
              <dt>Notes</dt>
              <dd class="notes">{quote.notes}</dd>
            </>
          ) : null}
        </dl>
      </section>
      <DeliveryPanel
        kind="quote"
        sentAt={quote.sent_at}
        viewedAt={quote.viewed_at}
        hostedUrl={quote.hosted_url}
      />
      <section aria-labelledby="quote-lines">
        <h2 id="quote-lines">Lines</h2>
        <DocumentLines document={quote} />
      </section>
      <SendDocumentDialog
        title={`Send quote ${quote.number}`}
        open={sending}
        onClose={() => setSending(false)}
        kind="quote"
        customerId={quote.customer.id}
        send={async (body) => (await unwrap(quotes.sendQuote({ params: { id }, body }))).data}
        onSent={(sent, to) => {
          setCurrent(sent);
          setSending(false);
          setNotice(
            to
              ? `${sent.number} was sent to ${to}.`
              : to === null
                ? `${sent.number} is marked as sent; no mail went out, as the customer has no email address. Share its PDF or its customer page instead.`
                : `${sent.number} was sent.`,
          );
        }}
      />
    </>
  );
}
