import { Fragment } from 'preact';
import { useState } from 'preact/hooks';
import { type auth, unwrap } from '../../../client/index.js';
import { Badge, Button, ErrorMessage, Field, Loading, Notice, PageHeader } from '../../components/ui.js';
import { describeError, useLoad } from '../../lib/forms.js';
import { api, can } from '../../lib/api.js';
import { inSandbox, session } from '../../lib/session.js';
import { useNotice } from '../../components/outcome.js';
import type { ScreenProps } from '../../lib/screen.js';

/**
 * The payment provider customers pay invoices through (docs/decisions.md D270): which one is
 * connected, and what paying online then looks like for the customer; connecting the business's
 * Stripe account (its keys are never shown again, only the last four characters) or, in a sandbox,
 * the built-in test provider, which a sandbox has from the start.
 */
export default function Payments(_props: ScreenProps) {
  const load = useLoad(() => unwrap(api.value.auth.getPaymentSettings()), []);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const { notice, setNotice } = useNotice();
  if (load.error) return <ErrorMessage message={load.error} onRetry={load.reload} />;
  if (!load.data) return <Loading label="Loading the payment settings" />;
  const settings = load.data.data;
  const connectTest = () => {
    setBusy(true);
    setError(null);
    setNotice(null);
    unwrap(api.value.auth.updatePaymentSettings({ body: { provider: 'test' } })).then(
      () => {
        setBusy(false);
        setNotice('The test provider is connected: invoices that owe something show Pay on their page.');
        load.reload();
      },
      (err: unknown) => {
        setBusy(false);
        // The service says why in the refusal of `provider` (a live business, say).
        const refusal = describeError(err);
        setError(refusal.fields.provider ?? refusal.message);
      },
    );
  };
  return (
    <>
      <PageHeader title="Payments" />
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      <ErrorMessage message={error} />
      <section class="panel" aria-labelledby="payments-provider">
        <h2 id="payments-provider">Payment provider</h2>
        {settings.provider === 'test' ? (
          <>
            <p data-provider="test">
              <strong>Test provider</strong>: connected. Its checkout has Succeed, Decline and Succeed later
              buttons and moves no money, so you can try the whole payment from the customer&apos;s side.
            </p>
            <p class="hint">
              Open an unpaid invoice&apos;s customer page and choose Pay: a payment made there is recorded on
              the invoice (method card), and the invoice is marked paid when nothing is left.
            </p>
          </>
        ) : settings.provider === 'stripe' ? (
          <p data-provider="stripe">
            <strong>Stripe</strong>: connected. Pay on an invoice&apos;s customer page opens Stripe Checkout
            for what the invoice owes, and Stripe&apos;s webhook records the payment (method card).
          </p>
        ) : (
          <>
            <p data-provider="none">
              No provider is connected: customers pay by the instructions printed on the invoice, and you
              record their payments.
            </p>
            {inSandbox.value ? null : (
              <p class="hint">
                To try paying online, switch to the sandbox: it is connected to the test provider.
              </p>
            )}
          </>
        )}
        {settings.provider === null && can('updatePaymentSettings') ? (
          <Button kind="primary" busy={busy} onClick={connectTest}>
            Connect the test provider
          </Button>
        ) : null}
        {settings.provider !== null && can('checkPaymentSettings') ? <TestConnection /> : null}
      </section>
      {can('updatePaymentSettings') ? (
        <ConnectStripe
          connected={settings}
          onDone={() => {
            setError(null);
            setNotice(null);
            load.reload();
          }}
        />
      ) : null}
    </>
  );
}

const CHECK_NAMES: Record<auth.PaymentConnectionCheck['checks'][number]['name'], string> = {
  provider: 'Provider',
  secret_key: 'Secret key',
  webhook_endpoint: 'Webhook endpoint',
};

const CHECK_RESULTS = { passed: 'passed', failed: 'failed', unknown: 'not known' } as const;

/** Asks the provider whether the keys work and its webhooks reach this business; shows each check. */
function TestConnection() {
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<auth.PaymentConnectionCheck | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = () => {
    setBusy(true);
    setError(null);
    unwrap(api.value.auth.checkPaymentSettings()).then(
      (answer) => {
        setBusy(false);
        setResult(answer.data);
      },
      (err: unknown) => {
        setBusy(false);
        setResult(null);
        setError(describeError(err).message);
      },
    );
  };
  return (
    <div class="connection-check">
      <Button busy={busy} onClick={run}>
        Test the connection
      </Button>
      <ErrorMessage message={error} />
      {result ? (
        <>
          <Notice kind={result.ok ? 'success' : 'warning'}>
            {result.ok
              ? 'The connection works: customers can pay, and their payments will be recorded.'
              : 'The connection needs attention: see what failed below.'}
          </Notice>
          <dl class="facts" data-checks="">
            {result.checks.map((check) => (
              <Fragment key={check.name}>
                <dt>{CHECK_NAMES[check.name]}</dt>
                <dd data-check={check.name}>
                  <Badge
                    value={check.result === 'passed' ? 'succeeded' : check.result}
                    label={CHECK_RESULTS[check.result]}
                  />{' '}
                  {check.message}
                </dd>
              </Fragment>
            ))}
          </dl>
        </>
      ) : null}
    </div>
  );
}

/** Stripe's secret key and the signing secret of the webhook endpoint made for this business. */
function ConnectStripe(props: {
  connected: { provider: string | null; secret_key_hint: string | null };
  onDone: () => void;
}) {
  const [secretKey, setSecretKey] = useState('');
  const [webhookSecret, setWebhookSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const endpoint = `${location.origin}/v1/payments/webhooks/stripe/${session.value?.info.businessId ?? ''}`;
  const submit = (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    setMessage(null);
    unwrap(
      api.value.auth.updatePaymentSettings({
        body: { provider: 'stripe', secret_key: secretKey.trim(), webhook_secret: webhookSecret.trim() },
      }),
    ).then(
      () => {
        setBusy(false);
        setSecretKey('');
        setWebhookSecret('');
        setMessage('Stripe is connected: Pay on an invoice page now opens Stripe Checkout.');
        props.onDone();
      },
      (err: unknown) => {
        setBusy(false);
        const refusal = describeError(err);
        setErrors(refusal.fields);
        setMessage(Object.keys(refusal.fields).length ? null : refusal.message);
      },
    );
  };
  return (
    <section class="panel" aria-labelledby="payments-stripe">
      <h2 id="payments-stripe">Stripe</h2>
      {props.connected.provider === 'stripe' ? (
        <p data-provider="stripe">
          <strong>Connected</strong> with the secret key ending in {props.connected.secret_key_hint}. Enter
          both keys again to replace them.
        </p>
      ) : null}
      <p class="hint">
        In Stripe, add a webhook endpoint for <code>{endpoint}</code> sending checkout.session.completed,
        checkout.session.async_payment_succeeded, checkout.session.async_payment_failed,
        checkout.session.expired, charge.refunded, refund.updated, refund.failed and payout.paid; then enter
        the account&apos;s secret key and the endpoint&apos;s signing secret.
      </p>
      {message ? <Notice>{message}</Notice> : null}
      <form onSubmit={submit}>
        <Field
          label="Secret key"
          name="secret_key"
          type="password"
          autoComplete="off"
          value={secretKey}
          onValue={setSecretKey}
          error={errors.secret_key}
          hint="sk_live_..., sk_test_... or a restricted rk_... key"
        />
        <Field
          label="Webhook signing secret"
          name="webhook_secret"
          type="password"
          autoComplete="off"
          value={webhookSecret}
          onValue={setWebhookSecret}
          error={errors.webhook_secret}
          hint="whsec_..., shown with the webhook endpoint in Stripe"
        />
        <Button kind="primary" type="submit" busy={busy}>
          Connect Stripe
        </Button>
      </form>
    </section>
  );
}
