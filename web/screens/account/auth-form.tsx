import type { ComponentChildren } from 'preact';
import { Button, ErrorMessage, Field } from '../../components/ui.js';
import type { Form } from '../../lib/forms.js';

/**
 * A signed-out page's form: checked by the contract's schema rather than the browser, the refusal as
 * the service words it (or `message`) under its fields, then its one button.
 */
export function AuthForm(props: {
  form: Pick<Form, 'message' | 'busy'>;
  submit: ComponentChildren;
  onSubmit: () => void;
  message?: string | null;
  disabled?: boolean;
  children: ComponentChildren;
}) {
  const { form } = props;
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        props.onSubmit();
      }}
    >
      {props.children}
      <ErrorMessage message={props.message === undefined ? form.message : props.message} />
      <Button type="submit" kind="primary" busy={form.busy} disabled={props.disabled}>
        {props.submit}
      </Button>
    </form>
  );
}

/** The email a person signs in with. */
export function EmailField(props: {
  label?: string;
  value: string;
  onValue: (value: string) => void;
  error?: string;
}) {
  return (
    <Field
      label={props.label ?? 'Email'}
      name="email"
      type="email"
      autoComplete="username"
      value={props.value}
      onValue={props.onValue}
      error={props.error}
      required
    />
  );
}

/** A password being chosen, with the service's rule for it (`hint` when there is more to say). */
export function NewPasswordField(props: {
  label: string;
  value: string;
  onValue: (value: string) => void;
  error?: string;
  hint?: string;
}) {
  return (
    <Field
      label={props.label}
      name="password"
      type="password"
      autoComplete="new-password"
      hint={props.hint ?? '12 characters or more.'}
      value={props.value}
      onValue={props.onValue}
      error={props.error}
      required
    />
  );
}
