import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { describeError } from '../lib/forms.js';
import { Button, Dialog, ErrorMessage } from './ui.js';

/** Settings' small pieces: a copy button for a value shown on the page, and a confirmation dialog. */

/** Copies `value`; `what` completes its name for screen readers ("Copy the DKIM record's value"). */
export function CopyButton(props: { value: string; what: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      class="button secondary small"
      onClick={() => {
        void navigator.clipboard?.writeText(props.value).then(
          () => {
            setCopied(true);
            setTimeout(() => setCopied(false), 2000);
          },
          () => setCopied(false),
        );
      }}
    >
      {copied ? 'Copied' : 'Copy'}
      <span class="visually-hidden"> {props.what}</span>
    </Button>
  );
}

/**
 * Asks before an action that cannot be undone. `onConfirm` resolves when done (the dialog closes) or
 * rejects with a message shown in the dialog.
 */
export function ConfirmDialog(props: {
  open: boolean;
  title: string;
  confirmLabel: string;
  children: ComponentChildren;
  onConfirm: () => Promise<void>;
  onClose: () => void;
  kind?: 'primary' | 'danger';
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    props.onClose();
  };
  return (
    <Dialog title={props.title} open={props.open} onClose={close}>
      <div class="dialog-body">{props.children}</div>
      <ErrorMessage message={error} />
      <div class="dialog-actions">
        <Button onClick={close}>Cancel</Button>
        <Button
          kind={props.kind ?? 'danger'}
          busy={busy}
          onClick={() => {
            setBusy(true);
            setError(null);
            props.onConfirm().then(
              () => {
                setBusy(false);
                props.onClose();
              },
              (err: unknown) => {
                setBusy(false);
                setError(describeError(err).message);
              },
            );
          }}
        >
          {props.confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
