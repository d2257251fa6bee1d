import { finance, pricing, unwrap } from '../../../client/index.js';
import { RecordUnavailable } from '../../components/record.js';
import { ScheduleFacts, ScheduleMade, ScheduleRecord } from '../../components/schedule.js';
import { Table } from '../../components/ui.js';
import { dateTime, minorMoney } from '../../lib/format.js';
import { useLoad } from '../../lib/forms.js';
import { scaledDecimal } from '../../lib/lines.js';
import { api, can } from '../../lib/api.js';
import type { ScreenProps } from '../../lib/screen.js';

const RECURRING_BILLS = { to: '/finance/recurring-bills', name: 'Recurring bills' };

/**
 * One recurring bill: its schedule with the next dates, the items each bill is recorded with, how
 * many it recorded (and where to find them), and pause, resume or end.
 */
export default function RecurringBill({ params }: ScreenProps) {
  const id = params.id!;
  const load = useLoad(
    () => unwrap(api.value.finance.recurringBills.getRecurringBill({ params: { id } })),
    [id],
  );
  if (load.error || !load.data) {
    return <RecordUnavailable load={load} title="Recurring bill" list={RECURRING_BILLS} />;
  }
  const calls = api.value.finance.recurringBills;

  return (
    <ScheduleRecord
      loaded={load.data.recurring_bill}
      list={RECURRING_BILLS}
      title={(s) => `Recurring bill from ${s.vendor_name}`}
      noun="bill"
      allowed={can('pauseRecurringBill')}
      pause={async () => (await unwrap(calls.pauseRecurringBill({ params: { id } }))).recurring_bill}
      resume={async () => (await unwrap(calls.resumeRecurringBill({ params: { id } }))).recurring_bill}
      end={async () => (await unwrap(calls.endRecurringBill({ params: { id } }))).recurring_bill}
    >
      {(recurring) => <RecurringBillBody recurring={recurring} />}
    </ScheduleRecord>
  );
}

/**
 * Each bill's subtotal as the service prices it (the items summed exactly, rounded half up once) and
 * its tax, the rest of its amount; null for an item whose quantity cannot be read back.
 */
function pricedItems(recurring: finance.RecurringBill): { subtotal: number; tax: number } | null {
  const scaled = [];
  for (const item of recurring.items) {
    const quantityScaled = scaledDecimal(String(item.quantity), pricing.QUANTITY_PLACES);
    if (quantityScaled === null) return null;
    scaled.push({ quantityScaled, unitPriceMinor: BigInt(item.unit_price) });
  }
  const subtotal = Number(pricing.priceBill(scaled));
  return { subtotal, tax: recurring.amount - subtotal };
}

function RecurringBillBody({ recurring }: { recurring: finance.RecurringBill }) {
  type Item = finance.RecurringBill['items'][number];
  // The tax columns and each bill's subtotal and tax only when some item has input tax.
  const anyTax = recurring.items.some((i) => i.tax_rate !== 0);
  const taxColumns = anyTax
    ? [
        { label: 'Tax rate', numeric: true, render: (i: Item) => `${i.tax_rate}%` },
        { label: 'Tax', numeric: true, render: (i: Item) => minorMoney(i.tax, recurring.currency) },
      ]
    : [];
  const totals = anyTax ? pricedItems(recurring) : null;
  return (
    <>
      <section class="panel" aria-labelledby="recurring-details">
        <h2 id="recurring-details">Details</h2>
        <dl class="facts">
          <dt>Vendor</dt>
          <dd>{recurring.vendor_name}</dd>
          <dt>Currency</dt>
          <dd>{recurring.currency}</dd>
          <dt>Created</dt>
          <dd>{dateTime(recurring.created_at)}</dd>
          {recurring.notes ? (
            <>
              <dt>Notes</dt>
              <dd class="notes">{recurring.notes}</dd>
            </>
          ) : null}
        </dl>
      </section>
      <ScheduleFacts schedule={recurring} made={recurring.bills_created} noun="bill" />
      <section aria-labelledby="recurring-items">
        <h2 id="recurring-items">Items of each bill</h2>
        <Table
          caption="Items"
          columns={[
            { label: 'Description', render: (i: Item) => i.description },
            { label: 'Quantity', numeric: true, render: (i) => i.quantity },
            {
              label: 'Unit price',
              numeric: true,
              render: (i) => minorMoney(i.unit_price, recurring.currency),
            },
            ...taxColumns,
            { label: 'Amount', numeric: true, render: (i) => minorMoney(i.amount, recurring.currency) },
          ]}
          rows={recurring.items}
          rowKey={(i) => `${recurring.items.indexOf(i)}`}
        />
        <dl class="totals">
          {totals ? (
            <>
              <dt>Subtotal</dt>
              <dd data-subtotal="">{minorMoney(totals.subtotal, recurring.currency)}</dd>
              <dt>Tax</dt>
              <dd data-tax="">{minorMoney(totals.tax, recurring.currency)}</dd>
            </>
          ) : null}
          <dt class="strong">Total</dt>
          <dd class="strong" data-total="">
            {minorMoney(recurring.amount, recurring.currency)}
          </dd>
        </dl>
      </section>
      <ScheduleMade
        made={recurring.bills_created}
        noun="bill"
        how="recorded"
        where={{
          to: `/finance/bills?vendor_id=${recurring.vendor_id}`,
          name: `See the bills from ${recurring.vendor_name}`,
        }}
      />
    </>
  );
}
