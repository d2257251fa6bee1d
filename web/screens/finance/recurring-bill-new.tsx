import { useState } from 'preact/hooks';
import { finance, unwrap } from '../../../client/index.js';
import { RecordHeader } from '../../components/record.js';
import { newSchedule, scheduleBody, ScheduleFields, type ScheduleDraft } from '../../components/schedule.js';
import { Button, ErrorMessage, Link, Loading, Select, TextArea } from '../../components/ui.js';
import { currencyOptions, isCurrency, useBaseCurrency } from '../../lib/currencies.js';
import { today } from '../../lib/format.js';
import { useForm, useLoad, type FieldErrors } from '../../lib/forms.js';
import { summaryOf } from '../../lib/refusals.js';
import { here, navigate } from '../../lib/router.js';
import { api } from '../../lib/api.js';
import { BillItems, itemsBody, newItem, NoVendorsYet, priceErrors, type ItemDraft } from './bill-items.js';

const RECURRING_BILLS = { to: '/finance/recurring-bills', name: 'Recurring bills' };

/**
 * A new recurring bill: the vendor, the schedule with its next dates as typed, and the items each
 * bill is recorded with; saved, it opens.
 */
export default function RecurringBillNew() {
  const base = useBaseCurrency();
  const vendors = useLoad(
    async () => (await unwrap(api.value.finance.vendors.listVendors({ query: { limit: 200 } }))).vendors,
    [],
  );
  const [vendorId, setVendorId] = useState(() => here.value.query.get('vendor_id') ?? '');
  const [chosenCurrency, setCurrency] = useState<string | null>(null);
  const vendor = vendors.data?.find((v) => v.id === vendorId);
  const currency = chosenCurrency ?? vendor?.currency ?? base.currency;
  const [draft, setDraft] = useState<ScheduleDraft>(() => newSchedule(today()));
  const [items, setItems] = useState<ItemDraft[]>(() => [newItem()]);
  const [notes, setNotes] = useState('');
  const [local, setLocal] = useState<FieldErrors>({});
  const form = useForm();
  const errors = { ...form.errors, ...local };

  const save = (event: Event) => {
    event.preventDefault();
    const refused = priceErrors(items, currency);
    setLocal(refused);
    if (Object.keys(refused).length > 0) {
      form.clear();
      return;
    }
    const body: Record<string, unknown> = {
      vendor_id: vendorId || undefined,
      currency,
      items: itemsBody(items, currency),
      ...scheduleBody(draft),
      notes: notes.trim() || undefined,
    };
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
    void form
      .submit(finance.CreateRecurringBillBodySchema, body, (value) =>
        unwrap(api.value.finance.recurringBills.createRecurringBill({ body: value })),
      )
      .then((saved) => {
        if (saved) navigate(`/finance/recurring-bills/${saved.recurring_bill_id}`);
      });
  };

  if (vendors.error) return <ErrorMessage message={vendors.error} onRetry={vendors.reload} />;
  if (!vendors.data) return <Loading />;

  return (
    <>
      <RecordHeader list={RECURRING_BILLS} title="New recurring bill" />
      {vendors.data.length === 0 ? (
        <NoVendorsYet what="A recurring bill is recorded against the vendor who sends it." />
      ) : (
        <form class="document-form" noValidate onSubmit={save}>
          <div class="form-row">
            <Select
              label="Vendor"
              name="vendor_id"
              value={vendorId}
              options={[
                { value: '', label: 'Choose a vendor' },
                ...vendors.data.map((v) => ({ value: v.id, label: v.name })),
              ]}
              onValue={setVendorId}
              error={errors.vendor_id}
            />
            <Select
              label="Currency"
              name="currency"
              value={currency}
              options={currencyOptions()}
              onValue={(value) => setCurrency(isCurrency(value) ? value : null)}
              error={errors.currency}
            />
          </div>
          <ScheduleFields draft={draft} onDraft={setDraft} errors={errors} noun="bill" />
          <h2>Items</h2>
          <BillItems items={items} onItems={setItems} currency={currency} errors={errors} />
          <TextArea label="Notes" name="notes" value={notes} onValue={setNotes} error={errors.notes} />
          <ErrorMessage
            message={Object.keys(local).length > 0 ? 'Check the highlighted fields.' : summaryOf(form)}
          />
          <div class="form-actions">
            <Button type="submit" kind="primary" busy={form.busy}>
              Create recurring bill
            </Button>
            <Link to="/finance/recurring-bills">Cancel</Link>
          </div>
          <p class="hint">
            Each bill is recorded pending on its date and posted to the ledger then (Dr 5000 Expenses, Cr 2000
            Accounts payable).
          </p>
        </form>
      )}
    </>
  );
}
