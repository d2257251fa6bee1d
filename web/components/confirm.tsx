import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { describeError } from '../lib/forms.js';
import { Button, Dialog, ErrorMessage } from './ui.js';

/**
 * A button that asks before an action that cannot be undone (delete, void). The service's refusal
 * (a customer with invoices, an invoice with payments) is shown in the dialog as it says it.
 */
export function ConfirmButton(props: {
  label: string;
  title: string;
  confirmLabel: string;
  children: ComponentChildren;
  onConfirm: () => Promise<unknown>;
  kind?: 'danger' | 'secondary';
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setOpen(false);
    setError(null);
  };
  const confirm = () => {
    setBusy(true);
    setError(null);
    props.onConfirm().then(
      () => {
        setBusy(false);
        setOpen(false);
      },
      (err: unknown) => {
        setBusy(false);
        setError(describeError(err).message);
      },
    );
  };
  return (
    <>
      <Button kind={props.kind ?? 'danger'} onClick={() => setOpen(true)}>
        {props.label}
      </Button>
      <Dialog title={props.title} open={open} onClose={close}>
        <div class="dialog-body">{props.children}</div>
        <ErrorMessage message={error} />
        <div class="dialog-actions">
          <Button onClick={close}>{error ? 'Close' : 'Cancel'}</Button>
          {error ? null : (
            <Button kind="danger" busy={busy} onClick={confirm}>
              {props.confirmLabel}
            </Button>
          )}
        </div>
      </Dialog>
    </>
  );
}
