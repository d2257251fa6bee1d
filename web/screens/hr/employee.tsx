import { useState } from 'preact/hooks';
import { contract, hr, unwrap } from '../../../client/index.js';
import { ExportButton } from '../../components/csv.js';
import { allDepartments } from './lists.js';
import { EMPLOYEE_STATUS_LABELS, fullName } from './people.js';
import { EmployeeForm } from './employee-form.js';
import { leaveActionsColumn, LEAVE_COLUMNS } from './leave-table.js';
import { LeaveDialog } from './leave-form.js';
import {
  Button,
  Dialog,
  Empty,
  ErrorMessage,
  Link,
  Loading,
  Table,
  type Column,
} from '../../components/ui.js';
import { useBaseCurrency } from '../../lib/currencies.js';
import { date, dateTime, minorMoney } from '../../lib/format.js';
import { useLoad } from '../../lib/forms.js';
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

/** One employee: details, edit, soft delete, and their leave with its actions and a new request. */

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
