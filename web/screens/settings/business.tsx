import { useMemo, useState } from 'preact/hooks';
import { auth, COUNTRY_CODES, CURRENCY_CODES, unwrap } from '../../../client/index.js';
import {
  Button,
  ErrorMessage,
  Field,
  Loading,
  Notice,
  PageHeader,
  Select,
  TextArea,
} from '../../components/ui.js';
import { dateTime } from '../../lib/format.js';
import { useForm, useLoad, type FieldErrors } from '../../lib/forms.js';
import { api, can } from '../../lib/api.js';
import type { ScreenProps } from '../../lib/screen.js';

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
  payment_instructions: string;
  reminders_enabled: boolean;
  /** The reminder steps as typed: "0, 7, 14". */
  reminder_days: string;
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
    payment_instructions: business.payment_instructions ?? '',
    reminders_enabled: business.invoice_reminders.enabled,
    reminder_days: business.invoice_reminders.days_after_due.join(', '),
  };
}

/** The reminder steps as typed, one per comma. */
const typedDays = (text: string): string[] =>
  text
    .split(',')
    .map((day) => day.trim())
    .filter((day) => day !== '');

/**
 * The reminder steps as the body takes them: a whole number stays a number; anything else is NaN,
 * so the schema refuses it at its place in the list.
 */
const reminderDaysOf = (text: string): number[] =>
  typedDays(text).map((day) => (/^\d+$/.test(day) ? Number(day) : NaN));

const DAYS_FIELD = 'invoice_reminders.days_after_due';

/** What is wrong with the reminder steps, said about the step as typed ("400: ..."). */
function reminderDaysError(errors: FieldErrors, text: string): string | undefined {
  const key = Object.keys(errors).find((k) => k === DAYS_FIELD || k.startsWith(`${DAYS_FIELD}.`));
  if (!key) return errors.invoice_reminders;
  const message = errors[key]!;
  if (key === DAYS_FIELD) {
    if (/at most 10/i.test(message)) return 'At most 10 reminders.';
    if (/once/i.test(message)) return 'Each day at most once: remove the repeated day.';
    return message;
  }
  const day = typedDays(text)[Number(key.slice(DAYS_FIELD.length + 1))];
  return `${day ?? 'A day'}: give a whole number of days from 0 to 365.`;
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
    payment_instructions: draft.payment_instructions.trim() ? draft.payment_instructions : null,
    invoice_reminders: {
      enabled: draft.reminders_enabled,
      days_after_due: reminderDaysOf(draft.reminder_days),
    },
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
    return new Intl.DisplayNames(['en'], { type: 'region' });
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

/** The runtime's zones, with UTC (which Chromium leaves out of its list although it accepts it). */
const TIME_ZONES: readonly string[] = (() => {
  let zones: string[];
  try {
    zones = Intl.supportedValuesOf('timeZone');
  } catch {
    zones = [];
  }
  return zones.includes('UTC') ? zones : ['UTC', ...zones];
})();

/** The zones to choose from: the current one always among them, even one this browser does not list. */
const zoneChoices = (current: string): string[] =>
  current && !TIME_ZONES.includes(current) ? [current, ...TIME_ZONES] : [...TIME_ZONES];

/** Countries by name in the browser's language, `New Zealand (NZ)`; the current code always among them. */
function countryChoices(current: string, none: string): { value: string; label: string }[] {
  const codes = current && !COUNTRY_CODES.includes(current) ? [current, ...COUNTRY_CODES] : COUNTRY_CODES;
  const named = codes
    .map((code) => ({ value: code, label: countryName(code) }))
    .sort((a, b) => a.label.localeCompare(b.label));
  return [{ value: '', label: none }, ...named];
}

function remindersText(reminders: Business['invoice_reminders']): string {
  if (!reminders.enabled || reminders.days_after_due.length === 0) return 'Off';
  const steps = reminders.days_after_due.map((day) =>
    day === 0 ? 'on the due date' : `${day} day${day === 1 ? '' : 's'} after`,
  );
  return `Mailed ${steps.join(', ')}`;
}

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
        <dt>Payment instructions</dt>
        <dd class="notes">{b.payment_instructions ?? '—'}</dd>
        <dt>Overdue reminders</dt>
        <dd>{remindersText(b.invoice_reminders)}</dd>
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
  /** The reminder steps as last submitted: a refusal names a step by its position. */
  const [submittedDays, setSubmittedDays] = useState('');
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
  const timeZones = useMemo(() => zoneChoices(props.business.timezone), [props.business.timezone]);
  const countries = useMemo(
    () => countryChoices(props.business.country ?? '', 'Not set'),
    [props.business.country],
  );
  const addressCountries = useMemo(
    () => countryChoices(props.business.address?.country ?? '', 'None'),
    [props.business.address?.country],
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
    setSubmittedDays(draft.reminder_days);
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
          <Select
            label="Time zone"
            name="timezone"
            value={draft.timezone}
            options={timeZones}
            onValue={(timezone) => set({ timezone })}
            error={form.errors.timezone}
          />
        </div>
        <p class="hint">
          A new base currency applies to documents created from now on; existing ones keep theirs. The time
          zone decides the business's “today”.
        </p>
      </section>

      <section class="panel">
        <h2>Tax and registration</h2>
        <div class="form-row">
          <Select
            label="Country of registration"
            name="country"
            value={draft.country}
            options={countries}
            onValue={(country) => set({ country })}
            error={countryMessage(form.errors.country)}
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
          {ADDRESS_FIELDS.map(([key, label, autoComplete]) =>
            key === 'country' ? (
              <Select
                key={key}
                label={label}
                name="address.country"
                value={draft.address.country}
                options={addressCountries}
                onValue={(value) => setAddress(key, value)}
                error={countryMessage(form.errors['address.country'])}
              />
            ) : (
              <Field
                key={key}
                label={label}
                name={`address.${key}`}
                autoComplete={autoComplete}
                value={draft.address[key]}
                onValue={(value) => setAddress(key, value)}
                error={form.errors[`address.${key}`]}
              />
            ),
          )}
        </div>
        {form.errors.address ? (
          <p class="error" role="alert">
            {form.errors.address}
          </p>
        ) : null}
      </section>

      <section class="panel">
        <h2>Invoices</h2>
        <TextArea
          label="Payment instructions"
          name="payment_instructions"
          rows={4}
          value={draft.payment_instructions}
          onValue={(payment_instructions) => set({ payment_instructions })}
          error={form.errors.payment_instructions}
          hint="How to pay you (bank details, payment link), printed on invoices and their customer pages."
        />
        <fieldset class="reminders">
          <legend>Overdue reminders</legend>
          <label class="checkbox">
            <input
              type="checkbox"
              name="invoice_reminders.enabled"
              checked={draft.reminders_enabled}
              onChange={(e) => set({ reminders_enabled: e.currentTarget.checked })}
            />
            Mail customers a reminder of a sent invoice that is still unpaid
          </label>
          <Field
            label="Days after the due date"
            name="invoice_reminders.days_after_due"
            inputMode="numeric"
            autoComplete="off"
            value={draft.reminder_days}
            onValue={(reminder_days) => set({ reminder_days })}
            error={reminderDaysError(form.errors, submittedDays)}
            hint="Separated by commas, e.g. 0, 7, 14 (0: on the due date). Up to 10 steps, each from 0 to 365."
          />
        </fieldset>
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
        report; how customers pay you, and when they are reminded of an overdue invoice.
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
