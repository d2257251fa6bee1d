import type { ComponentChildren } from 'preact';
import { useId, useState } from 'preact/hooks';
import { finance, unwrap } from '../../../client/index.js';
import { currencyOptions } from '../../lib/currencies.js';
import { useLoad } from '../../lib/forms.js';
import { exponentOf, priceMinor } from '../../lib/lines.js';
import { FIELD_MESSAGES } from '../../lib/messages.js';
import { here, href, navigate, withQuery } from '../../lib/router.js';
import { allowed, api } from '../../lib/session.js';
import { Button, Field, Select } from '../../components/ui.js';

/**
 * What the finance screens share: amounts typed in major units and kept as integer minor units
 * (BigInt, read digit by digit from the text), the bills' status tabs, the chart of accounts as
 * choices, and the date-range filter whose values live in the URL.
 */

/* ---------------------------------------------------------------- amounts */

/** An amount typed in major units (`29.99`) as minor units of `currency` (2999n); null when it is not one. */
export const minorOf = (text: string, currency: string): bigint | null => priceMinor(text, currency);

/** Minor units as the text an amount field holds (`2999` USD: `29.99`). */
export function minorText(minor: number | bigint, currency: string): string {
  const exponent = exponentOf(currency);
  const value = BigInt(minor);
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(exponent + 1, '0');
  const text = exponent === 0 ? digits : `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`;
  return negative ? `-${text}` : text;
}

/** What is wrong with an amount as typed, before the service says it (empty is not this check's business). */
export function amountAdvice(text: string, currency: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || minorOf(trimmed, currency) !== null) return undefined;
  if (!/^\d*(\.\d*)?$/.test(trimmed)) return FIELD_MESSAGES.amount(currency);
  return FIELD_MESSAGES.amountDecimals(currency);
}

/** Minor units (BigInt) shown in the currency; `—` beyond what a number holds exactly. */
export function showMinor(minor: bigint | null, currency: string, format: (n: number, c: string) => string) {
  if (minor === null || minor > BigInt(Number.MAX_SAFE_INTEGER) || minor < -BigInt(Number.MAX_SAFE_INTEGER))
    return '—';
  return format(Number(minor), currency);
}

/* ---------------------------------------------------------------- labels */

export const BILL_STATUS_LABELS: Record<finance.BillStatus, string> = {
  draft: 'Draft',
  pending: 'Pending',
  overdue: 'Overdue',
  paid: 'Paid',
  void: 'Void',
};

export const BILL_METHOD_LABELS: Record<(typeof finance.BILL_PAYMENT_METHODS)[number], string> = {
  bank_transfer: 'Bank transfer',
  cash: 'Cash',
  check: 'Cheque',
  mobile_money: 'Mobile money',
};

export const SOURCE_LABELS: Record<finance.SourceType, string> = {
  bill: 'Bill',
  bill_payment: 'Bill payment',
  invoice: 'Invoice',
  invoice_payment: 'Invoice payment',
  credit_note: 'Credit note',
  void: 'Void',
  manual: 'Manual',
};

export const ACCOUNT_TYPE_LABELS: Record<finance.AccountType, string> = {
  asset: 'Asset',
  liability: 'Liability',
  equity: 'Equity',
  revenue: 'Revenue',
  expense: 'Expense',
};

/* ---------------------------------------------------------------- accounts */

/** The chart of accounts (empty for a role that cannot read it). */
export function useAccounts() {
  return useLoad(
    async () =>
      allowed('finance.read') ? (await unwrap(api.value.finance.accounts.listAccounts())).accounts : [],
    [],
  );
}

export const accountLabel = (account: { code: string; name: string }) => `${account.code} ${account.name}`;

/** An account code with its name when the chart knows it. */
export function accountName(accounts: finance.Account[] | undefined, code: string): string {
  const account = accounts?.find((a) => a.code === code);
  return account ? accountLabel(account) : code;
}

/* ---------------------------------------------------------------- filters in the URL */

/** A query value if it is a date (`YYYY-MM-DD`). */
export function dateOf(query: URLSearchParams, key: string): string | undefined {
  const value = query.get(key);
  return value && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;
}

/**
 * A filter form whose fields apply together (Apply writes them to the URL, back to page 1), so the
 * view can be bookmarked; Clear removes them.
 */
export function FilterForm(props: {
  label: string;
  fields: {
    key: string;
    label: string;
    type?: 'date' | 'select';
    options?: { value: string; label: string }[];
  }[];
  defaults?: Record<string, string>;
  children?: ComponentChildren;
}) {
  const query = here.value.query;
  const initial = () =>
    Object.fromEntries(props.fields.map((f) => [f.key, query.get(f.key) ?? props.defaults?.[f.key] ?? '']));
  const [values, setValues] = useState<Record<string, string>>(initial);
  const [seen, setSeen] = useState(query.toString());
  // The URL changed under the form (back, a link): the fields follow it.
  if (seen !== query.toString()) {
    setSeen(query.toString());
    setValues(initial());
  }
  const apply = (event: Event) => {
    event.preventDefault();
    const changes: Record<string, string | null> = { page: null };
    for (const f of props.fields) changes[f.key] = values[f.key] || null;
    navigate(withQuery(changes));
  };
  const filtered = props.fields.some((f) => query.get(f.key));
  return (
    <form class="filters" role="search" aria-label={props.label} onSubmit={apply}>
      {props.fields.map((f) =>
        f.type === 'select' ? (
          <Select
            key={f.key}
            label={f.label}
            name={f.key}
            value={values[f.key] ?? ''}
            options={f.options ?? []}
            onValue={(value) => setValues((v) => ({ ...v, [f.key]: value }))}
          />
        ) : (
          <Field
            key={f.key}
            label={f.label}
            name={f.key}
            type="date"
            value={values[f.key] ?? ''}
            onValue={(value) => setValues((v) => ({ ...v, [f.key]: value }))}
          />
        ),
      )}
      {props.children}
      <div class="filter-actions">
        <Button type="submit" kind="primary">
          Apply
        </Button>
        {filtered ? (
          <a
            class="button secondary"
            href={href(
              withQuery({ ...Object.fromEntries(props.fields.map((f) => [f.key, null])), page: null }),
            )}
          >
            Clear
          </a>
        ) : null}
      </div>
    </form>
  );
}

/** Currency choices with an empty first option meaning "the business's base currency". */
export function currencyChoices(emptyLabel: string): { value: string; label: string }[] {
  return [{ value: '', label: emptyLabel }, ...currencyOptions()];
}

/** A cell input of a line editor: labelled for screen readers, its error or hint read out with it. */
export function CellInput(props: {
  label: string;
  name: string;
  value: string;
  onValue: (value: string) => void;
  error?: string;
  hint?: string;
  inputMode?: 'decimal' | 'text';
}) {
  const id = useId();
  const hint = props.error ? undefined : props.hint;
  return (
    <>
      <input
        id={id}
        name={props.name}
        value={props.value}
        aria-label={props.label}
        inputMode={props.inputMode}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={props.error ? `${id}-error` : hint ? `${id}-hint` : undefined}
        onInput={(e) => props.onValue(e.currentTarget.value)}
      />
      {props.error ? (
        <small id={`${id}-error`} class="error" role="alert">
          {props.error}
        </small>
      ) : hint ? (
        <small id={`${id}-hint`} class="hint">
          {hint}
        </small>
      ) : null}
    </>
  );
}
