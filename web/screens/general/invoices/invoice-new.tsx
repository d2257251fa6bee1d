import { general, unwrap } from '../../../../client/index.js';
import { today } from '../../../lib/format.js';
import { addDays } from '../../../lib/lines.js';
import { here, navigate } from '../../../lib/router.js';
import { api } from '../../../lib/api.js';
import { DocumentForm, ISSUE_DATE_HINT } from '../documents/form.js';
import { RecordHeader } from '../../../components/record.js';

const INVOICES = { to: '/invoices', name: 'Invoices' };

/** A new draft invoice; saved, it opens so it can be checked and issued. */
export default function InvoiceNew() {
  return (
    <>
      <RecordHeader list={INVOICES} title="New invoice" />
      <DocumentForm
        schema={general.CreateInvoiceBodySchema}
        customerId={here.value.query.get('customer_id') ?? undefined}
        dates={[
          {
            key: 'issue_date',
            label: 'Issue date',
            initial: '',
            hint: ISSUE_DATE_HINT,
          },
          { key: 'due_date', label: 'Due date', initial: addDays(today(), 30) },
        ]}
        saveLabel="Save draft"
        cancel="/invoices"
        save={async (body) => (await unwrap(api.value.general.invoices.createInvoice({ body }))).data}
        onSaved={(invoice) => navigate(`/invoices/${invoice.id}`)}
      />
    </>
  );
}
