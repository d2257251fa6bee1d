import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { general, schedule } from '../../client/index.js';
import { useAction } from '../lib/action.js';
import { date, dateTime, number } from '../lib/format.js';
import type { FieldErrors } from '../lib/forms.js';
import type { ListLoad } from '../lib/list-query.js';
import { statusLabel } from '../lib/messages.js';
import { ConfirmDialog } from './confirm.js';
import { ListPage } from './list-page.js';
import { useNotice } from './outcome.js';
import { RecordHeader, RecordStatus, type RecordList } from './record.js';
import { Button, Field, Link, Select, type Column } from './ui.js';

/**
 * What recurring invoices and recurring bills share on screen: the schedule's fields with a preview
 * of its next dates, its facts on the detail screen, and pause, resume and end. The dates come from
 * the service's own rule (`schedule`, contract/common/schedule.ts through the SDK), never from one
 * of the dashboard's.
 */

/** What a schedule makes, in words: "invoice" or "bill". */
export type ScheduleNoun = 'invoice' | 'bill';

type Interval = general.RecurringInvoice['interval'];
type Status = general.RecurringInvoice['status'];

/** How a schedule ends, as the form asks it. */
type EndChoice = 'never' | 'count' | 'date';

export interface ScheduleDraft {
  interval: Interval;
  interval_count: string;
  start_date: string;
  end: EndChoice;
  end_after_count: string;
  end_date: string;
  due_days: string;
}

/** A monthly schedule from `start` without end, due 30 days after each date (the service's default). */
export const newSchedule = (start: string): ScheduleDraft => ({
  interval: 'month',
  interval_count: '1',
  start_date: start,
  end: 'never',
  end_after_count: '',
  end_date: '',
  due_days: '30',
});

const INTERVAL_NAMES: Readonly<Record<Interval, [one: string, many: string]>> = {
  week: ['week', 'weeks'],
  month: ['month', 'months'],
  quarter: ['quarter', 'quarters'],
  year: ['year', 'years'],
};

/** "Every month", "Every 2 weeks". */
export function everyWords(interval: Interval, count: number): string {
  const [one, many] = INTERVAL_NAMES[interval];
  return count === 1 ? `Every ${one}` : `Every ${count} ${many}`;
}

/** A typed whole number, or undefined when the field is empty (the schema then says what is missing). */
const wholeOf = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text.trim()));

/**
 * The draft as the create body's schedule fields. The end chosen but left empty is sent as null, so
 * the schema says "Fill this in." beside it rather than making a schedule without end.
 */
export function scheduleBody(draft: ScheduleDraft): Record<string, unknown> {
  const body: Record<string, unknown> = {
    interval: draft.interval,
    interval_count: wholeOf(draft.interval_count),
    start_date: draft.start_date || undefined,
    end_after_count: draft.end === 'count' ? (wholeOf(draft.end_after_count) ?? null) : undefined,
    end_date: draft.end === 'date' ? draft.end_date || null : undefined,
    due_days: wholeOf(draft.due_days),
  };
  for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
  return body;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The draft's next `count` dates, or null while it does not yet say enough to compute them (no start
 * date, a period that is not 1 to 12, an end count that is not a whole number).
 */
function previewDates(draft: ScheduleDraft, count: number): string[] | null {
  const every = Number(draft.interval_count);
  if (!DATE.test(draft.start_date) || !Number.isInteger(every) || every < 1) return null;
  if (every > schedule.MAX_INTERVAL_COUNT) return null;
  const rule = { anchor: draft.start_date, interval: draft.interval, intervalCount: every };
  const remaining = draft.end === 'count' ? Number(draft.end_after_count) : null;
  if (remaining !== null && (!Number.isInteger(remaining) || remaining < 1)) return null;
  const endDate = draft.end === 'date' && DATE.test(draft.end_date) ? draft.end_date : null;
  return schedule.nextPeriodDates(rule, count, { remaining, endDate });
}

/** The next dates as a list, or what the list waits for. */
function DateList(props: { dates: string[] | null; waiting: string; id: string }) {
  if (props.dates === null) return <p class="hint">{props.waiting}</p>;
  if (props.dates.length === 0) return <p class="hint">None: the end comes before the first date.</p>;
  return (
    <ol class="schedule-dates" aria-labelledby={props.id}>
      {props.dates.map((d) => (
        <li key={d}>
          <time dateTime={d}>{date(d)}</time>
        </li>
      ))}
    </ol>
  );
}

const PREVIEW_COUNT = 5;

/**
 * A schedule's fields: how often (an interval times 1 to 12), from when, until when (never, after a
 * number of documents, on a date) and the net terms; beside them, the next five dates as typed.
 */
export function ScheduleFields(props: {
  draft: ScheduleDraft;
  onDraft: (draft: ScheduleDraft) => void;
  errors: FieldErrors;
  noun: ScheduleNoun;
}) {
  const { draft, errors, noun } = props;
  const set = (patch: Partial<ScheduleDraft>) => props.onDraft({ ...draft, ...patch });
  const every = Number(draft.interval_count);
  const unit = INTERVAL_NAMES[draft.interval];
  return (
    <div class="schedule-form">
      <fieldset class="schedule-fields">
        <legend>Schedule</legend>
        <div class="form-row">
          <Select
            label="Repeats every"
            name="interval"
            value={draft.interval}
            options={schedule.SCHEDULE_INTERVALS.map((i) => ({ value: i, label: INTERVAL_NAMES[i][0] }))}
            onValue={(value) => set({ interval: value as Interval })}
            error={errors.interval}
          />
          <Field
            label={`Number of ${unit[1]}`}
            name="interval_count"
            inputMode="numeric"
            hint={`1 to ${schedule.MAX_INTERVAL_COUNT}: 2 is every other ${unit[0]}.`}
            value={draft.interval_count}
            onValue={(interval_count) => set({ interval_count })}
            error={errors.interval_count}
          />
        </div>
        <div class="form-row">
          <Field
            label="Start date"
            name="start_date"
            type="date"
            hint={`The first ${noun}'s date: today or later. Its day is kept in every month, or the month's last day.`}
            value={draft.start_date}
            onValue={(start_date) => set({ start_date })}
            error={errors.start_date}
          />
          <Field
            label="Payment terms in days"
            name="due_days"
            inputMode="numeric"
            hint={`Each ${noun} is due this many days after its date.`}
            value={draft.due_days}
            onValue={(due_days) => set({ due_days })}
            error={errors.due_days}
          />
        </div>
        <fieldset class="choice">
          <legend>Ends</legend>
          {(
            [
              ['never', 'Never'],
              ['count', `After a number of ${noun}s`],
              ['date', 'On a date'],
            ] as const
          ).map(([value, label]) => (
            <label key={value}>
              <input
                type="radio"
                name="end"
                value={value}
                checked={draft.end === value}
                onChange={() => set({ end: value })}
              />{' '}
              {label}
            </label>
          ))}
        </fieldset>
        {draft.end === 'count' ? (
          <Field
            label={`Number of ${noun}s`}
            name="end_after_count"
            inputMode="numeric"
            hint="Then the schedule ends."
            value={draft.end_after_count}
            onValue={(end_after_count) => set({ end_after_count })}
            error={errors.end_after_count}
          />
        ) : null}
        {draft.end === 'date' ? (
          <Field
            label="End date"
            name="end_date"
            type="date"
            hint={`No ${noun} after this date.`}
            value={draft.end_date}
            onValue={(end_date) => set({ end_date })}
            error={errors.end_date}
          />
        ) : null}
      </fieldset>
      <section class="panel schedule-preview" aria-labelledby="schedule-preview" aria-live="polite">
        <h2 id="schedule-preview">Next dates</h2>
        <DateList
          id="schedule-preview"
          dates={previewDates(draft, PREVIEW_COUNT)}
          waiting={`The dates show once there is a start date and a number of ${unit[1]} from 1 to ${schedule.MAX_INTERVAL_COUNT}${draft.end === 'count' ? ` and of ${noun}s` : ''}.`}
        />
        {Number.isInteger(every) && every >= 1 ? (
          <p class="hint">{everyWords(draft.interval, every)}.</p>
        ) : null}
      </section>
    </div>
  );
}

/** The schedule fields every recurring invoice and bill answers with. */
type Schedule = Pick<
  general.RecurringInvoice,
  | 'interval'
  | 'interval_count'
  | 'start_date'
  | 'end_after_count'
  | 'end_date'
  | 'due_days'
  | 'status'
  | 'next_run_on'
  | 'ended_at'
>;

/** What the status line says of a schedule. */
function scheduleStatusWords(s: Schedule, noun: ScheduleNoun): string {
  if (s.status === 'ended')
    return `Ended${s.ended_at ? ` on ${dateTime(s.ended_at)}` : ''}: no further ${noun} is made.`;
  if (s.status === 'paused') {
    return `Paused: no ${noun} is made until it is resumed, and the dates that pass meanwhile are skipped.`;
  }
  return s.next_run_on
    ? `The next ${noun} is made on ${date(s.next_run_on)}.`
    : `No ${noun} is left to make.`;
}

/**
 * A schedule's facts (how often, from when, until when, the terms, how many made) and, while it is
 * active, its next five dates by the service's rule, counted from the next one.
 */
export function ScheduleFacts(props: { schedule: Schedule; made: number; noun: ScheduleNoun }) {
  const { schedule: s, made, noun } = props;
  const rule = { anchor: s.start_date, interval: s.interval, intervalCount: s.interval_count };
  const upcoming =
    s.status === 'active' && s.next_run_on
      ? schedule.nextPeriodDates(rule, PREVIEW_COUNT, {
          from: schedule.firstPeriodOnOrAfter(rule, s.next_run_on),
          remaining: s.end_after_count === null ? null : Math.max(0, s.end_after_count - made),
          endDate: s.end_date,
        })
      : null;
  return (
    <section class="panel" aria-labelledby="schedule-facts">
      <h2 id="schedule-facts">Schedule</h2>
      <dl class="facts">
        <dt>Repeats</dt>
        <dd>{everyWords(s.interval, s.interval_count)}</dd>
        <dt>Starts</dt>
        <dd>{date(s.start_date)}</dd>
        <dt>Ends</dt>
        <dd>
          {s.end_after_count !== null
            ? `After ${number(s.end_after_count)} ${noun}${s.end_after_count === 1 ? '' : 's'}`
            : s.end_date
              ? `On ${date(s.end_date)}`
              : 'Never'}
        </dd>
        <dt>Payment terms</dt>
        <dd>
          Due {s.due_days} day{s.due_days === 1 ? '' : 's'} after each {noun}&rsquo;s date
        </dd>
        <dt>Next {noun}</dt>
        <dd>{s.status === 'active' ? date(s.next_run_on) : s.status === 'paused' ? 'When resumed' : '—'}</dd>
        <dt>{noun === 'invoice' ? 'Invoices' : 'Bills'} made</dt>
        <dd data-made="">{number(made)}</dd>
      </dl>
      {upcoming ? (
        <>
          <h3 id="schedule-upcoming">Next dates</h3>
          <DateList id="schedule-upcoming" dates={upcoming} waiting="" />
        </>
      ) : null}
    </section>
  );
}

/**
 * Pause, resume and end (with a confirm) as the schedule's status allows, for a role that may
 * (`allowed`); each answers the schedule as it now is, handed to `onDone` with what happened.
 */
function ScheduleActions<T>(props: {
  status: Status;
  noun: ScheduleNoun;
  allowed: boolean;
  pause: () => Promise<T>;
  resume: () => Promise<T>;
  end: () => Promise<T>;
  onDone: (record: T, message: string) => void;
  onError: (message: string | null) => void;
}) {
  const { status, noun } = props;
  const action = useAction();
  const [ending, setEnding] = useState(false);
  if (!props.allowed || status === 'ended') return null;
  const run = (work: () => Promise<T>, message: string) => {
    props.onError(null);
    void action
      .run(work, (record) => props.onDone(record, message))
      .then((refused) => {
        if (refused) props.onError(refused);
      });
  };
  return (
    <>
      {status === 'active' ? (
        <Button
          busy={action.busy}
          onClick={() => run(props.pause, `Paused: no ${noun} is made until it is resumed.`)}
        >
          Pause
        </Button>
      ) : (
        <Button
          kind="primary"
          busy={action.busy}
          onClick={() => run(props.resume, 'Resumed: it goes on from the first date on or after today.')}
        >
          Resume
        </Button>
      )}
      <Button kind="danger" onClick={() => setEnding(true)}>
        End
      </Button>
      <ConfirmDialog
        open={ending}
        title={`End this recurring ${noun}?`}
        confirmLabel="End schedule"
        onConfirm={async () => props.onDone(await props.end(), `Ended: no further ${noun} is made.`)}
        onClose={() => setEnding(false)}
        final
      >
        <p>
          No further {noun} is made; those already made stay as they are. An ended schedule cannot be resumed.
        </p>
      </ConfirmDialog>
    </>
  );
}

/**
 * A schedule's detail page: its heading with pause, resume and end, its status line, and the page
 * below (`children`) drawn from the schedule as the last action left it.
 */
export function ScheduleRecord<T extends Schedule & { id: string }>(props: {
  loaded: T;
  list: RecordList;
  title: (s: T) => string;
  noun: ScheduleNoun;
  allowed: boolean;
  pause: () => Promise<T>;
  resume: () => Promise<T>;
  end: () => Promise<T>;
  children: (s: T) => ComponentChildren;
}) {
  const [current, setCurrent] = useState<T | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const { notice, setNotice } = useNotice();
  const s = current && current.id === props.loaded.id ? current : props.loaded;
  return (
    <>
      <RecordHeader list={props.list} title={props.title(s)}>
        <ScheduleActions
          status={s.status}
          noun={props.noun}
          allowed={props.allowed}
          pause={props.pause}
          resume={props.resume}
          end={props.end}
          onDone={(next, message) => {
            setCurrent(next);
            setNotice(message);
          }}
          onError={(message) => {
            setActionError(message);
            if (message === null) setNotice(null);
          }}
        />
      </RecordHeader>
      <RecordStatus status={s.status} error={actionError} notice={notice}>
        {scheduleStatusWords(s, props.noun)}
      </RecordStatus>
      {props.children(s)}
    </>
  );
}

/**
 * How many documents a schedule made and where they are: the lists cannot filter by schedule, so
 * the customer's invoices or the vendor's bills hold them (docs/decisions.md D261).
 */
export function ScheduleMade(props: { made: number; noun: ScheduleNoun; how: string; where: RecordList }) {
  const { made, noun } = props;
  return (
    <section aria-labelledby="recurring-made">
      <h2 id="recurring-made">{noun === 'invoice' ? 'Invoices' : 'Bills'} made</h2>
      <p>
        {made === 0
          ? 'None yet.'
          : `${number(made)} so far, each ${props.how} with this schedule named on it.`}{' '}
        {made > 0 ? <Link to={props.where.to}>{props.where.name}</Link> : null}
      </p>
    </section>
  );
}

/**
 * A list of recurring invoices or bills by status (the URL's `status`): Export CSV of what it shows,
 * the button that opens a new one for a role that may (`create`), the status tabs, the rows.
 */
export function ScheduleListPage<T extends { id: string }>(props: {
  noun: ScheduleNoun;
  status: Status | undefined;
  list: ListLoad<T>;
  columns: Column<T>[];
  sort?: string;
  export: Parameters<typeof ListPage>[0]['export'];
  create: { allowed: boolean; to: string };
  lead: string;
  /** What the empty list says to one who may create a schedule. */
  canAdd: string;
}) {
  const { noun, status } = props;
  const plural = `recurring ${noun}s`;
  return (
    <ListPage
      title={`Recurring ${noun}s`}
      export={props.export}
      actions={
        props.create.allowed ? (
          <Link class="button primary" to={props.create.to}>
            New recurring {noun}
          </Link>
        ) : null
      }
      lead={props.lead}
      tabs={{
        label: `Recurring ${noun} status`,
        values: general.RECURRING_STATUSES,
        names: statusLabel,
        current: status,
      }}
      list={props.list}
      filtered={{
        active: !!status,
        title: `No ${status ? statusLabel(status).toLowerCase() : ''} ${plural}`,
        clear: ['status'],
        show: `Show every recurring ${noun}`,
      }}
      // The create button is a link here, not ListPage's `create`: the words follow the same permission.
      empty={{
        title: `No ${plural} yet`,
        children: (
          <p>
            {props.create.allowed
              ? props.canAdd
              : `Recurring ${noun}s appear here once someone with permission to create them does so.`}
          </p>
        ),
      }}
      table={{
        caption: status ? `${statusLabel(status)} ${plural}` : `Recurring ${noun}s`,
        columns: props.columns,
        rowKey: (r) => r.id,
        sort: props.sort,
      }}
    />
  );
}
