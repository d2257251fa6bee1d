import { useState } from 'preact/hooks';
import { general, unwrap } from '../../../../client/index.js';
import { DialogForm } from '../../../components/form-dialog.js';
import { TotalsPanel } from '../../../components/line-editor.js';
import { Dialog, Field, Select, TextArea } from '../../../components/ui.js';
import { minorMoney, money } from '../../../lib/format.js';
import { useDraft, useForm } from '../../../lib/forms.js';
import { amountAdvice, documentTotals, priceMinor, showMinor } from '../../../lib/lines.js';
import { api } from '../../../lib/api.js';
import { LineEditor, newLine, itemsOf, type LineDraft } from '../documents/form.js';
import { PAYMENT_METHOD_LABELS } from '../documents/methods.js';

/**
 * The credit note made from an invoice's screen: what it credits (an amount, or lines priced as the
 * invoice's), its reason, and where its money goes (off what the invoice owes, back to the customer,
 * or to their credit balance), with the total, what is still to place and the service's limits shown
 * beside the fields as they are typed. The service decides; its refusals land beside their fields.
 */

/** The parts of a credit note as typed: text, as the fields hold it. */
interface PartsText {
  amount: string;
  reason: string;
  issue_date: string;
  credit_amount: string;
  refund_amount: string;
  refund_method: string;
  customer_credit_amount: string;
}

type Basis = 'amount' | 'items';

/** A typed amount as the body takes it: 0 when empty (each part is required), the number otherwise. */
const partOf = (text: string): number => (text.trim() === '' ? 0 : Number(text.trim()));

/** A typed amount in minor units: 0 when empty, null when not an amount of `currency`. */
const minorOf = (text: string, currency: string): bigint | null =>
  text.trim() === '' ? 0n : priceMinor(text, currency);

export interface CreditNoteLimits {
  /** What earlier credit notes left to credit on the invoice (its total less theirs); unknown while loading. */
  left: number | undefined;
}

function CreditNoteForm(props: {
  invoice: general.Invoice;
  limits: CreditNoteLimits;
  onCancel: () => void;
  onCreated: (note: general.CreditNote) => void;
}) {
  const { invoice } = props;
  const { currency } = invoice;
  const [basis, setBasis] = useState<Basis>('amount');
  const [lines, setLines] = useState<LineDraft[]>(() => [newLine()]);
  const { draft, bind } = useDraft<PartsText>(() => ({
    amount: '',
    reason: '',
    issue_date: '',
    credit_amount: '',
    refund_amount: '',
    refund_method: 'bank_transfer',
    customer_credit_amount: '',
  }));
  const form = useForm();
  const e = form.errors;

  const total =
    basis === 'amount'
      ? draft.amount.trim() === ''
        ? null
        : priceMinor(draft.amount, currency)
      : (documentTotals(lines, currency)?.totalMinor ?? null);
  const parts = [draft.credit_amount, draft.refund_amount, draft.customer_credit_amount].map((text) =>
    minorOf(text, currency),
  );
  const placed = parts.reduce<bigint | null>((sum, p) => (sum === null || p === null ? null : sum + p), 0n);
  const show = (minor: bigint | null) => showMinor(minor, currency, minorMoney);
  const refund = minorOf(draft.refund_amount, currency);

  const submit = () => {
    const body: Record<string, unknown> = {
      invoice_id: invoice.id,
      reason: draft.reason,
      issue_date: draft.issue_date || undefined,
      credit_amount: partOf(draft.credit_amount),
      refund_amount: partOf(draft.refund_amount),
      refund_method: refund !== null && refund > 0n ? draft.refund_method : undefined,
      customer_credit_amount: partOf(draft.customer_credit_amount),
    };
    if (basis === 'amount') body.amount = draft.amount.trim() === '' ? undefined : Number(draft.amount);
    else body.items = itemsOf(lines);
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
    void form
      .submit(
        general.CreateCreditNoteBodySchema,
        body,
        async (value) => (await unwrap(api.value.general.creditNotes.createCreditNote({ body: value }))).data,
        { currency },
      )
      .then((note) => {
        if (note) props.onCreated(note);
      });
  };

  const left = props.limits.left;
  const leftWords =
    left === undefined
      ? undefined
      : `At most ${money(left, currency)} is left to credit on ${invoice.number}.`;
  const amountField = bind('amount', e);
  return (
    <DialogForm
      class="credit-note-form"
      form={form}
      submit="Issue credit note"
      onCancel={props.onCancel}
      onSubmit={submit}
    >
      <p class="dialog-body">
        {invoice.number} totals {money(invoice.total, currency)}; {money(invoice.amount_due, currency)} is
        still due. A credit note is issued at once and posted to the books; it can be voided while nothing of
        it was refunded or spent as credit.
      </p>
      <TextArea label="Reason" rows={2} hint="Printed on the credit note." {...bind('reason', e)} />
      <fieldset class="choice">
        <legend>What it credits</legend>
        {(
          [
            ['amount', 'An amount, tax included'],
            ['items', 'Lines'],
          ] as const
        ).map(([value, label]) => (
          <label key={value}>
            <input
              type="radio"
              name="basis"
              value={value}
              checked={basis === value}
              onChange={() => setBasis(value)}
            />{' '}
            {label}
          </label>
        ))}
      </fieldset>
      {basis === 'amount' ? (
        <Field
          label={`Amount in ${currency}`}
          inputMode="decimal"
          {...amountField}
          hint={amountAdvice(draft.amount, currency) ?? leftWords}
        />
      ) : (
        <>
          <LineEditor lines={lines} onLines={setLines} currency={currency} errors={e} products={[]} />
          {leftWords ? <p class="hint">{leftWords}</p> : null}
        </>
      )}
      <Field label="Issue date" type="date" hint="Left empty, today." {...bind('issue_date', e)} />
      <h3>Where the money goes</h3>
      <div class="form-row">
        <Field
          label={`Off the amount due (${currency})`}
          inputMode="decimal"
          {...bind('credit_amount', e)}
          hint={
            amountAdvice(draft.credit_amount, currency) ??
            `At most ${money(invoice.amount_due, currency)}, what ${invoice.number} still owes.`
          }
        />
        <Field
          label={`To the customer's credit (${currency})`}
          inputMode="decimal"
          {...bind('customer_credit_amount', e)}
          hint={
            amountAdvice(draft.customer_credit_amount, currency) ??
            'Taken off their next invoice in this currency.'
          }
        />
      </div>
      <div class="form-row">
        <Field
          label={`Refunded (${currency})`}
          inputMode="decimal"
          {...bind('refund_amount', e)}
          hint={amountAdvice(draft.refund_amount, currency) ?? 'Paid back to the customer.'}
        />
        {refund !== null && refund > 0n ? (
          <Select
            label="Refunded by"
            {...bind('refund_method', e)}
            options={general.REFUND_METHODS.map((m) => ({ value: m, label: PAYMENT_METHOD_LABELS[m] }))}
          />
        ) : null}
      </div>
      <TotalsPanel
        rows={[
          { label: 'Credit note total', value: show(total), strong: true, data: 'total' },
          { label: 'Placed', value: show(placed), data: 'placed' },
          {
            label: 'Still to place',
            value: total === null || placed === null ? '—' : show(total - placed),
            data: 'unplaced',
            class: total !== null && placed !== null && total !== placed ? 'error' : undefined,
          },
        ]}
        hint={<p class="hint">The three parts add up to the credit note's total.</p>}
      />
    </DialogForm>
  );
}

/** The dialog of a new credit note; its form starts afresh each time it opens. */
export function CreditNoteDialog(props: {
  invoice: general.Invoice;
  limits: CreditNoteLimits;
  open: boolean;
  onClose: () => void;
  onCreated: (note: general.CreditNote) => void;
}) {
  const { open, onClose, ...form } = props;
  return (
    <Dialog title={`Credit note for ${props.invoice.number}`} open={open} onClose={onClose}>
      <CreditNoteForm {...form} onCancel={onClose} />
    </Dialog>
  );
}
