import { useState } from 'preact/hooks';
import { contract, marketing, unwrap } from '../../../client/index.js';
import { DialogForm } from '../../components/form-dialog.js';
import { ListPage } from '../../components/list-page.js';
import { Badge, Field, Link, TextArea } from '../../components/ui.js';
import { dateTime, number } from '../../lib/format.js';
import { useForm } from '../../lib/forms.js';
import { usePagedList } from '../../lib/list-query.js';
import { oneOf } from '../../lib/lists.js';
import { here, navigate } from '../../lib/router.js';
import type { ScreenProps } from '../../lib/screen.js';
import { api } from '../../lib/api.js';

/** Segments: by status, paged from the URL; a new one named here, its conditions built on its page. */

const SIZE = 20;
const STATUSES = ['active', 'archived'] as const;

function NewSegment(props: { onCancel: () => void }) {
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const form = useForm();
  return (
    <DialogForm
      form={form}
      submit="Create segment"
      onCancel={props.onCancel}
      onSubmit={() => {
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
    </DialogForm>
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
  const status = oneOf(here.value.query, 'status', STATUSES);
  const list = usePagedList(
    SIZE,
    (paging) => api.value.marketing.segments.listSegments({ query: { status, ...paging } }),
    (answer) => ({ rows: answer.segments, total: answer.total_count }),
    [status],
  );
  return (
    <ListPage
      title="Segments"
      export={{ route: contract.marketing.segments.listSegments, query: { status } }}
      create={{
        operation: 'createSegment',
        label: 'New segment',
        form: (close) => <NewSegment onCancel={close} />,
      }}
      lead="A segment is the audience of a campaign: the contacts (customers) meeting its conditions, counted live."
      tabs={{ label: 'Segment status', values: STATUSES, current: status }}
      list={list}
      filtered={{
        active: !!status,
        title: `No ${status} segments`,
        clear: ['status'],
        show: 'Show every segment',
      }}
      empty={{
        title: 'No segments yet',
        canAdd:
          'Create a segment with New segment, then choose who is in it: customers on a plan, those who joined this year, everyone.',
        cannotAdd: 'Segments appear here once someone with marketing permissions creates one.',
      }}
      table={{
        caption: 'Segments',
        rowKey: (s) => s.id,
        columns: [
          {
            label: 'Name',
            render: (s) => <Link to={`/marketing/segments/${s.id}`}>{s.name}</Link>,
          },
          { label: 'Who', render: conditionsSummary },
          { label: 'Contacts', numeric: true, render: (s) => number(s.contact_count) },
          { label: 'Status', render: (s) => <Badge value={s.status} /> },
          { label: 'Changed', render: (s) => dateTime(s.updated_at) },
        ],
      }}
    />
  );
}
