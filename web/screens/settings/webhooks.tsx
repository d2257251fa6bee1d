import { useState } from 'preact/hooks';
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
  Secret,
  Table,
} from '../../components/ui.js';
import { dateTime } from '../../lib/format.js';
import { useForm, useLoad } from '../../lib/forms.js';
import { api, can } from '../../lib/api.js';
import type { ScreenProps } from '../../lib/screen.js';

/** The service's limit (contract: MAX_WEBHOOKS_PER_BUSINESS). */
const LIMIT = webhooks.MAX_WEBHOOKS_PER_BUSINESS;

const eventsSummary = (events: readonly string[]) =>
  events.length <= 3 ? events.join(', ') : `${events.slice(0, 2).join(', ')} and ${events.length - 2} more`;

function CreateForm(props: {
  onCreated: (created: { id: number; secret: string; url: string }) => void;
  onCancel: () => void;
}) {
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<EventName[]>([]);
  const form = useForm();
  const submit = (event: Event) => {
    event.preventDefault();
    void form
      .submit(webhooks.CreateWebhookBodySchema, { url: url.trim(), events }, async (body) => {
        const created = await unwrap(api.value.webhooks.createWebhook({ body }));
        return { id: created.id, secret: created.secret, url: body.url };
      })
      .then((created) => {
        if (created) props.onCreated(created);
      });
  };
  return (
    <section class="panel" aria-labelledby="new-endpoint">
      <h2 id="new-endpoint">New endpoint</h2>
      <form onSubmit={submit} noValidate>
        <Field
          label="Endpoint URL"
          name="url"
          type="url"
          placeholder="https://example.com/webhooks/bms"
          value={url}
          onValue={setUrl}
          error={form.errors.url}
          hint="An HTTPS address of yours that answers 2xx. Each event is POSTed as JSON, signed with the endpoint's secret."
          autoComplete="off"
          required
        />
        <EventPicker value={events} onValue={setEvents} error={eventsMessage(form.errors.events)} />
        <ErrorMessage message={form.message} />
        <div class="form-actions">
          <Button type="submit" kind="primary" busy={form.busy}>
            Add endpoint
          </Button>
          <Button onClick={props.onCancel}>Cancel</Button>
        </div>
      </form>
    </section>
  );
}

export default function Webhooks(_props: ScreenProps) {
  const load = useLoad(async () => (await unwrap(api.value.webhooks.listWebhooks())).webhooks, []);
  const [adding, setAdding] = useState(false);
  const [created, setCreated] = useState<{ id: number; secret: string; url: string } | null>(null);
  const list = load.data;
  const full = (list?.length ?? 0) >= LIMIT;

  return (
    <div class="settings">
      <PageHeader title="Webhooks">
        <ExportButton route={contract.webhooks.listWebhooks} />
        {!adding && can('createWebhook') ? (
          <Button
            kind="primary"
            disabled={full}
            onClick={() => {
              setCreated(null);
              setAdding(true);
            }}
          >
            Add endpoint
          </Button>
        ) : null}
      </PageHeader>
      <p class="lead">
        Endpoints receive an HTTP POST when something changes in the business: a customer created, an invoice
        paid. Failed deliveries are retried for 5 days, and each endpoint keeps its delivery log.
      </p>
      {full ? (
        <Notice kind="warning">
          This business has {LIMIT} endpoints, the most it may have. Delete one to add another.
        </Notice>
      ) : null}

      {created ? (
        <section class="panel created" aria-labelledby="created-endpoint">
          <h2 id="created-endpoint">Endpoint added</h2>
          <p>
            <code>{created.url}</code> receives its events from now on. Verify each request's signature with
            this secret.
          </p>
          <Secret label="Signing secret" value={created.secret} />
          <div class="form-actions">
            <Link to={`/settings/webhooks/${created.id}`} class="button primary">
              Open the endpoint
            </Link>
            <Button onClick={() => setCreated(null)}>Done</Button>
          </div>
        </section>
      ) : null}

      {adding ? (
        <CreateForm
          onCancel={() => setAdding(false)}
          onCreated={(c) => {
            setAdding(false);
            setCreated(c);
            load.reload();
          }}
        />
      ) : null}

      {load.loading && !list ? <Loading /> : null}
      <ErrorMessage message={load.error} onRetry={load.reload} />
      {list ? (
        list.length === 0 ? (
          !adding ? (
            <Empty title="No endpoints yet">
              <p>Add an endpoint to have the service tell your systems about changes as they happen.</p>
              {can('createWebhook') ? (
                <Button kind="primary" onClick={() => setAdding(true)}>
                  Add endpoint
                </Button>
              ) : null}
            </Empty>
          ) : null
        ) : (
          <>
            <h2>Endpoints</h2>
            <Table
              caption="Webhook endpoints"
              rows={list}
              rowKey={(w) => String(w.id)}
              columns={[
                {
                  label: 'URL',
                  render: (w) => (
                    <Link to={`/settings/webhooks/${w.id}`} class="mono">
                      {w.url}
                    </Link>
                  ),
                },
                { label: 'Events', render: (w) => eventsSummary(w.events) },
                {
                  label: 'Status',
                  render: (w) => (
                    <span>
                      <Badge value={w.is_active ? 'active' : 'disabled'} />
                      {w.disabled_reason ? <small class="hint block">{w.disabled_reason}</small> : null}
                    </span>
                  ),
                },
                { label: 'Created', render: (w) => dateTime(w.dateCreated) },
              ]}
            />
            <p class="hint">
              {list.length} of {LIMIT} endpoints.
            </p>
          </>
        )
      ) : null}
    </div>
  );
}
