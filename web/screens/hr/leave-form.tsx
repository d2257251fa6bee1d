import { hr, unwrap } from '../../../client/index.js';
import { useDraft, useForm, useLoad } from '../../lib/forms.js';
import { conflictOn, summaryOf } from '../../lib/refusals.js';
import { api } from '../../lib/api.js';
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
  const { draft, bind } = useDraft(() => ({
    employee_id: props.employeeId ?? props.preselect ?? '',
    type: 'annual',
    start_date: '',
    end_date: '',
    reason: '',
  }));
  const form = useForm();
  const { start_date: start, end_date: end } = draft;
  const days = leaveDays(start, end);
  const fixed = props.employeeId ? props.employees.find((e) => e.id === props.employeeId) : undefined;

  const submit = (event: Event) => {
    event.preventDefault();
    const body = {
      employee_id: draft.employee_id || undefined,
      type: draft.type,
      start_date: start || undefined,
      end_date: end || undefined,
      reason: draft.reason.trim() || undefined,
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
          {...bind('employee_id', e)}
          options={[
            { value: '', label: 'Choose an employee' },
            ...choices.map((c) => ({ value: c.id, label: `${fullName(c)} (${c.department})` })),
          ]}
        />
      )}
      {fixed && e.employee_id ? <ErrorMessage message={e.employee_id} /> : null}
      <Select
        label="Type"
        {...bind('type', e)}
        options={hr.LEAVE_TYPES.map((t) => ({ value: t, label: LEAVE_TYPE_LABELS[t] }))}
      />
      <div class="form-row">
        <Field label="First day" type="date" {...bind('start_date', e)} required />
        <Field label="Last day" type="date" {...bind('end_date', e)} min={start || undefined} required />
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
      <TextArea label="Reason" {...bind('reason', e)} rows={2} />
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
