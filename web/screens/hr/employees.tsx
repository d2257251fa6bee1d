import { useState } from 'preact/hooks';
import { contract, hr, unwrap } from '../../../client/index.js';
import { ExportButton } from '../../components/csv.js';
import { ImportButton } from '../../components/csv-import.js';
import { allDepartments } from './lists.js';
import { EMPLOYEE_STATUS_LABELS, fullName } from './people.js';
import { EmployeeForm } from './employee-form.js';
import {
  Badge,
  Button,
  Dialog,
  Empty,
  ErrorMessage,
  Link,
  Loading,
  Notice,
  PageHeader,
  Pager,
  Select,
  Table,
  type Column,
} from '../../components/ui.js';
import { useBaseCurrency } from '../../lib/currencies.js';
import { date } from '../../lib/format.js';
import { useLoad } from '../../lib/forms.js';
import { apiSort, oneOf, pageOf, sortOf } from '../../lib/lists.js';
import { here, navigate, withQuery } from '../../lib/router.js';
import { api, can } from '../../lib/session.js';
import { StatusTabs } from '../../components/status-tabs.js';

/** Employees: by status and department, sorted and paged from the URL; a new one added in a dialog. */

/** The header's sort keys: the name column sorts by last name. */
const SORTS = hr.EMPLOYEE_SORT_FIELDS;

const COLUMNS: Column<hr.GeneralEmployee>[] = [
  {
    label: 'Name',
    sort: 'last_name',
    render: (e) => <Link to={`/hr/employees/${e.id}`}>{fullName(e)}</Link>,
  },
  { label: 'Position', render: (e) => e.position },
  {
    label: 'Department',
    render: (e) => (
      <Link
        to={withQuery({ department_id: e.department_id, page: null })}
        aria-label={`${e.department}: show only its employees`}
      >
        {e.department}
      </Link>
    ),
  },
  { label: 'Status', render: (e) => <Badge value={e.status} /> },
  { label: 'Email', render: (e) => e.email },
  { label: 'Hired', sort: 'hire_date', render: (e) => date(e.hire_date) },
  { label: 'Added', sort: 'created_at', render: (e) => date(e.created_at) },
];

export default function Employees() {
  const query = here.value.query;
  const page = pageOf(query);
  const sort = sortOf(query, SORTS);
  const status = oneOf(query, 'status', hr.EMPLOYEE_STATUSES);
  const departmentId = query.get('department_id') || undefined;
  const [creating, setCreating] = useState(false);
  const base = useBaseCurrency();
  const departments = useLoad(allDepartments, []);

  const filters = { sort: apiSort(sort), status, department_id: departmentId };
  const list = useLoad(
    () => unwrap(api.value.hr.employees.listGeneralEmployees({ query: { page, limit: 20, ...filters } })),
    [page, sort, status, departmentId],
  );
  const filtered = Boolean(status || departmentId);
  const department = departments.data?.find((d) => d.id === departmentId);
  const noDepartments = departments.data?.length === 0;

  return (
    <>
      <PageHeader title="Employees">
        <ExportButton route={contract.hr.employees.listGeneralEmployees} query={filters} />
        <ImportButton kind="employees" onImported={list.reload} />
        {can('createEmployee') && !noDepartments ? (
          <Button kind="primary" onClick={() => setCreating(true)}>
            New employee
          </Button>
        ) : null}
      </PageHeader>
      <StatusTabs
        label="Employee status"
        param="status"
        values={Object.keys(EMPLOYEE_STATUS_LABELS)}
        names={EMPLOYEE_STATUS_LABELS}
        current={status}
      />
      <form class="filters" role="search" aria-label="Filter employees" onSubmit={(e) => e.preventDefault()}>
        <Select
          label="Department"
          name="department_id"
          value={departmentId ?? ''}
          options={[
            { value: '', label: 'Every department' },
            ...(departmentId && departments.data && !department
              ? [{ value: departmentId, label: departmentId }]
              : []),
            ...(departments.data ?? []).map((d) => ({ value: d.id, label: d.name })),
          ]}
          onValue={(value) => navigate(withQuery({ department_id: value, page: null }))}
        />
      </form>
      {list.error ? (
        <ErrorMessage message={list.error} onRetry={list.reload} />
      ) : !list.data ? (
        <Loading />
      ) : list.data.data.length === 0 ? (
        filtered ? (
          <Empty title="No employee matches these filters">
            <p>
              <Link to={withQuery({ status: null, department_id: null, page: null })}>
                Show every employee
              </Link>
              .
            </p>
          </Empty>
        ) : page > 1 ? (
          <Empty title={`There is no page ${page}`}>
            <p>
              <Link to={withQuery({ page: null })}>Go to the first page</Link>.
            </p>
          </Empty>
        ) : noDepartments ? (
          <Empty title="No employees yet">
            <p>
              Every employee belongs to a department: <Link to="/hr/departments">add a department</Link>{' '}
              first, then add its people here.
            </p>
          </Empty>
        ) : (
          <Empty title="No employees yet">
            <p>
              {can('createEmployee')
                ? 'Add the people who work for the business with New employee; their leave is then requested and approved here.'
                : 'Employees appear here once someone with permission to add them does so.'}
            </p>
          </Empty>
        )
      ) : (
        <>
          {department ? <Notice>Employees of {department.name}.</Notice> : null}
          <Table
            caption={department ? `Employees of ${department.name}` : 'Employees'}
            columns={COLUMNS}
            rows={list.data.data}
            rowKey={(e) => e.id}
            sort={sort}
          />
          <Pager
            page={page}
            total={list.data.pagination.total}
            totalPages={list.data.pagination.total_pages}
          />
        </>
      )}
      <Dialog title="New employee" open={creating} onClose={() => setCreating(false)}>
        {departments.data && base.loaded ? (
          <EmployeeForm
            departments={departments.data}
            departmentId={departmentId}
            baseCurrency={base.currency}
            onCancel={() => setCreating(false)}
            onSaved={(employee) => {
              setCreating(false);
              navigate(`/hr/employees/${employee.id}`);
            }}
          />
        ) : departments.error ? (
          <ErrorMessage message={departments.error} onRetry={departments.reload} />
        ) : (
          <Loading />
        )}
      </Dialog>
    </>
  );
}
