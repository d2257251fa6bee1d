import { useState } from 'preact/hooks';
import { sandbox, unwrap } from '../../../client/index.js';
import { Button, ErrorMessage, Field, Link, Loading, Notice, PageHeader } from '../../components/ui.js';
import { dateTime, number } from '../../lib/format.js';
import { useForm, useLoad } from '../../lib/forms.js';
import { summaryOf } from '../../lib/refusals.js';
import { api, can } from '../../lib/api.js';
import { followClock, inSandbox } from '../../lib/session.js';
import { ConfirmDialog } from '../../components/confirm.js';

/**
 * The sandbox's controls: its test clock (read, and advanced to a later time, running what came due
 * on the way) and a reset, empty or with demo data, each asked for before it runs.
 */

const DAY = 86_400_000;

/** A time as a `datetime-local` field writes it, in the browser's time zone. */
function localInput(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** A `datetime-local` value as an ISO 8601 instant, or the text itself when it is not one (the schema says why). */
function isoOf(local: string): string {
  const at = new Date(local);
  return local && !Number.isNaN(at.getTime()) ? at.toISOString() : local;
}

function ahead(seconds: number): string {
  if (seconds <= 0) return 'On real time.';
  const days = seconds / 86_400;
  if (days >= 1) return `${number(Math.round(days * 10) / 10)} days ahead of real time.`;
  const hours = seconds / 3_600;
  return hours >= 1
    ? `${number(Math.round(hours * 10) / 10)} hours ahead of real time.`
    : `${number(Math.round(seconds / 60))} minutes ahead of real time.`;
}

const RAN_LABELS: Record<keyof sandbox.DueRun, string> = {
  points_expired: 'Point credits expired',
  vouchers_expired: 'Vouchers expired',
  invoices_recurred: 'Recurring invoices made',
  bills_recurred: 'Recurring bills recorded',
  reminders_sent: 'Service reminders mailed',
  invoice_reminders_sent: 'Overdue invoice reminders mailed',
  campaigns_started: 'Scheduled campaigns started',
  vat_alerts_sent: 'VAT threshold alerts mailed',
  revaluations_posted: 'Month-end revaluations posted',
};

const label = (key: string) => {
  const text = key.replace(/_/g, ' ').replace(/^vat\b/, 'VAT');
  return text.charAt(0).toUpperCase() + text.slice(1);
};

function Clock(props: { version: number }) {
  const clock = useLoad(() => unwrap(api.value.sandbox.clock.getClock()), [props.version]);
  const [target, setTarget] = useState<string | null>(null);
  const [ran, setRan] = useState<(sandbox.SandboxClock & { ran: sandbox.DueRun }) | null>(null);
  const form = useForm();

  if (clock.error) return <ErrorMessage message={clock.error} onRetry={clock.reload} />;
  if (!clock.data) return <Loading />;
  const now = new Date(clock.data.data.now);
  const value = target ?? localInput(new Date(now.getTime() + DAY));
  const later = (ms: number) => () => {
    setTarget(localInput(new Date(now.getTime() + ms)));
    form.clear();
  };

  const submit = (event: Event) => {
    event.preventDefault();
    void form
      .submit(sandbox.AdvanceClockBodySchema, { advance_to: isoOf(value) }, (body) =>
        unwrap(api.value.sandbox.clock.advanceClock({ body })),
      )
      .then((res) => {
        if (!res) return;
        followClock(res.data.now);
        setRan(res.data);
        setTarget(null);
        clock.reload();
      });
  };
  const moved = ran ? Object.entries(ran.ran).filter(([, n]) => n > 0) : [];

  return (
    <>
      <dl class="facts clock-facts">
        <dt>Sandbox time</dt>
        <dd>
          <strong data-clock>{dateTime(clock.data.data.now)}</strong>
        </dd>
        <dt>Offset</dt>
        <dd>{ahead(clock.data.data.advanced_by_seconds)}</dd>
      </dl>
      {ran ? (
        <Notice kind="success">
          <p>
            The clock moved to {dateTime(ran.now)}.{' '}
            {moved.length === 0 ? 'Nothing came due on the way.' : 'On the way:'}
          </p>
          {moved.length > 0 ? (
            <ul class="ran-list">
              {moved.map(([key, n]) => (
                <li key={key}>
                  {RAN_LABELS[key as keyof sandbox.DueRun] ?? label(key)}: {number(n)}
                </li>
              ))}
            </ul>
          ) : null}
          {ran.ran.campaigns_started + ran.ran.reminders_sent + ran.ran.vat_alerts_sent > 0 ? (
            <p>
              Their mail is in <Link to="/sandbox/inbox">Captured mail</Link>.
            </p>
          ) : null}
        </Notice>
      ) : null}
      {can('advanceClock') ? (
        <form onSubmit={submit} noValidate class="clock-form">
          <div class="quick-advance" role="group" aria-label="Quick choices">
            <Button class="button secondary small" onClick={later(DAY)}>
              +1 day
            </Button>
            <Button class="button secondary small" onClick={later(7 * DAY)}>
              +1 week
            </Button>
            <Button class="button secondary small" onClick={later(30 * DAY)}>
              +30 days
            </Button>
            <Button class="button secondary small" onClick={later(365 * DAY)}>
              +1 year
            </Button>
          </div>
          <div class="inline-form">
            <Field
              label="Advance to"
              name="advance_to"
              type="datetime-local"
              hint="Your local time; later than the sandbox’s time, at most 5 years ahead of it"
              value={value}
              onValue={(v) => setTarget(v)}
              error={form.errors.advance_to}
              required
            />
            <Button type="submit" kind="primary" busy={form.busy}>
              Advance the clock
            </Button>
          </div>
          <ErrorMessage message={form.errors.advance_to ? null : summaryOf(form)} />
          <p class="hint">
            Moving forward runs, day by day, what came due: point and voucher expiry, service reminders,
            scheduled campaigns and VAT alerts. The clock never goes back, except by a reset.
          </p>
        </form>
      ) : (
        <p class="muted">Your role can read the clock but not move it.</p>
      )}
    </>
  );
}

function Reset(props: { onReset: () => void }) {
  const [asking, setAsking] = useState<'seed' | 'empty' | null>(null);
  const [result, setResult] = useState<{ seeded: boolean; data: sandbox.SandboxReset } | null>(null);
  const run = async (seed: boolean) => {
    const res = await unwrap(api.value.sandbox.reset.resetSandbox({ body: { seed } }));
    followClock(res.data.clock);
    setResult({ seeded: seed, data: res.data });
    props.onReset();
  };
  const made = result ? Object.entries(result.data.seeded).filter(([, n]) => n > 0) : [];
  return (
    <>
      <p>
        A reset deletes the sandbox’s data — customers, invoices, employees, campaigns, captured mail — and
        puts the clock back on real time. Its API keys, webhooks and settings stay.
      </p>
      {result ? (
        <Notice kind="success">
          <p>
            The sandbox was reset: {number(result.data.deleted_rows)} rows deleted
            {result.seeded ? ', then filled with demo data.' : '.'}
          </p>
          {made.length > 0 ? (
            <ul class="seeded-list" aria-label="Demo data created">
              {made.map(([key, n]) => (
                <li key={key}>
                  {label(key)}: {number(n)}
                </li>
              ))}
            </ul>
          ) : null}
        </Notice>
      ) : null}
      <div class="actions reset-actions">
        <Button kind="primary" onClick={() => setAsking('seed')}>
          Reset with demo data
        </Button>
        <Button kind="danger" onClick={() => setAsking('empty')}>
          Reset to empty
        </Button>
      </div>
      <ConfirmDialog
        open={asking === 'seed'}
        title="Reset the sandbox with demo data?"
        confirmLabel="Reset and fill with demo data"
        kind="primary"
        onClose={() => setAsking(null)}
        onConfirm={() => run(true)}
      >
        <p>
          Everything in the sandbox is deleted, then a demo business is made: customers, products and 18
          months of invoices, bills, employees and leave, a loyalty program and a sent campaign. It takes a
          few seconds. No webhook is sent for the demo data.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={asking === 'empty'}
        title="Reset the sandbox to empty?"
        confirmLabel="Delete the sandbox’s data"
        onClose={() => setAsking(null)}
        onConfirm={() => run(false)}
      >
        <p>Everything in the sandbox is deleted; its API keys, webhooks and settings stay.</p>
      </ConfirmDialog>
    </>
  );
}

export default function Controls() {
  const [version, setVersion] = useState(0);
  if (!inSandbox.value) {
    return (
      <>
        <PageHeader title="Reset and clock" />
        <Notice kind="warning">
          These controls act on the sandbox only: the live business always runs on real time and is never
          reset. Open the sandbox with the button in the top bar.
        </Notice>
      </>
    );
  }
  return (
    <>
      <PageHeader title="Reset and clock" />
      <section class="panel" aria-labelledby="sandbox-clock">
        <h2 id="sandbox-clock">Test clock</h2>
        <Clock key={version} version={version} />
      </section>
      {can('resetSandbox') ? (
        <section class="panel" aria-labelledby="sandbox-reset">
          <h2 id="sandbox-reset">Reset</h2>
          <Reset onReset={() => setVersion((v) => v + 1)} />
        </section>
      ) : null}
    </>
  );
}
