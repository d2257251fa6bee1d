import { contract, general, unwrap } from '../../../../client/index.js';
import { ImportButton } from '../../../components/csv-import.js';
import { EditDialog, rowActions, useEditing } from '../../../components/edit-dialog.js';
import { DialogForm } from '../../../components/form-dialog.js';
import { Filters, ListPage } from '../../../components/list-page.js';
import { Field, Loading, Select, TextArea, type Column } from '../../../components/ui.js';
import { conflictOn } from '../../../lib/refusals.js';
import { currencyOptions, useBaseCurrency } from '../../../lib/currencies.js';
import { date, money, number } from '../../../lib/format.js';
import { useDraft, useForm } from '../../../lib/forms.js';
import { decimalText } from '../../../lib/lines.js';
import { usePagedList } from '../../../lib/list-query.js';
import { apiSort, sortOf } from '../../../lib/lists.js';
import { here, useQueryText } from '../../../lib/router.js';
import { api, can } from '../../../lib/api.js';

/** Products: searched, sorted and paged from the URL; added, changed and deleted in dialogs. */

const SIZE = 20;

interface Draft {
  name: string;
  sku: string;
  price: string;
  currency: string;
  stock: string;
  description: string;
}

function draftOf(product: general.Product | undefined, currency: string): Draft {
  return {
    name: product?.name ?? '',
    sku: product?.sku ?? '',
    price: product ? decimalText(product.price, product.currency) : '',
    currency: product?.currency ?? currency,
    stock: product ? String(product.stock) : '0',
    description: product?.description ?? '',
  };
}

/** A typed number as the body takes it; left out when empty, so the schema says what is missing. */
const numberOf = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text.trim()));

function ProductForm(props: {
  product?: general.Product;
  baseCurrency: string;
  onSaved: (product: general.Product) => void;
  onCancel: () => void;
}) {
  const existing = props.product;
  const { draft, set, bind } = useDraft<Draft>(() => draftOf(existing, props.baseCurrency));
  const form = useForm();
  const currencies = currencyOptions();

  const submit = () => {
    const body: Record<string, unknown> = {
      name: draft.name,
      sku: draft.sku,
      price: numberOf(draft.price),
      currency: draft.currency,
      stock: numberOf(draft.stock),
      description: draft.description.trim() || (existing ? null : undefined),
    };
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
    const products = api.value.general.products;
    const saving = existing
      ? form.submit(general.UpdateProductBodySchema, body, (value) =>
          conflictOn('sku', unwrap(products.updateProduct({ params: { id: existing.id }, body: value }))),
        )
      : form.submit(general.CreateProductBodySchema, body, (value) =>
          conflictOn('sku', unwrap(products.createProduct({ body: value }))),
        );
    void saving.then((saved) => {
      if (saved) props.onSaved(saved.data);
    });
  };

  const e = form.errors;
  return (
    <DialogForm
      form={form}
      submit={existing ? 'Save changes' : 'Add product'}
      onCancel={props.onCancel}
      onSubmit={submit}
    >
      <Field label="Name" {...bind('name', e)} required />
      <Field
        label="SKU"
        {...bind('sku', e)}
        hint="Unique per business: letters, digits and . _ - /"
        required
      />
      <div class="form-row">
        <Field label="Unit price" {...bind('price', e)} inputMode="decimal" required />
        <Select label="Currency" {...bind('currency', e)} options={currencies} />
      </div>
      <Field label="In stock" {...bind('stock', e)} inputMode="numeric" />
      <TextArea
        label="Description"
        name="description"
        value={draft.description}
        onValue={set('description')}
        error={e.description}
      />
    </DialogForm>
  );
}

export default function Products() {
  const query = here.value.query;
  const sort = sortOf(query, general.PRODUCT_SORT_FIELDS);
  const search = query.get('search') || undefined;
  const [searchText, setSearchText] = useQueryText('search');
  const base = useBaseCurrency();
  const state = useEditing<general.Product>();

  const filters = { sort: apiSort(sort), search };
  const list = usePagedList(
    SIZE,
    ({ limit }, page) => api.value.general.products.listProducts({ query: { page, limit, ...filters } }),
    (answer) => ({ rows: answer.data, total: answer.pagination.total }),
    [sort, search],
  );
  const columns: Column<general.Product>[] = [
    { label: 'Name', sort: 'name', render: (p) => p.name },
    { label: 'SKU', sort: 'sku', render: (p) => <code>{p.sku}</code> },
    { label: 'Unit price', sort: 'price', numeric: true, render: (p) => money(p.price, p.currency) },
    { label: 'In stock', numeric: true, render: (p) => number(p.stock) },
    { label: 'Added', sort: 'created_at', render: (p) => date(p.created_at) },
    ...rowActions(state, {
      edit: can('updateProduct'),
      remove: can('deleteProduct')
        ? {
            label: 'Delete product',
            words: (p) => (
              <p>
                Invoices and quotes that list {p.name} keep their own description and price. The SKU{' '}
                <code>{p.sku}</code> becomes free again.
              </p>
            ),
            send: (p) => unwrap(api.value.general.products.deleteProduct({ params: { id: p.id } })),
            reload: list.reload,
          }
        : undefined,
    }),
  ];

  return (
    <>
      <ListPage
        title="Products"
        export={{ route: contract.general.products.listProducts, query: filters }}
        actions={
          <ImportButton
            kind="products"
            onImported={() => {
              state.setNotice(null);
              list.reload();
            }}
          />
        }
        create={{ operation: 'createProduct', label: 'New product', onClick: () => state.setEditing('new') }}
        filters={
          <Filters label="Filter products">
            <Field
              label="Search"
              name="search"
              type="search"
              hint="Name or SKU"
              value={searchText}
              onValue={setSearchText}
            />
          </Filters>
        }
        notice={state.notice}
        list={list}
        filtered={{
          active: !!search,
          title: `No product matches “${search}”`,
          clear: ['search'],
          before: 'Check the spelling, or ',
          show: 'clear the search',
        }}
        empty={{
          title: 'No products yet',
          canAdd: 'Add what you sell with New product: invoice and quote lines can then be filled from it.',
          cannotAdd: 'Products appear here once someone with permission to add them does so.',
        }}
        table={{ caption: 'Products', columns, rowKey: (p) => p.id, sort }}
      />
      <EditDialog
        state={state}
        addTitle="New product"
        form={(product) =>
          base.loaded ? (
            <ProductForm
              product={product}
              baseCurrency={base.currency}
              onCancel={state.close}
              onSaved={(saved) => state.saved(saved.name, list.reload)}
            />
          ) : (
            <Loading />
          )
        }
      />
    </>
  );
}
