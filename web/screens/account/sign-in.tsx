import { useState } from 'preact/hooks';
import { auth, isSignInChallenge, unwrap, type auth as authTypes } from '../../../client/index.js';
import { Field, Link, Select } from '../../components/ui.js';
import { AuthForm, EmailField } from './auth-form.js';
import { BmsApiError } from '../../../client/index.js';
import { useForm } from '../../lib/forms.js';
import { adopt, api } from '../../lib/session.js';

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

/** The second step for a person with two-factor sign-in on: a code from their app, or a recovery code. */
function SecondStep({ challenge }: { challenge: authTypes.SignInChallenge }) {
  const [code, setCode] = useState('');
  const form = useForm();
  const submit = () => {
    const input = { challengeToken: challenge.challengeToken, code };
    void form.submit(auth.CompleteSignInBodySchema, input, async (body) => {
      const signed = (await unwrap(api.value.auth.completeSignIn({ body }))).data;
      await adopt(signed.accessToken, signed.environment);
    });
  };
  return (
    <main id="main" class="auth-page">
      <h1>Two-factor sign-in</h1>
      <p>Enter the six-digit code your authenticator app shows, or one of your recovery codes.</p>
      <AuthForm form={form} submit="Verify" onSubmit={submit}>
        <Field
          label="Code"
          name="code"
          autoComplete="one-time-code"
          inputMode="numeric"
          value={code}
          onValue={setCode}
          error={form.errors.code}
          required
        />
      </AuthForm>
    </main>
  );
}

export default function SignIn() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [environment, setEnvironment] = useState<'live' | 'sandbox'>('live');
  const [businessId, setBusinessId] = useState('');
  const [choices, setChoices] = useState<{ value: string; label: string }[]>([]);
  const [challenge, setChallenge] = useState<authTypes.SignInChallenge | null>(null);
  const form = useForm();

  const submit = () => {
    const input = { email, password, environment, ...(businessId ? { businessId } : {}) };
    void form.submit(auth.SignInBodySchema, input, async (body) => {
      try {
        const signed = (await unwrap(api.value.auth.signIn({ body }))).data;
        if (isSignInChallenge(signed)) setChallenge(signed);
        else await adopt(signed.accessToken, signed.environment);
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

  if (challenge) return <SecondStep challenge={challenge} />;

  return (
    <main id="main" class="auth-page">
      <h1>Sign in</h1>
      <AuthForm
        form={form}
        submit="Sign in"
        onSubmit={submit}
        message={
          choices.length > 0 && form.message?.includes('several businesses')
            ? 'Choose the business to sign in to.'
            : form.message
        }
      >
        <EmailField value={email} onValue={setEmail} error={form.errors.email} />
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
        <p class="field-aside">
          <Link to="/forgot-password">Forgot password?</Link>
        </p>
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
      </AuthForm>
      <p>
        New here? <Link to="/register">Register a business</Link>. Building an integration? Read the{' '}
        <a href="/docs">API reference</a>.
      </p>
    </main>
  );
}
