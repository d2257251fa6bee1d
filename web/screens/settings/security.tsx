import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { auth, BmsApiError, unwrap } from '../../../client/index.js';
import {
  Badge,
  Button,
  ErrorMessage,
  Field,
  Loading,
  Notice,
  PageHeader,
  Table,
} from '../../components/ui.js';
import { FormDialog, useDraftDialog } from '../../components/form-dialog.js';
import { save } from '../../lib/download.js';
import { dateTime } from '../../lib/format.js';
import { describeError, useDraft, useForm, useLoad, type Load } from '../../lib/forms.js';
import { api } from '../../lib/api.js';
import { refresh, session, signOut, twoFactorPending } from '../../lib/session.js';
import { useNotice } from '../../components/outcome.js';
import type { ScreenProps } from '../../lib/screen.js';
import { ConfirmDialog } from '../../components/confirm.js';
import { CopyButton } from '../../components/copy-button.js';

/**
 * The signed-in person's own security: two-factor sign-in (set up, recovery codes, turn off), where
 * they are signed in, and their password. An owner also decides here whether everyone needs a
 * second factor. While the business requires one the person has not set up, this is the only screen.
 */

type Status = auth.TwoFactorStatus;
type AccessSession = auth.AccessSession;

const plural = (count: number, one: string, many = `${one}s`) => `${count} ${count === 1 ? one : many}`;

/** A user agent as a person recognises it: "Chrome 131 on Linux", or a script's own name. */
function deviceOf(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const version = (name: string) => new RegExp(`${name}/(\\d+)`).exec(userAgent)?.[1];
  const browsers: [string, string][] = [
    ['Edge', 'Edg'],
    ['Opera', 'OPR'],
    ['Firefox', 'Firefox'],
    ['Chrome', '(?:Headless)?Chrome'],
    ['Safari', 'Version'],
  ];
  const found = browsers.find(([, token]) => version(token) !== undefined);
  const browser =
    found && (found[0] !== 'Safari' || userAgent.includes('Safari/'))
      ? `${found[0]} ${version(found[1])}`
      : null;
  const systems: [string, RegExp][] = [
    ['Windows', /Windows/],
    ['iOS', /iPhone|iPad/],
    ['Android', /Android/],
    ['macOS', /Macintosh|Mac OS X/],
    ['ChromeOS', /CrOS/],
    ['Linux', /Linux/],
  ];
  const system = systems.find(([, pattern]) => pattern.test(userAgent))?.[0];
  if (browser) return system ? `${browser} on ${system}` : browser;
  // A script or library names itself first: "curl/8.5.0", "node".
  const product = userAgent.split(/\s+/)[0] ?? userAgent;
  return product.length > 40 ? `${product.slice(0, 40)}…` : product;
}

/** The base32 secret in groups of four, as authenticator apps print it (spaces are ignored when typed). */
const grouped = (secret: string) => secret.match(/.{1,4}/g)?.join(' ') ?? secret;

function RecoveryCodes(props: { codes: string[]; fresh: boolean; onDone: () => void }) {
  const email = session.value?.info.user?.email ?? '';
  const [copied, setCopied] = useState(false);
  const download = () => {
    const text = [
      `Recovery codes for ${email} (${session.value?.info.businessName ?? 'Business Management'})`,
      `Made ${new Date().toISOString()}. Each code signs in once in place of a code from the app.`,
      '',
      ...props.codes,
      '',
    ].join('\n');
    save(new Blob([text], { type: 'text/plain;charset=utf-8' }), 'recovery-codes.txt');
  };
  return (
    <section class="panel created" aria-labelledby="recovery-codes-title">
      <h2 id="recovery-codes-title">
        {props.fresh ? 'Two-factor sign-in is on: save your recovery codes' : 'Your new recovery codes'}
      </h2>
      <Notice kind="warning">
        <p>
          Keep these codes somewhere safe, apart from your phone: each one signs you in once if the app is
          lost. They are shown only now{props.fresh ? '' : '; the codes you had before no longer work'}.
        </p>
      </Notice>
      <ol class="recovery-codes" aria-label="Recovery codes">
        {props.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ol>
      <div class="form-actions">
        <Button onClick={download}>Download</Button>
        <Button
          onClick={() => {
            void navigator.clipboard?.writeText(props.codes.join('\n')).then(
              () => setCopied(true),
              () => setCopied(false),
            );
          }}
        >
          {copied ? 'Copied' : 'Copy'}
          <span class="visually-hidden"> the recovery codes</span>
        </Button>
        <Button kind="primary" onClick={props.onDone}>
          I have saved them
        </Button>
      </div>
    </section>
  );
}

/** The app's six digits, asked for in a dialog before an action on two-factor sign-in. */
function CodeDialog(props: {
  open: boolean;
  title: string;
  action: string;
  kind?: 'primary' | 'danger';
  withPassword?: boolean;
  children: ComponentChildren;
  onClose: () => void;
  send: (input: { code: string; password: string }) => Promise<void>;
}) {
  const { bind, dialog } = useDraftDialog({
    open: props.open,
    onClose: props.onClose,
    initial: () => ({ code: '', password: '' }),
    send: ({ code, password }, form) =>
      props.withPassword
        ? form.submit(auth.DisableTwoFactorBodySchema, { password, code }, async (body) => {
            await props.send(body);
            return true;
          })
        : form.submit(auth.CodeBodySchema, { code }, async (body) => {
            await props.send({ ...body, password: '' });
            return true;
          }),
  });
  return (
    <FormDialog title={props.title} submit={props.action} kind={props.kind} {...dialog}>
      <div class="dialog-body">{props.children}</div>
      {props.withPassword ? (
        <Field
          label="Password"
          type="password"
          autoComplete="current-password"
          {...bind('password')}
          required
        />
      ) : null}
      <Field
        label="Code from your authenticator app"
        autoComplete="one-time-code"
        inputMode="numeric"
        {...bind('code')}
        hint={props.withPassword ? 'Or one of your recovery codes.' : undefined}
        required
      />
    </FormDialog>
  );
}

/** An enrolment started, and the password it was started with (confirming asks for it again). */
interface Started {
  enrolment: auth.TwoFactorEnrolment;
  password: string;
}

/** The current password, asked before an app is tied to the account: a session alone is not enough. */
function PasswordStep(props: { onCancel: () => void; onStarted: (started: Started) => void }) {
  const [password, setPassword] = useState('');
  const form = useForm();
  const submit = (event: Event) => {
    event.preventDefault();
    void form
      .submit(auth.StartTwoFactorEnrolmentBodySchema, { password }, async (body) => {
        return (await unwrap(api.value.auth.startTwoFactorEnrolment({ body }))).data;
      })
      .then((enrolment) => {
        if (enrolment) props.onStarted({ enrolment, password });
      });
  };
  return (
    <form onSubmit={submit} noValidate class="password-step">
      <p>First, your password: it shows it is you before an authenticator app is tied to your account.</p>
      {/* Lets password managers offer the account's password. */}
      <input
        type="text"
        name="username"
        autoComplete="username"
        value={session.value?.info.user?.email ?? ''}
        hidden
        readOnly
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
      <ErrorMessage message={form.message} />
      <div class="form-actions">
        <Button type="submit" kind="primary" busy={form.busy}>
          Continue
        </Button>
        <Button onClick={props.onCancel}>Cancel</Button>
      </div>
    </form>
  );
}

/** Scan (or type) the secret into an app, then confirm with the code it shows. */
function Enrolment(props: { started: Started; onCancel: () => void; onOn: (codes: string[]) => void }) {
  const { enrolment, password } = props.started;
  const [code, setCode] = useState('');
  const form = useForm();
  const submit = (event: Event) => {
    event.preventDefault();
    void form
      .submit(auth.ConfirmTwoFactorBodySchema, { password, code }, async (body) => {
        return (await unwrap(api.value.auth.confirmTwoFactor({ body }))).data.recoveryCodes;
      })
      .then((codes) => {
        if (codes) props.onOn(codes);
      });
  };
  return (
    <div class="enrolment">
      <ol class="steps">
        <li>
          <h3>Scan this QR code with your authenticator app</h3>
          <p class="hint">
            Any app that shows six-digit codes works: Google Authenticator, Microsoft Authenticator,
            1Password, Bitwarden, Authy…
          </p>
          <img class="qr-code" src={enrolment.qrCode} alt="QR code for your authenticator app" />
          <p>Cannot scan it? Enter this key in the app instead (time-based, six digits):</p>
          <div class="copyable">
            <code class="totp-secret">{grouped(enrolment.secret)}</code>
            <CopyButton value={enrolment.secret} what="the setup key" />
          </div>
        </li>
        <li>
          <h3>Enter the code the app shows</h3>
          <form onSubmit={submit} noValidate class="inline-form">
            <Field
              label="Six-digit code"
              name="code"
              autoComplete="one-time-code"
              inputMode="numeric"
              value={code}
              onValue={setCode}
              error={form.errors.code}
              required
            />
            <Button type="submit" kind="primary" busy={form.busy}>
              Turn on
            </Button>
            <Button onClick={props.onCancel}>Cancel</Button>
          </form>
          {/* The password was changed since it was typed: start again with the new one. */}
          <ErrorMessage
            message={
              form.errors.password
                ? 'Your password changed since you started: cancel and set up again with the new one.'
                : form.message
            }
          />
        </li>
      </ol>
    </div>
  );
}

function TwoFactor(props: { status: Status; reload: () => void }) {
  const { status } = props;
  const [enrolment, setEnrolment] = useState<Started | null>(null);
  const [asking, setAsking] = useState(false);
  const [codes, setCodes] = useState<{ list: string[]; fresh: boolean } | null>(null);
  const [dialog, setDialog] = useState<'codes' | 'off' | null>(null);
  const { notice, setNotice } = useNotice();
  const businessName = session.value?.info.businessName ?? 'This business';

  const setUp = () => {
    setNotice(null);
    setAsking(true);
  };

  return (
    <section class="panel" aria-labelledby="two-factor-title">
      <div class="title-with-badge">
        <h2 id="two-factor-title">Two-factor sign-in</h2>
        <Badge value={status.enabled ? 'on' : 'off'} />
      </div>
      {codes ? (
        <RecoveryCodes
          codes={codes.list}
          fresh={codes.fresh}
          onDone={() => {
            setCodes(null);
            props.reload();
          }}
        />
      ) : null}
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      {codes ? null : status.enabled ? (
        <>
          <p>
            Signing in asks for a code from your authenticator app after the password. On since{' '}
            {dateTime(status.enabledAt)}.
          </p>
          <p class={status.recoveryCodesRemaining <= 3 ? 'error' : undefined}>
            {plural(status.recoveryCodesRemaining, 'recovery code')} left of 10
            {status.recoveryCodesRemaining <= 3 ? ': make new ones before you run out.' : '.'}
          </p>
          <div class="form-actions">
            <Button onClick={() => setDialog('codes')}>New recovery codes</Button>
            {status.required ? null : (
              <Button kind="danger" onClick={() => setDialog('off')}>
                Turn off
              </Button>
            )}
          </div>
          {status.required ? (
            <p class="hint">
              {businessName} requires two-factor sign-in of every member, so it cannot be turned off here. An
              owner can lift the requirement first.
            </p>
          ) : null}
        </>
      ) : enrolment ? (
        <Enrolment
          started={enrolment}
          onCancel={() => setEnrolment(null)}
          onOn={(list) => {
            setEnrolment(null);
            setCodes({ list, fresh: true });
            props.reload();
            // The business's requirement (if any) is now met: the rest of the dashboard opens.
            refresh().catch(() => undefined);
          }}
        />
      ) : (
        <>
          <p>
            Off: signing in asks only for your password. With two-factor sign-in on, it also asks for a
            six-digit code from an app on your phone, so a stolen password alone is not enough.
          </p>
          {asking ? (
            <PasswordStep
              onCancel={() => setAsking(false)}
              onStarted={(started) => {
                setAsking(false);
                setEnrolment(started);
              }}
            />
          ) : (
            <Button kind="primary" onClick={setUp}>
              Set up
            </Button>
          )}
        </>
      )}

      <CodeDialog
        open={dialog === 'codes'}
        title="Make new recovery codes?"
        action="Make new codes"
        onClose={() => setDialog(null)}
        send={async ({ code }) => {
          const made = (await unwrap(api.value.auth.regenerateRecoveryCodes({ body: { code } }))).data;
          setNotice(null);
          setCodes({ list: made.recoveryCodes, fresh: false });
          props.reload();
        }}
      >
        <p>
          Ten new codes replace all of your current ones, used or not. Enter a code from the app to go on.
        </p>
      </CodeDialog>
      <CodeDialog
        open={dialog === 'off'}
        title="Turn off two-factor sign-in?"
        action="Turn off"
        kind="danger"
        withPassword
        onClose={() => setDialog(null)}
        send={async ({ code, password }) => {
          await unwrap(api.value.auth.disableTwoFactor({ body: { password, code } }));
          setCodes(null);
          setNotice('Two-factor sign-in is off. Your recovery codes were deleted.');
          props.reload();
          refresh().catch(() => undefined);
        }}
      >
        <p>
          Signing in will ask only for your password, and your recovery codes are deleted. Confirm with your
          password and a code from the app.
        </p>
      </CodeDialog>
    </section>
  );
}

/** An owner's choice: every member signs in with a second factor. */
function RequireForEveryone(props: { status: Status; reload: () => void }) {
  const { status } = props;
  const [checked, setChecked] = useState(status.required);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const businessName = session.value?.info.businessName ?? 'the business';
  useEffect(() => setChecked(status.required), [status.required]);
  const change = (required: boolean) => {
    setChecked(required);
    setBusy(true);
    setError(null);
    setSaved(null);
    unwrap(api.value.auth.updateBusiness({ body: { require_two_factor: required } })).then(
      () => {
        setBusy(false);
        setSaved(
          required
            ? 'Two-factor sign-in is now required: members without it can only set it up until they do.'
            : 'Two-factor sign-in is no longer required of everyone.',
        );
        props.reload();
      },
      (err: unknown) => {
        setBusy(false);
        setChecked(!required);
        setError(
          err instanceof BmsApiError && err.status === 409
            ? 'Turn on two-factor sign-in for yourself first (above), then require it of everyone.'
            : describeError(err).message,
        );
      },
    );
  };
  return (
    <section class="panel" aria-labelledby="require-title">
      <h2 id="require-title">Everyone at {businessName}</h2>
      <label class="checkbox">
        <input
          type="checkbox"
          name="require_two_factor"
          checked={checked}
          disabled={busy}
          aria-describedby="require-hint"
          onChange={(e) => change(e.currentTarget.checked)}
        />
        Require two-factor sign-in for everyone
      </label>
      <p id="require-hint" class="hint">
        Members who have not set it up are taken to this screen when they next sign in, and can do nothing
        else until they have. API keys are not affected. You need it on yourself first.
      </p>
      <ErrorMessage message={error} />
      {saved ? <Notice kind="success">{saved}</Notice> : null}
    </section>
  );
}

function Sessions(props: { load: Load<AccessSession[]> }) {
  const { load } = props;
  const { notice, setNotice, opens } = useNotice();
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const sessions = load.data;
  const others = sessions?.filter((s) => !s.current).length ?? 0;

  const revoke = (row: AccessSession) => {
    setNotice(null);
    setError(null);
    if (row.current) {
      void signOut();
      return;
    }
    unwrap(api.value.auth.revokeSession({ params: { id: row.id } })).then(
      () => {
        setNotice(`Signed out of ${deviceOf(row.userAgent)} (signed in ${dateTime(row.createdAt)}).`);
        load.reload();
      },
      (err: unknown) => setError(describeError(err).message),
    );
  };

  return (
    <section class="panel" aria-labelledby="sessions-title">
      <div class="section-header">
        <h2 id="sessions-title">Where you are signed in</h2>
        {others > 0 ? (
          <Button kind="danger" onClick={opens(setConfirming)}>
            Sign out everywhere else
          </Button>
        ) : null}
      </div>
      <p class="hint">
        Every sign-in to this dashboard or the API with your password, in every business and environment you
        belong to. Sign out any you do not recognise, then change your password.
      </p>
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      <ErrorMessage message={error} />
      {load.loading && !sessions ? <Loading /> : null}
      <ErrorMessage message={load.error} onRetry={load.reload} />
      {sessions ? (
        <div class="sessions">
          <Table
            caption="Where you are signed in"
            rows={sessions}
            rowKey={(s) => s.id}
            columns={[
              {
                label: 'Device',
                render: (s) => (
                  <>
                    <span title={s.userAgent ?? undefined}>{deviceOf(s.userAgent)}</span>
                    {s.current ? <span class="this-device">This device</span> : null}
                  </>
                ),
              },
              { label: 'IP address', render: (s) => (s.ip ? <code>{s.ip}</code> : '—') },
              { label: 'Environment', render: (s) => <Badge value={s.environment} /> },
              { label: 'Signed in', render: (s) => dateTime(s.createdAt) },
              { label: 'Last used', render: (s) => (s.lastUsedAt ? dateTime(s.lastUsedAt) : 'Not yet') },
              {
                label: 'Actions',
                render: (s) => (
                  <Button class="button secondary small" onClick={() => revoke(s)}>
                    Sign out
                    <span class="visually-hidden">
                      {s.current
                        ? ' of this device'
                        : ` of ${deviceOf(s.userAgent)}, signed in ${dateTime(s.createdAt)}`}
                    </span>
                  </Button>
                ),
              },
            ]}
          />
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title="Sign out everywhere else?"
        confirmLabel="Sign out everywhere else"
        onClose={() => setConfirming(false)}
        onConfirm={async () => {
          const { revoked } = (await unwrap(api.value.auth.revokeOtherSessions())).data;
          setNotice(`Signed out of ${plural(revoked, 'other session')}. This device stays signed in.`);
          load.reload();
        }}
      >
        <p>
          Every other sign-in with your password ends now ({plural(others, 'session')}): other browsers,
          devices and scripts signed in as you must sign in again. API keys are not affected.
        </p>
      </ConfirmDialog>
    </section>
  );
}

function ChangePassword(props: { onChanged: () => void }) {
  const empty = () => ({ currentPassword: '', newPassword: '', confirmation: '' });
  const { draft, setDraft, bind } = useDraft(empty);
  const { currentPassword, newPassword, confirmation } = draft;
  const [mismatch, setMismatch] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const form = useForm();
  const submit = (event: Event) => {
    event.preventDefault();
    setDone(null);
    if (newPassword !== confirmation) {
      form.clear();
      setMismatch(true);
      return;
    }
    setMismatch(false);
    void form
      .submit(auth.ChangePasswordBodySchema, { currentPassword, newPassword }, async (body) => {
        return (await unwrap(api.value.auth.changePassword({ body }))).data;
      })
      .then((changed) => {
        if (!changed) return;
        setDraft(empty());
        setDone(
          changed.revoked === 0
            ? 'Password changed. You were signed in nowhere else.'
            : `Password changed. ${plural(changed.revoked, 'other session')} ${changed.revoked === 1 ? 'was' : 'were'} signed out.`,
        );
        props.onChanged();
      });
  };
  return (
    <section class="panel" aria-labelledby="password-title">
      <h2 id="password-title">Change password</h2>
      <form onSubmit={submit} noValidate class="password-form">
        {/* Lets password managers tie the new password to the account. */}
        <input
          type="text"
          name="username"
          autoComplete="username"
          value={session.value?.info.user?.email ?? ''}
          hidden
          readOnly
        />
        <Field
          label="Current password"
          type="password"
          autoComplete="current-password"
          {...bind('currentPassword', form.errors)}
          required
        />
        <Field
          label="New password"
          type="password"
          autoComplete="new-password"
          {...bind('newPassword', form.errors)}
          hint="At least 12 characters. A few unrelated words make a strong one."
          required
        />
        <Field
          label="Confirm new password"
          name="confirmPassword"
          type="password"
          autoComplete="new-password"
          value={confirmation}
          onValue={(value) => {
            setDraft((d) => ({ ...d, confirmation: value }));
            setMismatch(false);
          }}
          error={mismatch ? 'The two new passwords differ: type the same one twice.' : undefined}
          required
        />
        <ErrorMessage message={form.message} />
        {done ? <Notice kind="success">{done}</Notice> : null}
        <p class="hint">Every other session is signed out; this one stays signed in.</p>
        <div class="form-actions">
          <Button type="submit" kind="primary" busy={form.busy}>
            Change password
          </Button>
        </div>
      </form>
    </section>
  );
}

export default function Security(_props: ScreenProps) {
  const status = useLoad(async () => (await unwrap(api.value.auth.getTwoFactor())).data, []);
  const sessions = useLoad(async () => (await unwrap(api.value.auth.listSessions())).data, []);
  const info = session.value?.info;
  const pending = twoFactorPending.value;
  return (
    <div class="settings security">
      <PageHeader title="Security" />
      {pending ? (
        <div class="message warning forced" role="alert">
          <p>
            <strong>{info?.businessName} requires two-factor sign-in: set it up to continue.</strong>
          </p>
          <p>
            Until you do, the rest of the dashboard stays closed. It takes a minute with an authenticator app
            on your phone.
          </p>
        </div>
      ) : (
        <p class="lead">
          How you sign in as {info?.user?.email}: a second factor beyond your password, where you are signed
          in, and your password.
        </p>
      )}
      {status.loading && !status.data ? <Loading /> : null}
      <ErrorMessage message={status.error} onRetry={status.reload} />
      {status.data ? <TwoFactor status={status.data} reload={status.reload} /> : null}
      {status.data && info?.role === 'owner' && !pending ? (
        <RequireForEveryone status={status.data} reload={status.reload} />
      ) : null}
      <Sessions load={sessions} />
      <ChangePassword onChanged={sessions.reload} />
    </div>
  );
}
