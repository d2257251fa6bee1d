import { contract, general } from '../../../../client/index.js';
import { ImportButton } from '../../../components/csv-import.js';
import { Filters, ListPage } from '../../../components/list-page.js';
import { CustomerForm } from './customer-form.js';
import { Field, Link, type Column } from '../../../components/ui.js';
import { date } from '../../../lib/format.js';
import { usePagedList } from '../../../lib/list-query.js';
import { apiSort, sortOf } from '../../../lib/lists.js';
import { here, navigate, useQueryText } from '../../../lib/router.js';
import { api } from '../../../lib/api.js';

/** Customers: searched, sorted and paged from the URL; a new one added in a dialog. */

const SIZE = 20;

const COLUMNS: Column<general.Customer>[] = [
  { label: 'Name', sort: 'name', render: (c) => <Link to={`/customers/${c.id}`}>{c.name}</Link> },
  { label: 'Email', sort: 'email', render: (c) => c.email ?? '—' },
  { label: 'Company', render: (c) => c.company ?? '—' },
  { label: 'Phone', render: (c) => c.phone ?? '—' },
  { label: 'Added', sort: 'created_at', render: (c) => date(c.created_at) },
];

export default function Customers() {
  const query = here.value.query;
  const sort = sortOf(query, general.CUSTOMER_SORT_FIELDS);
  const search = query.get('search') || undefined;
  const email = query.get('email') || undefined;
  const [searchText, setSearchText] = useQueryText('search');
  const [emailText, setEmailText] = useQueryText('email');

  const filters = { sort: apiSort(sort), search, email };
  const list = usePagedList(
    SIZE,
    ({ limit }, page) => api.value.general.customers.listCustomers({ query: { page, limit, ...filters } }),
    (answer) => ({ rows: answer.data, total: answer.pagination.total }),
    [sort, search, email],
  );

  return (
    <ListPage
      title="Customers"
      export={{ route: contract.general.customers.listCustomers, query: filters }}
      actions={<ImportButton kind="customers" onImported={list.reload} />}
      create={{
        operation: 'createCustomer',
        label: 'New customer',
        form: (close) => (
          <CustomerForm
            onCancel={close}
            onSaved={(customer) => {
              close();
              navigate(`/customers/${customer.id}`);
            }}
          />
        ),
      }}
      filters={
        <Filters label="Filter customers">
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
        </Filters>
      }
      list={list}
      filtered={{
        active: Boolean(search || email),
        title: 'No customer matches these filters',
        clear: ['search', 'email'],
        before: 'Check the spelling, or ',
        show: 'clear the filters',
      }}
      empty={{
        title: 'No customers yet',
        canAdd:
          'Add the people and companies you sell to with New customer; invoices and quotes are made out to them.',
        cannotAdd: 'Customers appear here once someone with permission to add them does so.',
      }}
      table={{
        caption: 'Customers',
        columns: COLUMNS,
        rowKey: (c) => c.id,
        sort: sort,
      }}
    />
  );
}
