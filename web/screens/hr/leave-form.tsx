import { useState } from 'preact/hooks';
import { hr, unwrap } from '../../../client/index.js';
import { useForm, useLoad } from '../../lib/forms.js';
import { conflictOn, summaryOf } from '../../lib/refusals.js';
import { api } from '../../lib/session.js';
import { Button, Dialog, ErrorMessage, Field, Select, TextArea } from '../../components/ui.js';
import { leaveDays } from './days.js';
import { allEmployees } from './lists.js';
import { byName, fullName, LEAVE_TYPE_LABELS } from './people.js';

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
