import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { ZodType, ZodTypeDef } from 'zod';
import { general, unwrap } from '../../../../client/index.js';
import { isCurrency, currencyOptions, useBaseCurrency } from '../../../lib/currencies.js';
import { money } from '../../../lib/format.js';
import { useForm, useLoad, type FieldErrors } from '../../../lib/forms.js';
import { summaryOf } from '../../../lib/refusals.js';
import {
  amountAdvice,
  decimalText,
  documentTotals,
  exponentOf,
  lineAmounts,
  majorOf,
  type DocumentTotals,
} from '../../../lib/lines.js';
import { api } from '../../../lib/api.js';
import { allowed } from '../../../lib/session.js';
import { Button, ErrorMessage, Field, Link, Select, TextArea } from '../../../components/ui.js';
import {
  CellError,
  CellInput,
  CellSelect,
  LineTable,
  patchLine,
  TotalsPanel,
  type LineColumn,
} from '../../../components/line-editor.js';
import { SearchPicker } from '../../../components/search-picker.js';

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
  discount_percent: string;
}

let nextKey = 1;
export const newLine = (): LineDraft => ({
  key: nextKey++,
  product_id: '',
  description: '',
  quantity: '1',
  unit_price: '',
  tax_rate: '',
  discount_percent: '',
});

/** A stored line as the form's text, prices in the currency's decimals. */
const lineOf = (item: general.Invoice['items'][number], currency: string): LineDraft => ({
  key: nextKey++,
  product_id: item.product_id ?? '',
  description: item.description,
  quantity: String(item.quantity),
  unit_price: decimalText(item.unit_price, currency),
  tax_rate: item.tax_rate === 0 ? '' : String(item.tax_rate),
  discount_percent: item.discount_percent === 0 ? '' : String(item.discount_percent),
});

/** A typed number as the body takes it: left out when empty (the schema then says it is required). */
const numberOf = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text.trim()));

/** The lines as the create body's `items`; what is wrong with them the schema and the service say. */
export function itemsOf(lines: LineDraft[]): general.InvoiceItemInput[] {
  return lines.map((line) => {
    const item: Record<string, unknown> = {
      product_id: line.product_id || undefined,
      description: line.description.trim() || undefined,
      quantity: numberOf(line.quantity),
      unit_price: numberOf(line.unit_price),
      tax_rate: numberOf(line.tax_rate),
      discount_percent: numberOf(line.discount_percent),
    };
    for (const key of Object.keys(item)) if (item[key] === undefined) delete item[key];
    return item as general.InvoiceItemInput;
  });
}

/** How many decimals `currency` takes, said in words: "without decimals", "with at most 2 decimals". */
function decimalsRule(currency: string): string {
  const exponent = exponentOf(currency);
  return exponent === 0 ? 'without decimals' : `with at most ${exponent} decimals`;
}

/** The lines of an invoice, quote or credit note as typed: a product column only when there are `products`. */
export function LineEditor(props: {
  lines: LineDraft[];
  onLines: (lines: LineDraft[]) => void;
  currency: string;
  errors: FieldErrors;
  products: general.Product[];
}) {
  const { lines, currency, errors, products } = props;
  const change = (key: number, patch: Partial<LineDraft>) => props.onLines(patchLine(lines, key, patch));
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
  const productOptions = [
    { value: '', label: 'No product' },
    ...products.map((p) => ({ value: p.id, label: `${p.name} (${p.sku})` })),
  ];
  const columns: LineColumn<LineDraft>[] = [
    {
      label: 'Description',
      cellClass: 'line-wide',
      cell: (line, index) => (
        <CellInput
          label={`Description, line ${index + 1}`}
          name={`items.${index}.description`}
          value={line.description}
          onValue={(description) => change(line.key, { description })}
          error={errors[`items.${index}.description`]}
        />
      ),
    },
    {
      label: 'Quantity',
      class: 'col-number',
      cell: (line, index) => (
        <CellInput
          label={`Quantity, line ${index + 1}`}
          name={`items.${index}.quantity`}
          inputMode="decimal"
          value={line.quantity}
          onValue={(quantity) => change(line.key, { quantity })}
          error={errors[`items.${index}.quantity`]}
        />
      ),
    },
    {
      label: 'Unit price',
      class: 'col-price',
      cell: (line, index) => {
        const product = products.find((p) => p.id === line.product_id);
        return (
          <CellInput
            label={`Unit price in ${currency}, line ${index + 1}`}
            name={`items.${index}.unit_price`}
            inputMode="decimal"
            value={line.unit_price}
            onValue={(unit_price) => change(line.key, { unit_price })}
            error={errors[`items.${index}.unit_price`]}
            hint={
              amountAdvice(line.unit_price, currency) ??
              (product && product.currency !== currency
                ? `${product.name} is priced in ${product.currency}: give the price in ${currency}.`
                : undefined)
            }
          />
        );
      },
    },
    {
      label: 'Discount %',
      class: 'col-number',
      cell: (line, index) => (
        <CellInput
          label={`Discount percent, line ${index + 1}`}
          name={`items.${index}.discount_percent`}
          inputMode="decimal"
          value={line.discount_percent}
          onValue={(discount_percent) => change(line.key, { discount_percent })}
          error={errors[`items.${index}.discount_percent`]}
        />
      ),
    },
    {
      label: 'Tax %',
      class: 'col-number',
      cell: (line, index) => (
        <CellInput
          label={`Tax percent, line ${index + 1}`}
          name={`items.${index}.tax_rate`}
          inputMode="decimal"
          value={line.tax_rate}
          onValue={(tax_rate) => change(line.key, { tax_rate })}
          error={errors[`items.${index}.tax_rate`]}
        />
      ),
    },
    {
      label: 'Amount',
      class: 'numeric col-amount',
      cellClass: 'numeric line-amount',
      data: 'amount',
      cell: (line, index) => {
        const amounts = lineAmounts(line, currency);
        return (
          <>
            {amounts ? money(majorOf(amounts.totalMinor, currency), currency) : '—'}
            <CellError message={errors[`items.${index}`]} />
          </>
        );
      },
    },
  ];
  if (products.length > 0) {
    columns.unshift({
      label: 'Product',
      class: 'col-product',
      cellClass: 'line-wide',
      cell: (line, index) => (
        <CellSelect
          label={`Product, line ${index + 1}`}
          name={`items.${index}.product_id`}
          value={line.product_id}
          options={productOptions}
          onValue={(productId) => chooseProduct(line, productId)}
          error={errors[`items.${index}.product_id`]}
        />
      ),
    });
  }
  return (
    <LineTable
      caption="Lines"
      noun="line"
      columns={columns}
      lines={lines}
      onRemove={(key) => props.onLines(lines.filter((l) => l.key !== key))}
      onAdd={() => props.onLines([...lines, newLine()])}
      error={errors.items}
    />
  );
}

/** The totals as the lines are typed: subtotal, tax and total in the currency. */
export function LiveTotals(props: { totals: DocumentTotals | null; currency: string }) {
  const { totals, currency } = props;
  const show = (minor: bigint | undefined) =>
    minor === undefined ? '—' : money(majorOf(minor, currency), currency);
  return (
    <TotalsPanel
      rows={[
        { label: 'Subtotal', value: show(totals?.subtotalMinor), data: 'subtotal' },
        { label: 'Tax', value: show(totals?.taxMinor), data: 'tax' },
        { label: 'Total', value: show(totals?.totalMinor), strong: true, data: 'total' },
      ]}
      hint={
        totals ? null : (
          <p class="hint">
            Totals show once every line has a quantity and a unit price in {currency},{' '}
            {decimalsRule(currency)}.
          </p>
        )
      }
    />
  );
}

/** A customer chosen from the business's customers, found by name, email or company. */
function CustomerPicker(props: { value: string; onValue: (id: string) => void; error?: string }) {
  const [named, setNamed] = useState<{ value: string; label: string } | undefined>(undefined);
  // The customer named in the URL (a customer's "New invoice"), so it is shown by name.
  useEffect(() => {
    if (!props.value || named?.value === props.value) return;
    api.value.general.customers.getCustomer({ params: { id: props.value } }).then(
      (res) => {
        if (res.status === 200) setNamed({ value: res.body.data.id, label: res.body.data.name });
      },
      () => undefined,
    );
  }, [props.value]);
  return (
    <SearchPicker
      class="customer-picker"
      find={async (search) =>
        (
          await unwrap(
            api.value.general.customers.listCustomers({ query: { search, limit: 100, sort: 'name:asc' } }),
          )
        ).data
      }
      option={(c) => ({ value: c.id, label: c.email ? `${c.name} (${c.email})` : c.name })}
      search={{ label: 'Find a customer', name: 'customer_search' }}
      choice={{
        label: 'Customer',
        name: 'customer_id',
        choose: 'Choose a customer',
        none: 'No customer matches',
      }}
      value={props.value}
      onValue={props.onValue}
      error={props.error}
      chosen={named ?? (props.value ? { value: props.value, label: props.value } : undefined)}
      whenNone={
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
          <CellError message={props.error} />
        </div>
      }
    />
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
  /**
   * Fields beyond the document's (a recurring invoice's schedule), shown after the customer and
   * given the refusals that name them, and what they add to the body.
   */
  extra?: { fields: (errors: FieldErrors) => ComponentChildren; body: () => Record<string, unknown> };
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
      ...props.extra?.body(),
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
      {props.extra?.fields(e)}
      {props.dates.length > 0 ? (
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
      ) : null}
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
