import { general, toMajor, toMinor, unwrap } from '../../../../client/index.js';
import { useLoad, type Load } from '../../../lib/forms.js';
import { money } from '../../../lib/format.js';
import { api, can } from '../../../lib/api.js';
import { Empty, ErrorMessage, Loading } from '../../../components/ui.js';
import { CreditNoteTable } from '../documents/tables.js';
import { PdfButton } from '../documents/delivery.js';
import { VoidCreditNoteButton, voidable } from './actions.js';

/** An invoice's credit notes on its screen, and what is left to credit on it. */

/** The most credit notes an invoice's screen lists (one page of the API). */
const MOST = 100;

export function useInvoiceCreditNotes(invoiceId: string): Load<general.CreditNote[]> {
  const load = useLoad(
    async () =>
      can('listCreditNotes')
        ? (
            await unwrap(
              api.value.general.creditNotes.listCreditNotes({
                query: { invoice_id: invoiceId, limit: MOST, sort: 'created_at:asc' },
              }),
            )
          ).data
        : [],
    [invoiceId],
  );
  return load;
}

/** The invoice's total less its credit notes' (void ones excepted), in major units; unknown while loading. */
export function leftToCredit(invoice: general.Invoice, notes: general.CreditNote[] | undefined) {
  if (!notes) return undefined;
  const { currency } = invoice;
  const credited = notes
    .filter((n) => n.status !== 'void')
    .reduce((sum, n) => sum + toMinor(n.total, currency), 0);
  return toMajor(toMinor(invoice.total, currency) - credited, currency);
}

export function InvoiceCreditNotes(props: {
  invoice: general.Invoice;
  notes: Load<general.CreditNote[]>;
  onVoided: (note: general.CreditNote) => void;
  onError: (message: string | null) => void;
}) {
  const { invoice, notes } = props;
  const rows = notes.data;
  if (!can('listCreditNotes') || (rows && rows.length === 0 && invoice.status === 'draft')) return null;
  return (
    <section aria-labelledby="invoice-credit-notes">
      <h2 id="invoice-credit-notes">Credit notes</h2>
      {notes.error ? (
        <ErrorMessage message={notes.error} onRetry={notes.reload} />
      ) : !rows ? (
        <Loading />
      ) : rows.length === 0 ? (
        <Empty title="No credit notes">
          <p>
            Credit notes give back part or all of {invoice.number}: off what is owed, refunded, or as credit
            for the next invoice.
          </p>
        </Empty>
      ) : (
        <>
          <CreditNoteTable
            caption={`Credit notes of ${invoice.number}`}
            rows={rows}
            showInvoice={false}
            actions={(note) => (
              <div class="row-actions">
                {can('getCreditNotePdf') ? (
                  <PdfButton
                    label={`${note.number} PDF`}
                    fetch={() => api.value.general.creditNotes.getCreditNotePdf({ params: { id: note.id } })}
                    fallbackName={`${note.number}.pdf`}
                    onError={props.onError}
                  />
                ) : null}
                {voidable(note) ? (
                  <VoidCreditNoteButton note={note} label={`Void ${note.number}`} onVoided={props.onVoided} />
                ) : null}
              </div>
            )}
          />
          <p class="hint">
            {money(leftToCredit(invoice, rows) ?? 0, invoice.currency)} of{' '}
            {money(invoice.total, invoice.currency)} is left to credit.
          </p>
        </>
      )}
    </section>
  );
}
