import { useEffect, useState } from 'preact/hooks';
import { audit, contract, unwrap } from '../../../client/index.js';
import { ExportButton } from '../../components/csv.js';
import { Filters } from '../../components/list-page.js';
import {
  Button,
  Empty,
  ErrorMessage,
  Field,
  Link,
  Loading,
  PageHeader,
  Pager,
  Select,
  Table,
} from '../../components/ui.js';
import { dateTime, minorMoney } from '../../lib/format.js';
import { auditSentence, operationLabel, sentenceText } from '../../lib/audit-messages.js';
import { useLoad } from '../../lib/forms.js';
import { here, navigate, withQuery } from '../../lib/router.js';
import { api } from '../../lib/api.js';
import { allowed, session } from '../../lib/session.js';
import type { ScreenProps } from '../../lib/screen.js';
import { pagesOf } from '../../lib/lists.js';

const PAGE_SIZE = 50;
type TextFilter = 'actor_id' | 'resource_id';

/** Changes only: the operations of the contract a read never is (the audit log records no GET). */
function changes(router: object, found: string[] = []): string[] {
  for (const [name, entry] of Object.entries(router) as [string, Record<string, unknown>][]) {
    if (typeof entry.method === 'string' && typeof entry.path === 'string') {
      if (entry.method !== 'GET') found.push(name);
    } else changes(entry, found);
  }
  return found;
}

/** The changes by what they do, for the filter. */
const OPERATIONS = changes(contract)
  .map((op) => ({ value: op, label: operationLabel(op) }))
  .sort((a, b) => a.label.localeCompare(b.label));

/** Changes made, attempts refused for lack of permission, or both. */
const OUTCOMES = [
  { value: '', label: 'Changes and refusals' },
  { value: 'success', label: 'Changes made' },
  { value: 'denied', label: 'Refused attempts' },
];
const outcomeOf = (value: string | null): audit.AuditOutcome | undefined =>
  value === 'success' || value === 'denied' ? value : undefined;

/** An entry as a sentence, its resource a link to its screen where the dashboard has one. */
function Change(props: { entry: audit.AuditEntry }) {
  const parts = auditSentence(props.entry, minorMoney);
  return (
    <span
      class={props.entry.outcome === 'denied' ? 'audit-change audit-denied' : 'audit-change'}
      title={sentenceText(parts)}
    >
      {parts.map((part, i) =>
        'text' in part ? (
          part.text
        ) : part.resource.to ? (
          <Link key={i} to={part.resource.to}>
            {part.resource.label}
          </Link>
        ) : (
          <span key={i}>{part.resource.label}</span>
        ),
      )}
    </span>
  );
}

/** A date of the filter (`2026-11-26`, the browser's calendar) as the instant its day starts. */
function startOfDay(value: string, plusDays = 0): string | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return undefined;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + plusDays).toISOString();
}

/** Who an actor is: a member's email, an API key's name, else its id. */
function useActors(): Map<string, string> {
  const canTeam = allowed('team.read');
  const canKeys = allowed('api_keys.manage');
  const load = useLoad(async () => {
    const names = new Map<string, string>();
    const [team, keys] = await Promise.all([
      canTeam ? unwrap(api.value.team.getTeam()).catch(() => null) : null,
      canKeys ? unwrap(api.value.auth.listApiKeys()).catch(() => null) : null,
    ]);
    for (const m of team?.data.members ?? []) names.set(m.userId, m.email);
    for (const k of keys?.data ?? []) names.set(k.id, `API key “${k.name}”`);
    return names;
  }, [canTeam, canKeys]);
  return load.data ?? new Map<string, string>();
}

/** A text filter typed into a field: the URL follows a moment after the last key. */
function useTypedFilter(key: TextFilter): [string, (value: string) => void] {
  const fromUrl = here.value.query.get(key) ?? '';
  const [value, setValue] = useState(fromUrl);
  useEffect(() => setValue(fromUrl), [fromUrl]);
  useEffect(() => {
    if (value.trim() === fromUrl) return;
    const timer = setTimeout(
      () => navigate(withQuery({ [key]: value.trim(), page: null }), { replace: true }),
      400,
    );
    return () => clearTimeout(timer);
  }, [value]);
  return [value, setValue];
}

export default function AuditLog(_props: ScreenProps) {
  const query = here.value.query;
  const page = Math.max(1, Math.floor(Number(query.get('page'))) || 1);
  const outcome = outcomeOf(query.get('outcome'));
  const filters = {
    actor_id: query.get('actor_id') ?? '',
    resource_id: query.get('resource_id') ?? '',
    operation: query.get('operation') ?? '',
    outcome: outcome ?? '',
    from: query.get('from') ?? '',
    to: query.get('to') ?? '',
  };
  const key = JSON.stringify([filters, page]);

  const from = startOfDay(filters.from);
  const to = startOfDay(filters.to, 1);
  /** What the filters select, for the page and for the export. */
  const selected = {
    ...(filters.actor_id ? { actor_id: filters.actor_id } : {}),
    ...(filters.resource_id ? { resource_id: filters.resource_id } : {}),
    ...(filters.operation ? { operation: filters.operation } : {}),
    ...(outcome ? { outcome } : {}),
    ...(from ? { from } : {}),
    ...(to ? { to } : {}),
  };

  const load = useLoad(async () => {
    const request: audit.ListAuditLogQuery = {
      limit: PAGE_SIZE,
      offset: (page - 1) * PAGE_SIZE,
      ...selected,
    };
    // The page travels with its answer, so the pager never shows a page the rows are not of.
    return { ...(await unwrap(api.value.auditLog.listAuditLog({ query: request }))), page };
  }, [key]);

  const actors = useActors();
  const [actor, setActor] = useTypedFilter('actor_id');
  const [resource, setResource] = useTypedFilter('resource_id');
  const filtered = Object.values(filters).some(Boolean);
  const data = load.data;
  const totalPages = data ? pagesOf(data.total_count, PAGE_SIZE) : 1;
  const me = session.value?.info.user?.id;

  return (
    <div>
      <PageHeader title="Audit log">
        <ExportButton route={contract.auditLog.listAuditLog} query={selected} />
      </PageHeader>
      <p class="lead">
        Every change made to the business, by a person or an API key, newest first, and every attempt refused
        for lack of permission (once a minute per person and action). Entries cannot be changed or deleted and
        are kept for at least two years.
      </p>
      <Filters label="Filter the audit log" class="audit-filters">
        <Select
          label="Change"
          name="operation"
          value={filters.operation}
          options={[{ value: '', label: 'Every change' }, ...OPERATIONS]}
          onValue={(v) => navigate(withQuery({ operation: v || null, page: null }), { replace: true })}
        />
        <Select
          label="Outcome"
          name="outcome"
          value={filters.outcome}
          options={OUTCOMES}
          onValue={(v) => navigate(withQuery({ outcome: v || null, page: null }), { replace: true })}
        />
        <Field
          label="Actor id"
          name="actor_id"
          value={actor}
          onValue={setActor}
          autoComplete="off"
          placeholder="usr_… or key_…"
        />
        <Field
          label="Resource id"
          name="resource_id"
          value={resource}
          onValue={setResource}
          autoComplete="off"
        />
        <Field
          label="From"
          name="from"
          type="date"
          value={filters.from}
          onValue={(v) => navigate(withQuery({ from: v, page: null }), { replace: true })}
        />
        <Field
          label="To (inclusive)"
          name="to"
          type="date"
          value={filters.to}
          onValue={(v) => navigate(withQuery({ to: v, page: null }), { replace: true })}
        />
        {filtered ? (
          <Button
            onClick={() =>
              navigate(
                withQuery({
                  actor_id: null,
                  resource_id: null,
                  operation: null,
                  outcome: null,
                  from: null,
                  to: null,
                  page: null,
                }),
                { replace: true },
              )
            }
          >
            Clear filters
          </Button>
        ) : null}
      </Filters>

      {load.loading && !data ? <Loading /> : null}
      <ErrorMessage message={load.error} onRetry={load.reload} />
      {data ? (
        data.entries.length === 0 ? (
          <Empty title={filtered ? 'No changes match these filters' : 'No changes recorded yet'}>
            <p>
              {filtered
                ? 'Widen the dates or clear a filter.'
                : 'Each change made through the dashboard or the API (a customer created, a key revoked) appears here.'}
            </p>
          </Empty>
        ) : (
          <>
            <div
              class={`audit-table${load.loading ? ' stale' : ''}`}
              aria-busy={load.loading ? 'true' : undefined}
            >
              <Table
                caption="Audit log entries"
                rows={data.entries}
                rowKey={(e) => e.id}
                columns={[
                  {
                    label: 'Time',
                    render: (e) => (
                      <time dateTime={e.occurred_at} title={e.occurred_at}>
                        {dateTime(e.occurred_at)}
                      </time>
                    ),
                  },
                  {
                    label: 'Actor',
                    render: (e) => (
                      <Link to={withQuery({ actor_id: e.actor.id, page: null })}>
                        <span title={e.actor.id}>
                          {actors.get(e.actor.id) ?? e.actor.id}
                          {e.actor.id === me ? ' (you)' : ''}
                        </span>
                      </Link>
                    ),
                  },
                  {
                    label: 'Change',
                    render: (e) => <Change entry={e} />,
                  },
                  {
                    label: 'Request id',
                    render: (e) => (
                      <code class="request-id" title={e.request_id}>
                        {e.request_id}
                      </code>
                    ),
                  },
                ]}
              />
            </div>
            <Pager page={data.page} totalPages={totalPages} total={data.total_count} />
          </>
        )
      ) : null}
    </div>
  );
}
