import { useState } from 'preact/hooks';
import {
  auth,
  BmsApiError,
  createClient,
  isSignInChallenge,
  unwrap,
  type auth as authTypes,
} from '../../../client/index.js';
import { Button, ErrorMessage, Field, Link, Loading } from '../../components/ui.js';
import { date } from '../../lib/format.js';
import { FieldRefusal, useForm, useLoad } from '../../lib/forms.js';
import { ROLE_HELP, roleLabel } from '../../lib/messages.js';
import { navigate } from '../../lib/router.js';
import type { ScreenProps } from '../../lib/screen.js';
import { api } from '../../lib/api.js';
import { adopt, session } from '../../lib/session.js';
import { AuthForm, CodeField, NEW_PASSWORD_RULE, PasswordField } from './auth-page.js';

/**
 * Accepting an invitation: the mail's link `/invitations/<token>` lands here with the token in the
 * URL fragment, which the browser never sends to a server. A new person chooses a password; a
 * person with an account is either signed in as themselves in this tab or gives their password
 * (and their second factor, when on). The session it makes is kept as sign-in keeps one, and the
 * person lands in the dashboard.
 */

const tokenOfPage = () => decodeURIComponent(location.hash.replace(/^#/, ''));

/** Requests made without the tab's session: accepting as the invited person, not as whoever is signed in. */
const anonymous = () => createClient({ baseUrl: location.origin, maxRetries: 1 });

/** A wrong password is the person's mistake, not an expired session: said as such. */
async function accepting<T>(email: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof BmsApiError && err.status === 401) {
      throw new FieldRefusal('password', `That is not the password of ${email}. Try again.`);
    }
    throw err;
  }
}

/** Keeps the new session and opens the dashboard; the tab's previous token, if any, is signed out. */
async function enter(signed: authTypes.AuthSession): Promise<void> {
  const before = session.value ? api.value : null;
  await adopt(signed.accessToken, signed.environment);
  if (before) await before.auth.logout().catch(() => undefined);
  navigate('/', { replace: true });
}

function SecondStep(props: { challenge: authTypes.SignInChallenge; businessName: string }) {
  const [code, setCode] = useState('');
  const form = useForm();
  const submit = (event: Event) => {
    event.preventDefault();
    const input = { challengeToken: props.challenge.challengeToken, code };
    void form.submit(auth.CompleteSignInBodySchema, input, async (body) => {
      await enter((await unwrap(anonymous().auth.completeSignIn({ body }))).data);
    });
  };
  return (
    <AuthForm form={form} onSubmit={submit} submitLabel="Verify and join">
      <p>
        Your account has two-factor sign-in on. Enter the six-digit code your authenticator app shows, or one
        of your recovery codes, to join {props.businessName}.
      </p>
      <CodeField value={code} onValue={setCode} error={form.errors.code ?? form.errors.challengeToken} />
    </AuthForm>
  );
}

function Accept(props: { token: string; invitation: authTypes.InvitationPreview }) {
  const { token, invitation } = props;
  const [password, setPassword] = useState('');
  const [challenge, setChallenge] = useState<authTypes.SignInChallenge | null>(null);
  const form = useForm();
  const signedInEmail = session.value?.info.user?.email?.toLowerCase();
  const isThem = signedInEmail === invitation.email.toLowerCase();

  const join = () =>
    void form.submit(null, null, async () => {
      await enter(sessionOnly((await unwrap(api.value.auth.acceptInvitation({ body: { token } }))).data));
    });

  const submit = (event: Event) => {
    event.preventDefault();
    void form.submit(auth.AcceptInvitationBodySchema, { token, password }, async (body) => {
      const answer = await accepting(
        invitation.email,
        async () => (await unwrap(anonymous().auth.acceptInvitation({ body }))).data,
      );
      if (isSignInChallenge(answer)) setChallenge(answer);
      else await enter(answer);
    });
  };

  if (challenge) return <SecondStep challenge={challenge} businessName={invitation.businessName} />;

  if (isThem) {
    return (
      <div>
        <p>
          You are signed in as <strong>{invitation.email}</strong>.
        </p>
        <ErrorMessage message={form.message} />
        <Button kind="primary" busy={form.busy} onClick={join}>
          Join {invitation.businessName}
        </Button>
      </div>
    );
  }

  return (
    <AuthForm
      form={form}
      onSubmit={submit}
      submitLabel={invitation.hasAccount ? 'Sign in and join' : 'Create my account and join'}
    >
      {signedInEmail ? (
        <p class="hint">
          This tab is signed in as {session.value?.info.user?.email}; accepting signs it in as{' '}
          {invitation.email} instead.
        </p>
      ) : null}
      <Field
        label="Email"
        name="email"
        type="email"
        autoComplete="username"
        value={invitation.email}
        readOnly
      />
      <PasswordField
        label={invitation.hasAccount ? 'Your password' : 'Choose a password'}
        current={invitation.hasAccount}
        hint={
          invitation.hasAccount
            ? 'You already have an account with this email: its password adds this business to it.'
            : `${NEW_PASSWORD_RULE} You sign in with this email and this password.`
        }
        value={password}
        onValue={setPassword}
        error={form.errors.password}
      />
    </AuthForm>
  );
}

/** Signed in as themselves, a person never gets a challenge: they gave every factor to sign in. */
function sessionOnly(result: authTypes.SignInResult): authTypes.AuthSession {
  if (isSignInChallenge(result)) throw new Error('Sign in again to accept this invitation.');
  return result;
}

export default function AcceptInvitation(_props: ScreenProps) {
  const [token] = useState(tokenOfPage);
  const load = useLoad(async () => {
    if (!token) return null;
    try {
      return (await unwrap(anonymous().auth.describeInvitation({ body: { token } }))).data;
    } catch (err) {
      if (err instanceof BmsApiError && err.status === 422) return null;
      throw err;
    }
  }, [token]);
  document.title = 'Join the team · Business Management';

  const invitation = load.data;
  return (
    <main id="main" class="auth-page invitation">
      {load.loading && invitation === undefined ? <Loading label="Reading the invitation…" /> : null}
      <ErrorMessage message={load.error} onRetry={load.reload} />
      {invitation === null ? (
        <>
          <h1>This invitation cannot be used</h1>
          <p>
            It is unknown, already used, revoked or expired. Ask the person who invited you to send it again.
          </p>
          <p>
            <Link to="/">Go to sign-in</Link>
          </p>
        </>
      ) : null}
      {invitation ? (
        <>
          <h1>Join {invitation.businessName}</h1>
          <p class="lead">
            {invitation.invitedBy ?? invitation.businessName} invited you to join{' '}
            <strong>{invitation.businessName}</strong> as <strong>{roleLabel(invitation.role)}</strong>.
          </p>
          <dl class="facts invitation-facts">
            <dt>Business</dt>
            <dd>{invitation.businessName}</dd>
            <dt>Role</dt>
            <dd>
              {roleLabel(invitation.role)}: {ROLE_HELP[invitation.role]}
            </dd>
            <dt>For</dt>
            <dd>{invitation.email}</dd>
            <dt>Valid until</dt>
            <dd>
              <time dateTime={invitation.expiresAt}>{date(invitation.expiresAt)}</time>
            </dd>
          </dl>
          <Accept token={token} invitation={invitation} />
        </>
      ) : null}
    </main>
  );
}
