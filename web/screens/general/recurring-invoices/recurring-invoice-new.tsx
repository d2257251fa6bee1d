import { useState } from 'preact/hooks';
import { general, unwrap } from '../../../../client/index.js';
import { RecordHeader } from '../../../components/record.js';
import {
  newSchedule,
  scheduleBody,
  ScheduleFields,
  type ScheduleDraft,
} from '../../../components/schedule.js';
import { today } from '../../../lib/format.js';
import { here, navigate } from '../../../lib/router.js';
import { api } from '../../../lib/api.js';
import { DocumentForm } from '../documents/form.js';

const RECURRING_INVOICES = { to: '/recurring-invoices', name: 'Recurring invoices' };

/**
 * A new recurring invoice: the customer, the schedule with its next dates as typed, whether each
 * invoice is mailed, and the lines every invoice is made with; saved, it opens.
 */
export default function RecurringInvoiceNew() {
  const [draft, setDraft] = useState<ScheduleDraft>(() => newSchedule(today()));
  const [autoSend, setAutoSend] = useState(false);
  return (
    <>
      <RecordHeader list={RECURRING_INVOICES} title="New recurring invoice" />
      <DocumentForm
        schema={general.CreateRecurringInvoiceBodySchema}
        customerId={here.value.query.get('customer_id') ?? undefined}
        dates={[]}
        extra={{
          fields: (errors) => (
            <>
              <ScheduleFields draft={draft} onDraft={setDraft} errors={errors} noun="invoice" />
              <label class="checkbox">
                <input
                  type="checkbox"
                  name="auto_send"
                  checked={autoSend}
                  onChange={(event) => setAutoSend(event.currentTarget.checked)}
                />{' '}
                Mail each invoice to the customer when it is made
              </label>
            </>
          ),
          body: () => ({ ...scheduleBody(draft), auto_send: autoSend }),
        }}
        saveLabel="Create recurring invoice"
        cancel="/recurring-invoices"
        save={async (body) =>
          (await unwrap(api.value.general.recurringInvoices.createRecurringInvoice({ body }))).data
        }
        onSaved={(saved) => navigate(`/recurring-invoices/${saved.id}`)}
      />
    </>
  );
}
