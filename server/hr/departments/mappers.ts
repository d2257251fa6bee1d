import type { Department } from '../../../contract/hr/index.js';
import type { DepartmentRecord } from './queries.js';

export const toDepartment = (row: DepartmentRecord): Department => ({
  id: row.id,
  name: row.name,
  head: row.head_id,
  employee_count: Number(row.employee_count ?? 0),
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});
