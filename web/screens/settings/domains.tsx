import { useState } from 'preact/hooks';
import { contract, marketing, unwrap } from '../../../client/index.js';
import { ExportButton } from '../../components/csv.js';
import {
  Badge,
  Button,
  Empty,
  ErrorMessage,
  Field,
  Loading,
  Notice,
  PageHeader,
} from '../../components/ui.js';
import { dateTime } from '../../lib/format.js';
import { useForm, useLoad } from '../../lib/forms.js';
import { api, can } from '../../lib/api.js';
import type { ScreenProps } from '../../lib/screen.js';
import { ConfirmDialog } from '../../components/confirm.js';
import { CopyButton } from '../../components/copy-button.js';
import { useAction } from '../../lib/action.js';

type Domain = marketing.Domain;
type DnsRecord = Domain['verification'][number];

const PURPOSE: Record<DnsRecord['purpose'], string> = {
  ownership: 'Ownership',
  dkim: 'DKIM signing key',
};

function RecordItem(props: { record: DnsRecord; checked: boolean }) {
  const { record, checked } = props;
  const what = PURPOSE[record.purpose];
  return (
    <li class="dns-record">
      <div class="dns-record-head">
        <h3>{what}</h3>
        <span class="hint">{record.type} record</span>
        {record.verified ? (
          <Badge value="verified" />
        ) : checked ? (
          <span class="badge badge-failed">not found</span>
        ) : (
          <span class="badge badge-pending">not checked</span>
        )}
      </div>
      <dl class="dns-fields">
        <dt>Name</dt>
        <dd class="copyable">
          <code class="dns-text">{record.name}</code>
          <CopyButton value={record.name} what={`the name of the ${what} record`} />
        </dd>
        <dt>Value</dt>
        <dd class="copyable">
          <code class="dns-text">{record.value}</code>
          <CopyButton value={record.value} what={`the value of the ${what} record`} />
        </dd>
      </dl>
    </li>
  );
}

function DomainCard(props: {
  domain: Domain;
  checked: boolean;
  onVerified: (domain: Domain) => void;
  onDelete: (domain: Domain) => void;
}) {
  const { domain } = props;
  const verifying = useAction();
  const headingId = `domain-${domain.id}`;
  const missing = domain.verification.filter((r) => !r.verified).map((r) => PURPOSE[r.purpose]);
  return (
    <section class="panel domain" aria-labelledby={headingId}>
      <div class="domain-head">
        <h2 id={headingId}>{domain.domain}</h2>
        <Badge value={domain.status} />
        <div class="actions push-right">
          {can('verifyDomain') && domain.status !== 'verified' ? (
            <Button
              kind="primary"
              busy={verifying.busy}
              aria-label={`Verify ${domain.domain}`}
              onClick={() =>
                void verifying.run(
                  () => unwrap(api.value.marketing.domains.verifyDomain({ params: { id: domain.id } })),
                  (answer) => props.onVerified(answer.domain),
                )
              }
            >
              Verify
            </Button>
          ) : null}
          {can('deleteDomain') ? (
            <Button
              class="button danger"
              aria-label={`Delete ${domain.domain}`}
              onClick={() => props.onDelete(domain)}
            >
              Delete
            </Button>
          ) : null}
        </div>
      </div>
      {domain.status === 'verified' ? (
        <p class="hint">
          Verified {dateTime(domain.verified_at)}. Campaign mail from addresses at this domain is signed with
          its DKIM key.
        </p>
      ) : props.checked ? (
        <Notice kind="warning">
          Not verified yet: {missing.join(' and ')} {missing.length === 1 ? 'record was' : 'records were'} not
          found. DNS changes can take a while to spread; publish the records exactly as shown and verify
          again.
        </Notice>
      ) : (
        <p class="hint">
          Publish these two TXT records at your DNS provider, then choose Verify. Mail can be sent from this
          domain once both are found.
        </p>
      )}
      <ErrorMessage message={verifying.error} />
      <ul class="dns-records" aria-label={`DNS records for ${domain.domain}`}>
        {domain.verification.map((record) => (
          <RecordItem key={record.purpose} record={record} checked={props.checked} />
        ))}
      </ul>
    </section>
  );
}

export default function Domains(_props: ScreenProps) {
  const load = useLoad(async () => (await unwrap(api.value.marketing.domains.listDomains())).domains, []);
  const [domains, setDomains] = useState<Domain[] | null>(null);
  /** Domains verified at least once on this page: their missing records were looked for. */
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const [name, setName] = useState('');
  const [deleting, setDeleting] = useState<Domain | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const form = useForm();
  const list = domains ?? load.data;
  const writable = can('createDomain');

  const replace = (domain: Domain) => setDomains((list ?? []).map((d) => (d.id === domain.id ? domain : d)));

  const add = (event: Event) => {
    event.preventDefault();
    setNotice(null);
    void form
      .submit(
        marketing.CreateDomainBodySchema,
        { domain: name },
        async (body) => (await unwrap(api.value.marketing.domains.createDomain({ body }))).domain,
      )
      .then((created) => {
        if (!created) return;
        setName('');
        setDomains([...(list ?? []), created].sort((a, b) => a.domain.localeCompare(b.domain)));
        setNotice(
          created.status === 'verified'
            ? `${created.domain} is added and already verified.`
            : `${created.domain} is added: publish its two DNS records, then verify it.`,
        );
      });
  };

  return (
    <div class="settings">
      <PageHeader title="Sender domains">
        <ExportButton route={contract.marketing.domains.listDomains} />
      </PageHeader>
      <p class="lead">
        Campaigns send from addresses at your own verified domains. Each domain needs two TXT records: one
        proves you own it, one publishes the key that signs your mail (DKIM).
      </p>

      {writable ? (
        <form class="panel add-domain" onSubmit={add} noValidate>
          <div class="inline-form">
            <Field
              label="Domain"
              name="domain"
              placeholder="mail.example.com"
              value={name}
              onValue={setName}
              error={form.errors.domain}
              hint="The part after the @ of the addresses you will send from."
              autoComplete="off"
            />
            <Button type="submit" kind="primary" busy={form.busy}>
              Add domain
            </Button>
          </div>
          <ErrorMessage message={form.message} />
        </form>
      ) : null}

      {notice ? <Notice kind="success">{notice}</Notice> : null}
      {load.loading && !list ? <Loading /> : null}
      <ErrorMessage message={load.error} onRetry={load.reload} />
      {list ? (
        list.length === 0 ? (
          <Empty title="No sender domains yet">
            <p>
              {writable
                ? 'Add the domain you send campaign mail from; you will get the DNS records to publish.'
                : 'Someone with marketing access can add the domains campaigns send from.'}
            </p>
          </Empty>
        ) : (
          list.map((domain) => (
            <DomainCard
              key={domain.id}
              domain={domain}
              checked={checked.has(domain.id)}
              onVerified={(verified) => {
                replace(verified);
                setChecked(new Set([...checked, verified.id]));
                setNotice(verified.status === 'verified' ? `${verified.domain} is verified.` : null);
              }}
              onDelete={(d) => {
                setNotice(null);
                setDeleting(d);
              }}
            />
          ))
        )
      ) : null}

      <ConfirmDialog
        open={deleting !== null}
        title="Delete this sender domain?"
        confirmLabel="Delete domain"
        onClose={() => setDeleting(null)}
        onConfirm={async () => {
          const domain = deleting!;
          await unwrap(api.value.marketing.domains.deleteDomain({ params: { id: domain.id } }));
          setDomains((list ?? []).filter((d) => d.id !== domain.id));
          setNotice(`${domain.domain} was deleted.`);
        }}
      >
        <p>
          Campaigns can no longer send from <strong>{deleting?.domain}</strong>. A domain a template still
          sends from cannot be deleted.
        </p>
      </ConfirmDialog>
    </div>
  );
}
