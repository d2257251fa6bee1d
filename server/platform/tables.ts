/**
 * What the platform owns of the database (docs/decisions.md D70, D72): the tenant registry
 * and its settings, the outbox, idempotency keys, rate limits, mail, the audit log and the payment provider each business connected. Only `server/platform/`
 * queries files read or write these tables; domains call the platform's functions
 * (`settings.ts`, `outbox.ts`, `mail.ts`) or read one of its published views.
 */
export const PLATFORM_TABLES: readonly string[] = [
  'businesses',
  'events',
  'idempotency_keys',
  'rate_limits',
  'mail_messages',
  'mail_attachments',
  'audit_log',
  'payment_connections',
];

/** Read-only views the platform publishes for domains' set-based SQL. */
export const PLATFORM_VIEWS: readonly string[] = [
  /** Each business's time zone (`business_id`, `timezone`), for sweeps that decide "due" per zone. */
  'business_time_zones',
  /** Each business's overdue-reminder steps while reminders are on (`business_id`, `timezone`, `days_after_due`). */
  'business_invoice_reminder_steps',
  /** Each business's access generation (`business_id`, `access_generation`): the public earn confirms a cached key with it. */
  'business_access_generations',
  /** The audit log as read: `audit_log` and the public earns' ledger rows (docs/decisions.md D233). */
  'audit_entries',
];
