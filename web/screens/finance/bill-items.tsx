import { CellInput, LineTable, patchLine, TotalsPanel } from '../../components/line-editor.js';
import { Empty, Link } from '../../components/ui.js';
import { can } from '../../lib/api.js';
import { minorMoney } from '../../lib/format.js';
import type { FieldErrors } from '../../lib/forms.js';
import { amountAdvice, billTotals, itemMinor, priceMinor, showMinor } from '../../lib/lines.js';

/**
 * A bill's items as typed (a bill, a recurring bill): description, quantity, unit price in major units
 * and input tax rate, with each amount and the subtotal, tax and total as the service will compute them
 * (integer minor units, exact).
 */

export interface ItemDraft {
  key: number;
  description: string;
  quantity: string;
  unit_price: string;
  /** The input tax percent; empty is none. */
  tax_rate: string;
}

let nextKey = 1;
export const newItem = (): ItemDraft => ({
  key: nextKey++,
  description: '',
  quantity: '1',
  unit_price: '',
  tax_rate: '',
});

/** Prices typed in major units that are not amounts of the currency: refused here, beside the field. */
export function priceErrors(items: ItemDraft[], currency: string): FieldErrors {
  const errors: FieldErrors = {};
  items.forEach((item, i) => {
    const advice = amountAdvice(item.unit_price, currency);
    if (advice) errors[`items.${i}.unit_price`] = advice;
  });
  return errors;
}

/** The items as the body's `items`, prices in minor units; what is wrong with them the schema says. */
export function itemsBody(items: ItemDraft[], currency: string): Record<string, unknown>[] {
  return items.map((item) => {
    const price = priceMinor(item.unit_price, currency);
    const line: Record<string, unknown> = {
      description: item.description.trim(),
      quantity: item.quantity.trim() === '' ? undefined : Number(item.quantity.trim()),
      unit_price: price === null ? undefined : Number(price),
      tax_rate: item.tax_rate.trim() === '' ? undefined : Number(item.tax_rate.trim()),
    };
    for (const key of Object.keys(line)) if (line[key] === undefined) delete line[key];
    return line;
  });
}

/** The items' table, one row per item with its amount, and the subtotal, tax and total below it. */
export function BillItems(props: {
  items: ItemDraft[];
  onItems: (update: (items: ItemDraft[]) => ItemDraft[]) => void;
  currency: string;
  errors: FieldErrors;
}) {
  const { items, currency, errors } = props;
  const change = (key: number, patch: Partial<ItemDraft>) =>
    props.onItems((all) => patchLine(all, key, patch));
  const totals = billTotals(items, currency);
  const show = (minor: bigint | undefined) => showMinor(minor ?? null, currency, minorMoney);
  return (
    <>
      <LineTable
        caption="Items"
        noun="item"
        lines={items}
        columns={[
          {
            label: 'Description',
            cellClass: 'line-wide',
            cell: (item, index) => (
              <CellInput
                label={`Description, item ${index + 1}`}
                name={`items.${index}.description`}
                value={item.description}
                onValue={(description) => change(item.key, { description })}
                error={errors[`items.${index}.description`]}
              />
            ),
          },
          {
            label: 'Quantity',
            class: 'col-number',
            cell: (item, index) => (
              <CellInput
                label={`Quantity, item ${index + 1}`}
                name={`items.${index}.quantity`}
                inputMode="decimal"
                value={item.quantity}
                onValue={(quantity) => change(item.key, { quantity })}
                error={errors[`items.${index}.quantity`]}
              />
            ),
          },
          {
            label: 'Unit price',
            class: 'col-price',
            cell: (item, index) => (
              <CellInput
                label={`Unit price in ${currency}, item ${index + 1}`}
                name={`items.${index}.unit_price`}
                inputMode="decimal"
                value={item.unit_price}
                onValue={(unit_price) => change(item.key, { unit_price })}
                error={errors[`items.${index}.unit_price`]}
                hint={amountAdvice(item.unit_price, currency)}
              />
            ),
          },
          {
            label: 'Tax %',
            class: 'col-number',
            cell: (item, index) => (
              <CellInput
                label={`Tax percent, item ${index + 1}`}
                name={`items.${index}.tax_rate`}
                inputMode="decimal"
                value={item.tax_rate}
                onValue={(tax_rate) => change(item.key, { tax_rate })}
                error={errors[`items.${index}.tax_rate`]}
              />
            ),
          },
          {
            label: 'Amount',
            class: 'numeric col-amount',
            cellClass: 'numeric line-amount',
            data: 'amount',
            cell: (item) => showMinor(itemMinor(item, currency), currency, minorMoney),
          },
        ]}
        onRemove={(key) => props.onItems((all) => all.filter((i) => i.key !== key))}
        onAdd={() => props.onItems((all) => [...all, newItem()])}
        error={errors.items}
      />
      <TotalsPanel
        rows={[
          { label: 'Subtotal', value: show(totals?.subtotalMinor), data: 'subtotal' },
          { label: 'Tax', value: show(totals?.taxMinor), data: 'tax' },
          { label: 'Total', value: show(totals?.totalMinor), strong: true, data: 'total' },
        ]}
        hint={
          totals === null ? (
            <p class="hint">
              The totals show once every item has a quantity, a unit price in {currency} and a tax rate from 0
              to 100 % (or none).
            </p>
          ) : null
        }
      />
    </>
  );
}

/** What a new bill's screen says while the business has no vendor: `what` is recorded against one. */
export function NoVendorsYet(props: { what: string }) {
  return (
    <Empty title="No vendors yet">
      <p>
        {props.what}{' '}
        {can('createVendor') ? (
          <Link to="/finance/vendors">Add a vendor</Link>
        ) : (
          'Ask someone who can add one'
        )}{' '}
        first.
      </p>
    </Empty>
  );
}
