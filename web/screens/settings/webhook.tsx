import { useEffect, useState } from 'preact/hooks';
import { contract, unwrap, webhooks, type EventName } from '../../../client/index.js';
import { ExportButton } from '../../components/csv.js';
import { EventPicker, eventsMessage } from './event-picker.js';
import {
  Badge,
  Button,
  Empty,
  ErrorMessage,
  Field,
  Link,
  Loading,
  Notice,
  PageHeader,
  Pager,
  Secret,
  Select,
} from '../../components/ui.js';
import { FormDialog } from '../../components/form-dialog.js';
import { dateTime, number } from '../../lib/format.js';
import { describeError, useForm, useLoad } from '../../lib/forms.js';
import { here, navigate, withQuery } from '../../lib/router.js';
import { api, can } from '../../lib/api.js';
import type { ScreenProps } from '../../lib/screen.js';
import { pageQuery, pagesOf } from '../../lib/lists.js';
import { ConfirmDialog } from '../../components/confirm.js';

const PAGE_SIZE = 20;
const STATUSES = webhooks.DELIVERY_STATUSES;
type Status = (typeof STATUSES)[number];

const ERROR_TEXT: Record<NonNullable<webhooks.Attempt['errorClass']>, string> = {
  timeout: 'Timed out',
  connection: 'Connection failed',
  dns: 'Host not found',
  blocked_address: 'Private address refused',
  redirect: 'Redirected (not followed)',
  http_status: 'Non-2xx answer',
  invalid_url: 'Invalid URL',
};

function EditDialog(props: {
  webhook: webhooks.Webhook;
  open: boolean;
  onClose: () => void;
  onSaved: () => void;
}) {
  const [url, setUrl] = useState(props.webhook.url);
  const [events, setEvents] = useState<EventName[]>(props.webhook.events);
  const form = useForm();
  useEffect(() => {
    if (!props.open) return;
    setUrl(props.webhook.url);
    setEvents(props.webhook.events);
    form.clear();
  }, [props.open]);
  const submit = () => {
    void form
      .submit(webhooks.UpdateWebhookBodySchema, { url: url.trim(), events }, async (body) => {
        await unwrap(api.value.webhooks.updateWebhook({ params: { id: props.webhook.id }, body }));
        return true;
      })
      .then((done) => {
        if (!done) return;
        props.onSaved();
        props.onClose();
      });
  };
  return (
    <FormDialog
      title="Edit endpoint"
      open={props.open}
      onClose={props.onClose}
      form={form}
      submit="Save changes"
      message={form.message}
      onSubmit={submit}
    >
      <Field
        label="Endpoint URL"
        name="url"
        type="url"
        value={url}
        onValue={setUrl}
        error={form.errors.url}
        autoComplete="off"
        required
      />
      <EventPicker value={events} onValue={setEvents} error={eventsMessage(form.errors.events)} />
    </FormDialog>
  );
}

function DeliveryItem(props: {
  delivery: webhooks.Delivery;
  active: boolean;
  onRedeliver: (delivery: webhooks.Delivery) => Promise<void>;
}) {
  const { delivery: d } = props;
  const [busy, setBusy] = useState(false);
  return (
    <li class="delivery">
      <div class="delivery-head">
        <code class="event-name">{d.event}</code>
        <Badge value={d.status} />
        <time dateTime={d.createdAt}>{dateTime(d.createdAt)}</time>
        <span class="hint mono" title="Sent as the webhook-id header">
          {d.deliveryId}
        </span>
        {can('redeliver') ? (
          <Button
            class="button secondary small push-right"
            busy={busy}
            disabled={!props.active}
            aria-label={`Redeliver ${d.event} (${d.deliveryId})`}
            title={props.active ? undefined : 'Enable the endpoint to redeliver'}
            onClick={() => {
              setBusy(true);
              void props.onRedeliver(d).finally(() => setBusy(false));
            }}
          >
            Redeliver
          </Button>
        ) : null}
      </div>
      {d.status === 'retrying' && d.nextAttemptAt ? (
        <p class="hint">Next attempt {dateTime(d.nextAttemptAt)}.</p>
      ) : null}
      {d.attempts.length === 0 ? (
        <p class="hint">No attempt yet: it is queued.</p>
      ) : (
        <table class="attempts">
          <caption class="visually-hidden">Attempts of delivery {d.deliveryId}</caption>
          <thead>
            <tr>
              <th scope="col">Attempted</th>
              <th scope="col">Answer</th>
              <th scope="col" class="numeric">
                Duration
              </th>
              <th scope="col">Error</th>
              <th scope="col">Kind</th>
            </tr>
          </thead>
          <tbody>
            {d.attempts.map((a, i) => (
              <tr key={`${a.attemptedAt}-${i}`}>
                <td>
                  <time dateTime={a.attemptedAt}>{dateTime(a.attemptedAt)}</time>
                </td>
                <td>
                  {a.statusCode === null ? (
                    'No answer'
                  ) : (
                    <span class={a.statusCode >= 200 && a.statusCode < 300 ? 'ok' : 'error'}>
                      HTTP {a.statusCode}
                    </span>
                  )}
                </td>
                <td class="numeric">{number(a.durationMs)} ms</td>
                <td>{a.errorClass ? ERROR_TEXT[a.errorClass] : '—'}</td>
                <td>{a.redelivery ? 'Redelivery' : 'Automatic'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </li>
  );
}

export default function WebhookScreen(props: ScreenProps) {
  const id = Number(props.params.id);
  const valid = Number.isSafeInteger(id) && id > 0;
  const query = here.value.query;
  const page = Math.max(1, Number(query.get('page')) || 1);
  const status = (STATUSES as readonly string[]).includes(query.get('status') ?? '')
    ? (query.get('status') as Status)
    : undefined;

  const load = useLoad(async () => {
    if (!valid) return null;
    return (await unwrap(api.value.webhooks.getWebhook({ params: { id } }))).webhook;
  }, [id]);
  const log = useLoad(async () => {
    if (!valid) return null;
    const answer = await unwrap(
      api.value.webhooks.listDeliveries({
        params: { id },
        query: { ...pageQuery(page, PAGE_SIZE), ...(status ? { status } : {}) },
      }),
    );
    return { ...answer, page };
  }, [id, page, status]);

  const [editing, setEditing] = useState(false);
  const [rotating, setRotating] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [toggling, setToggling] = useState(false);

  // A redelivery asked for here: the log refreshes until its attempt shows (for 30 s at most).
  const [awaiting, setAwaiting] = useState<{ deliveryId: string; attempts: number; until: number } | null>(
    null,
  );
  // While a delivery is on its way, the log refreshes itself.
  const watched = awaiting && log.data?.deliveries.find((d) => d.deliveryId === awaiting.deliveryId);
  const redelivered = !watched || !awaiting || watched.attempts.length > awaiting.attempts;
  const inFlight =
    (log.data?.deliveries.some((d) => d.status === 'pending') ?? false) ||
    (awaiting !== null && !redelivered && Date.now() < awaiting.until);
  useEffect(() => {
    if (awaiting && redelivered) setAwaiting(null);
    if (!inFlight) return;
    const timer = setTimeout(log.reload, 1000);
    return () => clearTimeout(timer);
  }, [log.data, inFlight]);

  const webhook = load.data;
  if (!valid || load.data === null) {
    return (
      <div>
        <PageHeader title="Webhook" />
        <ErrorMessage message="There is no webhook at this address." />
        <Link to="/settings/webhooks">Back to webhooks</Link>
      </div>
    );
  }

  const setActive = async (isActive: boolean) => {
    setToggling(true);
    setNotice(null);
    setError(null);
    try {
      await unwrap(api.value.webhooks.updateWebhook({ params: { id }, body: { is_active: isActive } }));
      setNotice(
        isActive ? 'The endpoint is enabled: new events are sent to it.' : 'The endpoint is disabled.',
      );
      load.reload();
    } catch (err) {
      setError(describeError(err).message);
    } finally {
      setToggling(false);
    }
  };

  const redeliver = async (delivery: webhooks.Delivery) => {
    setNotice(null);
    setError(null);
    try {
      await unwrap(api.value.webhooks.redeliver({ params: { id, deliveryId: delivery.deliveryId } }));
      setNotice(`Redelivery of ${delivery.event} queued: its attempt shows below once made.`);
      setAwaiting({
        deliveryId: delivery.deliveryId,
        attempts: delivery.attempts.length,
        until: Date.now() + 30_000,
      });
      log.reload();
    } catch (err) {
      setError(describeError(err).message);
    }
  };

  const deliveries = log.data;
  const totalPages = deliveries ? pagesOf(deliveries.total_count, PAGE_SIZE) : 1;

  return (
    <div class="settings">
      <p class="breadcrumb">
        <Link to="/settings/webhooks">Webhooks</Link> <span aria-hidden="true">/</span>
      </p>
      <PageHeader title={webhook ? webhook.url : 'Webhook'}>
        {webhook ? (
          <>
            {can('updateWebhook') ? (
              <>
                <Button onClick={() => setEditing(true)}>Edit</Button>
                <Button busy={toggling} onClick={() => void setActive(!webhook.is_active)}>
                  {webhook.is_active ? 'Disable' : 'Enable'}
                </Button>
              </>
            ) : null}
            {can('rotateSecret') ? (
              <Button
                onClick={() => {
                  setSecret(null);
                  setRotating(true);
                }}
              >
                Rotate secret
              </Button>
            ) : null}
            {can('deleteWebhook') ? (
              <Button kind="danger" onClick={() => setDeleting(true)}>
                Delete
              </Button>
            ) : null}
          </>
        ) : null}
      </PageHeader>

      {load.loading && !webhook ? <Loading /> : null}
      <ErrorMessage message={load.error} onRetry={load.reload} />
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      <ErrorMessage message={error} />

      {secret ? (
        <section class="panel created" aria-labelledby="new-secret">
          <h2 id="new-secret">Secret rotated</h2>
          <p>
            Requests are signed with this secret from now on. For 24 hours they also carry a signature with
            the old one, so switch your receiver before then.
          </p>
          <Secret label="New signing secret" value={secret} />
          <Button onClick={() => setSecret(null)}>Done</Button>
        </section>
      ) : null}

      {webhook ? (
        <section class="panel">
          <dl class="facts">
            <dt>Status</dt>
            <dd>
              <Badge value={webhook.is_active ? 'active' : 'disabled'} />
              {webhook.disabled_reason ? <span class="hint"> {webhook.disabled_reason}</span> : null}
            </dd>
            <dt>URL</dt>
            <dd class="mono">{webhook.url}</dd>
            <dt>Events</dt>
            <dd>
              <ul class="tag-list">
                {webhook.events.map((e) => (
                  <li key={e}>
                    <code>{e}</code>
                  </li>
                ))}
              </ul>
            </dd>
            <dt>Created</dt>
            <dd>{dateTime(webhook.dateCreated)}</dd>
            <dt>Updated</dt>
            <dd>{dateTime(webhook.dateUpdated)}</dd>
            <dt>Endpoint id</dt>
            <dd>
              <code>{webhook.id}</code>
            </dd>
          </dl>
        </section>
      ) : null}

      <div class="section-header">
        <h2>Deliveries</h2>
        <div class="filters">
          <Select
            label="Status"
            name="status"
            value={status ?? ''}
            options={[{ value: '', label: 'All' }, ...STATUSES.map((s) => ({ value: s, label: s }))]}
            onValue={(value) => navigate(withQuery({ status: value, page: null }), { replace: true })}
          />
          <Button onClick={log.reload} busy={log.loading && Boolean(deliveries)}>
            Refresh
          </Button>
          {valid ? (
            <ExportButton
              route={contract.webhooks.listDeliveries}
              params={{ id }}
              query={{ status }}
              what="the deliveries"
            />
          ) : null}
        </div>
      </div>
      {log.loading && !deliveries ? <Loading /> : null}
      <ErrorMessage message={log.error} onRetry={log.reload} />
      {deliveries ? (
        deliveries.deliveries.length === 0 ? (
          <Empty title={status ? `No ${status} deliveries` : 'No deliveries yet'}>
            <p>
              {status
                ? 'Choose “All” to see every delivery.'
                : 'A delivery appears here when one of the endpoint’s events happens in the business.'}
            </p>
          </Empty>
        ) : (
          <>
            <ul class="deliveries" aria-label="Deliveries">
              {deliveries.deliveries.map((d) => (
                <DeliveryItem
                  key={d.deliveryId}
                  delivery={d}
                  active={webhook?.is_active ?? false}
                  onRedeliver={redeliver}
                />
              ))}
            </ul>
            <Pager page={deliveries.page} totalPages={totalPages} total={deliveries.total_count} />
          </>
        )
      ) : null}

      {webhook ? (
        <EditDialog
          webhook={webhook}
          open={editing}
          onClose={() => setEditing(false)}
          onSaved={() => {
            setNotice('The endpoint was updated.');
            load.reload();
          }}
        />
      ) : null}
      <ConfirmDialog
        open={rotating}
        title="Rotate the signing secret?"
        confirmLabel="Rotate secret"
        kind="primary"
        onClose={() => setRotating(false)}
        onConfirm={async () => {
          const rotated = await unwrap(api.value.webhooks.rotateSecret({ params: { id } }));
          setSecret(rotated.secret);
          setNotice(null);
        }}
      >
        <p>
          A new secret signs every request from now on. The old one stays valid beside it for 24 hours, so
          your receiver keeps working while you switch.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={deleting}
        title="Delete this endpoint?"
        confirmLabel="Delete endpoint"
        onClose={() => setDeleting(false)}
        onConfirm={async () => {
          await unwrap(api.value.webhooks.deleteWebhook({ params: { id } }));
          navigate('/settings/webhooks');
        }}
      >
        <p>
          No more events are sent to <code>{webhook?.url}</code>, pending retries stop, and its delivery log
          is deleted.
        </p>
      </ConfirmDialog>
    </div>
  );
}
