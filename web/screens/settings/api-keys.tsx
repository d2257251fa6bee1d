import { useState } from 'preact/hooks';
import { auth, contract, unwrap } from '../../../client/index.js';
import { ExportButton } from '../../components/csv.js';
import {
  Button,
  Empty,
  ErrorMessage,
  Field,
  Loading,
  Notice,
  PageHeader,
  Secret,
  Table,
} from '../../components/ui.js';
import { FormDialog, useDraftDialog } from '../../components/form-dialog.js';
import { dateTime } from '../../lib/format.js';
import { useLoad } from '../../lib/forms.js';
import { api, can } from '../../lib/api.js';
import { inSandbox } from '../../lib/session.js';
import { useNotice } from '../../components/outcome.js';
import type { ScreenProps } from '../../lib/screen.js';
import { ConfirmDialog } from '../../components/confirm.js';

type Scope = auth.ApiKeyScope;

const SCOPES: { value: Scope; label: string; help: string }[] = [
  {
    value: 'full',
    label: 'Full access',
    help: 'A secret key for your own servers: every API route, acting as an admin. Never put it in a browser or app.',
  },
  {
    value: 'public_loyalty',
    label: 'Public loyalty',
    help: 'For a till or a customer-facing app: only the public loyalty routes (look up members, earn and redeem points).',
  },
];

const scopeLabel = (scope: Scope) => SCOPES.find((s) => s.value === scope)?.label ?? scope;

function CreateDialog(props: {
  open: boolean;
  onClose: () => void;
  onCreated: (key: auth.CreatedApiKey) => void;
}) {
  const { draft, set, bind, form, dialog } = useDraftDialog({
    open: props.open,
    onClose: props.onClose,
    initial: () => ({ name: '', scope: 'full' }),
    send: (body, form) =>
      form.submit(
        auth.CreateApiKeyBodySchema,
        body,
        async (body) => (await unwrap(api.value.auth.createApiKey({ body }))).data,
      ),
    onDone: props.onCreated,
  });
  return (
    <FormDialog title="Create an API key" submit="Create key" {...dialog}>
      <Field
        label="Name"
        {...bind('name')}
        hint="What uses it, to recognise it later: “Till 1”, “Accounting sync”."
        autoComplete="off"
        required
      />
      <fieldset class="choice scopes">
        <legend>Scope</legend>
        {SCOPES.map((s) => (
          <label key={s.value} class="scope">
            <input
              type="radio"
              name="scope"
              value={s.value}
              checked={draft.scope === s.value}
              onChange={() => set('scope')(s.value)}
            />
            <span>
              <strong>{s.label}</strong>
              <small class="hint">{s.help}</small>
            </span>
          </label>
        ))}
        {form.errors.scope ? (
          <small class="error" role="alert">
            {form.errors.scope}
          </small>
        ) : null}
      </fieldset>
    </FormDialog>
  );
}

export default function ApiKeys(_props: ScreenProps) {
  const load = useLoad(async () => (await unwrap(api.value.auth.listApiKeys())).data, []);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<auth.CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<auth.ApiKey | null>(null);
  const { notice, setNotice, opens } = useNotice();
  const keys = load.data;

  return (
    <div class="settings">
      <PageHeader title="API keys">
        <ExportButton route={contract.auth.listApiKeys} />
        {can('createApiKey') ? (
          <Button kind="primary" onClick={opens(setCreating)}>
            Create API key
          </Button>
        ) : null}
      </PageHeader>
      <p class="lead">
        Keys let your servers and tills call the API as this business
        {inSandbox.value
          ? ' (sandbox keys start with bms_sk_test_ or bms_pk_test_ and reach only test data)'
          : ''}
        . Send a full-access key as <code>Authorization: Bearer</code>; read the{' '}
        <a href="/docs">API reference</a>.
      </p>

      {created ? (
        <section class="panel created" aria-labelledby="created-key-title">
          <h2 id="created-key-title">Key “{created.name}” created</h2>
          <Notice kind="warning">
            Copy this key now and keep it somewhere safe: it will not be shown again. Afterwards the list
            shows only its first characters.
          </Notice>
          <Secret label={`API key “${created.name}”`} value={created.key} />
          <Button onClick={() => setCreated(null)}>Done</Button>
        </section>
      ) : null}
      {notice ? <Notice kind="success">{notice}</Notice> : null}

      {load.loading && !keys ? <Loading /> : null}
      <ErrorMessage message={load.error} onRetry={load.reload} />
      {keys ? (
        keys.length === 0 ? (
          <Empty title="No API keys yet">
            <p>Create a key to connect a point of sale, a website or your own server to this business.</p>
            {can('createApiKey') ? (
              <Button kind="primary" onClick={() => setCreating(true)}>
                Create API key
              </Button>
            ) : null}
          </Empty>
        ) : (
          <Table
            caption="API keys"
            rows={keys}
            rowKey={(k) => k.id}
            columns={[
              { label: 'Name', render: (k) => <strong>{k.name}</strong> },
              {
                label: 'Scope',
                render: (k) => <span class={`scope-tag scope-${k.scope}`}>{scopeLabel(k.scope)}</span>,
              },
              {
                label: 'Key',
                render: (k) => <code class="key-prefix">{k.prefix}…</code>,
              },
              { label: 'Created', render: (k) => dateTime(k.createdAt) },
              { label: 'Last used', render: (k) => (k.lastUsedAt ? dateTime(k.lastUsedAt) : 'Never') },
              {
                label: 'Actions',
                render: (k) =>
                  can('revokeApiKey') && (
                    <Button
                      class="button danger small"
                      aria-label={`Revoke ${k.name}`}
                      onClick={() => {
                        setNotice(null);
                        setRevoking(k);
                      }}
                    >
                      Revoke
                    </Button>
                  ),
              },
            ]}
          />
        )
      ) : null}

      <CreateDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(key) => {
          setCreated(key);
          load.reload();
        }}
      />
      <ConfirmDialog
        open={revoking !== null}
        title="Revoke this API key?"
        confirmLabel="Revoke key"
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          const key = revoking!;
          await unwrap(api.value.auth.revokeApiKey({ params: { id: key.id } }));
          if (created?.id === key.id) setCreated(null);
          setNotice(`The key “${key.name}” was revoked.`);
          load.reload();
        }}
      >
        <p>
          Requests with <strong>{revoking?.name}</strong> (<code>{revoking?.prefix}…</code>) are refused from
          now on. Whatever uses it stops working until given a new key. This cannot be undone.
        </p>
      </ConfirmDialog>
    </div>
  );
}
