import { expect } from 'vitest';
import { contract, unwrap } from '../../client/index.js';
import { registerBusiness, type TestBusiness } from '../support/business.js';
import {
  createDepartment,
  createEmployee,
  createLeave,
  leaveIn,
  uniqueDepartmentName,
  uniqueEmployeeEmail,
} from '../support/hr.js';
import { describeRouteSecurity, type Answer } from '../support/security.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ worker: false });

const { departments, employees, leaves, leaveTypes, holidays } = contract.hr;

let counter = 0;
/** A name and a date no other request of these checks has used. */
const unique = () => {
  counter++;
  const day = new Date(Date.UTC(2030, 0, 1) + counter * 86_400_000).toISOString().slice(0, 10);
  return { name: `Study ${counter} ${Math.random().toString(36).slice(2, 8)}`, date: day };
};
const typeOf = async (t: TestBusiness) =>
  (
    await unwrap(
      t.client.hr.leaveTypes.createLeaveType({
        body: { name: unique().name, days_per_year: 10, accrual: 'yearly' },
      }),
    )
  ).leave_type;
const holidayOf = async (t: TestBusiness) =>
  (await unwrap(t.client.hr.holidays.createHoliday({ body: { date: unique().date, name: 'Founders Day' } })))
    .holiday;

/** A list another business filtered by this business's ids: answered, and empty. */
const emptyList =
  (key: 'employees' | 'leaves') =>
  (answer: Answer): void => {
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ result: 'success', [key]: [], total_count: 0 });
  };

/** The general group's page another business filtered by this business's department: empty. */
const emptyPage = (answer: Answer): void => {
  expect(answer.status).toBe(200);
  expect(answer.body).toMatchObject({ data: [], pagination: { total: 0 } });
};

/** An employee of a department of their own, so the department may be filtered on. */
const employeeOf = (t: TestBusiness) => createEmployee(t.client);

/** A leave of a new employee, each with its own dates free. */
const leaveOf = async (t: TestBusiness) => createLeave(t.client, (await employeeOf(t)).id);

describeRouteSecurity({
  server,
  tenant: registerBusiness,
  router: contract.hr,
  routes: (route) => [
    route(departments.listDepartments, async () => ({ query: {} })),
    route(departments.createDepartment, async () => ({ body: { name: uniqueDepartmentName() } })),
    route(departments.getDepartment, async (t) => ({
      params: { id: (await createDepartment(t.client)).id },
    })),
    // The path names the department first: another business gets 404 for it, whatever the body
    // names (its own department with this head is 422 on head: departments.test.ts).
    route(departments.updateDepartment, async (t) => {
      const head = await employeeOf(t);
      return {
        params: { id: head.department_id },
        body: { name: uniqueDepartmentName('Renamed'), head: head.id },
      };
    }),
    route(departments.deleteDepartment, async (t) => ({
      params: { id: (await createDepartment(t.client)).id },
    })),

    route(
      employees.listEmployees,
      async (t) => ({ query: { department_id: (await employeeOf(t)).department_id } }),
      {
        otherBusiness: emptyList('employees'),
      },
    ),
    route(
      employees.listEmployeesAlias,
      async (t) => ({ query: { department_id: (await employeeOf(t)).department_id } }),
      { otherBusiness: emptyList('employees') },
    ),
    route(
      employees.listGeneralEmployees,
      async (t) => ({ query: { department_id: (await employeeOf(t)).department_id } }),
      { otherBusiness: emptyPage },
    ),
    // Another business's department is no department of the caller's: 422 naming department_id.
    route(
      employees.createEmployee,
      async (t) => ({
        body: {
          first_name: 'Ada',
          last_name: 'Lovelace',
          email: uniqueEmployeeEmail(),
          department_id: (await createDepartment(t.client)).id,
          position: 'Analyst',
          hire_date: '2025-01-06',
        },
      }),
      { otherBusiness: { status: 422, code: 'VALIDATION_ERROR', field: 'department_id' } },
    ),
    route(employees.getEmployee, async (t) => ({ params: { id: (await employeeOf(t)).id } })),
    route(employees.updateEmployee, async (t) => ({
      params: { id: (await employeeOf(t)).id },
      body: { position: 'Principal engineer' },
    })),
    route(employees.deleteEmployee, async (t) => ({ params: { id: (await employeeOf(t)).id } })),

    route(leaves.listLeaves, async (t) => ({ query: { employee_id: (await leaveOf(t)).employee_id } }), {
      otherBusiness: emptyList('leaves'),
    }),
    // Another business's employee is unknown to the caller: 422 naming employee_id.
    route(
      leaves.createLeave,
      async (t) => ({
        body: {
          employee_id: (await employeeOf(t)).id,
          type: 'sick' as const,
          start_date: '2027-02-01',
          end_date: '2027-02-03',
        },
      }),
      { otherBusiness: { status: 422, code: 'VALIDATION_ERROR', field: 'employee_id' } },
    ),
    route(leaves.getLeave, async (t) => ({ params: { id: (await leaveOf(t)).id } })),
    route(leaves.updateLeave, async (t) => ({
      params: { id: (await leaveOf(t)).id },
      body: { status: 'approved' as const },
    })),
    route(leaves.deleteLeave, async (t) => ({
      params: { id: (await leaveIn(t.client, (await employeeOf(t)).id, 'rejected')).id },
    })),

    route(leaveTypes.listLeaveTypes, async () => ({ query: {} })),
    route(leaveTypes.createLeaveType, async () => ({ body: { name: unique().name } })),
    route(leaveTypes.getLeaveType, async (t) => ({ params: { id: (await typeOf(t)).id } })),
    route(leaveTypes.updateLeaveType, async (t) => ({
      params: { id: (await typeOf(t)).id },
      body: { days_per_year: 12 },
    })),
    route(leaveTypes.deleteLeaveType, async (t) => ({ params: { id: (await typeOf(t)).id } })),
    route(leaveTypes.getLeaveBalances, async (t) => ({
      params: { id: (await employeeOf(t)).id },
      query: {},
    })),
    route(leaveTypes.setLeaveEntitlement, async (t) => ({
      params: { id: (await employeeOf(t)).id, type: (await typeOf(t)).id },
      body: { days_per_year: 15 },
    })),

    route(holidays.listHolidays, async () => ({ query: {} })),
    route(holidays.createHoliday, async () => ({ body: { date: unique().date, name: 'Founders Day' } })),
    route(holidays.getHoliday, async (t) => ({ params: { id: (await holidayOf(t)).id } })),
    route(holidays.updateHoliday, async (t) => ({
      params: { id: (await holidayOf(t)).id },
      body: { name: 'Founders Day (observed)' },
    })),
    route(holidays.deleteHoliday, async (t) => ({ params: { id: (await holidayOf(t)).id } })),
  ],
});
