import type { ComponentChildren } from 'preact';
import { useDraft, useForm, type Form } from '../lib/forms.js';
import { summaryOf } from '../lib/refusals.js';
import { Button, Dialog, ErrorMessage } from './ui.js';

type FormState = Pick<Form, 'message' | 'errors' | 'busy'>;

interface ActionsProps {
  form: FormState;
  /** The submit button's words. */
  submit: ComponentChildren;
  onCancel: () => void;
  /** The submit button's kind: primary unless told (danger for one that removes). */
  kind?: 'primary' | 'danger';
  /** The line shown above the buttons: the form's summary of its refusal unless told. */
  message?: string | null;
}

/** The foot of a dialog's form: the refusal in a line, Cancel, and the submit button (busy while sent). */
export function FormActions(props: ActionsProps) {
  const { form } = props;
  return (
    <>
      <ErrorMessage message={props.message === undefined ? summaryOf(form) : props.message} />
      <div class="dialog-actions">
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button type="submit" kind={props.kind ?? 'primary'} busy={form.busy}>
          {props.submit}
        </Button>
      </div>
    </>
  );
}

type DialogFormProps = ActionsProps & {
  onSubmit: () => void;
  class?: string;
  children: ComponentChildren;
};

/**
 * A dialog's form: checked by the contract's schema rather than the browser, `onSubmit` sending it,
 * then FormActions with `submit` as the button's words.
 */
export function DialogForm(props: DialogFormProps) {
  const { onSubmit, children, class: className, ...actions } = props;
  return (
    <form
      class={className}
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
      <FormActions {...actions} />
    </form>
  );
}

/** A dialog that is one form: Cancel and Escape both close it through `onClose`. */
export function FormDialog(
  props: { title: string; open: boolean; onClose: () => void } & Omit<DialogFormProps, 'onCancel'>,
) {
  const { title, open, onClose, ...form } = props;
  return (
    <Dialog title={title} open={open} onClose={onClose}>
      <DialogForm {...form} onCancel={onClose} />
    </Dialog>
  );
}

/**
 * The state of a FormDialog whose fields are a draft: closing clears the draft and the refusal, so the
 * dialog opens empty again, and `send` (the form's submit of the draft) closes it once answered, after
 * `onDone` has the answer. `dialog` is what FormDialog takes besides its title and submit words.
 */
export function useDraftDialog<D extends object, T>(options: {
  open: boolean;
  onClose: () => void;
  initial: () => D;
  send: (draft: D, form: Form) => Promise<T | undefined>;
  onDone?: (answer: T) => void;
}) {
  const form = useForm();
  const { draft, setDraft, set, bind } = useDraft(options.initial);
  const close = () => {
    form.clear();
    setDraft(options.initial());
    options.onClose();
  };
  const onSubmit = () => {
    void options.send(draft, form).then((answer) => {
      if (answer === undefined) return;
      options.onDone?.(answer);
      close();
    });
  };
  const dialog = { open: options.open, onClose: close, form, message: form.message, onSubmit };
  return {
    draft,
    set,
    bind: (key: Parameters<typeof bind>[0]) => bind(key, form.errors),
    form,
    dialog,
  };
}
