import { unwrap } from '../../../client/index.js';
import { api } from '../../lib/api.js';

/**
 * Whole lists the HR screens choose from or lay out: every department, employee, approved leave and
 * leave type, and the public holidays of a range.
 */

/** Every row of an offset-paged list, 200 at a time (at most `cap`). */
async function everyRow<T>(
  fetchPage: (offset: number) => Promise<{ rows: T[]; total: number }>,
  cap = 5000,
): Promise<T[]> {
  const rows: T[] = [];
  for (;;) {
    const next = await fetchPage(rows.length);
    rows.push(...next.rows);
    if (next.rows.length === 0 || rows.length >= next.total || rows.length >= cap) return rows;
  }
}

export const allDepartments = () =>
  everyRow(async (offset) => {
    const res = await unwrap(api.value.hr.departments.listDepartments({ query: { limit: 200, offset } }));
    return { rows: res.departments, total: res.total_count };
  });

export const allEmployees = () =>
  everyRow(async (offset) => {
    const res = await unwrap(api.value.hr.employees.listEmployees({ query: { limit: 200, offset } }));
    return { rows: res.employees, total: res.total_count };
  });

export const allApprovedLeaves = () =>
  everyRow(async (offset) => {
    const res = await unwrap(
      api.value.hr.leaves.listLeaves({ query: { limit: 200, offset, status: 'approved' } }),
    );
    return { rows: res.leaves, total: res.total_count };
  });

export const allLeaveTypes = () =>
  everyRow(async (offset) => {
    const res = await unwrap(api.value.hr.leaveTypes.listLeaveTypes({ query: { limit: 200, offset } }));
    return { rows: res.leave_types, total: res.total_count };
  });

/** The public holidays from `from` to `to` inclusive (`YYYY-MM-DD`), by date. */
export const holidaysBetween = (from: string, to: string) =>
  everyRow(async (offset) => {
    const res = await unwrap(api.value.hr.holidays.listHolidays({ query: { from, to, limit: 200, offset } }));
    return { rows: res.holidays, total: res.total_count };
  });
