import { useState } from 'preact/hooks';
import { contract, hr } from '../../../client/index.js';
import { Filters, ListPage } from '../../components/list-page.js';
import { allEmployees } from './lists.js';
import { byName, fullName, LEAVE_STATUS_LABELS } from './people.js';
import { leaveActionsColumn, LEAVE_COLUMNS } from './leave-table.js';
import { LeaveDialog } from './leave-form.js';
import { ErrorMessage, Link, Select, type Column } from '../../components/ui.js';
import { useOutcome } from '../../components/outcome.js';
import { date } from '../../lib/format.js';
import { useLoad } from '../../lib/forms.js';
import { usePagedList } from '../../lib/list-query.js';
import { oneOf } from '../../lib/lists.js';
import { here, navigate, withQuery } from '../../lib/router.js';
import { api } from '../../lib/api.js';

/** Leave requests: by status and employee from the URL, latest first; requested, approved, rejected, cancelled. */

const LIMIT = 20;

export default function Leaves() {
  const query = here.value.query;
  const status = oneOf(query, 'status', hr.LEAVE_STATUSES);
  const employeeId = query.get('employee_id') || undefined;
  const [requesting, setRequesting] = useState(false);
  const outcome = useOutcome();
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
    ...LEAVE_COLUMNS,
    {
      label: 'Reason',
      render: (l) => (
        <>
          {l.reason ?? '—'}
          {l.status_reason ? <span class="line muted">Decision: {l.status_reason}</span> : null}
        </>
      ),
    },
    ...leaveActionsColumn(outcome, list.reload),
  ];

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
            outcome.done(null);
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
            <ErrorMessage message={outcome.error} />
          </>
        }
        notice={outcome.notice}
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
          outcome.done(
            `Leave requested for ${leave.employee_name}: ${leave.days} working day${leave.days === 1 ? '' : 's'} from ${date(leave.start_date)}, pending approval.`,
          );
          list.reload();
        }}
      />
    </>
  );
}
