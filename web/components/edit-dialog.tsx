import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { ConfirmButton } from './confirm.js';
import { Button, Dialog, type Column } from './ui.js';

/**
 * A list whose rows are added and edited in a dialog (departments, products, vendors, the loyalty
 * program's tiers, rewards and reminders): the row in the dialog, the notice of what was done last,
 * the dialog itself, and the last column's Edit and Delete buttons (docs/decisions.md D243).
 */

interface Named {
  name: string;
}

/** The row in the dialog (`'new'` while adding one) and the notice saying what was done last. */
export function useEditing<T extends Named>() {
  const [editing, setEditing] = useState<T | 'new' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  return {
    editing,
    setEditing,
    notice,
    setNotice,
    close: () => setEditing(null),
    /** The row named `name` was saved: the dialog closes, says whether it was added, and the list reloads. */
    saved: (name: string, reload: () => void) => {
      setNotice(editing === 'new' ? `${name} was added.` : `${name} was saved.`);
      setEditing(null);
      reload();
    },
  };
}

export type Editing<T extends Named> = ReturnType<typeof useEditing<T>>;

/**
 * The dialog adding a row (titled `addTitle`) or editing one (titled by its name); its `form` is given
 * the row, or undefined for a new one. Closed while nothing is edited.
 */
export function EditDialog<T extends Named>(props: {
  state: Editing<T>;
  addTitle: string;
  form: (row: T | undefined) => ComponentChildren;
}) {
  const { editing, close } = props.state;
  return (
    <Dialog
      title={editing === 'new' ? props.addTitle : editing ? `Edit ${editing.name}` : ''}
      open={editing !== null}
      onClose={close}
    >
      {editing === null ? null : props.form(editing === 'new' ? undefined : editing)}
    </Dialog>
  );
}

/**
 * The last column of such a list, shown when it holds a button: what goes `before` the buttons (a
 * vendor's bills), Edit (for a role that may), and Delete, asked first (`remove`: the confirm
 * button's words, what the question says of the row, and the call; the notice says it was deleted).
 */
export function rowActions<T extends Named>(
  state: Editing<T>,
  props: {
    edit: boolean;
    before?: (row: T) => ComponentChildren;
    remove?: {
      label: string;
      words: (row: T) => ComponentChildren;
      send: (row: T) => Promise<unknown>;
      reload: () => void;
    };
  },
): Column<T>[] {
  const { edit, before, remove } = props;
  if (!edit && !remove && !before) return [];
  return [
    {
      label: 'Actions',
      render: (row) => (
        <div class="row-actions">
          {before?.(row)}
          {edit ? (
            <Button
              aria-label={`Edit ${row.name}`}
              onClick={() => {
                state.setNotice(null);
                state.setEditing(row);
              }}
            >
              Edit
            </Button>
          ) : null}
          {remove ? (
            <ConfirmButton
              label="Delete"
              title={`Delete ${row.name}?`}
              confirmLabel={remove.label}
              onConfirm={async () => {
                await remove.send(row);
                state.setNotice(`${row.name} was deleted.`);
                remove.reload();
              }}
            >
              {remove.words(row)}
            </ConfirmButton>
          ) : null}
        </div>
      ),
    },
  ];
}
