import { useState } from 'preact/hooks';
import { unwrap } from '../../../client/index.js';
import { Button, ErrorMessage, Loading, Notice, PageHeader } from '../../components/ui.js';
import { describeError, useLoad } from '../../lib/forms.js';
import { api, can } from '../../lib/api.js';
import { inSandbox } from '../../lib/session.js';
import { useNotice } from '../../components/outcome.js';
import type { ScreenProps } from '../../lib/screen.js';

/**
 * The payment provider customers pay invoices through (docs/decisions.md D270): which one is
 * connected, and what paying online then looks like for the customer. Only the built-in test
 * provider can be connected yet; a sandbox has it from the start.
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
        {settings.provider !== 'test' && can('updatePaymentSettings') ? (
          <Button kind="primary" busy={busy} onClick={connectTest}>
            Connect the test provider
          </Button>
        ) : null}
      </section>
    </>
  );
}
