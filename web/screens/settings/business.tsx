import { useMemo, useState } from 'preact/hooks';
import { auth, CURRENCY_CODES, unwrap } from '../../../client/index.js';
import { Button, ErrorMessage, Field, Loading, Notice, PageHeader, Select } from '../../components/ui.js';
import { dateTime } from '../../lib/format.js';
import { useForm, useLoad } from '../../lib/forms.js';
import { api, can } from '../../lib/session.js';
import type { ScreenProps } from '../../routes.js';

type Business = auth.Business;

/** Zod's generic wording of a country code refused, said as a person would. */
const countryMessage = (message: string | undefined) =>
  message && /exactly 2 character|country code/.test(message)
    ? 'Use the two-letter country code, e.g. GB.'
    : message;

const ADDRESS_FIELDS = [
  ['line1', 'Address line 1', 'address-line1'],
  ['line2', 'Address line 2', 'address-line2'],
  ['city', 'City', 'address-level2'],
  ['state', 'State, county or region', 'address-level1'],
  ['postal_code', 'Postal code', 'postal-code'],
  ['country', 'Country', 'country'],
] as const;
type AddressField = (typeof ADDRESS_FIELDS)[number][0];

interface Draft {
  name: string;
  base_currency: string;
  timezone: string;
  country: string;
  tax_number: string;
  address: Record<AddressField, string>;
}

function draftOf(business: Business): Draft {
  const address = business.address ?? {};
  return {
    name: business.name,
    base_currency: business.base_currency,
    timezone: business.timezone,
    country: business.country ?? '',
    tax_number: business.tax_number ?? '',
    address: Object.fromEntries(ADDRESS_FIELDS.map(([key]) => [key, address[key] ?? ''])) as Record<
      AddressField,
      string
    >,
  };
}

/** The PATCH body: every field as the form has it, an empty optional field cleared with null. */
function bodyOf(draft: Draft): Record<string, unknown> {
  const address = Object.fromEntries(
    ADDRESS_FIELDS.map(([key]) => [key, draft.address[key].trim()]).filter(([, v]) => v !== ''),
  ) as Record<string, string>;
  if (address.country) address.country = address.country.toUpperCase();
  return {
    name: draft.name,
    base_currency: draft.base_currency.trim().toUpperCase(),
    timezone: draft.timezone.trim(),
    country: draft.country.trim() ? draft.country.trim().toUpperCase() : null,
    tax_number: draft.tax_number.trim() ? draft.tax_number : null,
    address: Object.keys(address).length > 0 ? address : null,
  };
}

const currencyNames = (() => {
  try {
    return new Intl.DisplayNames(undefined, { type: 'currency' });
  } catch {
    return null;
  }
})();

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(undefined, { type: 'region' });
  } catch {
    return null;
  }
})();

const countryName = (code: string | null | undefined) => {
  if (!code) return '—';
  try {
    return `${regionNames?.of(code) ?? code} (${code})`;
  } catch {
    return code;
  }
};

const TIME_ZONES: readonly string[] = (() => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [];
  }
})();

function ReadOnly(props: { business: Business }) {
  const b = props.business;
  const address = b.address
    ? [
        b.address.line1,
        b.address.line2,
        b.address.city,
        b.address.state,
        b.address.postal_code,
        b.address.country,
      ]
        .filter(Boolean)
        .join(', ')
    : '';
  return (
    <section class="panel">
      <Notice>
        Your role can see these settings but not change them. An owner or admin of the business can.
      </Notice>
      <dl class="facts">
        <dt>Name</dt>
        <dd>{b.name}</dd>
        <dt>Base currency</dt>
        <dd>{b.base_currency}</dd>
        <dt>Time zone</dt>
        <dd>{b.timezone}</dd>
        <dt>Country of registration</dt>
        <dd>{countryName(b.country)}</dd>
        <dt>Tax number</dt>
        <dd>{b.tax_number ?? '—'}</dd>
        <dt>Address</dt>
        <dd>{address || '—'}</dd>
        <dt>Plan</dt>
        <dd>{b.plan}</dd>
        <dt>Created</dt>
        <dd>{dateTime(b.created_at)}</dd>
      </dl>
    </section>
  );
}

function EditForm(props: { business: Business; onSaved: (business: Business) => void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(props.business));
  const [saved, setSaved] = useState(false);
  const form = useForm();
  const currencies = useMemo(
    () =>
      CURRENCY_CODES.map((code) => {
        let name: string | undefined;
        try {
          name = currencyNames?.of(code);
        } catch {
          name = undefined;
        }
        return { value: code, label: name && name !== code ? `${code} · ${name}` : code };
      }),
    [],
  );
  const set = (change: Partial<Draft>) => {
    setSaved(false);
    setDraft((d) => ({ ...d, ...change }));
  };
  const setAddress = (key: AddressField, value: string) => {
    setSaved(false);
    setDraft((d) => ({ ...d, address: { ...d.address, [key]: value } }));
  };

  const submit = (event: Event) => {
    event.preventDefault();
    setSaved(false);
    void form
      .submit(auth.UpdateBusinessBodySchema, bodyOf(draft), async (body) => {
        return (await unwrap(api.value.auth.updateBusiness({ body }))).data;
      })
      .then((business) => {
        if (!business) return;
        setDraft(draftOf(business));
        setSaved(true);
        props.onSaved(business);
      });
  };

  return (
    <form onSubmit={submit} noValidate class="settings-form">
      <section class="panel">
        <h2>Business</h2>
        <Field
          label="Business name"
          name="name"
          autoComplete="organization"
          value={draft.name}
          onValue={(name) => set({ name })}
          error={form.errors.name}
          required
        />
        <div class="form-row">
          <Select
            label="Base currency"
            name="base_currency"
            value={draft.base_currency}
            options={currencies}
            onValue={(base_currency) => set({ base_currency })}
            error={form.errors.base_currency}
          />
          <div class="field-with-list">
            <Field
              label="Time zone"
              name="timezone"
              list="time-zones"
              value={draft.timezone}
              onValue={(timezone) => set({ timezone })}
              error={form.errors.timezone}
              hint="An IANA name such as Europe/London. It decides the business's “today”."
              autoComplete="off"
            />
            <datalist id="time-zones">
              {TIME_ZONES.map((zone) => (
                <option key={zone} value={zone} />
              ))}
            </datalist>
          </div>
        </div>
        <p class="hint">
          A new base currency applies to documents created from now on; existing ones keep theirs.
        </p>
      </section>

      <section class="panel">
        <h2>Tax and registration</h2>
        <div class="form-row">
          <Field
            label="Country of registration"
            name="country"
            value={draft.country}
            onValue={(country) => set({ country })}
            error={countryMessage(form.errors.country)}
            hint="Two letters, e.g. GB. Leave empty to clear."
            autoComplete="country"
          />
          <Field
            label="Tax number"
            name="tax_number"
            value={draft.tax_number}
            onValue={(tax_number) => set({ tax_number })}
            error={form.errors.tax_number}
            hint="VAT or tax registration number, printed on invoices."
          />
        </div>
      </section>

      <section class="panel">
        <h2>Address</h2>
        <div class="form-grid">
          {ADDRESS_FIELDS.map(([key, label, autoComplete]) => (
            <Field
              key={key}
              label={label}
              name={`address.${key}`}
              autoComplete={autoComplete}
              value={draft.address[key]}
              onValue={(value) => setAddress(key, value)}
              error={
                key === 'country'
                  ? countryMessage(form.errors['address.country'])
                  : form.errors[`address.${key}`]
              }
              hint={key === 'country' ? 'Two letters, e.g. GB.' : undefined}
            />
          ))}
        </div>
        {form.errors.address ? (
          <p class="error" role="alert">
            {form.errors.address}
          </p>
        ) : null}
      </section>

      <ErrorMessage message={form.message} />
      {saved ? <Notice kind="success">Settings saved.</Notice> : null}
      <div class="form-actions">
        <Button type="submit" kind="primary" busy={form.busy}>
          Save settings
        </Button>
        <Button
          onClick={() => {
            form.clear();
            setSaved(false);
            setDraft(draftOf(props.business));
          }}
        >
          Discard changes
        </Button>
      </div>
    </form>
  );
}

export default function BusinessSettings(_props: ScreenProps) {
  const load = useLoad(async () => (await unwrap(api.value.auth.getBusiness())).data, []);
  const [current, setCurrent] = useState<Business | null>(null);
  const business = current ?? load.data;
  return (
    <div class="settings">
      <PageHeader title="Business settings" />
      <p class="lead">
        Your business's name, currency, time zone, tax number and address, used on every invoice, quote and
        report.
      </p>
      {load.loading && !business ? <Loading /> : null}
      <ErrorMessage message={load.error} onRetry={load.reload} />
      {business ? (
        can('updateBusiness') ? (
          <EditForm business={business} onSaved={setCurrent} />
        ) : (
          <ReadOnly business={business} />
        )
      ) : null}
      {business ? (
        <p class="hint">
          Plan: {business.plan} · Business id <code>{business.id}</code> · created{' '}
          {dateTime(business.created_at)}
        </p>
      ) : null}
    </div>
  );
}
