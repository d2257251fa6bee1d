import type { Program } from '../../../contract/loyalty/index.js';
import type { ProgramRow } from '../../platform/db/types.js';

export const toProgram = (row: ProgramRow): Program => ({
  publicId: row.id,
  name: row.name,
  pointsName: row.points_name,
  pointsPerCurrency: row.points_per_currency,
  currency: row.currency,
  enrollmentType: row.enrollment_type,
  pointsExpiryDays: row.points_expiry_days,
  isActive: row.is_active,
  autoNotify: row.auto_notify,
  dateCreated: row.created_at.toISOString(),
});
