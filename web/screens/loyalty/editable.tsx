import type { ComponentChildren } from 'preact';
import { Button, Dialog, type Column } from '../../components/ui.js';

/**
 * What the loyalty lists one edits in place share (tiers, rewards, service reminders): a last column of
 * Edit and Delete buttons (each named for the row to a screen reader), shown to a role that may use
 * one of them, and the dialog that adds or edits a row.
 */

export function actionsColumn<T extends { name: string }>(props: {
  show: boolean;
  onEdit?: (row: T) => void;
  onDelete?: (row: T) => void;
  /** Buttons before Edit (a reminder's Record service). */
  before?: (row: T) => ComponentChildren;
}): Column<T>[] {
  if (!props.show) return [];
  const { onEdit, onDelete, before } = props;
  return [
    {
      label: 'Actions',
      render: (row: T) => (
        <div class="row-actions">
          {before?.(row)}
          {onEdit ? (
            <Button onClick={() => onEdit(row)}>
              Edit<span class="visually-hidden"> {row.name}</span>
            </Button>
          ) : null}
          {onDelete ? (
            <Button kind="danger" onClick={() => onDelete(row)}>
              Delete<span class="visually-hidden"> {row.name}</span>
            </Button>
          ) : null}
        </div>
      ),
    },
  ];
}

/** The dialog adding a row (`editing` is 'new') or editing one; closed while `editing` is null. */
export function EditDialog<T extends { name: string }>(props: {
  editing: T | 'new' | null;
  addTitle: string;
  onClose: () => void;
  children: ComponentChildren;
}) {
  const { editing } = props;
  return (
    <Dialog
      title={editing === 'new' ? props.addTitle : editing ? `Edit ${editing.name}` : ''}
      open={editing !== null}
      onClose={props.onClose}
    >
      {props.children}
    </Dialog>
  );
}
