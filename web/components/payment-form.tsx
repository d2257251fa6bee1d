import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { unwrap } from '../../client/index.js';
import { api, can } from '../lib/api.js';
import { amountAdvice } from '../lib/lines.js';
import { date, today } from '../lib/format.js';
import { useDraft, useForm, useLoad, type Form } from '../lib/forms.js';
import { summaryOf } from '../lib/refusals.js';
import { Button, Dialog, ErrorMessage, Field, Select, Table } from './ui.js';

/**
 * Payments of what is owed, the same for a bill (paid to a vendor) and an invoice (paid by a
 * customer): the dialog that records one, and the table of those recorded.
 */

/** A payment as typed: text, as the fields hold it. */
export interface PaymentText {
  amount: string;
  payment_method: string;
  payment_date: string;
  reference: string;
  /** The bank account the money went through; empty: the method's usual account. */
  bank_account_id: string;
}

/** The payment methods, in the order offered, with their labels. */
export interface Methods<M extends string> {
  list: readonly M[];
  labels: Record<M, string>;
}

/**
 * The dialog that records a payment: amount (the amount due to begin with), date, method and, where
 * the payment keeps one, a reference; `send` checks and sends it through the form.
 */
interface PaymentDialogProps<M extends string, R> {
  title: string;
  open: boolean;
  onClose: () => void;
  currency: string;
  /** What is due, said above the fields. */
  due: ComponentChildren;
  amountDue: string;
  methods: Methods<M>;
  paidOnHint?: string;
  withReference?: boolean;
  /** Amounts are checked for the currency's decimals before they are sent. */
  checkAmount?: boolean;
  send: (form: Form, payment: PaymentText) => Promise<R | undefined>;
  onSaved: (saved: R) => void;
}

export function PaymentDialog<M extends string, R>(props: PaymentDialogProps<M, R>) {
  return (
    <Dialog title={props.title} open={props.open} onClose={props.onClose}>
      <PaymentForm {...props} />
    </Dialog>
  );
}

/** The business's bank accounts in `currency`, when the user may see them (none otherwise). */
function useBankAccounts(currency: string) {
  const load = useLoad(
    async () =>
      can('listBankAccounts')
        ? (
            await unwrap(api.value.finance.bankAccounts.listBankAccounts({ query: { limit: 200 } }))
          ).bank_accounts.filter((account) => account.currency === currency)
        : [],
    [currency],
  );
  return load.data ?? [];
}

function PaymentForm<M extends string, R>(props: PaymentDialogProps<M, R>) {
  const { draft, bind } = useDraft<PaymentText>(() => ({
    amount: props.amountDue,
    payment_method: 'bank_transfer',
    payment_date: today(),
    reference: '',
    bank_account_id: '',
  }));
  const bankAccounts = useBankAccounts(props.currency);
  const [local, setLocal] = useState<string | undefined>(undefined);
  const form = useForm();
  const submit = (event: Event) => {
    event.preventDefault();
    const advice = props.checkAmount ? amountAdvice(draft.amount, props.currency) : undefined;
    setLocal(advice);
    if (advice) return;
    void props.send(form, draft).then((saved) => {
      if (saved) props.onSaved(saved);
    });
  };
  const e = form.errors;
  return (
    <form onSubmit={submit} noValidate>
      <p>{props.due}</p>
      <div class="form-row">
        <Field
          label={`Amount in ${props.currency}`}
          inputMode="decimal"
          {...bind('amount', e)}
          error={local ?? e.amount}
          required
        />
        <Field label="Paid on" type="date" hint={props.paidOnHint} {...bind('payment_date', e)} />
      </div>
      <Select
        label="Method"
        {...bind('payment_method', e)}
        options={props.methods.list.map((m) => ({ value: m, label: props.methods.labels[m] }))}
      />
      {bankAccounts.length > 0 ? (
        <Select
          label="Bank account the money went through"
          {...bind('bank_account_id', e)}
          options={[
            { value: '', label: "The method's usual account" },
            ...bankAccounts.map((a) => ({ value: a.id, label: `${a.name} (${a.account_code})` })),
          ]}
        />
      ) : null}
      {props.withReference ? (
        <Field
          label="Reference"
          hint="Optional: the bank reference or receipt number"
          {...bind('reference', e)}
        />
      ) : null}
      <ErrorMessage message={local ? 'Check the highlighted field.' : summaryOf(form)} />
      <div class="dialog-actions">
        <Button onClick={props.onClose}>Cancel</Button>
        <Button type="submit" kind="primary" busy={form.busy}>
          Record payment
        </Button>
      </div>
    </form>
  );
}

/** A recorded payment as both bills and invoices list them. */
interface Payment<M extends string> {
  id: string;
  payment_date: string;
  payment_method: M;
  amount: number;
  reference?: string | null;
}

/**
 * The payments section of a bill or invoice: none while it is a draft, nor once void without any;
 * `none` says what to do while there are none, `children` follow the table.
 */
export function PaymentsSection<M extends string>(props: {
  id: string;
  status: string;
  payments: Payment<M>[];
  currency: string;
  /** Shows an amount in the currency (bills keep minor units, invoices major ones). */
  money: (amount: number, currency: string) => string;
  methods: Methods<M>;
  withReference?: boolean;
  none: string;
  children?: ComponentChildren;
}) {
  const { payments, status } = props;
  if (status === 'draft' || (status === 'void' && payments.length === 0)) return null;
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>Payments</h2>
      {payments.length === 0 ? (
        <p class="muted">No payments yet.{props.none}</p>
      ) : (
        <Table
          caption="Payments"
          columns={[
            { label: 'Date', render: (p: Payment<M>) => date(p.payment_date) },
            { label: 'Method', render: (p) => props.methods.labels[p.payment_method] },
            ...(props.withReference
              ? [{ label: 'Reference', render: (p: Payment<M>) => p.reference ?? '—' }]
              : []),
            { label: 'Amount', numeric: true, render: (p) => props.money(p.amount, props.currency) },
          ]}
          rows={payments}
          rowKey={(p) => p.id}
        />
      )}
      {props.children}
    </section>
  );
}
