import { useState } from 'preact/hooks';
import { auth, unwrap } from '../../client/index.js';
import { Button, ErrorMessage, Field, Link, Select } from '../components/ui.js';
import { BmsApiError } from '../../client/index.js';
import { useForm } from '../lib/forms.js';
import { adopt, api } from '../lib/session.js';

/** A choice of business from the 422 a person of several teams gets: `<id>: <name>`. */
function choicesOf(err: unknown): { value: string; label: string }[] {
  if (!(err instanceof BmsApiError) || err.status !== 422) return [];
  return (err.details ?? [])
    .filter((d) => d.field === 'businessId')
    .map((d) => {
      const [id = '', ...name] = d.message.split(': ');
      return { value: id, label: name.join(': ') || id };
    });
}

export default function SignIn() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [environment, setEnvironment] = useState<'live' | 'sandbox'>('live');
  const [businessId, setBusinessId] = useState('');
  const [choices, setChoices] = useState<{ value: string; label: string }[]>([]);
  const form = useForm();

  const submit = (event: Event) => {
    event.preventDefault();
    const input = { email, password, environment, ...(businessId ? { businessId } : {}) };
    void form.submit(auth.SignInBodySchema, input, async (body) => {
      try {
        const signed = (await unwrap(api.value.auth.signIn({ body }))).data;
        await adopt(signed.accessToken, signed.environment);
      } catch (err) {
        const found = choicesOf(err);
        if (found.length > 0) {
          setChoices(found);
          setBusinessId(found[0]!.value);
        }
        throw err;
      }
    });
  };

  return (
    <main id="main" class="auth-page">
      <h1>Sign in</h1>
      <form onSubmit={submit} noValidate>
        <Field
          label="Email"
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
          autoComplete="current-password"
          value={password}
          onValue={setPassword}
          error={form.errors.password}
          required
        />
        {choices.length > 0 ? (
          <Select
            label="Business"
            name="businessId"
            value={businessId}
            options={choices}
            onValue={setBusinessId}
          />
        ) : null}
        <fieldset class="choice">
          <legend>Environment</legend>
          <label>
            <input
              type="radio"
              name="environment"
              value="live"
              checked={environment === 'live'}
              onChange={() => setEnvironment('live')}
            />{' '}
            Live
          </label>
          <label>
            <input
              type="radio"
              name="environment"
              value="sandbox"
              checked={environment === 'sandbox'}
              onChange={() => setEnvironment('sandbox')}
            />{' '}
            Sandbox (test data)
          </label>
        </fieldset>
        <ErrorMessage
          message={
            choices.length > 0 && form.message?.includes('several businesses')
              ? 'Choose the business to sign in to.'
              : form.message
          }
        />
        <Button type="submit" kind="primary" busy={form.busy}>
          Sign in
        </Button>
      </form>
      <p>
        New here? <Link to="/register">Register a business</Link>. Building an integration? Read the{' '}
        <a href="/docs">API reference</a>.
      </p>
    </main>
  );
}
