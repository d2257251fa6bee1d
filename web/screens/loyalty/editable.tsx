import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import type { ZodType, ZodTypeDef } from 'zod';
import { ConfirmDialog } from '../../components/confirm.js';
import { DialogForm } from '../../components/form-dialog.js';
import { EditDialog, useEditing } from '../../components/edit-dialog.js';
import { Button, TextArea, type Column } from '../../components/ui.js';
import type { Form } from '../../lib/forms.js';
import { oneOf } from '../../lib/lists.js';
import { here } from '../../lib/router.js';

/**
 * What the loyalty lists one edits in place share (tiers, rewards, service reminders), besides the
 * add-or-edit dialog every such list has (`web/components/edit-dialog.tsx`): the row asked about
 * before it is deleted, a last column of Edit and Delete buttons (each named for the row to a screen
 * reader), shown to a role that may use one of them, the form and the question before deleting, and
 * the tabs showing the active rows or the others.
 */

interface Row {
  publicId: string;
  name: string;
}

/** The row in the form (`'new'` while adding one), the row asked about, and what was done last. */
export function useRowEditing<T extends Row>() {
  const editing = useEditing<T>();
  const [deleting, setDeleting] = useState<T | null>(null);
  return { ...editing, deleting, setDeleting };
}

export function actionsColumn<T extends Row>(props: {
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

/** A schema and the call sending what it checked (to the row edited, named by its id). */
type Send<B> = [
  schema: ZodType<B, ZodTypeDef, unknown>,
  send: (body: B, publicId: string) => Promise<unknown>,
];

/**
 * Sends a row's form: `update` for the row edited, `create` for a new one (`row` null). Resolves as
 * `form.submit` does: undefined when refused.
 */
export function saveRow<C, U>(
  form: Form,
  row: Row | null,
  input: unknown,
  create: Send<C>,
  update: Send<U>,
): Promise<unknown> {
  if (!row) return form.submit(create[0], input, (body) => create[1](body, ''));
  return form.submit(update[0], input, (body) => update[1](body, row.publicId));
}

/**
 * A row's form in its dialog: Add or Save `noun`, then its fields, and for a row members see, its
 * description and the box saying whether it is active.
 */
export function RowForm(props: {
  form: Form;
  noun: string;
  adding: boolean;
  onCancel: () => void;
  onSubmit: () => void;
  described?: {
    description: Omit<Parameters<typeof TextArea>[0], 'label'>;
    active: boolean;
    setActive: (active: boolean) => void;
    /** The box's words ("Offered to members"). */
    words: string;
  };
  children: ComponentChildren;
}) {
  const { described } = props;
  return (
    <DialogForm
      form={props.form}
      submit={`${props.adding ? 'Add' : 'Save'} ${props.noun}`}
      onCancel={props.onCancel}
      onSubmit={props.onSubmit}
    >
      {props.children}
      {described ? (
        <>
          <TextArea {...described.description} label="Description" />
          <label class="checkbox">
            <input
              type="checkbox"
              checked={described.active}
              onChange={(e) => described.setActive(e.currentTarget.checked)}
            />
            {described.words}
          </label>
        </>
      ) : null}
    </DialogForm>
  );
}

/**
 * The dialogs of a list edited in place: the one adding a row (`editing` is 'new') or editing one,
 * whose `form` says when it is saved (closing it, with a notice naming the row), and the question
 * before deleting one (`remove` deletes it).
 */
export function RowDialogs<T extends Row>(props: {
  state: ReturnType<typeof useRowEditing<T>>;
  reload: () => void;
  addTitle: string;
  form: (row: T | null, saved: (name: string) => void, cancel: () => void) => ComponentChildren;
  remove: {
    title?: (row: T) => string;
    label: string;
    words: ComponentChildren;
    send: (publicId: string) => Promise<unknown>;
  };
}) {
  const { state, remove } = props;
  const { deleting, setDeleting } = state;
  return (
    <>
      <EditDialog
        state={state}
        addTitle={props.addTitle}
        form={(row) => props.form(row ?? null, (name) => state.saved(name, props.reload), state.close)}
      />
      {deleting ? (
        <ConfirmDialog
          open
          title={remove.title?.(deleting) ?? `Delete ${deleting.name}?`}
          confirmLabel={remove.label}
          onClose={() => setDeleting(null)}
          onConfirm={async () => {
            await remove.send(deleting.publicId);
            state.setNotice(`${deleting.name} was deleted.`);
            props.reload();
          }}
        >
          {remove.words}
        </ConfirmDialog>
      ) : null}
    </>
  );
}

/**
 * The tabs showing the rows that are active or those that are not (`param` is yes or no), the API's
 * filter they make, and what an empty list says under each.
 */
export function activeFilter(
  param: string,
  words: { label: string; yes: string; no: string; noneYes: string; noneNo: string; show: string },
) {
  const shown = oneOf(here.value.query, param, ['yes', 'no'] as const);
  const query = { isActive: shown === undefined ? undefined : shown === 'yes' ? 'true' : 'false' } as const;
  return {
    shown,
    query,
    tabs: {
      label: words.label,
      param,
      values: ['yes', 'no'],
      names: { yes: words.yes, no: words.no },
      current: shown,
    },
    filtered: {
      active: !!shown,
      title: shown === 'yes' ? words.noneYes : words.noneNo,
      clear: [param],
      show: words.show,
    },
  };
}

/** A row's name with its description below it. */
export function nameColumn<T extends Row & { description: string | null }>(label: string): Column<T> {
  return {
    label,
    render: (r) => (
      <>
        {r.name}
        {r.description ? <small class="hint block">{r.description}</small> : null}
      </>
    ),
  };
}
