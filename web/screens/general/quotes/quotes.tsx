import { contract, general } from '../../../../client/index.js';
import { ListPage } from '../../../components/list-page.js';
import { Link } from '../../../components/ui.js';
import { usePagedList } from '../../../lib/list-query.js';
import { apiSort, oneOf, sortOf } from '../../../lib/lists.js';
import { here } from '../../../lib/router.js';
import { api, can } from '../../../lib/api.js';
import { QuoteTable } from '../documents/tables.js';
import { statusLabel } from '../../../lib/messages.js';

/** Quotes by status (the URL's `status`), sorted and paged from the URL. */
export default function Quotes() {
  const query = here.value.query;
  const sort = sortOf(query, general.QUOTE_SORT_FIELDS);
  const status = oneOf(query, 'status', general.QUOTE_STATUSES);
  const customerId = query.get('customer_id') || undefined;

  const filters = { sort: apiSort(sort), status, customer_id: customerId };
  const list = usePagedList(
    20,
    (paging, page) =>
      api.value.general.quotes.listQuotes({ query: { page, limit: paging.limit, ...filters } }),
    (answer) => ({ rows: answer.data, total: answer.pagination.total }),
    [sort, status, customerId],
  );
  const canCreate = can('createQuote');

  return (
    <ListPage
      title="Quotes"
      export={{ route: contract.general.quotes.listQuotes, query: filters }}
      actions={
        canCreate ? (
          <Link class="button primary" to="/quotes/new">
            New quote
          </Link>
        ) : null
      }
      tabs={{ label: 'Quote status', values: general.QUOTE_STATUSES, names: statusLabel, current: status }}
      list={list}
      filtered={{
        active: !!(status || customerId),
        title: status ? `No ${statusLabel(status).toLowerCase()} quotes` : 'No quotes for this customer',
        clear: ['status', 'customer_id'],
        show: 'Show every quote',
      }}
      empty={{
        title: 'No quotes yet',
        children: (
          <p>
            {canCreate ? (
              <>
                <Link to="/quotes/new">Create a quote</Link>, send it, and once the customer accepts it turn
                it into an invoice in one step.
              </>
            ) : (
              'Quotes appear here once someone with permission to create them does so.'
            )}
          </p>
        ),
      }}
    >
      {(rows) => (
        <QuoteTable caption={status ? `${statusLabel(status)} quotes` : 'Quotes'} rows={rows} sort={sort} />
      )}
    </ListPage>
  );
}
