import { contract, general, unwrap } from '../../../../client/index.js';
import { ListPage } from '../../../components/list-page.js';
import { Link, Notice } from '../../../components/ui.js';
import { useLoad } from '../../../lib/forms.js';
import { usePagedList } from '../../../lib/list-query.js';
import { apiSort, oneOf, sortOf } from '../../../lib/lists.js';
import { here, withQuery } from '../../../lib/router.js';
import { api, can } from '../../../lib/api.js';
import { allowed } from '../../../lib/session.js';
import { InvoiceTable } from '../documents/tables.js';
import { statusLabel } from '../../../lib/messages.js';

/** The statuses in the order an invoice moves through them. */
const STATUS_ORDER = [
  'draft',
  'unpaid',
  'overdue',
  'paid',
  'void',
] as const satisfies readonly general.Invoice['status'][];

/** Invoices by status (the URL's `status`), of one customer (`customer_id`), sorted and paged from the URL. */

function CustomerScope(props: { id: string }) {
  const customer = useLoad(
    async () =>
      allowed('customers.read')
        ? (await unwrap(api.value.general.customers.getCustomer({ params: { id: props.id } }))).data.name
        : props.id,
    [props.id],
  );
  return (
    <Notice>
      Invoices of {customer.data ?? (customer.error ? props.id : '…')}.{' '}
      <Link to={withQuery({ customer_id: null, page: null })}>Show every customer’s</Link>
    </Notice>
  );
}

export default function Invoices() {
  const query = here.value.query;
  const sort = sortOf(query, general.INVOICE_SORT_FIELDS);
  const status = oneOf(query, 'status', general.INVOICE_STATUSES);
  const customerId = query.get('customer_id') || undefined;

  const filters = { sort: apiSort(sort), status, customer_id: customerId };
  const list = usePagedList(
    20,
    (paging, page) =>
      api.value.general.invoices.listInvoices({ query: { page, limit: paging.limit, ...filters } }),
    (answer) => ({ rows: answer.data, total: answer.pagination.total }),
    [sort, status, customerId],
  );
  const canCreate = can('createInvoice');

  return (
    <ListPage
      title="Invoices"
      export={{ route: contract.general.invoices.listInvoices, query: filters }}
      actions={
        canCreate ? (
          <Link
            class="button primary"
            to={customerId ? `/invoices/new?customer_id=${customerId}` : '/invoices/new'}
          >
            New invoice
          </Link>
        ) : null
      }
      tabs={{ label: 'Invoice status', values: STATUS_ORDER, names: statusLabel, current: status }}
      filters={customerId ? <CustomerScope id={customerId} /> : null}
      list={list}
      filtered={{
        active: !!(status || customerId),
        title: status ? `No ${statusLabel(status).toLowerCase()} invoices` : 'No invoices for this customer',
        clear: ['status', 'customer_id'],
        show: 'Show every invoice',
      }}
      empty={{
        title: 'No invoices yet',
        children: (
          <p>
            {canCreate ? (
              <>
                <Link to="/invoices/new">Create an invoice</Link>: it starts as a draft you can check before
                issuing it.
              </>
            ) : (
              'Invoices appear here once someone with permission to create them does so.'
            )}
          </p>
        ),
      }}
    >
      {(rows) => (
        <InvoiceTable
          caption={status ? `${statusLabel(status)} invoices` : 'Invoices'}
          rows={rows}
          sort={sort}
        />
      )}
    </ListPage>
  );
}
