import { hr, unwrap } from '../../../client/index.js';
import { allApprovedLeaves, allDepartments, allEmployees, holidaysBetween } from './lists.js';
import { byLeaveType, byName, fullName, leaveTypeLabel } from './people.js';
import {
  Empty,
  ErrorMessage,
  Link,
  Loading,
  Notice,
  PageHeader,
  ScrollRegion,
  Select,
} from '../../components/ui.js';
import { today } from '../../lib/format.js';
import { useLoad } from '../../lib/forms.js';
import { here, navigate, withQuery } from '../../lib/router.js';
import { api, can } from '../../lib/api.js';
import { isWeekend, isoDay, utcDate } from './days.js';

/**
 * Who is away: a month of approved leave, one row per employee away that month, grouped by
 * department; a table whose column headers name each day, so a screen reader reads "Grace Hopper,
 * Tuesday 3 November: Annual leave". The month's public holidays are marked on their days (the
 * column header says "public holiday: Christmas Day") and listed below. The month and the department
 * are in the URL.
 */

/** The five default types have a colour and a letter each; a business's own share one colour. */
const DEFAULTS: readonly string[] = hr.DEFAULT_LEAVE_TYPES;
const leaveClass = (type: string) =>
  DEFAULTS.includes(type.toLowerCase()) ? `leave-${type.toLowerCase()}` : 'leave-own';
const letterOf = (type: string) => type.trim().charAt(0).toUpperCase() || '?';

/** The URL's `month` (YYYY-MM), or this month. */
function monthOf(query: URLSearchParams): { year: number; month: number } {
  const match = /^(\d{4})-(\d{2})$/.exec(query.get('month') ?? '');
  if (match) {
    const year = Number(match[1]);
    const month = Number(match[2]);
    if (year >= 1900 && year <= 9999 && month >= 1 && month <= 12) return { year, month };
  }
  const [year, month] = today().split('-').map(Number);
  return { year: year!, month: month! };
}

const monthKey = (year: number, month: number) => {
  const at = new Date(Date.UTC(year, month - 1, 1));
  return `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
};

const monthName = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });
const dayName = new Intl.DateTimeFormat(undefined, {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  timeZone: 'UTC',
});
const weekdayLetter = new Intl.DateTimeFormat(undefined, { weekday: 'narrow', timeZone: 'UTC' });

interface Person {
  employee: hr.Employee;
  /** The type of leave on each day of the month that has one. */
  days: Map<string, string>;
  working: number;
}

export default function Calendar() {
  const query = here.value.query;
  const { year, month } = monthOf(query);
  const departmentId = query.get('department_id') || undefined;
  const first = new Date(Date.UTC(year, month - 1, 1));
  const count = new Date(Date.UTC(year, month, 0)).getUTCDate();
  const days = Array.from({ length: count }, (_, i) => new Date(Date.UTC(year, month - 1, i + 1)));
  const start = isoDay(first);
  const end = isoDay(days[days.length - 1]!);
  const title = monthName.format(first);
  const thisMonth = today().slice(0, 7);

  const data = useLoad(async () => {
    const [departments, employees, leaves] = await Promise.all([
      allDepartments(),
      allEmployees(),
      allApprovedLeaves(),
    ]);
    return { departments, employees, leaves };
  }, []);
  const holidays = useLoad(() => holidaysBetween(start, end), [start, end]);
  const pending = useLoad(
    async () =>
      (await unwrap(api.value.hr.leaves.listLeaves({ query: { status: 'pending', limit: 1 } }))).total_count,
    [],
  );

  const nav = (
    <nav class="month-nav" aria-label="Months">
      <Link to={withQuery({ month: monthKey(year, month - 1) })}>
        ← {monthName.format(new Date(Date.UTC(year, month - 2, 1)))}
      </Link>
      {monthKey(year, month) !== thisMonth ? <Link to={withQuery({ month: null })}>This month</Link> : null}
      <Link to={withQuery({ month: monthKey(year, month + 1) })}>
        {monthName.format(new Date(Date.UTC(year, month, 1)))} →
      </Link>
    </nav>
  );

  if (data.error) {
    return (
      <>
        <PageHeader title="Leave calendar" />
        <ErrorMessage message={data.error} onRetry={data.reload} />
      </>
    );
  }
  if (!data.data) {
    return (
      <>
        <PageHeader title="Leave calendar" />
        <Loading />
      </>
    );
  }

  const { departments, employees, leaves } = data.data;
  const monthHolidays = (holidays.data ?? []).filter((h) => h.date >= start && h.date <= end);
  const holidayOn = new Map(monthHolidays.map((h) => [h.date, h]));
  const byId = new Map(employees.map((e) => [e.id, e]));
  const people = new Map<string, Person>();
  for (const leave of leaves) {
    if (leave.end_date < start || leave.start_date > end) continue;
    const employee = byId.get(leave.employee_id);
    if (!employee || (departmentId && employee.department_id !== departmentId)) continue;
    let person = people.get(employee.id);
    if (!person) {
      person = { employee, days: new Map(), working: 0 };
      people.set(employee.id, person);
    }
    for (const day of days) {
      const iso = isoDay(day);
      if (iso < leave.start_date || iso > leave.end_date || person.days.has(iso)) continue;
      person.days.set(iso, leave.type);
      const weekday = day.getUTCDay();
      // The service's rule: a public holiday is no working day.
      if (weekday !== 0 && weekday !== 6 && !holidayOn.has(iso)) person.working++;
    }
  }
  const groups = departments
    .map((d) => ({
      department: d,
      people: [...people.values()]
        .filter((p) => p.employee.department_id === d.id)
        .sort((a, b) => byName(a.employee, b.employee)),
    }))
    .filter((g) => g.people.length > 0);
  const department = departments.find((d) => d.id === departmentId);
  const used = [...new Set([...people.values()].flatMap((p) => [...p.days.values()]))]
    .map((name) => ({ name }))
    .sort(byLeaveType)
    .map((t) => t.name);
  const holidayList =
    monthHolidays.length > 0 ? (
      <section aria-labelledby="calendar-holidays" class="calendar-holidays">
        <h2 id="calendar-holidays">Public holidays in {title}</h2>
        <ul>
          {monthHolidays.map((h) => (
            <li key={h.id} data-holiday={h.date}>
              <span class="swatch holiday" aria-hidden="true" /> {dayName.format(utcDate(h.date))}: {h.name}
              {isWeekend(h.date) ? <span class="muted"> (a weekend day)</span> : null}
            </li>
          ))}
        </ul>
      </section>
    ) : holidays.error ? (
      <ErrorMessage
        message={`The public holidays could not be loaded: ${holidays.error}`}
        onRetry={holidays.reload}
      />
    ) : null;

  return (
    <>
      <PageHeader title="Leave calendar">
        <Link class="button secondary" to="/hr/holidays">
          Public holidays
        </Link>
        <Link class="button secondary" to="/hr/leaves">
          All leave requests
        </Link>
      </PageHeader>
      <div class="calendar-head">
        <h2 id="calendar-month">{title}</h2>
        {nav}
      </div>
      <form
        class="filters"
        role="search"
        aria-label="Filter the calendar"
        onSubmit={(e) => e.preventDefault()}
      >
        <Select
          label="Department"
          name="department_id"
          value={departmentId ?? ''}
          options={[
            { value: '', label: 'Every department' },
            ...departments.map((d) => ({ value: d.id, label: d.name })),
          ]}
          onValue={(value) => navigate(withQuery({ department_id: value }))}
        />
      </form>
      {pending.data ? (
        <Notice>
          {pending.data} leave request{pending.data === 1 ? ' is' : 's are'} waiting for a decision and not
          shown here:{' '}
          <Link to="/hr/leaves?status=pending">{can('updateLeave') ? 'review them' : 'see them'}</Link>.
        </Notice>
      ) : null}
      {groups.length === 0 ? (
        <Empty title={`Nobody${department ? ` in ${department.name}` : ''} is on approved leave in ${title}`}>
          <p>
            Approved leave shows here day by day.{' '}
            {can('createLeave') ? (
              <>
                Request leave under <Link to="/hr/leaves">Leaves</Link> and approve it there.
              </>
            ) : (
              <>
                See every request under <Link to="/hr/leaves">Leaves</Link>.
              </>
            )}
          </p>
        </Empty>
      ) : (
        <>
          <ScrollRegion label={`Approved leave in ${title}`}>
            <table class="leave-calendar">
              <caption class="visually-hidden">
                Approved leave in {title}
                {department ? `, ${department.name}` : ''}, by department
              </caption>
              <thead>
                <tr>
                  <th scope="col" class="who">
                    Employee
                  </th>
                  {days.map((day) => {
                    const weekday = day.getUTCDay();
                    const weekend = weekday === 0 || weekday === 6;
                    const iso = isoDay(day);
                    const holiday = holidayOn.get(iso);
                    return (
                      <th
                        key={iso}
                        scope="col"
                        class={`day${weekend ? ' weekend' : ''}${holiday ? ' holiday' : ''}${iso === today() ? ' today' : ''}`}
                        title={holiday ? `Public holiday: ${holiday.name}` : undefined}
                        data-holiday={holiday ? holiday.name : undefined}
                      >
                        <span aria-hidden="true" class="weekday">
                          {weekdayLetter.format(day)}
                        </span>
                        <span aria-hidden="true">{day.getUTCDate()}</span>
                        <span class="visually-hidden">
                          {dayName.format(day)}
                          {holiday ? `, public holiday: ${holiday.name}` : ''}
                        </span>
                      </th>
                    );
                  })}
                  <th scope="col" class="numeric">
                    Working days
                  </th>
                </tr>
              </thead>
              {groups.map((group) => (
                <tbody key={group.department.id}>
                  <tr class="department-row">
                    <td colSpan={count + 2}>
                      <strong>{group.department.name}</strong>{' '}
                      <span class="muted">
                        · {group.people.length} {group.people.length === 1 ? 'person' : 'people'} away
                      </span>
                    </td>
                  </tr>
                  {group.people.map((person) => (
                    <tr key={person.employee.id}>
                      <th scope="row" class="who">
                        <Link to={`/hr/employees/${person.employee.id}`}>{fullName(person.employee)}</Link>
                        <span class="visually-hidden">, {group.department.name}</span>
                      </th>
                      {days.map((day) => {
                        const iso = isoDay(day);
                        const type = person.days.get(iso);
                        const weekday = day.getUTCDay();
                        const weekend = weekday === 0 || weekday === 6;
                        return (
                          <td
                            key={iso}
                            class={`day${weekend ? ' weekend' : ''}${holidayOn.has(iso) ? ' holiday' : ''}${type ? ` away ${leaveClass(type)}` : ''}`}
                          >
                            {type ? (
                              <>
                                <span aria-hidden="true">{letterOf(type)}</span>
                                <span class="visually-hidden">{leaveTypeLabel(type)}</span>
                              </>
                            ) : null}
                          </td>
                        );
                      })}
                      <td class="numeric">{person.working}</td>
                    </tr>
                  ))}
                </tbody>
              ))}
            </table>
          </ScrollRegion>
          <ul class="calendar-legend" aria-label="Legend">
            {used.map((t) => (
              <li key={t}>
                <span class={`swatch ${leaveClass(t)}`} aria-hidden="true">
                  {letterOf(t)}
                </span>{' '}
                {leaveTypeLabel(t)}
              </li>
            ))}
            <li>
              <span class="swatch weekend" aria-hidden="true" /> Weekend
            </li>
            {monthHolidays.length > 0 ? (
              <li>
                <span class="swatch holiday" aria-hidden="true" /> Public holiday
              </li>
            ) : null}
          </ul>
        </>
      )}
      {holidayList}
    </>
  );
}
