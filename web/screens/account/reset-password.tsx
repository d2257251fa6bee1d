import { useState } from 'preact/hooks';
import { auth } from '../../../client/auth.js';
import { unwrap } from '../../../client/transport.js';
import { Link, Notice } from '../../components/ui.js';
import { useForm } from '../../lib/forms.js';
import { authApi, expired, session } from '../../lib/session.js';
import { AuthForm, AuthPage, PasswordField } from './auth-page.js';

/**
 * The page a reset mail links to: the token rides in the URL's fragment (never sent to a server),
 * is read once and taken out of the address bar and history.
 */
function takeToken(): string {
  const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? '';
  if (location.hash) history.replaceState(history.state, '', location.pathname + location.search);
  return token;
}

export default function ResetPassword() {
  const [token] = useState(takeToken);
  const [password, setPassword] = useState('');
  const [confirmation, setConfirmation] = useState('');
  const [mismatch, setMismatch] = useState<string | undefined>(undefined);
  const [done, setDone] = useState(false);
  const form = useForm();

  const submit = (event: Event) => {
    event.preventDefault();
    if (password !== confirmation) {
      form.clear();
      setMismatch('The two passwords differ: type the same one twice.');
      return;
    }
    setMismatch(undefined);
    void form.submit(auth.ResetPasswordBodySchema, { token, password }, async (body) => {
      await unwrap(authApi.value.auth.resetPassword({ body }));
      // The reset ended every session, this tab's too.
      if (session.value) expired();
      setDone(true);
    });
  };

  if (done) {
    return (
      <AuthPage title="Password changed">
        <Notice kind="success">
          <p>Your new password is set, and you were signed out everywhere.</p>
        </Notice>
        <p>
          <Link to="/" class="button primary">
            Sign in with the new password
          </Link>
        </p>
      </AuthPage>
    );
  }

  const linkRefused = form.errors.token !== undefined || !token;
  return (
    <AuthPage title="Choose a new password">
      {linkRefused ? (
        <div class="message error" role="alert">
          <p>
            {token
              ? 'This link has expired or was already used. Links work once, for 1 hour.'
              : 'This page needs the link from the password reset mail.'}
          </p>
          <p>
            <Link to="/forgot-password">Ask for a new link</Link>
          </p>
        </div>
      ) : null}
      <AuthForm
        form={form}
        onSubmit={submit}
        submitLabel="Set the new password"
        message={linkRefused || form.errors.password ? null : form.message}
        disabled={!token}
      >
        <PasswordField
          label="New password"
          value={password}
          onValue={setPassword}
          error={form.errors.password}
        />
        <PasswordField
          label="New password again"
          name="confirmation"
          hint=""
          value={confirmation}
          onValue={setConfirmation}
          error={mismatch}
        />
      </AuthForm>
      <p>
        Remembered it? <Link to="/">Sign in</Link>.
      </p>
    </AuthPage>
  );
}
