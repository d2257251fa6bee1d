import { useState } from 'preact/hooks';
import { auth } from '../../../client/auth.js';
import { unwrap } from '../../../client/transport.js';
import { Field, Link } from '../../components/ui.js';
import { useForm } from '../../lib/forms.js';
import { navigate } from '../../lib/router.js';
import { adopt, authApi } from '../../lib/session.js';
import { AuthForm, AuthPage, EmailField, PasswordField } from './auth-page.js';

export default function Register() {
  const [businessName, setBusinessName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useForm();

  const submit = (event: Event) => {
    event.preventDefault();
    void form.submit(auth.RegisterBodySchema, { businessName, email, password }, async (body) => {
      const created = (await unwrap(authApi.value.auth.register({ body }))).data;
      await adopt(created.accessToken, created.environment);
      navigate('/', { replace: true });
    });
  };

  return (
    <AuthPage title="Register a business">
      <AuthForm form={form} onSubmit={submit} submitLabel="Register">
        <Field
          label="Business name"
          name="businessName"
          autoComplete="organization"
          value={businessName}
          onValue={setBusinessName}
          error={form.errors.businessName}
          required
        />
        <EmailField label="Your email" value={email} onValue={setEmail} error={form.errors.email} />
        <PasswordField value={password} onValue={setPassword} error={form.errors.password} />
      </AuthForm>
      <p>
        Already registered? <Link to="/">Sign in</Link>.
      </p>
    </AuthPage>
  );
}
