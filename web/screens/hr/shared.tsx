import { useState } from 'preact/hooks';
import { hr, toMajor, toMinor, unwrap } from '../../../client/index.js';
import { currencyOptions } from '../../lib/currencies.js';
import { date, today } from '../../lib/format.js';
import { type FieldErrors, useDraft, useForm, useLoad } from '../../lib/forms.js';
import { decimalText } from '../../lib/lines.js';
import { FIELD_MESSAGES } from '../../lib/messages.js';
import { conflictOn, summaryOf } from '../../lib/refusals.js';
import { api, can } from '../../lib/session.js';
import { Button, Dialog, ErrorMessage, Field, Select, TextArea } from '../../components/ui.js';
import { useAction } from '../../lib/action.js';
import { ConfirmDialog } from '../../components/confirm.js';
import { leaveDays } from './days.js';

/**
 * What the HR screens share: labels, whole lists (departments, employees, approved leaves), the
 * employee form, the leave request form with its working days, and a leave's actions.
 */

export const EMPLOYEE_STATUS_LABELS: Record<hr.EmployeeStatus, string> = {
  active: 'Active',
  on_leave: 'On leave',
  inactive: 'Inactive',
};

export const LEAVE_STATUS_LABELS: Record<hr.LeaveStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
};

export const LEAVE_TYPE_LABELS: Record<(typeof hr.LEAVE_TYPES)[number], string> = {
  annual: 'Annual leave',
  sick: 'Sick leave',
  unpaid: 'Unpaid leave',
  parental: 'Parental leave',
  other: 'Other leave',
};

export const fullName = (e: { first_name: string; last_name: string }) => `${e.first_name} ${e.last_name}`;

/** Every row of an offset-paged list, 200 at a time (at most `cap`). */
async function everyRow<T>(
  fetchPage: (offset: number) => Promise<{ rows: T[]; total: number }>,
  cap = 5000,
): Promise<T[]> {
  const rows: T[] = [];
  for (;;) {
    const next = await fetchPage(rows.length);
    rows.push(...next.rows);
    if (next.rows.length === 0 || rows.length >= next.total || rows.length >= cap) return rows;
  }
}

export const allDepartments = () =>
  everyRow(async (offset) => {
    const res = await unwrap(api.value.hr.departments.listDepartments({ query: { limit: 200, offset } }));
    return { rows: res.departments, total: res.total_count };
  });

export const allEmployees = () =>
  everyRow(async (offset) => {
    const res = await unwrap(api.value.hr.employees.listEmployees({ query: { limit: 200, offset } }));
    return { rows: res.employees, total: res.total_count };
  });

export const allApprovedLeaves = () =>
  everyRow(async (offset) => {
    const res = await unwrap(
      api.value.hr.leaves.listLeaves({ query: { limit: 200, offset, status: 'approved' } }),
    );
    return { rows: res.leaves, total: res.total_count };
  });

export const byName = (a: { first_name: string; last_name: string }, b: typeof a) =>
  a.last_name.localeCompare(b.last_name) || a.first_name.localeCompare(b.first_name);

// ----- employee form -----

interface EmployeeDraft {
  first_name: string;
  last_name: string;
  email: string;
  phone: string;
  department_id: string;
  position: string;
  hire_date: string;
  salary: string;
  currency: string;
  status: string;
}

function employeeDraft(
  employee: hr.Employee | undefined,
  departmentId: string,
  currency: string,
): EmployeeDraft {
  return {
    first_name: employee?.first_name ?? '',
    last_name: employee?.last_name ?? '',
    email: employee?.email ?? '',
    phone: employee?.phone ?? '',
    department_id: employee?.department_id ?? departmentId,
    position: employee?.position ?? '',
    hire_date: employee?.hire_date ?? today(),
    salary:
      employee && employee.salary !== null
        ? decimalText(toMajor(employee.salary, employee.currency), employee.currency)
        : '',
    currency: employee?.currency ?? currency,
    status: employee?.status ?? 'active',
  };
}

/** An employee's details, new or changed; the monthly salary typed in major units, sent in minor. */
export function EmployeeForm(props: {
  employee?: hr.Employee;
  departments: hr.Department[];
  /** Preselected department of a new employee. */
  departmentId?: string;
  baseCurrency: string;
  onSaved: (employee: hr.Employee) => void;
  onCancel: () => void;
}) {
  const existing = props.employee;
  const { draft, set, bind } = useDraft(() =>
    employeeDraft(existing, props.departmentId ?? props.departments[0]?.id ?? '', props.baseCurrency),
  );
  const [salaryError, setSalaryError] = useState<string | undefined>(undefined);
  const form = useForm();

  const submit = (event: Event) => {
    event.preventDefault();
    let salary: number | null | undefined = existing ? null : undefined;
    setSalaryError(undefined);
    if (draft.salary.trim() !== '') {
      try {
        salary = toMinor(draft.salary.trim().replace(/,/g, ''), draft.currency);
      } catch (err) {
        setSalaryError(
          err instanceof RangeError && /decimal/.test(err.message)
            ? FIELD_MESSAGES.amountDecimals(draft.currency)
            : FIELD_MESSAGES.amount(draft.currency),
        );
        return;
      }
    }
    const body: Record<string, unknown> = {
      first_name: draft.first_name,
      last_name: draft.last_name,
      email: draft.email.trim(),
      phone: draft.phone.trim() || (existing ? null : undefined),
      department_id: draft.department_id || undefined,
      position: draft.position,
      hire_date: draft.hire_date || undefined,
      salary,
      currency: draft.currency,
      status: draft.status,
    };
    for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
    const employees = api.value.hr.employees;
    const saving = existing
      ? form.submit(hr.UpdateEmployeeBodySchema, body, (value) =>
          conflictOn(
            'email',
            unwrap(employees.updateEmployee({ params: { id: existing.id }, body: value })),
          ).then((r) => r.employee),
        )
      : form.submit(hr.CreateEmployeeBodySchema, body, (value) =>
          conflictOn('email', unwrap(employees.createEmployee({ body: value }))).then((r) => r.employee),
        );
    void saving.then((saved) => {
      if (saved) props.onSaved(saved);
    });
  };

  const e: FieldErrors = form.errors;
  return (
    <form onSubmit={submit} noValidate>
      <div class="form-row">
        <Field label="First name" {...bind('first_name', e)} autoComplete="off" required />
        <Field label="Last name" {...bind('last_name', e)} autoComplete="off" required />
      </div>
      <div class="form-row">
        <Field label="Work email" {...bind('email', e)} type="email" autoComplete="off" required />
        <Field label="Phone" name="phone" value={draft.phone} onValue={set('phone')} error={e.phone} />
      </div>
      <div class="form-row">
        <Select
          label="Department"
          {...bind('department_id', e)}
          options={[
            ...(draft.department_id ? [] : [{ value: '', label: 'Choose a department' }]),
            ...props.departments.map((d) => ({ value: d.id, label: d.name })),
          ]}
        />
        <Field label="Position" {...bind('position', e)} required />
      </div>
      <div class="form-row">
        <Field label="Hire date" {...bind('hire_date', e)} type="date" required />
        <Select
          label="Status"
          {...bind('status', e)}
          options={hr.EMPLOYEE_STATUSES.map((s) => ({ value: s, label: EMPLOYEE_STATUS_LABELS[s] }))}
        />
      </div>
      <div class="form-row">
        <Field
          label="Monthly salary"
          name="salary"
          inputMode="decimal"
          hint="Optional; e.g. 4200.00"
          value={draft.salary}
          onValue={set('salary')}
          error={salaryError ?? e.salary}
        />
        <Select label="Salary currency" {...bind('currency', e)} options={currencyOptions()} />
      </div>
      <ErrorMessage message={summaryOf(form)} />
      <div class="dialog-actions">
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button type="submit" kind="primary" busy={form.busy}>
          {existing ? 'Save changes' : 'Add employee'}
        </Button>
      </div>
    </form>
  );
}

// ----- leave request -----

/**
 * A leave request: the employee (fixed, or chosen among those who are not inactive), type, dates and
 * reason; the working days the dates cover shown while typing. An overlap with another pending or
 * approved leave is refused by the service (409): its message is shown beside the dates.
 */
export function LeaveForm(props: {
  employees: hr.Employee[];
  employeeId?: string;
  /** The employee chosen at first, when not fixed. */
  preselect?: string;
  onSaved: (leave: hr.Leave) => void;
  onCancel: () => void;
}) {
  const choices = props.employees.filter((e) => e.status !== 'inactive').sort(byName);
  const [employeeId, setEmployeeId] = useState(props.employeeId ?? props.preselect ?? '');
  const [type, setType] = useState<string>('annual');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [reason, setReason] = useState('');
  const form = useForm();
  const days = leaveDays(start, end);
  const fixed = props.employeeId ? props.employees.find((e) => e.id === props.employeeId) : undefined;

  const submit = (event: Event) => {
    event.preventDefault();
    const body = {
      employee_id: employeeId || undefined,
      type,
      start_date: start || undefined,
      end_date: end || undefined,
      reason: reason.trim() || undefined,
    };
    void form
      .submit(hr.CreateLeaveBodySchema, body, (value) =>
        conflictOn('start_date', unwrap(api.value.hr.leaves.createLeave({ body: value }))),
      )
      .then((saved) => {
        if (saved) props.onSaved(saved.leave);
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
          name="employee_id"
          value={employeeId}
          options={[
            { value: '', label: 'Choose an employee' },
            ...choices.map((c) => ({ value: c.id, label: `${fullName(c)} (${c.department})` })),
          ]}
          onValue={setEmployeeId}
          error={e.employee_id}
        />
      )}
      {fixed && e.employee_id ? <ErrorMessage message={e.employee_id} /> : null}
      <Select
        label="Type"
        name="type"
        value={type}
        options={hr.LEAVE_TYPES.map((t) => ({ value: t, label: LEAVE_TYPE_LABELS[t] }))}
        onValue={setType}
        error={e.type}
      />
      <div class="form-row">
        <Field
          label="First day"
          name="start_date"
          type="date"
          value={start}
          onValue={setStart}
          error={e.start_date}
          required
        />
        <Field
          label="Last day"
          name="end_date"
          type="date"
          value={end}
          onValue={setEnd}
          error={e.end_date}
          min={start || undefined}
          required
        />
      </div>
      <p class="working-days" aria-live="polite">
        {days === null ? (
          start && end ? (
            end < start ? (
              'The last day must be on or after the first day.'
            ) : (
              `One request covers at most ${hr.MAX_LEAVE_SPAN_DAYS} days: split a longer leave.`
            )
          ) : (
            'Choose the first and last day to see the working days.'
          )
        ) : (
          <>
            <strong data-working-days>
              {days} working day{days === 1 ? '' : 's'}
            </strong>{' '}
            <span class="muted">(estimate: Monday to Friday; the service counts them when you send)</span>
          </>
        )}
      </p>
      <TextArea label="Reason" name="reason" value={reason} onValue={setReason} error={e.reason} rows={2} />
      <ErrorMessage message={summaryOf(form)} />
      <div class="dialog-actions">
        <Button onClick={props.onCancel}>Cancel</Button>
        <Button type="submit" kind="primary" busy={form.busy}>
          Request leave
        </Button>
      </div>
    </form>
  );
}

/** The leave request dialog, with the employees it may be for loaded when opened. */
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
  const employees = useLoad(allEmployees, []);
  if (employees.error) return <ErrorMessage message={employees.error} onRetry={employees.reload} />;
  if (!employees.data) return <p class="muted">Loading the employees…</p>;
  if (employees.data.filter((e) => e.status !== 'inactive').length === 0) {
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
      employees={employees.data}
      employeeId={props.employeeId}
      preselect={props.preselect}
      onCancel={props.onClose}
      onSaved={props.onSaved}
    />
  );
}

// ----- a leave's actions -----

function RejectButton(props: { leave: hr.Leave; onDone: (leave: hr.Leave, message: string) => void }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const form = useForm();
  const who = props.leave.employee_name;
  return (
    <>
      <Button
        aria-label={`Reject the leave of ${who} from ${date(props.leave.start_date)}`}
        onClick={() => setOpen(true)}
      >
        Reject
      </Button>
      <Dialog title={`Reject the leave of ${who}?`} open={open} onClose={() => setOpen(false)}>
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void form
              .submit(
                hr.UpdateLeaveBodySchema,
                { status: 'rejected', reason: reason.trim() || undefined },
                (body) => unwrap(api.value.hr.leaves.updateLeave({ params: { id: props.leave.id }, body })),
              )
              .then((res) => {
                if (!res) return;
                setOpen(false);
                props.onDone(res.leave, `The leave of ${who} was rejected.`);
              });
          }}
        >
          <p>
            {LEAVE_TYPE_LABELS[props.leave.type]}, {date(props.leave.start_date)} to{' '}
            {date(props.leave.end_date)}. A rejected request is final.
          </p>
          <TextArea
            label="Reason (optional)"
            name="reason"
            value={reason}
            onValue={setReason}
            error={form.errors.reason}
            rows={2}
          />
          <ErrorMessage message={summaryOf(form)} />
          <div class="dialog-actions">
            <Button onClick={() => setOpen(false)}>Cancel</Button>
            <Button type="submit" kind="danger" busy={form.busy}>
              Reject leave
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}

function CancelButton(props: { leave: hr.Leave; onDone: (leave: hr.Leave, message: string) => void }) {
  const { leave } = props;
  const [open, setOpen] = useState(false);
  const who = leave.employee_name;
  return (
    <>
      <Button
        aria-label={`Cancel leave of ${who} from ${date(leave.start_date)}`}
        onClick={() => setOpen(true)}
      >
        Cancel leave
      </Button>
      <ConfirmDialog
        open={open}
        title={`Cancel the leave of ${who}?`}
        confirmLabel="Cancel the leave"
        cancelLabel="Keep the leave"
        onClose={() => setOpen(false)}
        onConfirm={async () => {
          const res = await unwrap(
            api.value.hr.leaves.updateLeave({ params: { id: leave.id }, body: { status: 'cancelled' } }),
          );
          props.onDone(res.leave, `The leave of ${who} was cancelled.`);
        }}
      >
        <p>
          {LEAVE_TYPE_LABELS[leave.type]}, {date(leave.start_date)} to {date(leave.end_date)} ({leave.days}{' '}
          working day{leave.days === 1 ? '' : 's'}). A cancelled leave is final: taking it after all needs a
          new request.
        </p>
      </ConfirmDialog>
    </>
  );
}

/** Approve, reject and cancel, as the leave's status and the role allow. */
export function LeaveActions(props: {
  leave: hr.Leave;
  onDone: (leave: hr.Leave, message: string) => void;
  onError: (message: string) => void;
}) {
  const { leave } = props;
  const approving = useAction();
  if (!can('updateLeave') || (leave.status !== 'pending' && leave.status !== 'approved')) return null;
  const who = leave.employee_name;
  const when = `from ${date(leave.start_date)}`;
  const approve = async () => {
    const refusal = await approving.run(
      () =>
        unwrap(api.value.hr.leaves.updateLeave({ params: { id: leave.id }, body: { status: 'approved' } })),
      (res) => props.onDone(res.leave, `The leave of ${who} was approved: ${res.leave.days} working days.`),
    );
    if (refusal) props.onError(refusal);
  };
  return (
    <div class="row-actions">
      {leave.status === 'pending' ? (
        <>
          <Button
            kind="primary"
            busy={approving.busy}
            aria-label={`Approve the leave of ${who} ${when}`}
            onClick={() => void approve()}
          >
            Approve
          </Button>
          <RejectButton leave={leave} onDone={props.onDone} />
        </>
      ) : null}
      <CancelButton leave={leave} onDone={props.onDone} />
    </div>
  );
}
