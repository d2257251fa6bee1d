import { useState } from 'preact/hooks';
import { auth, isSignInChallenge, type auth as authTypes } from '../../../client/auth.js';
import { BmsApiError, unwrap } from '../../../client/transport.js';
import { Link, Select } from '../../components/ui.js';
import { useForm } from '../../lib/forms.js';
import { adopt, authApi } from '../../lib/session.js';
import { AuthForm, AuthPage, CodeField, EmailField, PasswordField } from './auth-page.js';

const ENVIRONMENTS = [
  ['live', 'Live'],
  ['sandbox', 'Sandbox (test data)'],
] as const;

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
  const submit = (event: Event) => {
    event.preventDefault();
    const input = { challengeToken: challenge.challengeToken, code };
    void form.submit(auth.CompleteSignInBodySchema, input, async (body) => {
      const signed = (await unwrap(authApi.value.auth.completeSignIn({ body }))).data;
      await adopt(signed.accessToken, signed.environment);
    });
  };
  return (
    <AuthPage title="Two-factor sign-in">
      <p>Enter the six-digit code your authenticator app shows, or one of your recovery codes.</p>
      <AuthForm form={form} onSubmit={submit} submitLabel="Verify">
        <CodeField value={code} onValue={setCode} error={form.errors.code} />
      </AuthForm>
    </AuthPage>
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

  const submit = (event: Event) => {
    event.preventDefault();
    const input = { email, password, environment, ...(businessId ? { businessId } : {}) };
    void form.submit(auth.SignInBodySchema, input, async (body) => {
      try {
        const signed = (await unwrap(authApi.value.auth.signIn({ body }))).data;
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
    <AuthPage title="Sign in">
      <AuthForm
        form={form}
        onSubmit={submit}
        submitLabel="Sign in"
        message={
          choices.length > 0 && form.message?.includes('several businesses')
            ? 'Choose the business to sign in to.'
            : form.message
        }
      >
        <EmailField value={email} onValue={setEmail} error={form.errors.email} />
        <PasswordField current value={password} onValue={setPassword} error={form.errors.password} />
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
          {ENVIRONMENTS.map(([value, label]) => (
            <label key={value}>
              <input
                type="radio"
                name="environment"
                value={value}
                checked={environment === value}
                onChange={() => setEnvironment(value)}
              />{' '}
              {label}
            </label>
          ))}
        </fieldset>
      </AuthForm>
      <p>
        New here? <Link to="/register">Register a business</Link>. Building an integration? Read the{' '}
        <a href="/docs">API reference</a>.
      </p>
    </AuthPage>
  );
}
