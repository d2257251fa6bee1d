import { useEffect, useId, useState } from 'preact/hooks';
import type { z } from 'zod';
import { contract, unwrap } from '../../../../client/index.js';
import { dateTime } from '../../../lib/format.js';
import { describeError, useForm, useLoad } from '../../../lib/forms.js';
import { summaryOf } from '../../../lib/refusals.js';
import { api, can } from '../../../lib/api.js';
import { Button, Dialog, ErrorMessage, Field, TextArea } from '../../../components/ui.js';
import { fileNameOf, save } from '../../../lib/download.js';
import { CopyButton } from '../../../components/copy-button.js';

/**
 * What invoices, quotes and credit notes share on their way to the customer: the PDF downloaded, the
 * send dialog (to, cc, message), and (invoices and quotes) when it was sent and viewed with the link to its hosted page.
 */

export type DocumentKind = 'invoice' | 'quote' | 'credit note';

/** The body both send operations take (one schema in the contract). */
const SEND_SCHEMA = contract.general.invoices.sendInvoice.body;
export type SendBody = z.infer<typeof SEND_SCHEMA>;

/** What the SDK answers for a PDF: the file as a Blob, named by `Content-Disposition`. */
interface PdfAnswer {
  status: number;
  body: unknown;
  headers: Headers;
}

/** "Download PDF": the document fetched through the SDK, then saved as a file. */
export function PdfButton(props: {
  fetch: () => Promise<PdfAnswer>;
  /** The file's name when the answer names none: `INV-000001.pdf`. */
  fallbackName: string;
  onError: (message: string | null) => void;
  /** The button's words, when one screen shows several ("CN-000001 PDF"). */
  label?: string;
}) {
  const [busy, setBusy] = useState(false);
  const download = () => {
    setBusy(true);
    props.onError(null);
    props
      .fetch()
      .then(async (answer) => {
        const blob: unknown = await unwrap(answer);
        if (!(blob instanceof Blob)) throw new Error('The service did not answer a PDF; try again.');
        save(blob, fileNameOf(answer.headers, props.fallbackName));
      })
      .catch((err: unknown) => props.onError(describeError(err).message))
      .finally(() => setBusy(false));
  };
  return (
    <Button busy={busy} onClick={download}>
      {props.label ?? 'Download PDF'}
    </Button>
  );
}

/** Addresses typed one after another, separated by commas (or semicolons, or new lines). */
const addressesOf = (text: string) =>
  text
    .split(/[,;\n]/)
    .map((address) => address.trim())
    .filter(Boolean);

interface SendFormProps<D> {
  kind: DocumentKind;
  customerId: string;
  /** An invoice still a draft: sending issues it first. */
  issuesFirst?: boolean;
  send: (body: SendBody) => Promise<D>;
  /** `to` is where the mail went: null when nowhere (a quote only marked sent), undefined when unknown. */
  onSent: (document: D, to: string | null | undefined) => void;
  onCancel: () => void;
}

function SendForm<D>(props: SendFormProps<D>) {
  const { kind } = props;
  const customer = useLoad(
    async () =>
      can('getCustomer')
        ? (await unwrap(api.value.general.customers.getCustomer({ params: { id: props.customerId } }))).data
        : null,
    [props.customerId],
  );
  const [to, setTo] = useState('');
  const [typed, setTyped] = useState(false);
  const [cc, setCc] = useState('');
  const [message, setMessage] = useState('');
  /** The copies as last submitted: a refusal names them by position. */
  const [submitted, setSubmitted] = useState<string[]>([]);
  const form = useForm();
  const known = customer.data?.email ?? null;
  useEffect(() => {
    // The customer's address, unless one was typed before it arrived.
    if (known && !typed) setTo(known);
  }, [known]);

  const submit = (event: Event) => {
    event.preventDefault();
    const copies = addressesOf(cc);
    setSubmitted(copies);
    const body = {
      to: to.trim() || undefined,
      cc: copies.length > 0 ? copies : undefined,
      message: message.trim() || undefined,
    };
    void form
      .submit(SEND_SCHEMA, body, async (value) => ({ document: await props.send(value), value }))
      .then((done) => {
        if (!done) return;
        const recipient = done.value.to ?? (customer.data ? known : undefined);
        props.onSent(done.document, recipient);
      });
  };

  const e = form.errors;
  const ccKey = Object.keys(e).find((key) => key === 'cc' || key.startsWith('cc.'));
  const ccIndex = ccKey?.startsWith('cc.') ? Number(ccKey.slice(3)) : NaN;
  const ccError = ccKey
    ? Number.isInteger(ccIndex) && submitted[ccIndex] !== undefined
      ? `${submitted[ccIndex]}: ${e[ccKey]}`
      : e[ccKey]
    : undefined;
  const noAddress = customer.data !== undefined && !known;
  const toHint = known
    ? "The customer's email address; change it to send elsewhere."
    : noAddress
      ? kind === 'quote'
        ? 'The customer has no email address: give one, or leave it empty to mark the quote sent without a mail.'
        : 'The customer has no email address: give one.'
      : undefined;

  return (
    <form onSubmit={submit} noValidate class="send-form">
      <p class="dialog-body">
        {kind === 'invoice'
          ? `${props.issuesFirst ? 'The draft is issued first, then ' : 'The invoice is '}mailed with its PDF attached and a link to its page, where the customer can see it and download it.`
          : kind === 'quote'
            ? 'The quote is mailed with its PDF attached and a link to its page, where the customer can accept or decline it.'
            : 'The credit note is mailed with its PDF attached.'}
      </p>
      <Field
        label="To"
        name="to"
        type="email"
        autoComplete="off"
        value={to}
        onValue={(value) => {
          setTyped(true);
          setTo(value);
        }}
        error={e.to}
        hint={toHint}
      />
      <Field
        label="Cc"
        name="cc"
        autoComplete="off"
        value={cc}
        onValue={setCc}
        error={ccError}
        hint="Addresses to copy, separated by commas (up to 10)."
      />
      <TextArea
        label="Message"
        name="message"
        rows={4}
        value={message}
        onValue={setMessage}
        error={e.message}
        hint="Optional: shown above the document in the mail."
      />
      <ErrorMessage message={summaryOf(form)} />
      <div class="dialog-actions">
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button type="submit" kind="primary" busy={form.busy}>
          {kind === 'invoice' ? (props.issuesFirst ? 'Issue and send' : 'Send invoice') : `Send ${kind}`}
        </Button>
      </div>
    </form>
  );
}

/** The send dialog of an invoice or a quote; its form starts afresh each time it opens. */
export function SendDocumentDialog<D>(
  props: Omit<SendFormProps<D>, 'onCancel'> & { title: string; open: boolean; onClose: () => void },
) {
  const { title, open, onClose, ...form } = props;
  return (
    <Dialog title={title} open={open} onClose={onClose}>
      <SendForm {...form} onCancel={onClose} />
    </Dialog>
  );
}

/**
 * When the document went to the customer and was first opened, and the link to its hosted page. A
 * document that records no views (a credit note) leaves `viewedAt` out.
 */
export function DeliveryPanel(props: {
  kind: DocumentKind;
  sentAt: string | null;
  viewedAt?: string | null;
  hostedUrl: string | null;
}) {
  const id = useId();
  const { kind, sentAt, viewedAt, hostedUrl } = props;
  if (!sentAt && !hostedUrl) return null;
  return (
    <section class="panel delivery" aria-labelledby={id}>
      <h2 id={id}>Customer copy</h2>
      <p class="delivery-dates">
        <span data-sent="">{sentAt ? `Sent ${dateTime(sentAt)}` : 'Not sent yet'}</span>
        {viewedAt === undefined ? null : (
          <span data-viewed="">{viewedAt ? `Viewed ${dateTime(viewedAt)}` : 'Not viewed yet'}</span>
        )}
      </p>
      {hostedUrl ? (
        <>
          <div class="hosted-link">
            <span class="hosted-label">Customer page</span>
            <a href={hostedUrl} target="_blank" rel="noopener noreferrer">
              {hostedUrl}
            </a>
            <CopyButton value={hostedUrl} what={`the link to the ${kind}'s customer page`} />
          </div>
          <small class="hint">
            Anyone holding the link sees the {kind} without signing in: share it only with the customer.
            {viewedAt === undefined ? '' : ' Opening it yourself counts as a view.'}
          </small>
        </>
      ) : null}
    </section>
  );
}
