import { hr } from '../../../client/index.js';

/** How the HR screens name employees and leaves. */

export const EMPLOYEE_STATUS_LABELS: Record<hr.EmployeeStatus, string> = {
  active: 'Active',
  on_leave: 'On leave',
  inactive: 'Inactive',
};

export const LEAVE_STATUS_LABELS: Record<hr.LeaveStatus, string> = {
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
};

export const LEAVE_TYPE_LABELS: Record<(typeof hr.LEAVE_TYPES)[number], string> = {
  annual: 'Annual leave',
  sick: 'Sick leave',
  unpaid: 'Unpaid leave',
  parental: 'Parental leave',
  other: 'Other leave',
};

export const fullName = (e: { first_name: string; last_name: string }) => `${e.first_name} ${e.last_name}`;

export const byName = (a: { first_name: string; last_name: string }, b: typeof a) =>
  a.last_name.localeCompare(b.last_name) || a.first_name.localeCompare(b.first_name);
