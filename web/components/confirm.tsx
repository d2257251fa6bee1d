import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { useAction } from '../lib/action.js';
import { Button, Dialog, ErrorMessage } from './ui.js';

/**
 * Asks before an action that cannot be undone (delete, void, revoke). `onConfirm` resolves when done
 * (the dialog closes) or rejects with the service's refusal, shown in the dialog as it says it: then
 * the dialog offers the action again, or only Close when `final` (a refusal that asking again would
 * not change: a customer with invoices, an invoice with payments).
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  confirmLabel: string;
  children: ComponentChildren;
  onConfirm: () => Promise<unknown>;
  onClose: () => void;
  kind?: 'primary' | 'danger';
  final?: boolean;
  /** The words of the button that closes without acting (Cancel unless told). */
  cancelLabel?: string;
}) {
  const action = useAction();
  const close = () => {
    action.clear();
    props.onClose();
  };
  const refused = props.final && action.error !== null;
  return (
    <Dialog title={props.title} open={props.open} onClose={close}>
      <div class="dialog-body">{props.children}</div>
      <ErrorMessage message={action.error} />
      <div class="dialog-actions">
        <Button onClick={close}>{refused ? 'Close' : (props.cancelLabel ?? 'Cancel')}</Button>
        {refused ? null : (
          <Button
            kind={props.kind ?? 'danger'}
            busy={action.busy}
            onClick={() => void action.run(props.onConfirm, props.onClose)}
          >
            {props.confirmLabel}
          </Button>
        )}
      </div>
    </Dialog>
  );
}

/** A button that opens a ConfirmDialog (whose refusal is final) before its action. */
export function ConfirmButton(props: {
  label: string;
  title: string;
  confirmLabel: string;
  children: ComponentChildren;
  onConfirm: () => Promise<unknown>;
  kind?: 'danger' | 'secondary';
}) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button kind={props.kind ?? 'danger'} onClick={() => setOpen(true)}>
        {props.label}
      </Button>
      <ConfirmDialog
        open={open}
        title={props.title}
        confirmLabel={props.confirmLabel}
        onConfirm={props.onConfirm}
        onClose={() => setOpen(false)}
        final
      >
        {props.children}
      </ConfirmDialog>
    </>
  );
}
