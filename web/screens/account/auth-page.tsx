import type { ComponentChildren } from 'preact';
import type { Form } from '../../lib/forms.js';
import { Button, ErrorMessage, Field } from '../../components/ui.js';

/**
 * The pages before sign-in (sign in, register, forgot and reset a password, a second factor): a page
 * of its own with a heading, one form with one button, and the fields they ask alike.
 */

export function AuthPage(props: { title: string; children: ComponentChildren }) {
  return (
    <main id="main" class="auth-page">
      <h1>{props.title}</h1>
      {props.children}
    </main>
  );
}

/** The form of such a page: its fields, then the refusal (`message`, the form's own by default) and the button. */
export function AuthForm(props: {
  form: Form;
  onSubmit: (event: Event) => void;
  submitLabel: string;
  message?: string | null;
  disabled?: boolean;
  children: ComponentChildren;
}) {
  return (
    <form onSubmit={props.onSubmit} noValidate>
      {props.children}
      <ErrorMessage message={props.message === undefined ? props.form.message : props.message} />
      <Button type="submit" kind="primary" busy={props.form.busy} disabled={props.disabled}>
        {props.submitLabel}
      </Button>
    </form>
  );
}

interface TextProps {
  label?: string;
  value: string;
  onValue: (value: string) => void;
  error?: string;
}

/** The email a person signs in with. */
export const EmailField = (props: TextProps) => (
  <Field
    name="email"
    type="email"
    autoComplete="username"
    required
    {...props}
    label={props.label ?? 'Email'}
  />
);

/** A password: the one a person has (`current`), or a new one, with the service's rule as its hint. */
export const PasswordField = ({
  current,
  ...props
}: TextProps & { current?: boolean; name?: string; hint?: string }) => (
  <Field
    name="password"
    type="password"
    autoComplete={current ? 'current-password' : 'new-password'}
    hint={current ? undefined : NEW_PASSWORD_RULE}
    required
    {...props}
    label={props.label ?? 'Password'}
  />
);

export const NEW_PASSWORD_RULE = '12 characters or more.';

/** The code of a second factor: six digits from an authenticator app, or a recovery code. */
export const CodeField = (props: TextProps) => (
  <Field
    name="code"
    autoComplete="one-time-code"
    inputMode="numeric"
    required
    {...props}
    label={props.label ?? 'Code'}
  />
);
