import { createExpressEndpoints } from '@ts-rest/express';
import { withCsvExports } from '../platform/exports.js';
import { contract } from '../../contract/index.js';
import type { DomainModule } from '../platform/module.js';
import { seedHrDemo } from './demo.js';
import { hrRoutes } from './routes.js';
import { employeeImport } from './employees/service.js';
import { holidayImport } from './holidays/service.js';
import { writeDefaultLeaveTypes } from './leave-types/queries.js';

/** HR: departments, employees, leave types and balances, public holidays and leave requests. */
export const hrModule: DomainModule = {
  name: 'hr',
  tables: [
    'hr_departments',
    'hr_employees',
    'hr_employee_counts',
    'hr_leave_types',
    'hr_leave_entitlements',
    'hr_holidays',
    'hr_leaves',
  ],
  imports: [employeeImport, holidayImport],
  mount: (app, deps, options) =>
    createExpressEndpoints(contract.hr, withCsvExports(deps, contract.hr, hrRoutes(deps)), app, options),
  seedDemo: seedHrDemo,
  restoreDefaults: (ctx) => writeDefaultLeaveTypes(ctx.db, ctx.businessId),
};
