import { contract, general, unwrap } from '../../../../client/index.js';
import { ExportButton } from '../../../components/csv.js';
import { QuoteTable, statusLabel } from '../documents/documents.js';
import { Empty, ErrorMessage, Link, Loading, PageHeader, Pager } from '../../../components/ui.js';
import { useLoad } from '../../../lib/forms.js';
import { apiSort, oneOf, pageOf, sortOf } from '../../../lib/lists.js';
import { here, withQuery } from '../../../lib/router.js';
import { api, can } from '../../../lib/session.js';
import { StatusTabs } from '../../../components/status-tabs.js';

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
      {list.error ? (
        <ErrorMessage message={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading />
      ) : list.data.data.length === 0 ? (
        status || customerId ? (
          <Empty
            title={status ? `No ${statusLabel(status).toLowerCase()} quotes` : 'No quotes for this customer'}
          >
            <p>
              <Link to={withQuery({ status: null, customer_id: null, page: null })}>Show every quote</Link>.
            </p>
          </Empty>
        ) : page > 1 ? (
          <Empty title={`There is no page ${page}`}>
            <p>
              <Link to={withQuery({ page: null })}>Go to the first page</Link>.
            </p>
          </Empty>
        ) : (
          <Empty title="No quotes yet">
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
          </Empty>
        )
      ) : (
        <>
          <QuoteTable
            caption={status ? `${statusLabel(status)} quotes` : 'Quotes'}
            rows={list.data.data}
            sort={sort}
          />
          <Pager
            page={page}
            total={list.data.pagination.total}
            totalPages={list.data.pagination.total_pages}
          />
        </>
      )}
    </>
  );
}
