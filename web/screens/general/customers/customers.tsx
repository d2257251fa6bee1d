import { useState } from 'preact/hooks';
import { contract, general, unwrap } from '../../../../client/index.js';
import { ExportButton } from '../../../components/csv.js';
import { ImportButton } from '../../../components/csv-import.js';
import { CustomerForm } from './customer-form.js';
import {
  Button,
  Dialog,
  Empty,
  ErrorMessage,
  Field,
  Link,
  Loading,
  PageHeader,
  Pager,
  Table,
  type Column,
} from '../../../components/ui.js';
import { date } from '../../../lib/format.js';
import { useLoad } from '../../../lib/forms.js';
import { apiSort, pageOf, sortOf } from '../../../lib/lists.js';
import { here, navigate, useQueryText, withQuery } from '../../../lib/router.js';
import { api, can } from '../../../lib/session.js';

/** Customers: searched, sorted and paged from the URL; a new one added in a dialog. */

const COLUMNS: Column<general.Customer>[] = [
  { label: 'Name', sort: 'name', render: (c) => <Link to={`/customers/${c.id}`}>{c.name}</Link> },
  { label: 'Email', sort: 'email', render: (c) => c.email ?? '—' },
  { label: 'Company', render: (c) => c.company ?? '—' },
  { label: 'Phone', render: (c) => c.phone ?? '—' },
  { label: 'Added', sort: 'created_at', render: (c) => date(c.created_at) },
];

export default function Customers() {
  const query = here.value.query;
  const page = pageOf(query);
  const sort = sortOf(query, general.CUSTOMER_SORT_FIELDS);
  const search = query.get('search') ?? '';
  const email = query.get('email') ?? '';
  const [searchText, setSearchText] = useQueryText('search');
  const [emailText, setEmailText] = useQueryText('email');
  const [creating, setCreating] = useState(false);

  const filters = { sort: apiSort(sort), search: search || undefined, email: email || undefined };
  const list = useLoad(
    () => unwrap(api.value.general.customers.listCustomers({ query: { page, limit: 20, ...filters } })),
    [page, sort, search, email],
  );
  const filtered = Boolean(search || email);

  return (
    <>
      <PageHeader title="Customers">
        <ExportButton route={contract.general.customers.listCustomers} query={filters} />
        <ImportButton kind="customers" onImported={list.reload} />
        {can('createCustomer') ? (
          <Button kind="primary" onClick={() => setCreating(true)}>
            New customer
          </Button>
        ) : null}
      </PageHeader>
      <form class="filters" role="search" aria-label="Filter customers" onSubmit={(e) => e.preventDefault()}>
        <Field
          label="Search"
          name="search"
          type="search"
          hint="Name, email or company"
          value={searchText}
          onValue={setSearchText}
        />
        <Field
          label="Email"
          name="email"
          type="search"
          hint="The whole address"
          value={emailText}
          onValue={setEmailText}
        />
      </form>
      {list.error ? (
        <ErrorMessage message={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading />
      ) : list.data.data.length === 0 ? (
        filtered ? (
          <Empty title="No customer matches these filters">
            <p>
              Check the spelling, or{' '}
              <Link to={withQuery({ search: null, email: null, page: null })}>clear the filters</Link>.
            </p>
          </Empty>
        ) : page > 1 ? (
          <Empty title={`There is no page ${page}`}>
            <p>
              <Link to={withQuery({ page: null })}>Go to the first page</Link>.
            </p>
          </Empty>
        ) : (
          <Empty title="No customers yet">
            <p>
              {can('createCustomer')
                ? 'Add the people and companies you sell to with New customer; invoices and quotes are made out to them.'
                : 'Customers appear here once someone with permission to add them does so.'}
            </p>
          </Empty>
        )
      ) : (
        <>
          <Table
            caption="Customers"
            columns={COLUMNS}
            rows={list.data.data}
            rowKey={(c) => c.id}
            sort={sort}
          />
          <Pager
            page={page}
            total={list.data.pagination.total}
            totalPages={list.data.pagination.total_pages}
          />
        </>
      )}
      <Dialog title="New customer" open={creating} onClose={() => setCreating(false)}>
        <CustomerForm
          onCancel={() => setCreating(false)}
          onSaved={(customer) => {
            setCreating(false);
            navigate(`/customers/${customer.id}`);
          }}
        />
      </Dialog>
    </>
  );
}
