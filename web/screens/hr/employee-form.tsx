import { useState } from 'preact/hooks';
import { hr, toMajor, toMinor, unwrap } from '../../../client/index.js';
import { currencyOptions } from '../../lib/currencies.js';
import { today } from '../../lib/format.js';
import { type FieldErrors, useDraft, useForm } from '../../lib/forms.js';
import { decimalText } from '../../lib/lines.js';
import { FIELD_MESSAGES } from '../../lib/messages.js';
import { conflictOn, summaryOf } from '../../lib/refusals.js';
import { api } from '../../lib/api.js';
import { Button, ErrorMessage, Field, Select } from '../../components/ui.js';
import { EMPLOYEE_STATUS_LABELS } from './people.js';

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
