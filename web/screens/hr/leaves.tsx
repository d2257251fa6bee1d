import { useState } from 'preact/hooks';
import { contract, hr, unwrap } from '../../../client/index.js';
import { ExportButton } from '../../components/csv.js';
import { allEmployees } from './lists.js';
import { byName, fullName, LEAVE_STATUS_LABELS } from './people.js';
import { leaveActionsColumn, LEAVE_COLUMNS } from './leave-table.js';
import { LeaveDialog } from './leave-form.js';
import { Button, Link, PageHeader, Select, Table, type Column } from '../../components/ui.js';
import { date } from '../../lib/format.js';
import { useLoad } from '../../lib/forms.js';
import { oneOf, pageOf, pageQuery } from '../../lib/lists.js';
import { here, navigate, withQuery } from '../../lib/router.js';
import { api, can } from '../../lib/session.js';
import { StatusTabs } from '../../components/status-tabs.js';
import { PagedList } from '../../components/paged-list.js';
import { OutcomeMessage, useOutcome } from '../../components/outcome.js';

/** Leave requests: by status and employee from the URL, latest first; requested, approved, rejected, cancelled. */

const LIMIT = 20;

export default function Leaves() {
  const query = here.value.query;
  const page = pageOf(query);
  const status = oneOf(query, 'status', hr.LEAVE_STATUSES);
  const employeeId = query.get('employee_id') || undefined;
  const [requesting, setRequesting] = useState(false);
  const outcome = useOutcome();
  const employees = useLoad(allEmployees, []);

  const filters = { status, employee_id: employeeId };
  const list = useLoad(
    () =>
      unwrap(
        api.value.hr.leaves.listLeaves({
          query: { ...pageQuery(page, LIMIT), ...filters },
        }),
      ),
    [page, status, employeeId],
  );
  const filtered = Boolean(status || employeeId);
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
      <PageHeader title="Leaves">
        <ExportButton route={contract.hr.leaves.listLeaves} query={filters} />
        <Link class="button secondary" to="/hr/calendar">
          Calendar
        </Link>
        {can('createLeave') ? (
          <Button
            kind="primary"
            onClick={() => {
              outcome.done(null);
              setRequesting(true);
            }}
          >
            Request leave
          </Button>
        ) : null}
      </PageHeader>
      <StatusTabs
        label="Leave status"
        param="status"
        values={Object.keys(LEAVE_STATUS_LABELS)}
        names={LEAVE_STATUS_LABELS}
        current={status}
      />
      <form class="filters" role="search" aria-label="Filter leaves" onSubmit={(e) => e.preventDefault()}>
        <Select
          label="Employee"
          name="employee_id"
          value={employeeId ?? ''}
          options={[
            { value: '', label: 'Everyone' },
            ...(employeeId && employees.data && !person ? [{ value: employeeId, label: employeeId }] : []),
            ...people.map((e) => ({ value: e.id, label: fullName(e) })),
          ]}
          onValue={(value) => navigate(withQuery({ employee_id: value, page: null }))}
        />
      </form>
      <OutcomeMessage outcome={outcome} />
      <PagedList
        error={list.error}
        reload={list.reload}
        data={list.data && { rows: list.data.leaves, total: list.data.total_count }}
        page={page}
        size={LIMIT}
        filtered={{
          active: !!filtered,
          title: status
            ? `No ${LEAVE_STATUS_LABELS[status].toLowerCase()} leave${person ? ` for ${fullName(person)}` : ''}`
            : `No leave${person ? ` for ${fullName(person)}` : ''}`,
          clear: ['status', 'employee_id'],
          show: 'Show every leave',
        }}
        empty={{
          title: 'No leave requested yet',
          children: (
            <>
              <p>
                {can('createLeave')
                  ? 'Request leave for an employee with Request leave: it waits as pending until approved or rejected here.'
                  : 'Leave requests appear here once someone with permission to request them does so.'}
              </p>
            </>
          ),
        }}
      >
        {(rows) => (
          <>
            <Table
              caption={status ? `${LEAVE_STATUS_LABELS[status]} leave` : 'Leave requests'}
              columns={columns}
              rows={rows}
              rowKey={(l) => l.id}
            />
          </>
        )}
      </PagedList>
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
