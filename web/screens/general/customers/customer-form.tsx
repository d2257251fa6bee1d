import { useState } from 'preact/hooks';
import { general, unwrap } from '../../../../client/index.js';
import { conflictOn, summaryOf } from '../../../lib/refusals.js';
import { useForm } from '../../../lib/forms.js';
import { api } from '../../../lib/session.js';
import { Button, ErrorMessage, Field } from '../../../components/ui.js';

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
  const address: Record<string, string> = {};
  for (const key of ADDRESS_KEYS) {
    const value = key === 'country' ? draft[key].trim().toUpperCase() : draft[key].trim();
    if (value) address[key] = value;
  }
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
  const [draft, setDraft] = useState<Draft>(() => draftOf(props.customer));
  const form = useForm();
  const set = (key: keyof Draft) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));
  const existing = props.customer;

  const submit = (event: Event) => {
    event.preventDefault();
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
  // Folded away until it is wanted: open when the customer has one or the refusal names part of it.
  const openAddress =
    Boolean(existing?.address) || Object.keys(e).some((field) => field.startsWith('address'));
  return (
    <form onSubmit={submit} noValidate class="customer-form">
      <Field label="Name" name="name" value={draft.name} onValue={set('name')} error={e.name} required />
      <div class="form-row">
        <Field
          label="Email"
          name="email"
          type="email"
          autoComplete="off"
          value={draft.email}
          onValue={set('email')}
          error={e.email}
        />
        <Field label="Phone" name="phone" value={draft.phone} onValue={set('phone')} error={e.phone} />
      </div>
      <Field
        label="Company"
        name="company"
        value={draft.company}
        onValue={set('company')}
        error={e.company}
      />
      <details class="group" open={openAddress}>
        <summary>Address</summary>
        <Field
          label="Address line 1"
          name="line1"
          value={draft.line1}
          onValue={set('line1')}
          error={e['address.line1']}
        />
        <Field
          label="Address line 2"
          name="line2"
          value={draft.line2}
          onValue={set('line2')}
          error={e['address.line2']}
        />
        <div class="form-row">
          <Field
            label="City"
            name="city"
            value={draft.city}
            onValue={set('city')}
            error={e['address.city']}
          />
          <Field
            label="State or region"
            name="state"
            value={draft.state}
            onValue={set('state')}
            error={e['address.state']}
          />
        </div>
        <div class="form-row">
          <Field
            label="Postal code"
            name="postal_code"
            value={draft.postal_code}
            onValue={set('postal_code')}
            error={e['address.postal_code']}
          />
          <Field
            label="Country"
            name="country"
            hint="Two-letter code, e.g. GB"
            value={draft.country}
            onValue={set('country')}
            error={e['address.country'] ?? e.address}
          />
        </div>
      </details>
      <label class="checkbox">
        <input
          type="checkbox"
          name="unsubscribed"
          checked={draft.unsubscribed}
          onChange={(ev) => setDraft((d) => ({ ...d, unsubscribed: ev.currentTarget.checked }))}
        />{' '}
        Opted out of marketing email
      </label>
      <ErrorMessage message={summaryOf(form)} />
      <div class="dialog-actions">
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button type="submit" kind="primary" busy={form.busy}>
          {existing ? 'Save changes' : 'Add customer'}
        </Button>
      </div>
    </form>
  );
}
