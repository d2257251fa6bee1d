import { useState } from 'preact/hooks';
import { contract, marketing, unwrap } from '../../../client/index.js';
import { ConfirmButton } from '../../components/confirm.js';
import {
  Badge,
  Button,
  Dialog,
  ErrorMessage,
  Field,
  Link,
  Notice,
  PageHeader,
  Select,
  TextArea,
} from '../../components/ui.js';
import { DialogForm } from '../../components/form-dialog.js';
import { RecordUnavailable } from '../../components/record.js';
import { ListSection } from '../../components/list-page.js';
import { usePagedList } from '../../lib/list-query.js';
import { date, dateTime, number } from '../../lib/format.js';
import { useForm, useLoad, type FieldErrors } from '../../lib/forms.js';
import { summaryOf } from '../../lib/refusals.js';
import { navigate } from '../../lib/router.js';
import { api, can } from '../../lib/api.js';
import type { ScreenProps } from '../../lib/screen.js';
import { useAction } from '../../lib/action.js';

/**
 * One segment: its conditions built from the fields and operators the service allows, the number of
 * contacts in it now and the contacts page; renamed, archived or deleted.
 */

type Segment = marketing.Segment;
type Operator = marketing.Operator;

const FIELD_NAMES: Record<string, string> = {
  email: 'Email',
  name: 'Name',
  first_name: 'First name',
  last_name: 'Last name',
  company: 'Company',
  created_at: 'Added on',
  unsubscribed: 'Opted out of marketing',
  attribute: 'Attribute…',
};
const FIELDS = [...marketing.TEXT_FIELDS, 'created_at', 'unsubscribed', 'attribute'] as const;

const OPERATOR_NAMES: Record<Operator, string> = {
  eq: 'is',
  neq: 'is not',
  contains: 'contains',
  starts_with: 'starts with',
  gt: 'is greater than',
  gte: 'is at least',
  lt: 'is less than',
  lte: 'is at most',
  in: 'is one of',
  exists: 'has a value',
};
const DATE_OPERATOR_NAMES: Partial<Record<Operator, string>> = {
  gt: 'is after',
  gte: 'is on or after',
  lt: 'is before',
  lte: 'is on or before',
};

/** A condition as the builder holds it: text fields, turned into the API's shape when saved. */
interface Row {
  field: (typeof FIELDS)[number];
  key: string;
  operator: Operator;
  value: string;
}

const kindOf = (row: Row) =>
  row.field === 'attribute' ? 'attribute' : (marketing.fieldKind(row.field) ?? 'text');

function operatorsOf(row: Row): readonly Operator[] {
  const kind = kindOf(row);
  if (kind === 'created_at') return ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'];
  if (kind === 'unsubscribed') return ['eq', 'neq'];
  return marketing.OPERATORS;
}

function toRow(condition: marketing.Condition): Row {
  const attribute = marketing.fieldKind(condition.field) === 'attribute';
  const value = condition.value;
  return {
    field: attribute ? 'attribute' : (condition.field as Row['field']),
    key: attribute ? marketing.attributeKey(condition.field) : '',
    operator: condition.operator,
    value: Array.isArray(value) ? value.join(', ') : value === undefined ? '' : String(value),
  };
}

function toCondition(row: Row): marketing.Condition {
  const field = row.field === 'attribute' ? `attributes.${row.key.trim()}` : row.field;
  const kind = kindOf(row);
  const text = row.value.trim();
  let value: marketing.Condition['value'];
  if (row.operator === 'exists' || kind === 'unsubscribed') value = text === 'true';
  else if (row.operator === 'in')
    value = text
      .split(',')
      .map((v) => v.trim())
      .filter(Boolean);
  else if (
    kind === 'attribute' &&
    ['gt', 'gte', 'lt', 'lte'].includes(row.operator) &&
    /^-?\d+(\.\d+)?$/.test(text)
  )
    value = Number(text);
  else value = row.value;
  return { field, operator: row.operator, value };
}

const blankRow = (): Row => ({ field: 'email', key: '', operator: 'contains', value: '' });

function ConditionRow(props: {
  row: Row;
  index: number;
  errors: FieldErrors;
  onChange: (row: Row) => void;
  onRemove: () => void;
}) {
  const { row, index } = props;
  const n = index + 1;
  const error = (part: string) => props.errors[`filters.conditions.${index}.${part}`];
  const kind = kindOf(row);
  const operators = operatorsOf(row);
  const set = (changes: Partial<Row>) => {
    const next = { ...row, ...changes };
    if (!operatorsOf(next).includes(next.operator)) next.operator = operatorsOf(next)[0]!;
    if (changes.operator === 'exists' || (changes.field === 'unsubscribed' && row.field !== 'unsubscribed'))
      next.value = 'true';
    props.onChange(next);
  };
  const booleanValue = row.operator === 'exists' || kind === 'unsubscribed';
  return (
    <li class="condition">
      <Select
        label={`Field, condition ${n}`}
        name={`field-${n}`}
        value={row.field}
        options={FIELDS.map((f) => ({ value: f, label: FIELD_NAMES[f]! }))}
        onValue={(field) => set({ field: field as Row['field'] })}
        error={error('field')}
      />
      {row.field === 'attribute' ? (
        <Field
          label={`Attribute key, condition ${n}`}
          name={`key-${n}`}
          value={row.key}
          onValue={(key) => set({ key })}
          placeholder="plan"
        />
      ) : null}
      <Select
        label={`Operator, condition ${n}`}
        name={`operator-${n}`}
        value={row.operator}
        options={operators.map((o) => ({
          value: o,
          label: (kind === 'created_at' ? DATE_OPERATOR_NAMES[o] : undefined) ?? OPERATOR_NAMES[o],
        }))}
        onValue={(operator) => set({ operator: operator as Operator })}
        error={error('operator')}
      />
      {booleanValue ? (
        <Select
          label={`Value, condition ${n}`}
          name={`value-${n}`}
          value={row.value === 'false' ? 'false' : 'true'}
          options={
            row.operator === 'exists'
              ? [
                  { value: 'true', label: 'yes' },
                  { value: 'false', label: 'no' },
                ]
              : [
                  { value: 'true', label: 'opted out' },
                  { value: 'false', label: 'subscribed' },
                ]
          }
          onValue={(value) => set({ value })}
          error={error('value')}
        />
      ) : (
        <Field
          label={`Value, condition ${n}`}
          name={`value-${n}`}
          type={kind === 'created_at' ? 'date' : 'text'}
          value={row.value}
          onValue={(value) => set({ value })}
          hint={row.operator === 'in' ? 'Separate values with commas' : undefined}
          error={error('value')}
        />
      )}
      <Button class="button secondary small remove" onClick={props.onRemove}>
        Remove<span class="visually-hidden"> condition {n}</span>
      </Button>
    </li>
  );
}

function FilterBuilder(props: { segment: Segment; onSaved: (segment: Segment) => void }) {
  const editable = can('updateSegment');
  const [match, setMatch] = useState<'all' | 'any'>(props.segment.filters?.match ?? 'all');
  const [rows, setRows] = useState<Row[]>(props.segment.filters?.conditions.map(toRow) ?? []);
  const [saved, setSaved] = useState(false);
  const form = useForm();
  const save = (e: Event) => {
    e.preventDefault();
    setSaved(false);
    void form
      .submit(
        marketing.UpdateSegmentBodySchema,
        { filters: { match, conditions: rows.map(toCondition) } },
        (body) =>
          unwrap(api.value.marketing.segments.updateSegment({ params: { id: props.segment.id }, body })),
      )
      .then((answer) => {
        if (!answer) return;
        setSaved(true);
        props.onSaved(answer.segment);
      });
  };
  return (
    <section class="panel" aria-labelledby="segment-conditions">
      <h2 id="segment-conditions">Who is in it</h2>
      {!editable ? (
        props.segment.filters ? (
          <ul class="plain-list">
            {props.segment.filters.conditions.length === 0 ? <li>Every contact.</li> : null}
            {props.segment.filters.conditions.map((c, i) => (
              <li key={i}>
                <code>{c.field}</code> {OPERATOR_NAMES[c.operator]}{' '}
                <code>{Array.isArray(c.value) ? c.value.join(', ') : String(c.value)}</code>
              </li>
            ))}
          </ul>
        ) : (
          <p>Only the contacts listed in it.</p>
        )
      ) : (
        <form onSubmit={save} noValidate class="filter-builder">
          <fieldset class="choice match">
            <legend>A contact is in the segment when it meets</legend>
            <label>
              <input
                type="radio"
                name="match"
                value="all"
                checked={match === 'all'}
                onChange={() => setMatch('all')}
              />{' '}
              all of the conditions
            </label>
            <label>
              <input
                type="radio"
                name="match"
                value="any"
                checked={match === 'any'}
                onChange={() => setMatch('any')}
              />{' '}
              any of them
            </label>
          </fieldset>
          {rows.length === 0 ? (
            <p class="hint">
              No conditions: every contact is in the segment
              {props.segment.listed_contacts > 0 ? ' (the listed contacts too)' : ''}. Add a condition to
              narrow it.
            </p>
          ) : (
            <ol class="conditions">
              {rows.map((row, i) => (
                <ConditionRow
                  key={i}
                  row={row}
                  index={i}
                  errors={form.errors}
                  onChange={(next) => setRows(rows.map((r, j) => (j === i ? next : r)))}
                  onRemove={() => setRows(rows.filter((_, j) => j !== i))}
                />
              ))}
            </ol>
          )}
          <p class="hint">
            Text compares without regard to case. Attributes are the customer’s own fields (<code>plan</code>,{' '}
            <code>city</code>); a number compares numerically.
          </p>
          {saved ? <Notice kind="success">Conditions saved.</Notice> : null}
          <ErrorMessage message={summaryOf(form)} />
          <div class="form-actions">
            <Button
              disabled={rows.length >= marketing.MAX_CONDITIONS}
              onClick={() => {
                setSaved(false);
                setRows([...rows, blankRow()]);
              }}
            >
              Add condition
            </Button>
            <Button type="submit" kind="primary" busy={form.busy}>
              Save conditions
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}

function Contacts(props: { segment: Segment; version: number }) {
  const list = usePagedList(
    20,
    (paging) =>
      api.value.marketing.segments.listSegmentContacts({ params: { id: props.segment.id }, query: paging }),
    (answer) => ({ rows: answer.contacts, total: answer.total_count }),
    [props.segment.id, props.version],
  );
  return (
    <ListSection
      id="segment-contacts"
      title="Contacts"
      export={{
        route: contract.marketing.segments.listSegmentContacts,
        params: { id: props.segment.id },
        what: `the contacts in ${props.segment.name}`,
      }}
      list={list}
      empty={{
        title: 'No contact is in this segment',
        children: <p>Loosen the conditions above, or add customers who meet them.</p>,
      }}
      table={{
        caption: `Contacts in ${props.segment.name}`,
        rowKey: (c) => c.id,
        columns: [
          { label: 'Name', render: (c) => <Link to={`/customers/${c.id}`}>{c.name}</Link> },
          { label: 'Email', render: (c) => c.email ?? '—' },
          { label: 'Company', render: (c) => c.company ?? '—' },
          { label: 'Marketing email', render: (c) => (c.unsubscribed ? 'Opted out' : 'Subscribed') },
          { label: 'Added', render: (c) => date(c.created_at) },
        ],
      }}
    />
  );
}

function EditSegment(props: { segment: Segment; onSaved: (s: Segment) => void; onCancel: () => void }) {
  const [name, setName] = useState(props.segment.name);
  const [description, setDescription] = useState(props.segment.description ?? '');
  const form = useForm();
  return (
    <DialogForm
      form={form}
      submit="Save"
      onCancel={props.onCancel}
      onSubmit={() => {
        void form
          .submit(
            marketing.UpdateSegmentBodySchema,
            { name, description: description.trim() || null },
            (body) =>
              unwrap(api.value.marketing.segments.updateSegment({ params: { id: props.segment.id }, body })),
          )
          .then((answer) => answer && props.onSaved(answer.segment));
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
    </DialogForm>
  );
}

export default function SegmentScreen({ params }: ScreenProps) {
  const id = params.id!;
  const load = useLoad(() => unwrap(api.value.marketing.segments.getSegment({ params: { id } })), [id]);
  const [current, setCurrent] = useState<Segment | null>(null);
  const [version, setVersion] = useState(0);
  const [editing, setEditing] = useState(false);
  const archiving = useAction();

  if (load.error || !load.data) {
    return (
      <RecordUnavailable title="Segment" load={load} list={{ to: '/marketing/segments', name: 'Segments' }} />
    );
  }
  const segment = current?.id === id ? current : load.data.segment;
  const adopt = (next: Segment) => {
    setCurrent(next);
    setVersion((v) => v + 1);
  };
  const archived = segment.status === 'archived';

  return (
    <>
      <p class="breadcrumb">
        <Link to="/marketing/segments">Segments</Link>
      </p>
      <PageHeader title={segment.name}>
        {can('updateSegment') ? (
          <>
            <Button onClick={() => setEditing(true)}>Rename</Button>
            <Button
              busy={archiving.busy}
              onClick={() =>
                void archiving.run(
                  () =>
                    unwrap(
                      api.value.marketing.segments.updateSegment({
                        params: { id },
                        body: { status: archived ? 'active' : 'archived' },
                      }),
                    ),
                  (answer) => adopt(answer.segment),
                )
              }
            >
              {archived ? 'Restore' : 'Archive'}
            </Button>
          </>
        ) : null}
        {can('deleteSegment') ? (
          <ConfirmButton
            label="Delete"
            title={`Delete ${segment.name}?`}
            confirmLabel="Delete segment"
            onConfirm={async () => {
              await unwrap(api.value.marketing.segments.deleteSegment({ params: { id } }));
              navigate('/marketing/segments');
            }}
          >
            <p>
              The segment goes; its contacts stay. A segment used by a scheduled, sending or paused campaign
              cannot be deleted.
            </p>
          </ConfirmButton>
        ) : null}
      </PageHeader>
      <ErrorMessage message={archiving.error} />
      <div class="tiles">
        <section class="tile" aria-labelledby="segment-count">
          <h2 id="segment-count">Contacts now</h2>
          <p class="figure" aria-live="polite">
            {number(segment.contact_count)}
          </p>
          <p class="hint">
            {segment.listed_contacts > 0 ? `${number(segment.listed_contacts)} listed by id. ` : ''}Counted
            when the conditions are saved; a campaign takes those eligible when it starts sending.
          </p>
        </section>
        <section class="tile" aria-labelledby="segment-about">
          <h2 id="segment-about">About</h2>
          <dl class="facts">
            <dt>Status</dt>
            <dd>
              <Badge value={segment.status} />
            </dd>
            <dt>Description</dt>
            <dd>{segment.description ?? '—'}</dd>
            <dt>Created</dt>
            <dd>{dateTime(segment.created_at)}</dd>
            <dt>Changed</dt>
            <dd>{dateTime(segment.updated_at)}</dd>
          </dl>
        </section>
      </div>
      {archived ? (
        <Notice kind="warning">
          Archived: no new campaign can be sent to this segment until it is restored.
        </Notice>
      ) : null}
      <FilterBuilder key={`${segment.id}`} segment={segment} onSaved={adopt} />
      <Contacts segment={segment} version={version} />
      <Dialog title={`Rename ${segment.name}`} open={editing} onClose={() => setEditing(false)}>
        <EditSegment
          segment={segment}
          onCancel={() => setEditing(false)}
          onSaved={(next) => {
            setEditing(false);
            adopt(next);
          }}
        />
      </Dialog>
    </>
  );
}
