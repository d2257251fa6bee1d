import { contract, hr } from '../../../client/index.js';
import { ImportButton } from '../../components/csv-import.js';
import { Filters, ListPage } from '../../components/list-page.js';
import { allDepartments } from './lists.js';
import { EMPLOYEE_STATUS_LABELS, fullName } from './people.js';
import { EmployeeForm } from './employee-form.js';
import {
  Badge,
  ErrorMessage,
  Link,
  Loading,
  Notice,
  Select,
  Table,
  type Column,
} from '../../components/ui.js';
import { useBaseCurrency } from '../../lib/currencies.js';
import { date } from '../../lib/format.js';
import { useLoad } from '../../lib/forms.js';
import { usePagedList } from '../../lib/list-query.js';
import { apiSort, oneOf, sortOf } from '../../lib/lists.js';
import { here, navigate, withQuery } from '../../lib/router.js';
import { api, can } from '../../lib/api.js';

/** Employees: by status and department, sorted and paged from the URL; a new one added in a dialog. */

const SIZE = 20;

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
  const sort = sortOf(query, SORTS);
  const status = oneOf(query, 'status', hr.EMPLOYEE_STATUSES);
  const departmentId = query.get('department_id') || undefined;
  const base = useBaseCurrency();
  const departments = useLoad(allDepartments, []);

  const filters = { sort: apiSort(sort), status, department_id: departmentId };
  const list = usePagedList(
    SIZE,
    ({ limit }, page) => api.value.hr.employees.listGeneralEmployees({ query: { page, limit, ...filters } }),
    (answer) => ({ rows: answer.data, total: answer.pagination.total }),
    [sort, status, departmentId],
  );
  const department = departments.data?.find((d) => d.id === departmentId);
  const noDepartments = departments.data?.length === 0;

  return (
    <ListPage
      title="Employees"
      export={{ route: contract.hr.employees.listGeneralEmployees, query: filters }}
      actions={<ImportButton kind="employees" onImported={list.reload} />}
      create={
        noDepartments
          ? undefined
          : {
              operation: 'createEmployee',
              label: 'New employee',
              form: (close) =>
                departments.data && base.loaded ? (
                  <EmployeeForm
                    departments={departments.data}
                    departmentId={departmentId}
                    baseCurrency={base.currency}
                    onCancel={close}
                    onSaved={(employee) => {
                      close();
                      navigate(`/hr/employees/${employee.id}`);
                    }}
                  />
                ) : departments.error ? (
                  <ErrorMessage message={departments.error} onRetry={departments.reload} />
                ) : (
                  <Loading />
                ),
            }
      }
      tabs={{
        label: 'Employee status',
        param: 'status',
        values: Object.keys(EMPLOYEE_STATUS_LABELS),
        names: EMPLOYEE_STATUS_LABELS,
        current: status,
      }}
      filters={
        <Filters label="Filter employees">
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
        </Filters>
      }
      list={list}
      filtered={{
        active: Boolean(status || departmentId),
        title: 'No employee matches these filters',
        clear: ['status', 'department_id'],
        show: 'Show every employee',
      }}
      empty={{
        title: 'No employees yet',
        children: noDepartments ? (
          <p>
            Every employee belongs to a department: <Link to="/hr/departments">add a department</Link> first,
            then add its people here.
          </p>
        ) : (
          <p>
            {can('createEmployee')
              ? 'Add the people who work for the business with New employee; their leave is then requested and approved here.'
              : 'Employees appear here once someone with permission to add them does so.'}
          </p>
        ),
      }}
    >
      {(rows) => (
        <>
          {department ? <Notice>Employees of {department.name}.</Notice> : null}
          <Table
            caption={department ? `Employees of ${department.name}` : 'Employees'}
            columns={COLUMNS}
            rows={rows}
            rowKey={(e) => e.id}
            sort={sort}
          />
        </>
      )}
    </ListPage>
  );
}
