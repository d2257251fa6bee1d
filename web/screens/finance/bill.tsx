import { useState } from 'preact/hooks';
import { finance, unwrap } from '../../../client/index.js';
import { BaseEquivalent } from '../../components/base-equivalent.js';
import { ConfirmButton } from '../../components/confirm.js';
import { BILL_METHOD_LABELS } from './labels.js';
import { PaymentDialog, PaymentsSection } from '../../components/payment-form.js';
import { minorText, priceMinor } from '../../lib/lines.js';
import { Button, Link, Table } from '../../components/ui.js';
import { date, dateTime, minorMoney } from '../../lib/format.js';
import { describeError, useLoad } from '../../lib/forms.js';
import { api, can } from '../../lib/api.js';
import { allowed } from '../../lib/session.js';
import { useNotice } from '../../components/outcome.js';
import type { ScreenProps } from '../../lib/screen.js';
import {
  DeleteRecordButton,
  RecordHeader,
  RecordStatus,
  RecordUnavailable,
} from '../../components/record.js';

const BILLS = { to: '/finance/bills', name: 'Bills' };

/** One bill: its items, amounts and payments; approve, record a payment, void or delete as its status allows. */

const METHODS = { list: finance.BILL_PAYMENT_METHODS, labels: BILL_METHOD_LABELS };

export default function Bill({ params }: ScreenProps) {
  const id = params.id!;
  const load = useLoad(() => unwrap(api.value.finance.bills.getBill({ params: { id } })), [id]);
  const [paying, setPaying] = useState(false);
  const [approving, setApproving] = useState(false);
  const [actionError, setActionError] = useState<string | null>(null);
  const { notice, setNotice, opens } = useNotice();

  if (load.error || !load.data) {
    return <RecordUnavailable load={load} title="Bill" list={BILLS} />;
  }
  const bill = load.data.bill;
  const open = bill.status === 'pending' || bill.status === 'overdue';
  const title = `Bill from ${bill.vendor_name}`;
  // As on an invoice: the tax columns and the subtotal and tax only when some item has input tax.
  const anyTax = bill.tax !== 0 || bill.items.some((i) => i.tax_rate !== 0);
  type Item = finance.Bill['items'][number];
  const taxColumns = anyTax
    ? [
        { label: 'Tax rate', numeric: true, render: (i: Item) => `${i.tax_rate}%` },
        { label: 'Tax', numeric: true, render: (i: Item) => minorMoney(i.tax, bill.currency) },
      ]
    : [];

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
      <RecordHeader list={BILLS} title={title}>
        {bill.status === 'draft' && can('approveBill') ? (
          <Button kind="primary" busy={approving} onClick={approve}>
            Approve
          </Button>
        ) : null}
        {open && can('payBill') ? (
          <Button kind="primary" onClick={opens(setPaying)}>
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
          <DeleteRecordButton
            list={BILLS}
            label="Delete draft"
            title="Delete this draft bill?"
            remove={() => unwrap(api.value.finance.bills.deleteBill({ params: { id } }))}
          >
            <p>The draft was never posted; it is removed from the bills.</p>
          </DeleteRecordButton>
        ) : null}
      </RecordHeader>
      <RecordStatus status={bill.status} error={actionError} notice={notice}>
        {bill.status === 'draft'
          ? 'Not posted yet: check it, then approve it.'
          : bill.status === 'overdue'
            ? `Was due on ${date(bill.due_date)}.`
            : bill.status === 'pending'
              ? `Due on ${date(bill.due_date)}.`
              : bill.status === 'paid'
                ? 'Paid in full.'
                : 'Void: nothing is owed on it.'}
      </RecordStatus>
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
          <BaseEquivalent
            amount={bill.amount}
            currency={bill.currency}
            date={bill.issue_date}
            rate={bill.exchange_rate}
          />
          <dt>Due date</dt>
          <dd>{date(bill.due_date)}</dd>
          <dt>Recorded</dt>
          <dd>{dateTime(bill.created_at)}</dd>
          {bill.recurring_bill_id ? (
            <>
              <dt>Made by</dt>
              <dd>
                <Link to={`/finance/recurring-bills/${bill.recurring_bill_id}`}>Its recurring bill</Link>
              </dd>
            </>
          ) : null}
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
            { label: 'Description', render: (i: Item) => i.description },
            { label: 'Quantity', numeric: true, render: (i) => i.quantity },
            { label: 'Unit price', numeric: true, render: (i) => minorMoney(i.unit_price, bill.currency) },
            ...taxColumns,
            { label: 'Amount', numeric: true, render: (i) => minorMoney(i.amount, bill.currency) },
          ]}
          rows={bill.items}
          rowKey={(i) => `${i.description}-${i.quantity}-${i.unit_price}-${bill.items.indexOf(i)}`}
        />
        <dl class="totals">
          {anyTax ? (
            <>
              <dt>Subtotal</dt>
              <dd data-subtotal="">{minorMoney(bill.subtotal, bill.currency)}</dd>
              <dt>Tax</dt>
              <dd data-tax="">{minorMoney(bill.tax, bill.currency)}</dd>
            </>
          ) : null}
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
      <PaymentsSection
        id="bill-payments"
        status={bill.status}
        payments={bill.payments}
        currency={bill.currency}
        money={minorMoney}
        methods={METHODS}
        none={open && can('payBill') ? ' Record one when you pay the vendor.' : ''}
      >
        {bill.status !== 'void' ? (
          <p>
            <Link to="/finance/journal">See the postings in the journal</Link>
          </p>
        ) : null}
      </PaymentsSection>
      <PaymentDialog
        title={`Record a payment to ${bill.vendor_name}`}
        open={paying}
        onClose={() => setPaying(false)}
        currency={bill.currency}
        due={
          <>
            {minorMoney(bill.amount_due, bill.currency)} of {minorMoney(bill.amount, bill.currency)} is due to{' '}
            {bill.vendor_name}.
          </>
        }
        amountDue={minorText(bill.amount_due, bill.currency)}
        methods={METHODS}
        paidOnHint="The ledger posting is dated on it."
        checkAmount
        send={(form, payment) => {
          const minor = priceMinor(payment.amount, bill.currency);
          const body = {
            amount: minor === null ? undefined : Number(minor),
            payment_method: payment.payment_method,
            payment_date: payment.payment_date || undefined,
            bank_account_id: payment.bank_account_id || undefined,
          };
          return form.submit(finance.PayBillBodySchema, body, (value) =>
            unwrap(api.value.finance.bills.payBill({ params: { id }, body: value })),
          );
        }}
        onSaved={(saved) => {
          setPaying(false);
          setNotice(
            saved.bill_status === 'paid'
              ? 'Payment recorded: the bill is paid in full.'
              : 'Payment recorded.',
          );
          load.reload();
        }}
      />
    </>
  );
}
