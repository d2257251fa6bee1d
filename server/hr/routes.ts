import { initServer } from '@ts-rest/express';
import { contract } from '../../contract/index.js';
import { created, ok, success } from '../platform/answers.js';
import { ctxFor, type Deps } from '../platform/deps.js';
import * as departments from './departments/service.js';
import * as employees from './employees/service.js';
import * as holidays from './holidays/service.js';
import * as leaveTypes from './leave-types/service.js';
import * as leaves from './leaves/service.js';

const s = initServer();

export const hrRoutes = (deps: Deps) => {
  const ctx = ctxFor(deps);
  return s.router(contract.hr, {
    departments: {
      listDepartments: async ({ query, req }) =>
        ok(success(await departments.listDepartments(ctx(req), query))),
      createDepartment: async ({ body, req }) => {
        const department = await departments.createDepartment(ctx(req), body);
        return created(success({ department_id: department.id, message: 'Department created', department }));
      },
      getDepartment: async ({ params, req }) =>
        ok(success({ department: await departments.getDepartment(ctx(req), params.id) })),
      updateDepartment: async ({ params, body, req }) =>
        ok(
          success({
            message: 'Department updated',
            department: await departments.updateDepartment(ctx(req), params.id, body),
          }),
        ),
      deleteDepartment: async ({ params, req }) => {
        await departments.deleteDepartment(ctx(req), params.id);
        return ok(success({ message: 'Department deleted' }));
      },
    },
    employees: {
      listEmployees: async ({ query, req }) => ok(success(await employees.listEmployees(ctx(req), query))),
      listEmployeesAlias: async ({ query, req }) =>
        ok(success(await employees.listEmployees(ctx(req), query))),
      listGeneralEmployees: async ({ query, req }) =>
        ok(await employees.listGeneralEmployees(ctx(req), query)),
      createEmployee: async ({ body, req }) => {
        const employee = await employees.createEmployee(ctx(req), body);
        return created(success({ employee_id: employee.id, message: 'Employee created', employee }));
      },
      getEmployee: async ({ params, req }) =>
        ok(success({ employee: await employees.getEmployee(ctx(req), params.id) })),
      updateEmployee: async ({ params, body, req }) =>
        ok(
          success({
            message: 'Employee updated',
            employee: await employees.updateEmployee(ctx(req), params.id, body),
          }),
        ),
      deleteEmployee: async ({ params, req }) => {
        await employees.deleteEmployee(ctx(req), params.id);
        return ok(success({ message: 'Employee deleted' }));
      },
    },
    leaves: {
      listLeaves: async ({ query, req }) => ok(success(await leaves.listLeaves(ctx(req), query))),
      createLeave: async ({ body, req }) => {
        const leave = await leaves.createLeave(ctx(req), body);
        return created(success({ leave_id: leave.id, message: 'Leave requested', leave }));
      },
      getLeave: async ({ params, req }) => ok(success({ leave: await leaves.getLeave(ctx(req), params.id) })),
      updateLeave: async ({ params, body, req }) => {
        const leave = await leaves.updateLeave(ctx(req), params.id, body);
        return ok(success({ message: `Leave ${leave.status}`, leave }));
      },
      deleteLeave: async ({ params, req }) => {
        await leaves.deleteLeave(ctx(req), params.id);
        return ok(success({ message: 'Leave deleted' }));
      },
    },
    leaveTypes: {
      listLeaveTypes: async ({ query, req }) => ok(success(await leaveTypes.listLeaveTypes(ctx(req), query))),
      createLeaveType: async ({ body, req }) => {
        const leaveType = await leaveTypes.createLeaveType(ctx(req), body);
        return created(
          success({ leave_type_id: leaveType.id, message: 'Leave type created', leave_type: leaveType }),
        );
      },
      getLeaveType: async ({ params, req }) =>
        ok(success({ leave_type: await leaveTypes.getLeaveType(ctx(req), params.id) })),
      updateLeaveType: async ({ params, body, req }) =>
        ok(
          success({
            message: 'Leave type updated',
            leave_type: await leaveTypes.updateLeaveType(ctx(req), params.id, body),
          }),
        ),
      deleteLeaveType: async ({ params, req }) => {
        await leaveTypes.deleteLeaveType(ctx(req), params.id);
        return ok(success({ message: 'Leave type deleted' }));
      },
      getLeaveBalances: async ({ params, query, req }) =>
        ok(success(await leaveTypes.getLeaveBalances(ctx(req), params.id, query.as_of))),
      setLeaveEntitlement: async ({ params, body, req }) => {
        const balance = await leaveTypes.setLeaveEntitlement(ctx(req), params.id, params.type, body);
        const message =
          body.days_per_year === null ? 'Entitlement set back to the policy' : 'Entitlement set';
        return ok(success({ message, balance }));
      },
    },
    holidays: {
      listHolidays: async ({ query, req }) => ok(success(await holidays.listHolidays(ctx(req), query))),
      createHoliday: async ({ body, req }) => {
        const holiday = await holidays.createHoliday(ctx(req), body);
        return created(success({ holiday_id: holiday.id, message: 'Holiday added', holiday }));
      },
      getHoliday: async ({ params, req }) =>
        ok(success({ holiday: await holidays.getHoliday(ctx(req), params.id) })),
      updateHoliday: async ({ params, body, req }) =>
        ok(
          success({
            message: 'Holiday updated',
            holiday: await holidays.updateHoliday(ctx(req), params.id, body),
          }),
        ),
      deleteHoliday: async ({ params, req }) => {
        await holidays.deleteHoliday(ctx(req), params.id);
        return ok(success({ message: 'Holiday deleted' }));
      },
    },
  });
};
