import type { ApiKey, Business } from '../../contract/auth/index.js';
import type { ApiKeyRow } from '../platform/db/types.js';
import type { BusinessRow } from '../platform/settings.js';

export const toApiKey = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  prefix: row.prefix,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at ? row.last_used_at.toISOString() : null,
  createdBy: row.created_by,
});

export const toBusiness = (row: BusinessRow): Business => ({
  id: row.id,
  name: row.name,
  base_currency: row.base_currency,
  timezone: row.timezone,
  country: row.country,
  address: row.address,
  tax_number: row.tax_number,
  payment_instructions: row.payment_instructions,
  invoice_reminders: { enabled: row.invoice_reminders_enabled, days_after_due: row.invoice_reminder_days },
  financial_year_start_month: row.financial_year_start_month,
  require_two_factor: row.require_two_factor,
  plan: row.plan,
  created_at: row.created_at.toISOString(),
});
