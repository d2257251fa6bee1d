import { useEffect, useId, useState } from 'preact/hooks';
import type { ZodType, ZodTypeDef } from 'zod';
import { general, unwrap } from '../../../../client/index.js';
import { isCurrency, currencyOptions, useBaseCurrency } from '../../../lib/currencies.js';
import { money } from '../../../lib/format.js';
import { useForm, useLoad, type FieldErrors } from '../../../lib/forms.js';
import { FIELD_MESSAGES } from '../../../lib/messages.js';
import { summaryOf } from '../../../lib/refusals.js';
import {
  decimalText,
  documentTotals,
  exponentOf,
  lineAmounts,
  majorOf,
  priceMinor,
  type DocumentTotals,
} from '../../../lib/lines.js';
import { allowed, api } from '../../../lib/session.js';
import { Button, ErrorMessage, Field, Link, ScrollRegion, Select, TextArea } from '../../../components/ui.js';

/**
 * The form that makes or changes an invoice or quote: customer, currency, dates, lines with live
 * totals as the service will price them, and notes.
 */

export interface LineDraft {
  key: number;
  product_id: string;
  description: string;
  quantity: string;
  unit_price: string;
  tax_rate: string;
}

let nextKey = 1;
const newLine = (): LineDraft => ({
  key: nextKey++,
  product_id: '',
  description: '',
  quantity: '1',
  unit_price: '',
  tax_rate: '',
});

/** A stored line as the form's text, prices in the currency's decimals. */
const lineOf = (item: general.Invoice['items'][number], currency: string): LineDraft => ({
  key: nextKey++,
  product_id: item.product_id ?? '',
  description: item.description,
  quantity: String(item.quantity),
  unit_price: decimalText(item.unit_price, currency),
  tax_rate: item.tax_rate === 0 ? '' : String(item.tax_rate),
});

/** A typed number as the body takes it: left out when empty (the schema then says it is required). */
const numberOf = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text.trim()));

/** The lines as the create body's `items`; what is wrong with them the schema and the service say. */
function itemsOf(lines: LineDraft[]): general.InvoiceItemInput[] {
  return lines.map((line) => {
    const item: Record<string, unknown> = {
      product_id: line.product_id || undefined,
      description: line.description.trim() || undefined,
      quantity: numberOf(line.quantity),
      unit_price: numberOf(line.unit_price),
      tax_rate: numberOf(line.tax_rate),
    };
    for (const key of Object.keys(item)) if (item[key] === undefined) delete item[key];
    return item as general.InvoiceItemInput;
  });
}

/** An input in a table cell: labelled for screen readers, its error below it and read out with it. */
function CellInput(props: {
  label: string;
  name: string;
  value: string;
  onValue: (value: string) => void;
  error?: string;
  /** Advice while typing, until a refusal takes its place. */
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

/** How many decimals `currency` takes, said in words: "without decimals", "with at most 2 decimals". */
function decimalsRule(currency: string): string {
  const exponent = exponentOf(currency);
  return exponent === 0 ? 'without decimals' : `with at most ${exponent} decimals`;
}

/** What is wrong with a unit price as typed, before the service says it. */
function priceAdvice(text: string, currency: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed === '' || priceMinor(trimmed, currency) !== null) return undefined;
  if (!/^\d*(\.\d*)?$/.test(trimmed)) return FIELD_MESSAGES.amount(currency);
  return FIELD_MESSAGES.amountDecimals(currency);
}

function LineEditor(props: {
  lines: LineDraft[];
  onLines: (lines: LineDraft[]) => void;
  currency: string;
  errors: FieldErrors;
  products: general.Product[];
}) {
  const { lines, currency, errors, products } = props;
  const change = (key: number, patch: Partial<LineDraft>) =>
    props.onLines(lines.map((line) => (line.key === key ? { ...line, ...patch } : line)));
  const chooseProduct = (line: LineDraft, productId: string) => {
    const product = products.find((p) => p.id === productId);
    if (!product) return change(line.key, { product_id: '' });
    change(line.key, {
      product_id: product.id,
      description: product.name,
      // A price in another currency is not this document's price: left for the person to give.
      unit_price: product.currency === currency ? decimalText(product.price, currency) : line.unit_price,
    });
  };
  return (
    <>
      <ScrollRegion label={'Lines'}>
        <table class="items-table">
          <caption class="visually-hidden">Lines</caption>
          <thead>
            <tr>
              {products.length > 0 ? (
                <th scope="col" class="col-product">
                  Product
                </th>
              ) : null}
              <th scope="col">Description</th>
              <th scope="col" class="col-number">
                Quantity
              </th>
              <th scope="col" class="col-price">
                Unit price
              </th>
              <th scope="col" class="col-number">
                Tax %
              </th>
              <th scope="col" class="numeric col-amount">
                Amount
              </th>
              <th scope="col" class="col-remove">
                <span class="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {lines.map((line, index) => {
              const n = index + 1;
              const at = (field: string) => errors[`items.${index}.${field}`];
              const amounts = lineAmounts(line, currency);
              const product = products.find((p) => p.id === line.product_id);
              const priceHint =
                priceAdvice(line.unit_price, currency) ??
                (product && product.currency !== currency
                  ? `${product.name} is priced in ${product.currency}: give the price in ${currency}.`
                  : undefined);
              return (
                <tr key={line.key}>
                  {products.length > 0 ? (
                    <td class="line-wide" data-label="Product">
                      <select
                        aria-label={`Product, line ${n}`}
                        name={`items.${index}.product_id`}
                        value={line.product_id}
                        onChange={(e) => chooseProduct(line, e.currentTarget.value)}
                      >
                        <option value="">No product</option>
                        {products.map((p) => (
                          <option key={p.id} value={p.id}>
                            {p.name} ({p.sku})
                          </option>
                        ))}
                      </select>
                      {at('product_id') ? (
                        <small class="error" role="alert">
                          {at('product_id')}
                        </small>
                      ) : null}
                    </td>
                  ) : null}
                  <td class="line-wide" data-label="Description">
                    <CellInput
                      label={`Description, line ${n}`}
                      name={`items.${index}.description`}
                      value={line.description}
                      onValue={(description) => change(line.key, { description })}
                      error={at('description')}
                    />
                  </td>
                  <td data-label="Quantity">
                    <CellInput
                      label={`Quantity, line ${n}`}
                      name={`items.${index}.quantity`}
                      inputMode="decimal"
                      value={line.quantity}
                      onValue={(quantity) => change(line.key, { quantity })}
                      error={at('quantity')}
                    />
                  </td>
                  <td data-label="Unit price">
                    <CellInput
                      label={`Unit price in ${currency}, line ${n}`}
                      name={`items.${index}.unit_price`}
                      inputMode="decimal"
                      value={line.unit_price}
                      onValue={(unit_price) => change(line.key, { unit_price })}
                      error={at('unit_price')}
                      hint={priceHint}
                    />
                  </td>
                  <td data-label="Tax %">
                    <CellInput
                      label={`Tax percent, line ${n}`}
                      name={`items.${index}.tax_rate`}
                      inputMode="decimal"
                      value={line.tax_rate}
                      onValue={(tax_rate) => change(line.key, { tax_rate })}
                      error={at('tax_rate')}
                    />
                  </td>
                  <td class="numeric line-amount" data-label="Amount">
                    {amounts ? money(majorOf(amounts.totalMinor, currency), currency) : '—'}
                    {errors[`items.${index}`] ? (
                      <small class="error" role="alert">
                        {errors[`items.${index}`]}
                      </small>
                    ) : null}
                  </td>
                  <td>
                    <Button
                      aria-label={`Remove line ${n}`}
                      title={`Remove line ${n}`}
                      disabled={lines.length === 1}
                      onClick={() => props.onLines(lines.filter((l) => l.key !== line.key))}
                    >
                      ×
                    </Button>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </ScrollRegion>
      {errors.items ? (
        <p class="error" role="alert">
          {errors.items}
        </p>
      ) : null}
      <p>
        <Button onClick={() => props.onLines([...lines, newLine()])}>Add line</Button>
      </p>
    </>
  );
}

/** The totals as the lines are typed: subtotal, tax and total in the currency. */
function LiveTotals(props: { totals: DocumentTotals | null; currency: string }) {
  const { totals, currency } = props;
  const show = (minor: bigint | undefined) =>
    minor === undefined ? '—' : money(majorOf(minor, currency), currency);
  return (
    <div class="totals-panel">
      <dl class="totals" aria-live="polite">
        <dt>Subtotal</dt>
        <dd data-subtotal="">{show(totals?.subtotalMinor)}</dd>
        <dt>Tax</dt>
        <dd data-tax="">{show(totals?.taxMinor)}</dd>
        <dt class="strong">Total</dt>
        <dd class="strong" data-total="">
          {show(totals?.totalMinor)}
        </dd>
      </dl>
      {totals ? null : (
        <p class="hint">
          Totals show once every line has a quantity and a unit price in {currency}, {decimalsRule(currency)}.
        </p>
      )}
    </div>
  );
}

/** A customer chosen from the business's customers, found by name, email or company. */
function CustomerPicker(props: { value: string; onValue: (id: string) => void; error?: string }) {
  const [search, setSearch] = useState('');
  const [term, setTerm] = useState('');
  const [known, setKnown] = useState<Map<string, string>>(new Map());
  useEffect(() => {
    const timer = setTimeout(() => setTerm(search.trim()), 250);
    return () => clearTimeout(timer);
  }, [search]);
  const list = useLoad(
    () =>
      unwrap(
        api.value.general.customers.listCustomers({
          query: { search: term || undefined, limit: 100, sort: 'name:asc' },
        }),
      ),
    [term],
  );
  // The customer named in the URL (a customer's "New invoice"), so it is shown by name.
  useEffect(() => {
    if (!props.value || known.has(props.value)) return;
    api.value.general.customers.getCustomer({ params: { id: props.value } }).then(
      (res) => {
        if (res.status === 200) setKnown((k) => new Map(k).set(res.body.data.id, res.body.data.name));
      },
      () => undefined,
    );
  }, [props.value]);
  const found = list.data?.data ?? [];
  const options = [
    { value: '', label: found.length === 0 && term ? 'No customer matches' : 'Choose a customer' },
  ];
  if (props.value && !found.some((c) => c.id === props.value)) {
    options.push({ value: props.value, label: known.get(props.value) ?? props.value });
  }
  for (const c of found) {
    options.push({ value: c.id, label: c.email ? `${c.name} (${c.email})` : c.name });
  }
  if (list.error) return <ErrorMessage message={list.error} onRetry={list.reload} />;
  if (list.data && list.data.pagination.total === 0 && !term) {
    return (
      <div class="field">
        <p class="field-note">
          <strong>Customer</strong>: there are no customers yet.{' '}
          {allowed('customers.write') ? (
            <Link to="/customers">Add a customer</Link>
          ) : (
            'Ask someone who can add one'
          )}{' '}
          first.
        </p>
        {props.error ? (
          <small class="error" role="alert">
            {props.error}
          </small>
        ) : null}
      </div>
    );
  }
  return (
    <div class="customer-picker">
      <Field
        label="Find a customer"
        name="customer_search"
        type="search"
        value={search}
        onValue={setSearch}
      />
      <Select
        label="Customer"
        name="customer_id"
        value={props.value}
        options={options}
        onValue={props.onValue}
        error={props.error}
      />
    </div>
  );
}

export const ISSUE_DATE_HINT = 'Left empty, the day it is issued.';
export const VALID_UNTIL_HINT = 'The last day the customer may accept it.';

export interface DateField {
  key: string;
  label: string;
  initial: string;
  hint?: string;
}

/**
 * A new invoice or quote: customer, currency, dates, lines with live totals and notes, checked with
 * the contract's schema, then created as a draft.
 */
export function DocumentForm<B, R>(props: {
  schema: ZodType<B, ZodTypeDef, unknown>;
  dates: DateField[];
  saveLabel: string;
  /** Where Cancel leads, or what it does. */
  cancel: string | (() => void);
  save: (body: B) => Promise<R>;
  onSaved: (saved: R) => void;
  /** The customer of a new document (a customer's "New invoice"). */
  customerId?: string;
  /** A draft being changed: its customer, currency, notes and lines to start from. */
  existing?: Pick<general.Invoice, 'customer_id' | 'currency' | 'notes' | 'items'>;
}) {
  const { existing } = props;
  const base = useBaseCurrency();
  const [customerId, setCustomerId] = useState(existing?.customer_id ?? props.customerId ?? '');
  const [chosenCurrency, setCurrency] = useState<string | null>(existing?.currency ?? null);
  const currency = chosenCurrency ?? base.currency;
  const [dates, setDates] = useState<Record<string, string>>(() =>
    Object.fromEntries(props.dates.map((d) => [d.key, d.initial])),
  );
  const [notes, setNotes] = useState(existing?.notes ?? '');
  const [lines, setLines] = useState<LineDraft[]>(() =>
    existing && existing.items.length > 0
      ? existing.items.map((item) => lineOf(item, existing.currency))
      : [newLine()],
  );
  const products = useLoad(
    () => unwrap(api.value.general.products.listProducts({ query: { limit: 100, sort: 'name:asc' } })),
    [],
  );
  const form = useForm();
  const currencies = currencyOptions();
  const currencyChoices = currencies.some((c) => c.value === currency)
    ? currencies
    : [{ value: currency, label: currency }, ...currencies];

  const submit = (event: Event) => {
    event.preventDefault();
    const body: Record<string, unknown> = {
      customer_id: customerId || undefined,
      currency,
      items: itemsOf(lines),
      // Emptied on a draft being changed, the notes are removed.
      notes: notes.trim() || (existing ? null : undefined),
    };
    for (const d of props.dates) if (dates[d.key]) body[d.key] = dates[d.key];
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
    void form.submit(props.schema, body, props.save).then((saved) => {
      if (saved !== undefined) props.onSaved(saved);
    });
  };

  const e = form.errors;
  return (
    <form onSubmit={submit} noValidate class="document-form">
      <div class="form-row">
        <CustomerPicker value={customerId} onValue={setCustomerId} error={e.customer_id} />
        <Select
          label="Currency"
          name="currency"
          value={currency}
          options={currencyChoices}
          onValue={(value) => setCurrency(isCurrency(value) ? value : null)}
          error={e.currency}
        />
      </div>
      <div class="form-row">
        {props.dates.map((d) => (
          <Field
            key={d.key}
            label={d.label}
            name={d.key}
            type="date"
            hint={d.hint}
            value={dates[d.key]}
            onValue={(value) => setDates((all) => ({ ...all, [d.key]: value }))}
            error={e[d.key]}
          />
        ))}
      </div>
      <h2>Lines</h2>
      <LineEditor
        lines={lines}
        onLines={setLines}
        currency={currency}
        errors={e}
        products={products.data?.data ?? []}
      />
      <LiveTotals totals={documentTotals(lines, currency)} currency={currency} />
      <TextArea label="Notes" name="notes" value={notes} onValue={setNotes} error={e.notes} />
      <ErrorMessage message={summaryOf(form)} />
      <div class="form-actions">
        <Button type="submit" kind="primary" busy={form.busy}>
          {props.saveLabel}
        </Button>
        {typeof props.cancel === 'string' ? (
          <Link to={props.cancel}>Cancel</Link>
        ) : (
          <Button onClick={props.cancel}>Cancel</Button>
        )}
      </div>
    </form>
  );
}
