import { useState } from 'preact/hooks';
import { auth } from '../../../client/auth.js';
import { unwrap } from '../../../client/transport.js';
import { Button, Link, Notice } from '../../components/ui.js';
import { useForm } from '../../lib/forms.js';
import { authApi } from '../../lib/session.js';
import { AuthForm, AuthPage, EmailField } from './auth-page.js';

/**
 * Asks for a password reset link. The service answers the same whether or not the address has an
 * account, and so does this screen.
 */
export default function ForgotPassword() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const form = useForm();

  const submit = (event: Event) => {
    event.preventDefault();
    void form.submit(auth.ForgotPasswordBodySchema, { email }, async (body) => {
      await unwrap(authApi.value.auth.forgotPassword({ body }));
      setSent(true);
    });
  };

  const remembered = (
    <p>
      Remembered it? <Link to="/">Sign in</Link>.
    </p>
  );
  if (sent) {
    return (
      <AuthPage title="Check your mail">
        <Notice kind="success">
          <p>
            If an account exists for <strong>{email}</strong>, we have sent a link to choose a new password.
            It is valid for 1 hour.
          </p>
        </Notice>
        <p>Nothing after a few minutes? Check the spam folder, or ask again.</p>
        <p>
          <Button onClick={() => setSent(false)}>Ask again</Button>
        </p>
        {remembered}
      </AuthPage>
    );
  }

  return (
    <AuthPage title="Forgot your password?">
      <p>Enter the email you sign in with and we will mail you a link to choose a new password.</p>
      <AuthForm form={form} onSubmit={submit} submitLabel="Send the link">
        <EmailField value={email} onValue={setEmail} error={form.errors.email} />
      </AuthForm>
      {remembered}
    </AuthPage>
  );
}
