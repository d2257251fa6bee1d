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

/** The nice names of the leave types every business starts with (docs/decisions.md D280). */
const DEFAULT_LEAVE_TYPE_LABELS: Record<string, string> = {
  annual: 'Annual leave',
  sick: 'Sick leave',
  unpaid: 'Unpaid leave',
  parental: 'Parental leave',
  other: 'Other leave',
} satisfies Record<(typeof hr.DEFAULT_LEAVE_TYPES)[number], string>;

/** A leave type as people read it: a nice name for the five defaults, its own name otherwise. */
export const leaveTypeLabel = (name: string): string => DEFAULT_LEAVE_TYPE_LABELS[name.toLowerCase()] ?? name;

/** Where a type comes in a list: the five defaults in their usual order, then the business's own by name. */
const defaultRank = (name: string) => {
  const rank = (hr.DEFAULT_LEAVE_TYPES as readonly string[]).indexOf(name.toLowerCase());
  return rank === -1 ? hr.DEFAULT_LEAVE_TYPES.length : rank;
};
export const byLeaveType = (a: { name: string }, b: { name: string }) =>
  defaultRank(a.name) - defaultRank(b.name) || a.name.localeCompare(b.name);

/** The options of a select of the business's leave types (the value is the type's name). */
export const leaveTypeOptions = (types: readonly hr.LeaveType[]) =>
  [...types].sort(byLeaveType).map((t) => ({ value: t.name, label: leaveTypeLabel(t.name) }));

export const fullName = (e: { first_name: string; last_name: string }) => `${e.first_name} ${e.last_name}`;

export const byName = (a: { first_name: string; last_name: string }, b: typeof a) =>
  a.last_name.localeCompare(b.last_name) || a.first_name.localeCompare(b.first_name);
