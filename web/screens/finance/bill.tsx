import { useState } from 'preact/hooks';
import { finance, unwrap } from '../../../client/index.js';
import { ConfirmButton } from '../../components/confirm.js';
import { amountAdvice, BILL_METHOD_LABELS, minorOf, minorText } from './shared.js';
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
} from '../../components/ui.js';
import { date, dateTime, minorMoney, today } from '../../lib/format.js';
import { describeError, useForm, useLoad } from '../../lib/forms.js';
import { summaryOf } from '../../lib/refusals.js';
import { navigate } from '../../lib/router.js';
import { allowed, api, can } from '../../lib/session.js';
import type { ScreenProps } from '../../lib/screen.js';

/** One bill: its items, amounts and payments; approve, record a payment, void or delete as its status allows. */

function PaymentForm(props: { bill: finance.Bill; onSaved: (status: string) => void; onCancel: () => void }) {
  const { bill } = props;
  const [amount, setAmount] = useState(() => minorText(bill.amount_due, bill.currency));
  const [method, setMethod] = useState<string>('bank_transfer');
  const [paidOn, setPaidOn] = useState(today());
  const [local, setLocal] = useState<string | undefined>(undefined);
  const form = useForm();
  const submit = (event: Event) => {
    event.preventDefault();
    const advice = amountAdvice(amount, bill.currency);
    setLocal(advice);
    if (advice) return;
    const minor = minorOf(amount, bill.currency);
    const body = {
      amount: minor === null ? undefined : Number(minor),
      payment_method: method,
      payment_date: paidOn || undefined,
    };
    void form
      .submit(finance.PayBillBodySchema, body, (value) =>
        unwrap(api.value.finance.bills.payBill({ params: { id: bill.id }, body: value })),
      )
      .then((saved) => {
        if (saved) props.onSaved(saved.bill_status);
      });
  };
  const e = form.errors;
  return (
    <form onSubmit={submit} noValidate>
      <p>
        {minorMoney(bill.amount_due, bill.currency)} of {minorMoney(bill.amount, bill.currency)} is due to{' '}
        {bill.vendor_name}.
      </p>
      <div class="form-row">
        <Field
          label={`Amount in ${bill.currency}`}
          name="amount"
          inputMode="decimal"
          value={amount}
          onValue={setAmount}
          error={local ?? e.amount}
          required
        />
        <Field
          label="Paid on"
          name="payment_date"
          type="date"
          hint="The ledger posting is dated on it."
          value={paidOn}
          onValue={setPaidOn}
          error={e.payment_date}
        />
      </div>
      <Select
        label="Method"
        name="payment_method"
        value={method}
        options={finance.BILL_PAYMENT_METHODS.map((m) => ({ value: m, label: BILL_METHOD_LABELS[m] }))}
        onValue={setMethod}
        error={e.payment_method}
      />
      <ErrorMessage message={local ? 'Check the highlighted field.' : summaryOf(form)} />
      <div class="dialog-actions">
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button type="submit" kind="primary" busy={form.busy}>
          Record payment
        </Button>
      </div>
    </form>
  );
}

export default function Bill({ params }: ScreenProps) {
  const id = params.id!;
  const load = useLoad(() => unwrap(api.value.finance.bills.getBill({ params: { id } })), [id]);
  const [paying, setPaying] = useState(false);
  const [approving, setApproving] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  if (load.error) {
    return (
      <>
        <PageHeader title="Bill" />
        <ErrorMessage message={load.error} onRetry={load.reload} />
        <p>
          <Link to="/finance/bills">Back to bills</Link>
        </p>
      </>
    );
  }
  if (!load.data) return <Loading />;
  const bill = load.data.bill;
  const open = bill.status === 'pending' || bill.status === 'overdue';
  const title = `Bill from ${bill.vendor_name}`;

  const approve = () => {
    setApproving(true);
    setActionError(null);
    setNotice(null);
    unwrap(api.value.finance.bills.approveBill({ params: { id } })).then(
      () => {
        setApproving(false);
        setNotice('Approved: the bill is posted to the ledger and awaits payment.');
        load.reload();
      },
      (err: unknown) => {
        setApproving(false);
        setActionError(describeError(err).message);
      },
    );
  };

  return (
    <>
      <p class="breadcrumb">
        <Link to="/finance/bills">Bills</Link>
      </p>
      <PageHeader title={title}>
        {bill.status === 'draft' && can('approveBill') ? (
          <Button kind="primary" busy={approving} onClick={approve}>
            Approve
          </Button>
        ) : null}
        {open && can('payBill') ? (
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
        {open && bill.payments.length === 0 && can('voidBill') ? (
          <ConfirmButton
            label="Void"
            title="Void this bill?"
            confirmLabel="Void bill"
            onConfirm={async () => {
              await unwrap(api.value.finance.bills.voidBill({ params: { id } }));
              setNotice('The bill is void: its posting is reversed, dated today.');
              load.reload();
            }}
          >
            <p>
              Nothing will be owed to {bill.vendor_name} on this bill (
              {minorMoney(bill.amount, bill.currency)}). The ledger gets a reversing entry dated today; a void
              bill cannot be paid.
            </p>
          </ConfirmButton>
        ) : null}
        {bill.status === 'draft' && can('deleteBill') ? (
          <ConfirmButton
            label="Delete draft"
            title="Delete this draft bill?"
            confirmLabel="Delete draft"
            onConfirm={async () => {
              await unwrap(api.value.finance.bills.deleteBill({ params: { id } }));
              navigate('/finance/bills');
            }}
          >
            <p>The draft was never posted; it is removed from the bills.</p>
          </ConfirmButton>
        ) : null}
      </PageHeader>
      <p class="status-line">
        <Badge value={bill.status} />{' '}
        {bill.status === 'draft'
          ? 'Not posted yet: check it, then approve it.'
          : bill.status === 'overdue'
            ? `Was due on ${date(bill.due_date)}.`
            : bill.status === 'pending'
              ? `Due on ${date(bill.due_date)}.`
              : bill.status === 'paid'
                ? 'Paid in full.'
                : 'Void: nothing is owed on it.'}
      </p>
      <ErrorMessage message={actionError} />
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      <section class="panel" aria-labelledby="bill-details">
        <h2 id="bill-details">Details</h2>
        <dl class="facts">
          <dt>Vendor</dt>
          <dd>
            {allowed('finance.read') ? (
              <Link to={`/finance/bills?vendor_id=${bill.vendor_id}`}>{bill.vendor_name}</Link>
            ) : (
              bill.vendor_name
            )}
          </dd>
          <dt>Currency</dt>
          <dd>{bill.currency}</dd>
          <dt>Issue date</dt>
          <dd>{date(bill.issue_date)}</dd>
          <dt>Due date</dt>
          <dd>{date(bill.due_date)}</dd>
          <dt>Recorded</dt>
          <dd>{dateTime(bill.created_at)}</dd>
          {bill.notes ? (
            <>
              <dt>Notes</dt>
              <dd class="notes">{bill.notes}</dd>
            </>
          ) : null}
        </dl>
      </section>
      <section aria-labelledby="bill-items">
        <h2 id="bill-items">Items</h2>
        <Table
          caption="Items"
          columns={[
            { label: 'Description', render: (i: finance.Bill['items'][number]) => i.description },
            { label: 'Quantity', numeric: true, render: (i) => i.quantity },
            { label: 'Unit price', numeric: true, render: (i) => minorMoney(i.unit_price, bill.currency) },
            { label: 'Amount', numeric: true, render: (i) => minorMoney(i.amount, bill.currency) },
          ]}
          rows={bill.items}
          rowKey={(i) => `${i.description}-${i.quantity}-${i.unit_price}-${bill.items.indexOf(i)}`}
        />
        <dl class="totals">
          <dt class="strong">Total</dt>
          <dd class="strong" data-total="">
            {minorMoney(bill.amount, bill.currency)}
          </dd>
          {bill.status === 'draft' || bill.status === 'void' ? null : (
            <>
              <dt>Paid</dt>
              <dd data-paid="">{minorMoney(bill.amount_paid, bill.currency)}</dd>
              <dt class="strong">Amount due</dt>
              <dd class="strong" data-due="">
                {minorMoney(bill.amount_due, bill.currency)}
              </dd>
            </>
          )}
        </dl>
      </section>
      {bill.status !== 'draft' && !(bill.status === 'void' && bill.payments.length === 0) ? (
        <section aria-labelledby="bill-payments">
          <h2 id="bill-payments">Payments</h2>
          {bill.payments.length === 0 ? (
            <p class="muted">
              No payments yet.{open && can('payBill') ? ' Record one when you pay the vendor.' : ''}
            </p>
          ) : (
            <Table
              caption="Payments"
              columns={[
                { label: 'Date', render: (p: finance.BillPayment) => date(p.payment_date) },
                { label: 'Method', render: (p) => BILL_METHOD_LABELS[p.payment_method] },
                { label: 'Amount', numeric: true, render: (p) => minorMoney(p.amount, p.currency) },
              ]}
              rows={bill.payments}
              rowKey={(p) => p.id}
            />
          )}
          {bill.status !== 'void' ? (
            <p>
              <Link to="/finance/journal">See the postings in the journal</Link>
            </p>
          ) : null}
        </section>
      ) : null}
      <Dialog
        title={`Record a payment to ${bill.vendor_name}`}
        open={paying}
        onClose={() => setPaying(false)}
      >
        <PaymentForm
          bill={bill}
          onCancel={() => setPaying(false)}
          onSaved={(status) => {
            setPaying(false);
            setNotice(
              status === 'paid' ? 'Payment recorded: the bill is paid in full.' : 'Payment recorded.',
            );
            load.reload();
          }}
        />
      </Dialog>
    </>
  );
}
