import { useState } from 'preact/hooks';
import { auth, unwrap } from '../../../client/index.js';
import { Button, ErrorMessage, Field, Link } from '../../components/ui.js';
import { useForm } from '../../lib/forms.js';
import { navigate } from '../../lib/router.js';
import { adopt, api } from '../../lib/session.js';

export default function Register() {
  const [businessName, setBusinessName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useForm();

  const submit = (event: Event) => {
    event.preventDefault();
    void form.submit(auth.RegisterBodySchema, { businessName, email, password }, async (body) => {
      const created = (await unwrap(api.value.auth.register({ body }))).data;
      await adopt(created.accessToken, created.environment);
      navigate('/', { replace: true });
    });
  };

  return (
    <main id="main" class="auth-page">
      <h1>Register a business</h1>
      <form onSubmit={submit} noValidate>
        <Field
          label="Business name"
          name="businessName"
          autoComplete="organization"
          value={businessName}
          onValue={setBusinessName}
          error={form.errors.businessName}
          required
        />
        <Field
          label="Your email"
          name="email"
          type="email"
          autoComplete="username"
          value={email}
          onValue={setEmail}
          error={form.errors.email}
          required
        />
        <Field
          label="Password"
          name="password"
          type="password"
          autoComplete="new-password"
          hint="12 characters or more."
          value={password}
          onValue={setPassword}
          error={form.errors.password}
          required
        />
        <ErrorMessage message={form.message} />
        <Button type="submit" kind="primary" busy={form.busy}>
          Register
        </Button>
      </form>
      <p>
        Already registered? <Link to="/">Sign in</Link>.
      </p>
    </main>
  );
}
