import { contract, hr, unwrap } from '../../../client/index.js';
import { ImportButton } from '../../components/csv-import.js';
import { EditDialog, rowActions, useEditing } from '../../components/edit-dialog.js';
import { DialogForm } from '../../components/form-dialog.js';
import { ListPage } from '../../components/list-page.js';
import { Field, Link, type Column } from '../../components/ui.js';
import { api, can } from '../../lib/api.js';
import { date, today } from '../../lib/format.js';
import { useDraft, useForm } from '../../lib/forms.js';
import { usePagedList } from '../../lib/list-query.js';
import { conflictOn } from '../../lib/refusals.js';
import { here, navigate, withQuery } from '../../lib/router.js';
import { isWeekend, utcDate } from './days.js';

/**
 * Public holidays: a year's (in the URL, this year unless told) by date; added, renamed or moved,
 * deleted, and imported from a CSV file (`date,name`). Working days leave them out, in requests
 * (pending ones are counted again) and in balances.
 */

const LIMIT = 50;

const weekday = new Intl.DateTimeFormat(undefined, { weekday: 'long', timeZone: 'UTC' });

/** The URL's `year`, or this year. */
function yearOf(query: URLSearchParams): number {
  const year = Number(query.get('year'));
  return Number.isInteger(year) && year >= 1900 && year <= 9999 ? year : Number(today().slice(0, 4));
}

function HolidayForm(props: {
  holiday?: hr.Holiday;
  onSaved: (holiday: hr.Holiday) => void;
  onCancel: () => void;
}) {
  const existing = props.holiday;
  const { draft, bind } = useDraft(() => ({ date: existing?.date ?? '', name: existing?.name ?? '' }));
  const form = useForm();
  const holidays = api.value.hr.holidays;
  const submit = () => {
    const input = { date: draft.date || undefined, name: draft.name };
    const saving = existing
      ? form.submit(
          hr.UpdateHolidayBodySchema,
          {
            ...(input.date !== existing.date ? { date: input.date } : {}),
            ...(input.name.trim() !== existing.name ? { name: input.name } : {}),
          },
          (body) =>
            conflictOn('date', unwrap(holidays.updateHoliday({ params: { id: existing.id }, body }))).then(
              (r) => r.holiday,
            ),
        )
      : form.submit(hr.CreateHolidayBodySchema, input, (body) =>
          conflictOn('date', unwrap(holidays.createHoliday({ body }))).then((r) => r.holiday),
        );
    void saving.then((saved) => {
      if (saved) props.onSaved(saved);
    });
  };
  return (
    <DialogForm
      form={form}
      submit={existing ? 'Save changes' : 'Add holiday'}
      onCancel={props.onCancel}
      onSubmit={submit}
    >
      <Field label="Date" type="date" {...bind('date', form.errors)} required />
      <Field label="Name" autoComplete="off" {...bind('name', form.errors)} required />
      <p class="hint">
        {existing
          ? 'Pending leave requests over the old or the new date count their working days again; approved ones keep theirs.'
          : 'Pending leave requests over it count one working day less; approved ones keep theirs.'}
      </p>
    </DialogForm>
  );
}

export default function Holidays() {
  const year = yearOf(here.value.query);
  const thisYear = Number(today().slice(0, 4));
  const state = useEditing<hr.Holiday>();
  const range = { from: `${year}-01-01`, to: `${year}-12-31` };
  const list = usePagedList(
    LIMIT,
    (paging) => api.value.hr.holidays.listHolidays({ query: { ...paging, ...range } }),
    (answer) => ({ rows: answer.holidays, total: answer.total_count }),
    [year],
  );

  const columns: Column<hr.Holiday>[] = [
    {
      label: 'Date',
      render: (h) => (
        <>
          {date(h.date)}
          <span class="line muted">{weekday.format(utcDate(h.date))}</span>
        </>
      ),
    },
    {
      label: 'Name',
      render: (h) => (
        <>
          {h.name}
          {isWeekend(h.date) ? <span class="line muted">A weekend day: no working day lost</span> : null}
        </>
      ),
    },
    ...rowActions(state, {
      edit: can('updateHoliday'),
      remove: can('deleteHoliday')
        ? {
            label: 'Delete holiday',
            words: (h) => (
              <p>
                {h.name} on {date(h.date)} is removed. Pending leave requests over it count it as a working
                day again; approved ones keep their days.
              </p>
            ),
            send: (h) => unwrap(api.value.hr.holidays.deleteHoliday({ params: { id: h.id } })),
            reload: list.reload,
          }
        : undefined,
    }),
  ];

  const yearLink = (y: number) => withQuery({ year: y === thisYear ? null : y, page: null });
  return (
    <div class="whole-words">
      <ListPage
        title="Public holidays"
        export={{ route: contract.hr.holidays.listHolidays, query: range }}
        actions={<ImportButton kind="holidays" onImported={list.reload} />}
        create={{
          operation: 'createHoliday',
          label: 'New holiday',
          onClick: () => {
            state.setNotice(null);
            state.setEditing('new');
          },
        }}
        lead={
          <>
            Working days leave out weekends and these days, in leave requests and in balances. The{' '}
            <Link to="/hr/calendar">leave calendar</Link> marks them.
          </>
        }
        filters={
          <div class="calendar-head">
            <h2 id="holidays-year">{year}</h2>
            <nav class="month-nav" aria-label="Years">
              <Link to={yearLink(year - 1)}>← {year - 1}</Link>
              {year !== thisYear ? <Link to={yearLink(thisYear)}>This year</Link> : null}
              <Link to={yearLink(year + 1)}>{year + 1} →</Link>
            </nav>
          </div>
        }
        notice={state.notice}
        list={list}
        empty={{
          title: `No public holidays in ${year}`,
          canAdd:
            'Add them one by one with New holiday, or import a CSV file of them (columns date and name).',
          cannotAdd: 'Public holidays appear here once someone with permission to add them does so.',
        }}
        table={{ caption: `Public holidays in ${year}`, columns, rowKey: (h) => h.id }}
      />
      <EditDialog
        state={state}
        addTitle="New holiday"
        form={(holiday) => (
          <HolidayForm
            holiday={holiday}
            onCancel={state.close}
            onSaved={(saved) => {
              state.saved(`${saved.name} (${date(saved.date)})`, list.reload);
              // Shown in its own year.
              const savedYear = Number(saved.date.slice(0, 4));
              if (savedYear !== year) navigate(yearLink(savedYear));
            }}
          />
        )}
      />
    </div>
  );
}
