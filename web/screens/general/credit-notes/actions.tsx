import { general, unwrap } from '../../../../client/index.js';
import { ConfirmButton } from '../../../components/confirm.js';
import { money } from '../../../lib/format.js';
import { api, can } from '../../../lib/api.js';

/**
 * Voiding a credit note, from its own screen or its invoice's: offered while it is issued and has no
 * refund; the service still refuses one whose customer credit was spent, and says so in the dialog.
 */

export const voidable = (note: general.CreditNote): boolean =>
  note.status === 'issued' && note.refund_amount === 0 && can('voidCreditNote');

export function VoidCreditNoteButton(props: {
  note: general.CreditNote;
  /** The button's words: Void unless told (a row of a table names its credit note). */
  label?: string;
  onVoided: (note: general.CreditNote) => void;
}) {
  const { note } = props;
  return (
    <ConfirmButton
      label={props.label ?? 'Void'}
      title={`Void credit note ${note.number}?`}
      confirmLabel="Void credit note"
      onConfirm={async () => {
        const voided = (
          await unwrap(api.value.general.creditNotes.voidCreditNote({ params: { id: note.id } }))
        ).data;
        props.onVoided(voided);
      }}
    >
      <p>
        Its postings are reversed today and {note.invoice_number} owes again the{' '}
        {money(note.credit_amount, note.currency)} it took off
        {note.customer_credit_amount > 0
          ? `; the ${money(note.customer_credit_amount, note.currency)} it added to the customer's credit is taken back out`
          : ''}
        . A void credit note keeps its number.
      </p>
    </ConfirmButton>
  );
}
