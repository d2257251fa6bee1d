import { useState } from 'preact/hooks';
import { BmsApiError, hr, unwrap } from '../../../client/index.js';
import { describeError, useDraft, useForm, useLoad } from '../../lib/forms.js';
import { conflictOn, summaryOf } from '../../lib/refusals.js';
import { api, can } from '../../lib/api.js';
import { date } from '../../lib/format.js';
import { Button, Dialog, ErrorMessage, Field, Notice, Select, TextArea } from '../../components/ui.js';
import { daysText, leaveDays, leaveRange } from './days.js';
import { allEmployees, allLeaveTypes, holidaysBetween } from './lists.js';
import { byName, fullName, leaveTypeLabel, leaveTypeOptions } from './people.js';

/**
 * What the dates cover while they are typed: the working days by the service's own rule, the public
 * holidays of the range left out (loaded for the range; undefined until they are).
 */
function useHolidaysOf(start: string, end: string) {
  const key = leaveRange(start, end) ? `${start}/${end}` : null;
  const load = useLoad(
    async () => ({ key, holidays: key && can('listHolidays') ? await holidaysBetween(start, end) : [] }),
    [key],
  );
  return {
    holidays: load.data?.key === key ? load.data.holidays : undefined,
    error: load.error,
  };
}

/**
 * The employee's balance of a tracked type on the last day of the request (its year's, as the
 * service checks a request), loaded for the employee and that day.
 */
function useBalanceOf(employeeId: string, type: hr.LeaveType | undefined, end: string, version: number) {
  const key =
    type?.tracked && employeeId && /^\d{4}-\d{2}-\d{2}$/.test(end) && can('getLeaveBalances')
      ? `${employeeId}/${end}`
      : null;
  const load = useLoad(
    async () => ({
      key,
      balances: key
        ? (
            await unwrap(
              api.value.hr.leaveTypes.getLeaveBalances({ params: { id: employeeId }, query: { as_of: end } }),
            )
          ).balances
        : [],
    }),
    [key, version],
  );
  const balances = load.data?.key === key ? load.data.balances : undefined;
  return {
    shown: key !== null,
    balance: balances?.find((b) => b.leave_type_id === type?.id),
    loading: key !== null && !balances && !load.error,
    error: load.error,
  };
}

/** The working days the dates cover, and the public holidays among them left out. */
function WorkingDays(props: {
  start: string;
  end: string;
  holidays: hr.Holiday[] | undefined;
  error: string | null;
}) {
  const { start, end } = props;
  const days = leaveDays(
    start,
    end,
    (props.holidays ?? []).map((h) => h.date),
  );
  if (days === null) {
    return (
      <p class="working-days">
        {start && end
          ? end < start
            ? 'The last day must be on or after the first day.'
            : `One request covers at most ${hr.MAX_LEAVE_SPAN_DAYS} days: split a longer leave.`
          : 'Choose the first and last day to see the working days.'}
      </p>
    );
  }
  if (!props.holidays && !props.error) {
    return <p class="working-days muted">Counting the working days…</p>;
  }
  // Holidays on a weekend take no working day.
  const left = (props.holidays ?? []).filter((h) => hr.isWeekday(h.date));
  return (
    <p class="working-days">
      <strong data-working-days>
        {days} working day{days === 1 ? '' : 's'}
      </strong>{' '}
      <span class="muted">
        {props.error
          ? '(estimate: Monday to Friday; the public holidays could not be loaded, the service counts them when you send)'
          : left.length === 0
            ? '(estimate: Monday to Friday less public holidays; the service counts them when you send)'
            : `(estimate: Monday to Friday less ${left.length === 1 ? 'the public holiday' : `${left.length} public holidays`} ${left.map((h) => `${h.name} (${date(h.date)})`).join(', ')}; the service counts them when you send)`}
      </span>
    </p>
  );
}

/** The balance of the type chosen, and what would remain after the request; a warning beyond it. */
function BalanceLine(props: {
  type: hr.LeaveType;
  end: string;
  days: number | null;
  state: ReturnType<typeof useBalanceOf>;
}) {
  const { type, state, days } = props;
  const label = leaveTypeLabel(type.name);
  if (state.error)
    return <p class="leave-balance muted">The {label.toLowerCase()} balance could not be loaded.</p>;
  if (state.loading) return <p class="leave-balance muted">Loading the balance…</p>;
  const balance = state.balance;
  if (!balance) return null;
  const after = days === null ? null : hr.fromHundredths(hr.toHundredths(balance.remaining) - days * 100);
  const beyond = after !== null && after < 0;
  return (
    <div class="leave-balance" data-balance>
      <p>
        {label} on {date(props.end)}: <strong data-remaining>{daysText(balance.remaining)}</strong> remaining
        {after !== null ? (
          <>
            , <strong data-after>{daysText(after)}</strong> after this request
          </>
        ) : null}
        .
      </p>
      {beyond && !balance.allow_negative ? (
        <Notice kind="warning">
          <p>
            This request goes {daysText(-after)} beyond the balance. {label} may not go below zero, so the
            service will refuse it.
          </p>
        </Notice>
      ) : beyond ? (
        <p class="hint">{label} may go below zero: the request can be sent.</p>
      ) : null}
    </div>
  );
}

/**
 * A leave request: the employee (fixed, or chosen among those who are not inactive), type (one of
 * the business's), dates and reason. While they are typed: the working days the dates cover, less
 * the public holidays among them, and for a tracked type the employee's balance on the last day and
 * what would remain, with a warning (not a refusal: the service decides) beyond it. An overlap with
 * another pending or approved leave (409) shows beside the dates; a request beyond the balance is
 * refused by the service (422 INSUFFICIENT_BALANCE) in its own words.
 */
export function LeaveForm(props: {
  employees: hr.Employee[];
  leaveTypes: hr.LeaveType[];
  employeeId?: string;
  /** The employee chosen at first, when not fixed. */
  preselect?: string;
  onSaved: (leave: hr.Leave) => void;
  onCancel: () => void;
}) {
  const choices = props.employees.filter((e) => e.status !== 'inactive').sort(byName);
  const types = leaveTypeOptions(props.leaveTypes);
  const { draft, bind } = useDraft(() => ({
    employee_id: props.employeeId ?? props.preselect ?? '',
    type: types[0]?.value ?? '',
    start_date: '',
    end_date: '',
    reason: '',
  }));
  const form = useForm();
  const { start_date: start, end_date: end } = draft;
  const holidays = useHolidaysOf(start, end);
  const days =
    holidays.holidays || holidays.error
      ? leaveDays(
          start,
          end,
          (holidays.holidays ?? []).map((h) => h.date),
        )
      : null;
  const type = props.leaveTypes.find((t) => t.name === draft.type);
  // A refusal may mean the balance changed meanwhile: it is loaded again.
  const [refusals, setRefusals] = useState(0);
  // A request beyond the balance: the service's sentence says what remains and what the request takes
  // (the line under the form would only point to the last day, where what remains is shown).
  const [beyond, setBeyond] = useState<string | null>(null);
  const balance = useBalanceOf(draft.employee_id, type, end, refusals);
  const fixed = props.employeeId ? props.employees.find((e) => e.id === props.employeeId) : undefined;

  const submit = (event: Event) => {
    event.preventDefault();
    const body = {
      employee_id: draft.employee_id || undefined,
      type: draft.type || undefined,
      start_date: start || undefined,
      end_date: end || undefined,
      reason: draft.reason.trim() || undefined,
    };
    setBeyond(null);
    void form
      .submit(hr.CreateLeaveBodySchema, body, (value) =>
        conflictOn('start_date', unwrap(api.value.hr.leaves.createLeave({ body: value }))).catch(
          (err: unknown) => {
            if (err instanceof BmsApiError && err.code === 'INSUFFICIENT_BALANCE') {
              setBeyond(describeError(err).message);
            }
            throw err;
          },
        ),
      )
      .then((saved) => {
        if (saved) props.onSaved(saved.leave);
        else setRefusals((n) => n + 1);
      });
  };
  const e = form.errors;
  return (
    <form onSubmit={submit} noValidate class="leave-form">
      {fixed ? (
        <p>
          For <strong>{fullName(fixed)}</strong>
        </p>
      ) : (
        <Select
          label="Employee"
          {...bind('employee_id', e)}
          options={[
            { value: '', label: 'Choose an employee' },
            ...choices.map((c) => ({ value: c.id, label: `${fullName(c)} (${c.department})` })),
          ]}
        />
      )}
      {fixed && e.employee_id ? <ErrorMessage message={e.employee_id} /> : null}
      <Select label="Type" {...bind('type', e)} options={types} />
      <div class="form-row">
        <Field label="First day" type="date" {...bind('start_date', e)} required />
        <Field label="Last day" type="date" {...bind('end_date', e)} min={start || undefined} required />
      </div>
      <div class="leave-estimate" aria-live="polite">
        <WorkingDays start={start} end={end} holidays={holidays.holidays} error={holidays.error} />
        {type && balance.shown ? <BalanceLine type={type} end={end} days={days} state={balance} /> : null}
      </div>
      <TextArea label="Reason" {...bind('reason', e)} rows={2} />
      <ErrorMessage message={(form.message && beyond) || summaryOf(form)} />
      <div class="dialog-actions">
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button type="submit" kind="primary" busy={form.busy}>
          Request leave
        </Button>
      </div>
    </form>
  );
}

/** The leave request dialog, with the employees it may be for and the leave types loaded when opened. */
export function LeaveDialog(props: {
  open: boolean;
  employeeId?: string;
  preselect?: string;
  onClose: () => void;
  onSaved: (leave: hr.Leave) => void;
}) {
  return (
    <Dialog title="Request leave" open={props.open} onClose={props.onClose}>
      <LeaveDialogBody {...props} />
    </Dialog>
  );
}

function LeaveDialogBody(props: {
  employeeId?: string;
  preselect?: string;
  onClose: () => void;
  onSaved: (leave: hr.Leave) => void;
}) {
  const employees = useLoad(async () => {
    const [people, leaveTypes] = await Promise.all([allEmployees(), allLeaveTypes()]);
    return { people, leaveTypes };
  }, []);
  if (employees.error) return <ErrorMessage message={employees.error} onRetry={employees.reload} />;
  if (!employees.data) return <p class="muted">Loading the employees and leave types…</p>;
  if (employees.data.people.filter((e) => e.status !== 'inactive').length === 0) {
    return (
      <>
        <p>There is no active employee to request leave for: add one under Employees first.</p>
        <div class="dialog-actions">
          <Button onClick={props.onClose}>Close</Button>
        </div>
      </>
    );
  }
  return (
    <LeaveForm
      employees={employees.data.people}
      leaveTypes={employees.data.leaveTypes}
      employeeId={props.employeeId}
      preselect={props.preselect}
      onCancel={props.onClose}
      onSaved={props.onSaved}
    />
  );
}
