import { initContract } from '@ts-rest/core';
import { departmentsContract } from './departments.js';
import { employeesContract } from './employees.js';
import { leavesContract } from './leaves.js';

const c = initContract();

/** The HR domain: one router per resource. */
export const hrContract = c.router({
  departments: departmentsContract,
  employees: employeesContract,
  leaves: leavesContract,
});

export * from './departments.js';
export * from './employees.js';
export * from './leaves.js';
