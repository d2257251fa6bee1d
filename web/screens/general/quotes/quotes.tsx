import { contract, general, unwrap } from '../../../../client/index.js';
import { ExportButton } from '../../../components/csv.js';
import { Link, PageHeader } from '../../../components/ui.js';
import { useLoad } from '../../../lib/forms.js';
import { apiSort, oneOf, pageOf, sortOf } from '../../../lib/lists.js';
import { here } from '../../../lib/router.js';
import { api, can } from '../../../lib/session.js';
import { StatusTabs } from '../../../components/status-tabs.js';
import { PagedList } from '../../../components/paged-list.js';
import { QuoteTable } from '../documents/tables.js';
import { statusLabel } from '../../../lib/messages.js';

/** Quotes by status (the URL's `status`), sorted and paged from the URL. */
export default function Quotes() {
  const query = here.value.query;
  const page = pageOf(query);
  const sort = sortOf(query, general.QUOTE_SORT_FIELDS);
  const status = oneOf(query, 'status', general.QUOTE_STATUSES);
  const customerId = query.get('customer_id') || undefined;

  const filters = { sort: apiSort(sort), status, customer_id: customerId };
  const list = useLoad(
    () => unwrap(api.value.general.quotes.listQuotes({ query: { page, limit: 20, ...filters } })),
    [page, sort, status, customerId],
  );
  const canCreate = can('createQuote');

  return (
    <>
      <PageHeader title="Quotes">
        <ExportButton route={contract.general.quotes.listQuotes} query={filters} />
        {canCreate ? (
          <Link class="button primary" to="/quotes/new">
            New quote
          </Link>
        ) : null}
      </PageHeader>
      <StatusTabs label="Quote status" values={general.QUOTE_STATUSES} names={statusLabel} current={status} />
      <PagedList
        error={list.error}
        reload={list.reload}
        data={list.data && { rows: list.data.data, total: list.data.pagination.total }}
        page={page}
        size={20}
        filtered={{
          active: !!(status || customerId),
          title: status ? `No ${statusLabel(status).toLowerCase()} quotes` : 'No quotes for this customer',
          clear: ['status', 'customer_id'],
          show: 'Show every quote',
        }}
        empty={{
          title: 'No quotes yet',
          children: (
            <>
              <p>
                {canCreate ? (
                  <>
                    <Link to="/quotes/new">Create a quote</Link>, send it, and once the customer accepts it
                    turn it into an invoice in one step.
                  </>
                ) : (
                  'Quotes appear here once someone with permission to create them does so.'
                )}
              </p>
            </>
          ),
        }}
      >
        {(rows) => (
          <>
            <QuoteTable
              caption={status ? `${statusLabel(status)} quotes` : 'Quotes'}
              rows={rows}
              sort={sort}
            />
          </>
        )}
      </PagedList>
    </>
  );
}
