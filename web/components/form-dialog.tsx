import type { ComponentChildren } from 'preact';
import type { Form } from '../lib/forms.js';
import { summaryOf } from '../lib/refusals.js';
import { Button, ErrorMessage } from './ui.js';

/** The foot of a dialog's form: the refusal in a line, Cancel, and the submit button (busy while sent). */
export function FormActions(props: {
  form: Pick<Form, 'message' | 'errors' | 'busy'>;
  submit: ComponentChildren;
  onCancel: () => void;
}) {
  return (
    <>
      <ErrorMessage message={summaryOf(props.form)} />
      <div class="dialog-actions">
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button type="submit" kind="primary" busy={props.form.busy}>
          {props.submit}
        </Button>
      </div>
    </>
  );
}

/**
 * A dialog's form: checked by the contract's schema rather than the browser, `onSubmit` sending it,
 * then FormActions with `submit` as the button's words.
 */
export function DialogForm(props: {
  form: Pick<Form, 'message' | 'errors' | 'busy'>;
  submit: ComponentChildren;
  onSubmit: () => void;
  onCancel: () => void;
  children: ComponentChildren;
}) {
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      {props.children}
      <FormActions form={props.form} submit={props.submit} onCancel={props.onCancel} />
    </form>
  );
}
