import { useState } from 'preact/hooks';
import { contract, general, unwrap } from '../../../../client/index.js';
import { CustomerForm } from './customer-form.js';
import { ExportButton } from '../../../components/csv.js';
import { Button, Dialog, Empty, ErrorMessage, Link, Loading, Notice, Pager } from '../../../components/ui.js';
import { date, dateTime, money } from '../../../lib/format.js';
import { useLoad } from '../../../lib/forms.js';
import { apiSort, pageOf, sortOf } from '../../../lib/lists.js';
import { here } from '../../../lib/router.js';
import { api, can } from '../../../lib/api.js';
import { allowed } from '../../../lib/session.js';
import type { ScreenProps } from '../../../lib/screen.js';
import { InvoiceTable } from '../documents/tables.js';
import { DeleteRecordButton, RecordHeader, RecordUnavailable } from '../../../components/record.js';

const CUSTOMERS = { to: '/customers', name: 'Customers' };

/** One customer: contact details, credit balance, edit and delete, and the invoices made out to them. */

function addressLines(address: general.Customer['address']): string[] {
  if (!address) return [];
  const town = [address.postal_code, address.city].filter(Boolean).join(' ');
  return [address.line1, address.line2, town, address.state, address.country].filter((line): line is string =>
    Boolean(line),
  );
}

function Invoices(props: { customer: general.Customer }) {
  const page = pageOf(here.value.query);
  const sort = sortOf(here.value.query, general.INVOICE_SORT_FIELDS);
  const list = useLoad(
    () =>
      unwrap(
        api.value.general.invoices.listInvoices({
          query: { customer_id: props.customer.id, page, limit: 10, sort: apiSort(sort) },
        }),
      ),
    [props.customer.id, page, sort],
  );
  return (
    <section aria-labelledby="customer-invoices">
      <div class="section-header">
        <h2 id="customer-invoices">Invoices</h2>
        <div class="actions">
          <ExportButton
            route={contract.general.invoices.listInvoices}
            query={{ customer_id: props.customer.id, sort: apiSort(sort) }}
            what={`the invoices of ${props.customer.name}`}
          />
          {can('createInvoice') ? (
            <Link
              class="button secondary"
              to={`/invoices/new?customer_id=${encodeURIComponent(props.customer.id)}`}
            >
              New invoice for {props.customer.name}
            </Link>
          ) : null}
        </div>
      </div>
      {list.error ? (
        <ErrorMessage message={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading />
      ) : list.data.data.length === 0 ? (
        <Empty title="No invoices yet">
          <p>Invoices made out to {props.customer.name} will be listed here.</p>
        </Empty>
      ) : (
        <>
          <InvoiceTable
            caption={`Invoices of ${props.customer.name}`}
            rows={list.data.data}
            showCustomer={false}
          />
          <Pager
            page={page}
            total={list.data.pagination.total}
            totalPages={list.data.pagination.total_pages}
          />
        </>
      )}
    </section>
  );
}

export default function Customer({ params }: ScreenProps) {
  const id = params.id!;
  const load = useLoad(() => unwrap(api.value.general.customers.getCustomer({ params: { id } })), [id]);
  const [editing, setEditing] = useState(false);
  const [saved, setSaved] = useState(false);
  const [current, setCurrent] = useState<general.Customer | null>(null);

  if (load.error || !load.data) {
    return <RecordUnavailable load={load} title="Customer" list={CUSTOMERS} />;
  }
  const customer = current && current.id === id ? current : load.data.data;
  const address = addressLines(customer.address);
  const attributes = Object.entries(customer.attributes);
  // Credit notes' customer credit, by currency: taken off their next invoice in it when issued.
  const credit = Object.entries(customer.credit_balance).sort(([a], [b]) => a.localeCompare(b));

  return (
    <>
      <RecordHeader list={CUSTOMERS} title={customer.name}>
        {can('getCustomerStatement') ? (
          <Link class="button secondary" to={`/customers/${id}/statement`}>
            Statement
          </Link>
        ) : null}
        {can('updateCustomer') ? (
          <Button
            onClick={() => {
              setSaved(false);
              setEditing(true);
            }}
          >
            Edit
          </Button>
        ) : null}
        {can('deleteCustomer') ? (
          <DeleteRecordButton
            list={CUSTOMERS}
            label="Delete"
            confirmLabel="Delete customer"
            title={`Delete ${customer.name}?`}
            remove={() => unwrap(api.value.general.customers.deleteCustomer({ params: { id } }))}
          >
            <p>
              The customer and their contact details are removed. A customer with invoices or a loyalty
              membership cannot be deleted.
            </p>
          </DeleteRecordButton>
        ) : null}
      </RecordHeader>
      {saved ? <Notice kind="success">Changes saved.</Notice> : null}
      <section class="panel" aria-labelledby="customer-details">
        <h2 id="customer-details">Details</h2>
        <dl class="facts">
          <dt>Email</dt>
          <dd>{customer.email ? <a href={`mailto:${customer.email}`}>{customer.email}</a> : '—'}</dd>
          <dt>Phone</dt>
          <dd>{customer.phone ?? '—'}</dd>
          <dt>Company</dt>
          <dd>{customer.company ?? '—'}</dd>
          <dt>Address</dt>
          <dd>
            {address.length === 0
              ? '—'
              : address.map((line, i) => (
                  <span key={i} class="line">
                    {line}
                  </span>
                ))}
          </dd>
          <dt>Credit balance</dt>
          <dd data-credit-balance="">
            {credit.length === 0
              ? 'None'
              : credit.map(([currency, amount]) => (
                  <span key={currency} class="line">
                    {money(amount, currency)}
                  </span>
                ))}
          </dd>
          <dt>Marketing email</dt>
          <dd>{customer.unsubscribed ? 'Opted out' : 'Subscribed'}</dd>
          {attributes.length > 0 ? (
            <>
              <dt>Attributes</dt>
              <dd>
                {attributes.map(([key, value]) => (
                  <span key={key} class="line">
                    <code>{key}</code>: {value}
                  </span>
                ))}
              </dd>
            </>
          ) : null}
          <dt>Added</dt>
          <dd>{date(customer.created_at)}</dd>
          <dt>Last changed</dt>
          <dd>{dateTime(customer.updated_at)}</dd>
        </dl>
      </section>
      {allowed('sales.read') ? <Invoices customer={customer} /> : null}
      <Dialog title={`Edit ${customer.name}`} open={editing} onClose={() => setEditing(false)}>
        <CustomerForm
          customer={customer}
          onCancel={() => setEditing(false)}
          onSaved={(next) => {
            setCurrent(next);
            setEditing(false);
            setSaved(true);
          }}
        />
      </Dialog>
    </>
  );
}
