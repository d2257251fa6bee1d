import { contract, general } from '../../../../client/index.js';
import { ListPage } from '../../../components/list-page.js';
import { Link } from '../../../components/ui.js';
import { usePagedList } from '../../../lib/list-query.js';
import { apiSort, oneOf, sortOf } from '../../../lib/lists.js';
import { statusLabel } from '../../../lib/messages.js';
import { here } from '../../../lib/router.js';
import { api } from '../../../lib/api.js';
import { CreditNoteTable } from '../documents/tables.js';

/**
 * Credit notes by status (the URL's `status`), sorted and paged from the URL. They are made from the
 * invoice they credit, so the list has no button of its own to make one.
 */
export default function CreditNotes() {
  const query = here.value.query;
  const sort = sortOf(query, general.CREDIT_NOTE_SORT_FIELDS);
  const status = oneOf(query, 'status', general.CREDIT_NOTE_STATUSES);

  const filters = { sort: apiSort(sort), status };
  const list = usePagedList(
    20,
    (paging, page) =>
      api.value.general.creditNotes.listCreditNotes({ query: { page, limit: paging.limit, ...filters } }),
    (answer) => ({ rows: answer.data, total: answer.pagination.total }),
    [sort, status],
  );

  return (
    <ListPage
      title="Credit notes"
      export={{ route: contract.general.creditNotes.listCreditNotes, query: filters }}
      lead={
        <>
          A credit note gives back part or all of an issued invoice: open the{' '}
          <Link to="/invoices">invoice</Link> and choose Credit note.
        </>
      }
      tabs={{
        label: 'Credit note status',
        values: general.CREDIT_NOTE_STATUSES,
        names: statusLabel,
        current: status,
      }}
      list={list}
      filtered={{
        active: !!status,
        title: `No ${statusLabel(status ?? '').toLowerCase()} credit notes`,
        clear: ['status'],
        show: 'Show every credit note',
      }}
      empty={{
        title: 'No credit notes yet',
        children: <p>Credit notes made from invoices are listed here, numbered CN-000001 onwards.</p>,
      }}
    >
      {(rows) => (
        <CreditNoteTable
          caption={status ? `${statusLabel(status)} credit notes` : 'Credit notes'}
          rows={rows}
          sort={sort}
        />
      )}
    </ListPage>
  );
}
