import { useState } from 'preact/hooks';
import { contract, marketing, unwrap } from '../../../client/index.js';
import { ExportButton } from '../../components/csv.js';
import {
  Badge,
  Button,
  Dialog,
  ErrorMessage,
  Field,
  Link,
  PageHeader,
  Table,
  TextArea,
} from '../../components/ui.js';
import { dateTime, number } from '../../lib/format.js';
import { useForm, useLoad } from '../../lib/forms.js';
import { oneOf, pageOf, pageQuery } from '../../lib/lists.js';
import { summaryOf } from '../../lib/refusals.js';
import { here, navigate } from '../../lib/router.js';
import { api, can } from '../../lib/session.js';
import type { ScreenProps } from '../../lib/screen.js';
import { StatusTabs } from '../../components/status-tabs.js';
import { PagedList } from '../../components/paged-list.js';

/** Segments: by status, paged from the URL; a new one named here, its conditions built on its page. */

const SIZE = 20;
const STATUSES = ['active', 'archived'] as const;

function NewSegment(props: { onCancel: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const form = useForm();
  return (
    <form
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void form
          .submit(
            marketing.CreateSegmentBodySchema,
            {
              name,
              description: description.trim() || undefined,
              filters: { match: 'all', conditions: [] },
            },
            (body) => unwrap(api.value.marketing.segments.createSegment({ body })),
          )
          .then((created) => {
            if (created) navigate(`/marketing/segments/${created.segment_id}`);
          });
      }}
    >
      <Field label="Name" name="name" value={name} onValue={setName} error={form.errors.name} required />
      <TextArea
        label="Description"
        name="description"
        value={description}
        onValue={setDescription}
        error={form.errors.description}
      />
      <p class="hint">A new segment holds every contact until you add conditions on its page.</p>
      <ErrorMessage message={summaryOf(form)} />
      <div class="dialog-actions">
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button type="submit" kind="primary" busy={form.busy}>
          Create segment
        </Button>
      </div>
    </form>
  );
}

const conditionsSummary = (s: marketing.Segment) => {
  const parts: string[] = [];
  if (s.filters) {
    parts.push(
      s.filters.conditions.length === 0
        ? 'Every contact'
        : `${s.filters.conditions.length} condition${s.filters.conditions.length === 1 ? '' : 's'} (${s.filters.match})`,
    );
  }
  if (s.listed_contacts > 0) parts.push(`${number(s.listed_contacts)} listed`);
  return parts.join(' + ') || 'Listed contacts only';
};

export default function Segments(_props: ScreenProps) {
  const query = here.value.query;
  const page = pageOf(query);
  const status = oneOf(query, 'status', STATUSES);
  const [creating, setCreating] = useState(false);
  const list = useLoad(
    () => unwrap(api.value.marketing.segments.listSegments({ query: { status, ...pageQuery(page, SIZE) } })),
    [page, status],
  );
  return (
    <>
      <PageHeader title="Segments">
        <ExportButton route={contract.marketing.segments.listSegments} query={{ status }} />
        {can('createSegment') ? (
          <Button kind="primary" onClick={() => setCreating(true)}>
            New segment
          </Button>
        ) : null}
      </PageHeader>
      <p class="lead">
        A segment is the audience of a campaign: the contacts (customers) meeting its conditions, counted
        live.
      </p>
      <StatusTabs label="Segment status" values={STATUSES} current={status} />
      <PagedList
        error={list.error}
        reload={list.reload}
        data={list.data && { rows: list.data.segments, total: list.data.total_count }}
        page={page}
        size={SIZE}
        filtered={{
          active: !!status,
          title: `No ${status} segments`,
          clear: ['status'],
          show: 'Show every segment',
        }}
        empty={{
          title: 'No segments yet',
          children: (
            <p>
              {can('createSegment')
                ? 'Create a segment with New segment, then choose who is in it: customers on a plan, those who joined this year, everyone.'
                : 'Segments appear here once someone with marketing permissions creates one.'}
            </p>
          ),
        }}
      >
        {(rows) => (
          <Table
            caption="Segments"
            rows={rows}
            rowKey={(s) => s.id}
            columns={[
              {
                label: 'Name',
                render: (s) => <Link to={`/marketing/segments/${s.id}`}>{s.name}</Link>,
              },
              { label: 'Who', render: conditionsSummary },
              { label: 'Contacts', numeric: true, render: (s) => number(s.contact_count) },
              { label: 'Status', render: (s) => <Badge value={s.status} /> },
              { label: 'Changed', render: (s) => dateTime(s.updated_at) },
            ]}
          />
        )}
      </PagedList>
      <Dialog title="New segment" open={creating} onClose={() => setCreating(false)}>
        <NewSegment onCancel={() => setCreating(false)} />
      </Dialog>
    </>
  );
}
