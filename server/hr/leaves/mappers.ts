import type { Leave } from '../../../contract/hr/index.js';
import type { LeaveRecord } from './queries.js';

export const toLeave = (row: LeaveRecord): Leave => ({
  id: row.id,
  employee_id: row.employee_id,
  employee_name: `${row.first_name} ${row.last_name}`,
  type: row.type,
  paid: row.paid,
  start_date: row.start_date,
  end_date: row.end_date,
  days: row.days,
  status: row.status,
  reason: row.reason,
  status_reason: row.status_reason,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});
