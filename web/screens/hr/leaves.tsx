import { useState } from 'preact/hooks';
import { contract, hr } from '../../../client/index.js';
import { Filters, ListPage } from '../../components/list-page.js';
import {
  allEmployees,
  byName,
  fullName,
  LEAVE_STATUS_LABELS,
  LEAVE_TYPE_LABELS,
  LeaveActions,
  LeaveDialog,
} from './shared.js';
import { Badge, ErrorMessage, Link, Select, type Column } from '../../components/ui.js';
import { date, number } from '../../lib/format.js';
import { useLoad } from '../../lib/forms.js';
import { usePagedList } from '../../lib/list-query.js';
import { oneOf } from '../../lib/lists.js';
import { here, navigate, withQuery } from '../../lib/router.js';
import { api, can } from '../../lib/session.js';

/** Leave requests: by status and employee from the URL, latest first; requested, approved, rejected, cancelled. */

const LIMIT = 20;

export default function Leaves() {
  const query = here.value.query;
  const status = oneOf(query, 'status', hr.LEAVE_STATUSES);
  const employeeId = query.get('employee_id') || undefined;
  const [requesting, setRequesting] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const employees = useLoad(allEmployees, []);

  const filters = { status, employee_id: employeeId };
  const list = usePagedList(
    LIMIT,
    (paging) => api.value.hr.leaves.listLeaves({ query: { ...paging, ...filters } }),
    (answer) => ({ rows: answer.leaves, total: answer.total_count }),
    [status, employeeId],
  );
  const people = [...(employees.data ?? [])].sort(byName);
  const person = people.find((e) => e.id === employeeId);

  const columns: Column<hr.Leave>[] = [
    {
      label: 'Employee',
      render: (l) => <Link to={`/hr/employees/${l.employee_id}`}>{l.employee_name}</Link>,
    },
    { label: 'Type', render: (l) => LEAVE_TYPE_LABELS[l.type] },
    { label: 'From', render: (l) => date(l.start_date) },
    { label: 'To', render: (l) => date(l.end_date) },
    { label: 'Working days', numeric: true, render: (l) => number(l.days) },
    { label: 'Status', render: (l) => <Badge value={l.status} /> },
    {
      label: 'Reason',
      render: (l) => (
        <>
          {l.reason ?? '—'}
          {l.status_reason ? <span class="line muted">Decision: {l.status_reason}</span> : null}
        </>
      ),
    },
  ];
  if (can('updateLeave')) {
    columns.push({
      label: 'Actions',
      render: (l) => (
        <LeaveActions
          leave={l}
          onDone={(_, message) => {
            setError(null);
            setNotice(message);
            list.reload();
          }}
          onError={(message) => {
            setNotice(null);
            setError(message);
          }}
        />
      ),
    });
  }

  return (
    <>
      <ListPage
        title="Leaves"
        export={{ route: contract.hr.leaves.listLeaves, query: filters }}
        actions={
          <Link class="button secondary" to="/hr/calendar">
            Calendar
          </Link>
        }
        create={{
          operation: 'createLeave',
          label: 'Request leave',
          onClick: () => {
            setNotice(null);
            setRequesting(true);
          },
        }}
        tabs={{
          label: 'Leave status',
          param: 'status',
          values: Object.keys(LEAVE_STATUS_LABELS),
          names: LEAVE_STATUS_LABELS,
          current: status,
        }}
        filters={
          <>
            <Filters label="Filter leaves">
              <Select
                label="Employee"
                name="employee_id"
                value={employeeId ?? ''}
                options={[
                  { value: '', label: 'Everyone' },
                  ...(employeeId && employees.data && !person
                    ? [{ value: employeeId, label: employeeId }]
                    : []),
                  ...people.map((e) => ({ value: e.id, label: fullName(e) })),
                ]}
                onValue={(value) => navigate(withQuery({ employee_id: value, page: null }))}
              />
            </Filters>
            {/* A refused decision; it and the notice of a done one never show together. */}
            <ErrorMessage message={error} />
          </>
        }
        notice={notice}
        list={list}
        filtered={{
          active: Boolean(status || employeeId),
          title: status
            ? `No ${LEAVE_STATUS_LABELS[status].toLowerCase()} leave${person ? ` for ${fullName(person)}` : ''}`
            : `No leave${person ? ` for ${fullName(person)}` : ''}`,
          clear: ['status', 'employee_id'],
          show: 'Show every leave',
        }}
        empty={{
          title: 'No leave requested yet',
          canAdd:
            'Request leave for an employee with Request leave: it waits as pending until approved or rejected here.',
          cannotAdd: 'Leave requests appear here once someone with permission to request them does so.',
        }}
        table={{
          caption: status ? `${LEAVE_STATUS_LABELS[status]} leave` : 'Leave requests',
          columns: columns,
          rowKey: (l) => l.id,
        }}
      />
      <LeaveDialog
        open={requesting}
        preselect={person && person.status !== 'inactive' ? person.id : undefined}
        onClose={() => setRequesting(false)}
        onSaved={(leave) => {
          setRequesting(false);
          setError(null);
          setNotice(
            `Leave requested for ${leave.employee_name}: ${leave.days} working day${leave.days === 1 ? '' : 's'} from ${date(leave.start_date)}, pending approval.`,
          );
          list.reload();
        }}
      />
    </>
  );
}
