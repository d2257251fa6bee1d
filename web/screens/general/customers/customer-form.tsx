import { general, unwrap } from '../../../../client/index.js';
import { conflictOn } from '../../../lib/refusals.js';
import { useDraft, useForm } from '../../../lib/forms.js';
import { api } from '../../../lib/api.js';
import { Field } from '../../../components/ui.js';
import { DialogForm } from '../../../components/form-dialog.js';
import { AddressFields, NameEmailPhone } from '../../../components/contact-fields.js';
import { addressOf, pick } from '../../../lib/address.js';

/** A customer's contact details, new or changed, checked with the contract's schema before sending. */

interface Draft {
  name: string;
  email: string;
  phone: string;
  company: string;
  line1: string;
  line2: string;
  city: string;
  state: string;
  postal_code: string;
  country: string;
  unsubscribed: boolean;
}

const ADDRESS_KEYS = ['line1', 'line2', 'city', 'state', 'postal_code', 'country'] as const;

function draftOf(customer?: general.Customer): Draft {
  const address = customer?.address ?? {};
  return {
    name: customer?.name ?? '',
    email: customer?.email ?? '',
    phone: customer?.phone ?? '',
    company: customer?.company ?? '',
    line1: address.line1 ?? '',
    line2: address.line2 ?? '',
    city: address.city ?? '',
    state: address.state ?? '',
    postal_code: address.postal_code ?? '',
    country: address.country ?? '',
    unsubscribed: customer?.unsubscribed ?? false,
  };
}

/**
 * The body: empty fields left out of a new customer, and cleared (null) on an existing one, so an
 * edit can remove a phone number.
 */
function bodyOf(draft: Draft, existing: boolean): general.CreateCustomerBody {
  const text = (value: string) => (value.trim() === '' ? (existing ? null : undefined) : value.trim());
  const address = addressOf(pick(draft, ADDRESS_KEYS));
  const body: Record<string, unknown> = {
    name: draft.name,
    email: text(draft.email),
    phone: text(draft.phone),
    company: text(draft.company),
    address: Object.keys(address).length > 0 ? address : existing ? null : undefined,
  };
  if (existing || draft.unsubscribed) body.unsubscribed = draft.unsubscribed;
  for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
  return body as general.CreateCustomerBody;
}

export function CustomerForm(props: {
  customer?: general.Customer;
  onSaved: (customer: general.Customer) => void;
  onCancel: () => void;
}) {
  const { draft, set, bind, setDraft } = useDraft<Draft>(() => draftOf(props.customer));
  const form = useForm();
  const existing = props.customer;

  const submit = () => {
    const body = bodyOf(draft, Boolean(existing));
    const customers = api.value.general.customers;
    const saving = existing
      ? form.submit(general.UpdateCustomerBodySchema, body, (value) =>
          conflictOn('email', unwrap(customers.updateCustomer({ params: { id: existing.id }, body: value }))),
        )
      : form.submit(general.CreateCustomerBodySchema, body, (value) =>
          conflictOn('email', unwrap(customers.createCustomer({ body: value }))),
        );
    void saving.then((saved) => {
      if (saved) props.onSaved(saved.data);
    });
  };

  const e = form.errors;
  return (
    <DialogForm
      class="customer-form"
      form={form}
      submit={existing ? 'Save changes' : 'Add customer'}
      onCancel={props.onCancel}
      onSubmit={submit}
    >
      <NameEmailPhone draft={draft} set={set} errors={e} />
      <Field label="Company" {...bind('company', e)} />
      <AddressFields
        draft={draft}
        set={set}
        errors={e}
        rows={[['line1'], ['line2'], ['city', 'state'], ['postal_code', 'country']]}
        hasAddress={Boolean(existing?.address)}
      />
      <label class="checkbox">
        <input
          type="checkbox"
          name="unsubscribed"
          checked={draft.unsubscribed}
          onChange={(ev) => setDraft((d) => ({ ...d, unsubscribed: ev.currentTarget.checked }))}
        />{' '}
        Opted out of marketing email
      </label>
    </DialogForm>
  );
}
