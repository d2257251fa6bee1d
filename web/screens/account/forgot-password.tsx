import { useState } from 'preact/hooks';
import { auth, unwrap } from '../../../client/index.js';
import { Button, Link, Notice } from '../../components/ui.js';
import { AuthForm, EmailField } from './auth-form.js';
import { useForm } from '../../lib/forms.js';
import { api } from '../../lib/session.js';

/**
 * Asks for a password reset link. The service answers the same whether or not the address has an
 * account, and so does this screen.
 */
export default function ForgotPassword() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const form = useForm();

  const submit = () => {
    void form.submit(auth.ForgotPasswordBodySchema, { email }, async (body) => {
      await unwrap(api.value.auth.forgotPassword({ body }));
      setSent(true);
    });
  };

  if (sent) {
    return (
      <main id="main" class="auth-page">
        <h1>Check your mail</h1>
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
        <p>
          Remembered it? <Link to="/">Sign in</Link>.
        </p>
      </main>
    );
  }

  return (
    <main id="main" class="auth-page">
      <h1>Forgot your password?</h1>
      <p>Enter the email you sign in with and we will mail you a link to choose a new password.</p>
      <AuthForm form={form} submit="Send the link" onSubmit={submit}>
        <EmailField value={email} onValue={setEmail} error={form.errors.email} />
      </AuthForm>
      <p>
        Remembered it? <Link to="/">Sign in</Link>.
      </p>
    </main>
  );
}
