import { useState } from 'preact/hooks';
import { finance, unwrap } from '../../../client/index.js';
import { addDays } from '../../lib/lines.js';
import { Button, ErrorMessage, Field, Link, Loading, Select, TextArea } from '../../components/ui.js';
import { currencyOptions, isCurrency, useBaseCurrency } from '../../lib/currencies.js';
import { today } from '../../lib/format.js';
import { useDraft, useForm, useLoad, type FieldErrors } from '../../lib/forms.js';
import { summaryOf } from '../../lib/refusals.js';
import { here, navigate } from '../../lib/router.js';
import { api } from '../../lib/api.js';
import { RecordHeader } from '../../components/record.js';
import { BillItems, itemsBody, newItem, NoVendorsYet, priceErrors, type ItemDraft } from './bill-items.js';

const BILLS = { to: '/finance/bills', name: 'Bills' };

/**
 * A new bill: vendor, currency, dates and items with the total as the service will compute it
 * (integer minor units, exact), saved as a draft or recorded at once (pending, posted to the ledger).
 */

export default function BillNew() {
  const base = useBaseCurrency();
  const vendors = useLoad(
    async () => (await unwrap(api.value.finance.vendors.listVendors({ query: { limit: 200 } }))).vendors,
    [],
  );
  const { draft, bind } = useDraft(() => ({
    vendor_id: here.value.query.get('vendor_id') ?? '',
    issue_date: today(),
    due_date: addDays(today(), 30),
    notes: '',
  }));
  const [chosenCurrency, setCurrency] = useState<string | null>(null);
  const vendor = vendors.data?.find((v) => v.id === draft.vendor_id);
  const currency = chosenCurrency ?? vendor?.currency ?? base.currency;
  const [items, setItems] = useState<ItemDraft[]>(() => [newItem()]);
  const [local, setLocal] = useState<FieldErrors>({});
  const form = useForm();
  const errors = { ...form.errors, ...local };

  const save = (asDraft: boolean) => {
    const refused = priceErrors(items, currency);
    setLocal(refused);
    if (Object.keys(refused).length > 0) {
      form.clear();
      return;
    }
    const body: Record<string, unknown> = {
      vendor_id: draft.vendor_id || undefined,
      currency,
      issue_date: draft.issue_date || undefined,
      due_date: draft.due_date || undefined,
      notes: draft.notes.trim() || undefined,
      status: asDraft ? 'draft' : undefined,
      items: itemsBody(items, currency),
    };
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
    void form
      .submit(finance.CreateBillBodySchema, body, (value) =>
        unwrap(api.value.finance.bills.createBill({ body: value })),
      )
      .then((saved) => {
        if (saved) navigate(`/finance/bills/${saved.bill_id}`);
      });
  };

  const currencies = currencyOptions();

  if (vendors.error) return <ErrorMessage message={vendors.error} onRetry={vendors.reload} />;
  if (!vendors.data) return <Loading />;

  return (
    <>
      <RecordHeader list={BILLS} title="New bill" />
      {vendors.data.length === 0 ? (
        <NoVendorsYet what="A bill is recorded against the vendor who sent it." />
      ) : (
        <form
          class="document-form"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            save(false);
          }}
        >
          <div class="form-row">
            <Select
              label="Vendor"
              {...bind('vendor_id', errors)}
              options={[
                { value: '', label: 'Choose a vendor' },
                ...vendors.data.map((v) => ({ value: v.id, label: v.name })),
              ]}
            />
            <Select
              label="Currency"
              name="currency"
              value={currency}
              options={currencies}
              onValue={(value) => setCurrency(isCurrency(value) ? value : null)}
              error={errors.currency}
            />
          </div>
          <div class="form-row">
            <Field
              label="Issue date"
              type="date"
              hint="The ledger posting is dated on it."
              {...bind('issue_date', errors)}
            />
            <Field label="Due date" type="date" {...bind('due_date', errors)} />
          </div>
          <h2>Items</h2>
          <BillItems items={items} onItems={setItems} currency={currency} errors={errors} />
          <TextArea label="Notes" {...bind('notes', errors)} />
          <ErrorMessage
            message={Object.keys(local).length > 0 ? 'Check the highlighted fields.' : summaryOf(form)}
          />
          <div class="form-actions">
            <Button type="submit" kind="primary" busy={form.busy}>
              Record bill
            </Button>
            <Button busy={form.busy} onClick={() => save(true)}>
              Save as draft
            </Button>
            <Link to="/finance/bills">Cancel</Link>
          </div>
          <p class="hint">
            A recorded bill is posted to the ledger at once (Dr 5000 Expenses, Cr 2000 Accounts payable); a
            draft is posted when approved.
          </p>
        </form>
      )}
    </>
  );
}
