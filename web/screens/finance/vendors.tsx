import { contract, finance, unwrap } from '../../../client/index.js';
import { ImportButton } from '../../components/csv-import.js';
import { EditDialog, rowActions, useEditing } from '../../components/edit-dialog.js';
import { DialogForm } from '../../components/form-dialog.js';
import { ListPage } from '../../components/list-page.js';
import { currencyChoices } from '../../lib/currencies.js';
import { Field, Link, Select, type Column } from '../../components/ui.js';
import { date } from '../../lib/format.js';
import { useDraft, useForm } from '../../lib/forms.js';
import { usePagedList } from '../../lib/list-query.js';
import { api, can } from '../../lib/api.js';
import { AddressFields, NameEmailPhone } from '../../components/contact-fields.js';
import { addressOf, pick } from '../../lib/address.js';

/** Vendors: the businesses that bill this one; paged from the URL, added and changed in a dialog. */

const PAGE_SIZE = 20;

interface Draft {
  name: string;
  email: string;
  phone: string;
  currency: string;
  tax_id: string;
  line1: string;
  city: string;
  postal_code: string;
  country: string;
}

function draftOf(vendor?: finance.Vendor): Draft {
  return {
    name: vendor?.name ?? '',
    email: vendor?.email ?? '',
    phone: vendor?.phone ?? '',
    currency: vendor?.currency ?? '',
    tax_id: vendor?.tax_id ?? '',
    line1: vendor?.address?.line1 ?? '',
    city: vendor?.address?.city ?? '',
    postal_code: vendor?.address?.postal_code ?? '',
    country: vendor?.address?.country ?? '',
  };
}

/** Empty fields left out of a new vendor and cleared (null) on an existing one. */
function bodyOf(draft: Draft, existing: finance.Vendor | undefined): finance.CreateVendorBody {
  const text = (value: string) => (value.trim() === '' ? (existing ? null : undefined) : value.trim());
  const address = addressOf(pick(draft, ['line1', 'city', 'postal_code', 'country']));
  const body: Record<string, unknown> = {
    name: draft.name,
    email: text(draft.email),
    phone: text(draft.phone),
    currency: text(draft.currency),
    tax_id: text(draft.tax_id),
    address: Object.keys(address).length > 0 ? address : existing ? null : undefined,
  };
  // Unchanged on an existing vendor: left out, so the update changes only what was edited.
  if (existing) {
    const before = bodyOf(draftOf(existing), undefined) as Record<string, unknown>;
    for (const key of Object.keys(body)) {
      if (JSON.stringify(body[key] ?? null) === JSON.stringify(before[key] ?? null)) delete body[key];
    }
  }
  for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
  return body as finance.CreateVendorBody;
}

function VendorForm(props: {
  vendor?: finance.Vendor;
  onSaved: (vendor: finance.Vendor) => void;
  onCancel: () => void;
}) {
  const { draft, set, bind } = useDraft<Draft>(() => draftOf(props.vendor));
  const form = useForm();
  const existing = props.vendor;
  const submit = () => {
    const body = bodyOf(draft, existing);
    const vendors = api.value.finance.vendors;
    const saving = existing
      ? form.submit(finance.UpdateVendorBodySchema, body, (value) =>
          unwrap(vendors.updateVendor({ params: { id: existing.id }, body: value })),
        )
      : form.submit(finance.CreateVendorBodySchema, body, (value) =>
          unwrap(vendors.createVendor({ body: value })),
        );
    void saving.then((saved) => {
      if (saved) props.onSaved(saved.vendor);
    });
  };
  const e = form.errors;
  return (
    <DialogForm
      form={form}
      submit={existing ? 'Save changes' : 'Add vendor'}
      onCancel={props.onCancel}
      onSubmit={submit}
    >
      <NameEmailPhone draft={draft} set={set} errors={e} />
      <div class="form-row">
        <Select label="Usual currency" {...bind('currency', e)} options={currencyChoices('Not recorded')} />
        <Field label="Tax ID" {...bind('tax_id', e)} />
      </div>
      <AddressFields
        draft={draft}
        set={set}
        errors={e}
        rows={[['line1'], ['city', 'postal_code', 'country']]}
        labels={{ line1: 'Address line' }}
        hasAddress={Boolean(existing?.address)}
      />
    </DialogForm>
  );
}

export default function Vendors() {
  const state = useEditing<finance.Vendor>();
  const list = usePagedList(
    PAGE_SIZE,
    (paging) => api.value.finance.vendors.listVendors({ query: paging }),
    (answer) => ({ rows: answer.vendors, total: answer.total_count }),
    [],
  );
  const columns: Column<finance.Vendor>[] = [
    { label: 'Name', render: (v) => <strong>{v.name}</strong> },
    { label: 'Email', render: (v) => v.email ?? '—' },
    { label: 'Phone', render: (v) => v.phone ?? '—' },
    { label: 'Currency', render: (v) => v.currency ?? '—' },
    { label: 'Tax ID', render: (v) => v.tax_id ?? '—' },
    { label: 'Added', render: (v) => date(v.created_at) },
    ...rowActions(state, {
      edit: can('updateVendor'),
      before: (v) => (
        <Link to={`/finance/bills?vendor_id=${v.id}`} aria-label={`Bills of ${v.name}`}>
          Bills
        </Link>
      ),
    }),
  ];
  return (
    <>
      <ListPage
        title="Vendors"
        export={{ route: contract.finance.vendors.listVendors }}
        actions={
          <ImportButton
            kind="vendors"
            onImported={() => {
              state.setNotice(null);
              list.reload();
            }}
          />
        }
        create={{
          operation: 'createVendor',
          label: 'New vendor',
          onClick: () => {
            state.setNotice(null);
            state.setEditing('new');
          },
        }}
        notice={state.notice}
        list={list}
        empty={{
          title: 'No vendors yet',
          canAdd: 'Add the suppliers who bill you with New vendor; every bill is recorded against one.',
          cannotAdd: 'Vendors appear here once someone with permission to add them does so.',
        }}
        table={{ caption: 'Vendors', columns, rowKey: (v) => v.id }}
      />
      <EditDialog
        state={state}
        addTitle="New vendor"
        form={(vendor) => (
          <VendorForm
            vendor={vendor}
            onCancel={state.close}
            onSaved={(saved) => state.saved(saved.name, list.reload)}
          />
        )}
      />
    </>
  );
}
