import { general, unwrap } from '../../../../client/index.js';
import { today } from '../../../lib/format.js';
import { addDays } from '../../../lib/lines.js';
import { here, navigate } from '../../../lib/router.js';
import { api } from '../../../lib/api.js';
import { DocumentForm, VALID_UNTIL_HINT } from '../documents/form.js';
import { RecordHeader } from '../../../components/record.js';

const QUOTES = { to: '/quotes', name: 'Quotes' };

/** A new draft quote; saved, it opens so it can be sent. */
export default function QuoteNew() {
  return (
    <>
      <RecordHeader list={QUOTES} title="New quote" />
      <DocumentForm
        schema={general.CreateQuoteBodySchema}
        customerId={here.value.query.get('customer_id') ?? undefined}
        dates={[
          {
            key: 'valid_until',
            label: 'Valid until',
            initial: addDays(today(), 30),
            hint: VALID_UNTIL_HINT,
          },
        ]}
        saveLabel="Save draft"
        cancel="/quotes"
        save={async (body) => (await unwrap(api.value.general.quotes.createQuote({ body }))).data}
        onSaved={(quote) => navigate(`/quotes/${quote.id}`)}
      />
    </>
  );
}
