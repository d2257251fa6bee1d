import { useState } from 'preact/hooks';
import { auth, unwrap } from '../../../client/index.js';
import { Field, Link } from '../../components/ui.js';
import { AuthForm, EmailField, NewPasswordField } from './auth-form.js';
import { useForm } from '../../lib/forms.js';
import { navigate } from '../../lib/router.js';
import { adopt, api } from '../../lib/session.js';

export default function Register() {
  const [businessName, setBusinessName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const form = useForm();

  const submit = () => {
    void form.submit(auth.RegisterBodySchema, { businessName, email, password }, async (body) => {
      const created = (await unwrap(api.value.auth.register({ body }))).data;
      await adopt(created.accessToken, created.environment);
      navigate('/', { replace: true });
    });
  };

  return (
    <main id="main" class="auth-page">
      <h1>Register a business</h1>
      <AuthForm form={form} submit="Register" onSubmit={submit}>
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
        <NewPasswordField
          label="Password"
          value={password}
          onValue={setPassword}
          error={form.errors.password}
        />
      </AuthForm>
      <p>
        Already registered? <Link to="/">Sign in</Link>.
      </p>
    </main>
  );
}
