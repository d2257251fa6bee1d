import { initContract } from '@ts-rest/core';
import { departmentsContract } from './departments.js';
import { employeesContract } from './employees.js';
import { holidaysContract } from './holidays.js';
import { leaveTypesContract } from './leave-types.js';
import { leavesContract } from './leaves.js';

const c = initContract();

/**
 * The HR domain: one router per resource.
 * Typed by the resources' routers, so that declaration files name them rather than spell every
 * route out again.
 */
export const hrContract: {
  departments: typeof departmentsContract;
  employees: typeof employeesContract;
  leaves: typeof leavesContract;
  leaveTypes: typeof leaveTypesContract;
  holidays: typeof holidaysContract;
} = c.router({
  departments: departmentsContract,
  employees: employeesContract,
  leaves: leavesContract,
  leaveTypes: leaveTypesContract,
  holidays: holidaysContract,
});

export * from './departments.js';
export * from './employees.js';
export * from './holidays.js';
export * from './leave-days.js';
export * from './leave-types.js';
export * from './leaves.js';
export * from './working-days.js';
