import type { Reminder } from '../../../contract/loyalty/index.js';
import type { ReminderRow } from '../../platform/db/types.js';

export const toReminder = (row: ReminderRow): Reminder => ({
  publicId: row.id,
  name: row.name,
  description: row.description,
  intervalDays: row.interval_days,
  bonusPoints: row.bonus_points,
  isActive: row.is_active,
  dateCreated: row.created_at.toISOString(),
});
