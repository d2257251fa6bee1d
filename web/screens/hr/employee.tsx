import { useState } from 'preact/hooks';
import { contract, hr, unwrap } from '../../../client/index.js';
import { ExportButton } from '../../components/csv.js';
import { allDepartments, allLeaveTypes } from './lists.js';
import { EMPLOYEE_STATUS_LABELS, byLeaveType, fullName, leaveTypeLabel } from './people.js';
import { daysText } from './days.js';
import { EmployeeForm } from './employee-form.js';
import { leaveActionsColumn, LEAVE_COLUMNS } from './leave-table.js';
import { LeaveDialog } from './leave-form.js';
import {
  Button,
  Dialog,
  Empty,
  ErrorMessage,
  Field,
  Link,
  Loading,
  Notice,
  Table,
  type Column,
} from '../../components/ui.js';
import { dateOf } from '../../components/filter-form.js';
import { useBaseCurrency } from '../../lib/currencies.js';
import { date, dateTime, minorMoney, number, today } from '../../lib/format.js';
import { useForm, useLoad } from '../../lib/forms.js';
import { decimalOf } from '../../lib/numbers.js';
import { summaryOf } from '../../lib/refusals.js';
import { here, navigate, withQuery } from '../../lib/router.js';
import { api, can } from '../../lib/api.js';
import type { ScreenProps } from '../../lib/screen.js';
import {
  DeleteRecordButton,
  RecordHeader,
  RecordStatus,
  RecordUnavailable,
} from '../../components/record.js';
import { OutcomeMessage, useNotice, useOutcome } from '../../components/outcome.js';

const EMPLOYEES = { to: '/hr/employees', name: 'Employees' };

/**
 * One employee: details, edit, soft delete, their leave balances of the tracked types (as of a day,
 * in the URL's `as_of`) with their own entitlements set or cleared, and their leave with its actions
 * and a new request.
 */

/** The employee's own days a year of a type, in place of its policy's, or back to the policy. */
function EntitlementForm(props: {
  employee: hr.Employee;
  balance: hr.LeaveBalance;
  /** The type's policy, days a year (when known). */
  policy: number | null | undefined;
  onSaved: (message: string) => void;
  onCancel: () => void;
}) {
  const { employee, balance } = props;
  const label = leaveTypeLabel(balance.type);
  const [days, setDays] = useState(balance.own_entitlement ? String(balance.entitled) : '');
  const form = useForm();
  const send = (value: number | string | null | undefined) => {
    void form
      .submit(hr.SetLeaveEntitlementBodySchema, { days_per_year: value }, (body) =>
        unwrap(
          api.value.hr.leaveTypes.setLeaveEntitlement({
            params: { id: employee.id, type: balance.leave_type_id },
            body,
          }),
        ),
      )
      .then((answer) => {
        if (!answer) return;
        props.onSaved(
          answer.balance.own_entitlement
            ? `${fullName(employee)} is now entitled to ${daysText(answer.balance.entitled)} of ${label.toLowerCase()} a year.`
            : `${fullName(employee)} is back on the policy of ${label.toLowerCase()}: ${daysText(answer.balance.entitled)} a year.`,
        );
      });
  };
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        // An empty field is refused beside it: going back to the policy is its own button.
        send(decimalOf(days) ?? '');
      }}
    >
      <p>
        {props.policy === null || props.policy === undefined
          ? `${label} has a policy of its own.`
          : `The policy of ${label.toLowerCase()} gives ${daysText(props.policy)} a year.`}{' '}
        {balance.own_entitlement
          ? `${employee.first_name} has their own: ${daysText(balance.entitled)} a year.`
          : `${employee.first_name} is on the policy.`}
      </p>
      <Field
        label="Own days a year"
        name="days_per_year"
        type="number"
        min={0}
        max={366}
        step={0.5}
        inputMode="decimal"
        value={days}
        onValue={setDays}
        error={form.errors.days_per_year}
        hint="Accrued as the type's policy says, pro rata from the hire date."
      />
      <ErrorMessage message={summaryOf(form)} />
      <div class="dialog-actions">
        <Button onClick={props.onCancel}>Cancel</Button>
        {balance.own_entitlement ? (
          <Button busy={form.busy} onClick={() => send(null)}>
            Back to the policy
          </Button>
        ) : null}
        <Button type="submit" kind="primary" busy={form.busy}>
          Save entitlement
        </Button>
      </div>
    </form>
  );
}

/** The balances of the tracked types as of a day, and the employee's own entitlements to them. */
function Balances(props: { employee: hr.Employee; version: number }) {
  const { employee } = props;
  const asOf = dateOf(here.value.query, 'as_of') ?? today();
  const [typed, setTyped] = useState(asOf);
  const [changed, setChanged] = useState(0);
  const [editing, setEditing] = useState<hr.LeaveBalance | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const load = useLoad(
    () =>
      unwrap(
        api.value.hr.leaveTypes.getLeaveBalances({ params: { id: employee.id }, query: { as_of: asOf } }),
      ),
    [employee.id, asOf, props.version, changed],
  );
  // The policies, said beside an employee's own entitlement.
  const types = useLoad(allLeaveTypes, [changed]);
  const policyOf = (balance: hr.LeaveBalance) =>
    types.data?.find((t) => t.id === balance.leave_type_id)?.days_per_year;
  const balances = [...(load.data?.balances ?? [])].sort((a, b) =>
    byLeaveType({ name: a.type }, { name: b.type }),
  );
  const name = fullName(employee);
  const columns: Column<hr.LeaveBalance>[] = [
    {
      label: 'Type',
      render: (b) => (
        <>
          {leaveTypeLabel(b.type)}
          {b.paid ? null : <span class="line muted">Unpaid</span>}
        </>
      ),
    },
    {
      label: 'Entitled a year',
      numeric: true,
      render: (b) => (
        <>
          {number(b.entitled)}
          {b.own_entitlement ? <span class="own-entitlement">Own entitlement</span> : null}
        </>
      ),
    },
    { label: 'Accrued', numeric: true, render: (b) => number(b.accrued) },
    { label: 'Carried over', numeric: true, render: (b) => number(b.carried_over) },
    { label: 'Taken', numeric: true, render: (b) => number(b.taken) },
    { label: 'Pending', numeric: true, render: (b) => number(b.pending) },
    {
      label: 'Remaining',
      numeric: true,
      render: (b) => (
        <strong class={b.remaining < 0 ? 'error' : undefined} data-remaining={b.remaining}>
          {number(b.remaining)}
        </strong>
      ),
    },
    ...(can('setLeaveEntitlement')
      ? [
          {
            label: 'Actions',
            render: (b: hr.LeaveBalance) => (
              <div class="row-actions">
                <Button
                  onClick={() => {
                    setNotice(null);
                    setEditing(b);
                  }}
                >
                  Set entitlement
                  <span class="visually-hidden"> of {leaveTypeLabel(b.type).toLowerCase()}</span>
                </Button>
              </div>
            ),
          },
        ]
      : []),
  ];
  return (
    <section aria-labelledby="employee-balances" class="whole-words">
      <h2 id="employee-balances">Leave balances</h2>
      <form
        class="filters"
        role="search"
        aria-label="Balances as of"
        onSubmit={(event) => event.preventDefault()}
      >
        <Field
          label="As of"
          name="as_of"
          type="date"
          value={typed}
          onValue={(value) => {
            setTyped(value);
            if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
              navigate(withQuery({ as_of: value === today() ? null : value }), { replace: true });
            }
          }}
        />
      </form>
      {notice ? <Notice kind="success">{notice}</Notice> : null}
      {load.error ? (
        <ErrorMessage message={load.error} onRetry={load.reload} />
      ) : !load.data ? (
        <Loading />
      ) : balances.length === 0 ? (
        <Empty title="No leave type is tracked">
          <p>
            Balances are kept of the leave types with a policy of days a year: set one under{' '}
            <Link to="/hr/leave-types">Leave types</Link>.
          </p>
        </Empty>
      ) : (
        <>
          <p class="hint">
            The year {load.data.year} as of {date(load.data.as_of)}, in days: accrued by then from the hire
            date; taken and pending count the year's approved and pending requests; remaining is accrued plus
            carried over, less taken and pending.
          </p>
          <Table
            caption={`Leave balances of ${name} on ${date(load.data.as_of)}`}
            columns={columns}
            rows={balances}
            rowKey={(b) => b.leave_type_id}
          />
        </>
      )}
      <Dialog
        title={editing ? `${leaveTypeLabel(editing.type)} entitlement of ${name}` : ''}
        open={editing !== null}
        onClose={() => setEditing(null)}
      >
        {editing ? (
          <EntitlementForm
            employee={employee}
            balance={editing}
            policy={policyOf(editing)}
            onCancel={() => setEditing(null)}
            onSaved={(message) => {
              setEditing(null);
              setNotice(message);
              setChanged((n) => n + 1);
            }}
          />
        ) : null}
      </Dialog>
    </section>
  );
}

function Leaves(props: { employee: hr.Employee; version: number }) {
  const outcome = useOutcome();
  const list = useLoad(
    () => unwrap(api.value.hr.leaves.listLeaves({ query: { employee_id: props.employee.id, limit: 50 } })),
    [props.employee.id, props.version],
  );
  const columns: Column<hr.Leave>[] = [
    ...LEAVE_COLUMNS,
    { label: 'Reason', render: (l) => l.status_reason ?? l.reason ?? '—' },
    ...leaveActionsColumn(outcome, list.reload),
  ];
  return (
    <section aria-labelledby="employee-leaves">
      <div class="section-header">
        <h2 id="employee-leaves">Leave</h2>
        <ExportButton
          route={contract.hr.leaves.listLeaves}
          query={{ employee_id: props.employee.id }}
          what={`the leave of ${fullName(props.employee)}`}
        />
      </div>
      <OutcomeMessage outcome={outcome} />
      {list.error ? (
        <ErrorMessage message={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading />
      ) : list.data.leaves.length === 0 ? (
        <Empty title="No leave requested">
          <p>
            {can('createLeave') && props.employee.status !== 'inactive'
              ? `Request leave for ${props.employee.first_name} with Request leave above.`
              : `Leave requested for ${props.employee.first_name} will be listed here.`}
          </p>
        </Empty>
      ) : (
        <>
          <Table
            caption={`Leave of ${fullName(props.employee)}`}
            columns={columns}
            rows={list.data.leaves}
            rowKey={(l) => l.id}
          />
          {list.data.total_count > list.data.leaves.length ? (
            <p class="muted">
              The latest {list.data.leaves.length} of {list.data.total_count}:{' '}
              <Link to={`/hr/leaves?employee_id=${encodeURIComponent(props.employee.id)}`}>see them all</Link>
              .
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

export default function Employee({ params }: ScreenProps) {
  const id = params.id!;
  const load = useLoad(() => unwrap(api.value.hr.employees.getEmployee({ params: { id } })), [id]);
  const [current, setCurrent] = useState<hr.Employee | null>(null);
  const [editing, setEditing] = useState(false);
  const [requesting, setRequesting] = useState(false);
  const { notice, setNotice, opens } = useNotice();
  const [version, setVersion] = useState(0);
  const departments = useLoad(allDepartments, []);
  const base = useBaseCurrency();

  if (load.error || !load.data) {
    return <RecordUnavailable load={load} title="Employee" list={EMPLOYEES} />;
  }
  const employee = current && current.id === id ? current : load.data.employee;
  const name = fullName(employee);

  return (
    <>
      <RecordHeader list={EMPLOYEES} title={name}>
        {can('createLeave') && employee.status !== 'inactive' ? (
          <Button kind="primary" onClick={opens(setRequesting)}>
            Request leave
          </Button>
        ) : null}
        {can('updateEmployee') ? <Button onClick={opens(setEditing)}>Edit</Button> : null}
        {can('deleteEmployee') ? (
          <DeleteRecordButton
            list={EMPLOYEES}
            label="Delete"
            confirmLabel="Delete employee"
            title={`Delete ${name}?`}
            remove={() => unwrap(api.value.hr.employees.deleteEmployee({ params: { id } }))}
          >
            <p>
              {name} and their leave requests leave every list, and a department they head is left without a
              head. Their email can then be used for someone else. To keep the record, set their status to
              Inactive instead.
            </p>
          </DeleteRecordButton>
        ) : null}
      </RecordHeader>
      <RecordStatus status={employee.status} notice={notice}>
        {employee.position}, {employee.department}
      </RecordStatus>
      <section class="panel" aria-labelledby="employee-details">
        <h2 id="employee-details">Details</h2>
        <dl class="facts">
          <dt>Email</dt>
          <dd>
            <a href={`mailto:${employee.email}`}>{employee.email}</a>
          </dd>
          <dt>Phone</dt>
          <dd>{employee.phone ?? '—'}</dd>
          <dt>Department</dt>
          <dd>
            <Link to={`/hr/employees?department_id=${encodeURIComponent(employee.department_id)}`}>
              {employee.department}
            </Link>
          </dd>
          <dt>Position</dt>
          <dd>{employee.position}</dd>
          <dt>Status</dt>
          <dd>{EMPLOYEE_STATUS_LABELS[employee.status]}</dd>
          <dt>Hired</dt>
          <dd>{date(employee.hire_date)}</dd>
          <dt>Monthly salary</dt>
          <dd>
            {employee.salary === null ? 'Not recorded' : minorMoney(employee.salary, employee.currency)}
          </dd>
          <dt>Added</dt>
          <dd>{dateTime(employee.created_at)}</dd>
          <dt>Last changed</dt>
          <dd>{dateTime(employee.updated_at)}</dd>
        </dl>
      </section>
      {can('getLeaveBalances') ? <Balances employee={employee} version={version} /> : null}
      <Leaves employee={employee} version={version} />
      <Dialog title={`Edit ${name}`} open={editing} onClose={() => setEditing(false)}>
        {departments.data && base.loaded ? (
          <EmployeeForm
            employee={employee}
            departments={departments.data}
            baseCurrency={base.currency}
            onCancel={() => setEditing(false)}
            onSaved={(next) => {
              setCurrent(next);
              setEditing(false);
              setNotice('Changes saved.');
            }}
          />
        ) : departments.error ? (
          <ErrorMessage message={departments.error} onRetry={departments.reload} />
        ) : (
          <Loading />
        )}
      </Dialog>
      <LeaveDialog
        open={requesting}
        employeeId={employee.id}
        onClose={() => setRequesting(false)}
        onSaved={(leave) => {
          setRequesting(false);
          setNotice(
            `Leave requested: ${leave.days} working day${leave.days === 1 ? '' : 's'} from ${date(leave.start_date)}, pending approval.`,
          );
          setVersion((v) => v + 1);
        }}
      />
    </>
  );
}
