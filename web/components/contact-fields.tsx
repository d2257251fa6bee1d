import type { AddressKey } from '../lib/address.js';
import type { FieldErrors } from '../lib/forms.js';
import { Field } from './ui.js';

/**
 * The fields a customer and a vendor share: name, email and phone, and a postal address folded away
 * until it is wanted (open when there is one or a refusal names part of it).
 */

export function NameEmailPhone(props: {
  draft: { name: string; email: string; phone: string };
  set: (key: 'name' | 'email' | 'phone') => (value: string) => void;
  errors: FieldErrors;
}) {
  const { draft, set, errors: e } = props;
  return (
    <>
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
    </>
  );
}

const LABELS: Record<AddressKey, string> = {
  line1: 'Address line 1',
  line2: 'Address line 2',
  city: 'City',
  state: 'State or region',
  postal_code: 'Postal code',
  country: 'Country',
};

/** The address's fields in `rows` (several in a row side by side); `labels` overrides the usual words. */
export function AddressFields<K extends AddressKey>(props: {
  draft: Record<K, string>;
  set: (key: K) => (value: string) => void;
  errors: FieldErrors;
  rows: readonly (readonly K[])[];
  labels?: Partial<Record<AddressKey, string>>;
  hasAddress: boolean;
}) {
  const e = props.errors;
  const field = (key: K) => (
    <Field
      key={key}
      label={props.labels?.[key] ?? LABELS[key]}
      name={key}
      hint={key === 'country' ? 'Two-letter code, e.g. GB' : undefined}
      value={props.draft[key]}
      onValue={props.set(key)}
      error={key === 'country' ? (e['address.country'] ?? e.address) : e[`address.${key}`]}
    />
  );
  return (
    <details class="group" open={props.hasAddress || Object.keys(e).some((k) => k.startsWith('address'))}>
      <summary>Address</summary>
      {props.rows.map((row) =>
        row.length === 1 ? field(row[0]!) : <div class="form-row">{row.map(field)}</div>,
      )}
    </details>
  );
}
