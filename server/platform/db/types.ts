import type { ColumnType, Generated, GeneratedAlways, Insertable, Selectable, Updateable } from 'kysely';

/** Timestamps are written as Date or ISO strings and read back as Date. */
type Timestamp = ColumnType<Date, Date | string, Date | string>;
type NullableTimestamp = ColumnType<Date | null, Date | string | null, Date | string | null>;
type GeneratedTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
/** bigint money columns: parsed to number on read (see database.ts); written as number. */
type Money = ColumnType<number, number | bigint, number | bigint>;
/** numeric columns come back as strings from both drivers. */
type Decimal = ColumnType<string, string | number, string | number>;
/** date columns are read back as `YYYY-MM-DD` strings (parsers set in database.ts). */
type DateOnly = ColumnType<string, string, string>;
type NullableDateOnly = ColumnType<string | null, string | null, string | null>;
type Json<T> = ColumnType<T, string, string>;

export interface BusinessesTable {
  id: string;
  name: string;
  email: string;
  plan: string;
  base_currency: Generated<string>;
  /** IANA time zone deciding the business's "today" (UTC until set). */
  timezone: Generated<string>;
  /** ISO 3166-1 alpha-2. */
  country: ColumnType<string | null, string | null | undefined, string | null>;
  address: ColumnType<Record<string, string> | null, string | null | undefined, string | null>;
  tax_number: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: GeneratedTimestamp;
  /** `live`, or `sandbox` for a live business's staging twin (docs/decisions.md D73). */
  environment: Generated<Environment>;
  /** The sandbox's live business; null for a live business. */
  live_business_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** How far the sandbox's test clock is ahead of real time; 0 for a live business. */
  clock_offset_ms: ColumnType<number, number | undefined, number>;
  /** Printed on invoices (bank details, how to pay); null until set. */
  payment_instructions: ColumnType<string | null, string | null | undefined, string | null>;
  /** Whether overdue invoices that were mailed are reminded, on the days of `invoice_reminder_days`. */
  invoice_reminders_enabled: ColumnType<boolean, boolean | undefined, boolean>;
  /** Days after the due date each reminder goes out (0: on the due date). */
  invoice_reminder_days: ColumnType<number[], number[] | undefined, number[]>;
  /** Whether every member must sign in with a second factor (a sandbox carries its live business's). */
  require_two_factor: ColumnType<boolean, boolean | undefined, boolean>;
  /**
   * Raised with every change that restricts access to the business (bigint: read back as a string
   * or number, compared as a string), so every process's credential cache notices it at once.
   */
  access_generation: ColumnType<string | number, never, number>;
}

export type Environment = 'live' | 'sandbox';

export interface MembershipsTable {
  business_id: string;
  user_id: string;
  role: 'owner' | 'admin' | 'accountant' | 'hr' | 'marketing' | 'loyalty' | 'viewer';
  created_at: GeneratedTimestamp;
  updated_at: GeneratedTimestamp;
}

export interface InvitationsTable {
  id: string;
  business_id: string;
  email: string;
  role: MembershipsTable['role'];
  token_hash: string;
  /** The token sealed with the SecretBox, to copy the link again; null on rows made before. */
  token_sealed: string | null;
  /** The user who invited; null when an API key did. */
  invited_by: string | null;
  expires_at: Timestamp;
  accepted_at: NullableTimestamp;
  /** When the mail last went out. */
  sent_at: GeneratedTimestamp;
  created_at: GeneratedTimestamp;
}

export interface UsersTable {
  id: string;
  business_id: string;
  email: string;
  password_hash: string;
  created_at: GeneratedTimestamp;
  /** The TOTP secret (sealed with the SecretBox) once two-factor sign-in is confirmed. */
  totp_secret: ColumnType<string | null, string | null | undefined, string | null>;
  totp_enabled_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The sealed secret of an enrolment awaiting its first code. */
  totp_pending_secret: ColumnType<string | null, string | null | undefined, string | null>;
  /** The last TOTP time step accepted: codes of that step or earlier are refused. */
  totp_last_step: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface UserRecoveryCodesTable {
  user_id: string;
  code_hash: string;
  used_at: NullableTimestamp;
  created_at: GeneratedTimestamp;
}

export interface SignInChallengesTable {
  id: string;
  user_id: string;
  business_id: string;
  environment: Environment;
  token_hash: string;
  failed_attempts: ColumnType<number, number | undefined, number>;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  user_agent: string | null;
  ip: string | null;
  /** The invitation the second step accepts, when the sign-in is accepting one. */
  invitation_id: ColumnType<string | null, string | null | undefined, string | null>;
  created_at: GeneratedTimestamp;
}

/** A mailed link that sets a new password: a person's, single use, short-lived. */
export interface PasswordResetsTable {
  id: string;
  user_id: string;
  token_hash: string;
  expires_at: Timestamp;
  used_at: NullableTimestamp;
  created_at: GeneratedTimestamp;
}

export interface AccessTokensTable {
  id: string;
  business_id: string;
  user_id: string;
  token_hash: string;
  expires_at: Timestamp;
  revoked_at: NullableTimestamp;
  created_at: GeneratedTimestamp;
  last_used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** The sign-in's `User-Agent` (first 256 characters) and address. */
  user_agent: ColumnType<string | null, string | null | undefined, string | null>;
  ip: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ApiKeysTable {
  id: string;
  business_id: string;
  name: string;
  scope: 'public_loyalty' | 'full';
  prefix: string;
  key_hash: string;
  created_at: GeneratedTimestamp;
  last_used_at: NullableTimestamp;
  revoked_at: NullableTimestamp;
  /** The person who made the key; null for keys made from the command line or before it was kept. */
  created_by: ColumnType<string | null, string | null | undefined, never>;
}

export interface SequencesTable {
  business_id: string;
  name: string;
  last_value: Money;
}

export interface CustomersTable {
  business_id: string;
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  company: string | null;
  address: ColumnType<Record<string, string> | null, string | null, string | null>;
  first_name: string | null;
  last_name: string | null;
  attributes: Json<Record<string, string>>;
  unsubscribed: Generated<boolean>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ProductsTable {
  business_id: string;
  id: string;
  name: string;
  sku: string;
  price_minor: Money;
  currency: string;
  stock: number;
  description: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface InvoicesTable {
  business_id: string;
  id: string;
  number: string;
  customer_id: string;
  status: 'draft' | 'unpaid' | 'paid' | 'void';
  currency: string;
  issue_date: NullableDateOnly;
  due_date: DateOnly;
  notes: string | null;
  subtotal_minor: Money;
  tax_minor: Money;
  total_minor: Money;
  amount_paid_minor: Money;
  created_at: Timestamp;
  updated_at: Timestamp;
  issued_at: NullableTimestamp;
  paid_at: NullableTimestamp;
  voided_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  /** When it was last mailed to the customer (`POST /v1/invoices/:id/send`). */
  sent_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** When its hosted page was first opened. */
  viewed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface InvoiceItemsTable {
  business_id: string;
  id: string;
  invoice_id: string;
  position: number;
  product_id: string | null;
  description: string;
  quantity: Decimal;
  unit_price_minor: Money;
  tax_rate: Decimal;
  total_minor: Money;
  tax_minor: Money;
}

export interface PaymentsTable {
  business_id: string;
  id: string;
  invoice_id: string;
  amount_minor: Money;
  currency: string;
  payment_method: string;
  payment_date: DateOnly;
  reference: string | null;
  created_at: Timestamp;
}

export interface EventsTable {
  business_id: string;
  id: string;
  type: string;
  data: Json<unknown>;
  occurred_at: Timestamp;
  dispatched_at: NullableTimestamp;
}

/** What an audit entry's change was about (`audit_log.summary`, jsonb). */
export interface AuditSummaryJson {
  label: string | null;
  amount: number | null;
  currency: string | null;
}

export interface AuditLogTable {
  business_id: string;
  id: string;
  occurred_at: Timestamp;
  actor_kind: 'user' | 'api_key';
  actor_id: string;
  operation: string;
  resource_id: string | null;
  request_id: string;
  summary: ColumnType<AuditSummaryJson | null, string | null | undefined, never>;
  /** A change that succeeded, or an attempt refused for the credential's role or scope. */
  outcome: ColumnType<AuditOutcome, AuditOutcome | undefined, never>;
  /** The minute a refusal fell in (one refused row per actor and operation a minute); null on a success. */
  denied_minute: ColumnType<Date | null, Date | string | null | undefined, never>;
}

export type AuditOutcome = 'success' | 'denied';

export interface WebhooksTable {
  business_id: string;
  id: GeneratedAlways<number>;
  url: string;
  events: Json<string[]>;
  is_active: boolean;
  secret_sealed: string;
  previous_secret_sealed: string | null;
  previous_secret_expires_at: NullableTimestamp;
  failing_since: NullableTimestamp;
  disabled_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface WebhookDeliveriesTable {
  business_id: string;
  id: string;
  webhook_id: number;
  event_id: string;
  event_type: string;
  status: 'pending' | 'retrying' | 'succeeded' | 'failed';
  attempt_count: Generated<number>;
  next_attempt_at: NullableTimestamp;
  locked_until: NullableTimestamp;
  created_at: Timestamp;
  /** When the sweep last queued a job for it; null while its only job is the one from creation. */
  requeued_at: NullableTimestamp;
}

export interface WebhookAttemptsTable {
  business_id: string;
  id: string;
  delivery_id: string;
  attempted_at: Timestamp;
  status_code: number | null;
  duration_ms: number;
  error_class: string | null;
  redelivery: boolean;
}

export interface MailMessagesTable {
  business_id: string;
  id: string;
  to_address: string;
  subject: string;
  body: string;
  status: 'queued' | 'sent' | 'logged' | 'failed';
  created_at: Timestamp;
  sent_at: NullableTimestamp;
  error: string | null;
  from_address: string | null;
  html: string | null;
  headers: ColumnType<Record<string, string>, string | undefined, string>;
  cc_addresses: ColumnType<string[], string[] | undefined, string[]>;
  reply_to: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface MailAttachmentsTable {
  business_id: string;
  message_id: string;
  position: number;
  filename: string;
  content_type: string;
  content: Buffer;
}

/** One reminder step mailed for an invoice: the key allows it once. */
export interface InvoiceRemindersTable {
  business_id: string;
  invoice_id: string;
  days_after_due: number;
  sent_at: Timestamp;
}

export interface LoyaltyProgramsTable {
  business_id: string;
  id: string;
  name: string;
  points_name: string;
  points_per_currency: number;
  currency: string;
  enrollment_type: 'automatic' | 'manual';
  points_expiry_days: number;
  is_active: boolean;
  auto_notify: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
  deactivated_at: NullableTimestamp;
}

export interface LoyaltyTiersTable {
  business_id: string;
  id: string;
  program_id: string;
  name: string;
  color: string;
  min_points: Money;
  multiplier: Decimal;
  sort_order: number;
  created_at: Timestamp;
}

export interface LoyaltyMembersTable {
  business_id: string;
  id: string;
  customer_id: string;
  tier_id: string | null;
  status: 'active' | 'inactive' | 'suspended';
  points_balance: Money;
  lifetime_points: Money;
  /** Set by a database trigger from the customer's name and email. */
  search_text: Generated<string>;
  enrolled_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface IdempotencyKeysTable {
  business_id: string;
  key: string;
  /** SHA-256 of method, path and body: the same key with another request is refused. */
  fingerprint: string;
  status_code: number;
  /** The response as sent, sealed (server/platform/secret-box.ts). */
  response_body: string;
  created_at: Timestamp;
}

export interface LoyaltyTransactionsTable {
  business_id: string;
  id: string;
  member_id: string;
  type: 'earn' | 'redeem' | 'adjust' | 'expire';
  points: Money;
  balance_after: Money;
  description: string | null;
  reference_type: string | null;
  reference_id: string | null;
  multiplier_applied: Decimal;
  counts_as_issued: boolean;
  remaining: Money;
  expires_at: NullableTimestamp;
  created_at: Timestamp;
}

export interface LoyaltyRewardsTable {
  business_id: string;
  id: string;
  name: string;
  description: string | null;
  points_cost: Money;
  reward_type: 'discount' | 'service' | 'product' | 'voucher';
  discount_percent: ColumnType<string | null, string | number | null, string | number | null>;
  is_active: boolean;
  voucher_validity_days: number;
  total_redemptions: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface LoyaltyRedemptionsTable {
  business_id: string;
  id: string;
  member_id: string;
  reward_id: string;
  points_spent: Money;
  status: 'pending' | 'fulfilled' | 'cancelled' | 'expired';
  voucher_code: string;
  notes: string | null;
  redeemed_at: Timestamp;
  fulfilled_at: NullableTimestamp;
  expires_at: Timestamp;
  updated_at: Timestamp;
}

export interface LoyaltyRemindersTable {
  business_id: string;
  id: string;
  name: string;
  description: string | null;
  interval_days: number;
  bonus_points: number;
  is_active: boolean;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface LoyaltyMemberRemindersTable {
  business_id: string;
  reminder_id: string;
  member_id: string;
  due_date: DateOnly;
  last_completed_at: Timestamp;
  notified_for: NullableDateOnly;
}

export interface HrDepartmentsTable {
  business_id: string;
  id: string;
  name: string;
  head_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface HrEmployeesTable {
  business_id: string;
  id: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  department_id: string;
  position: string;
  status: 'active' | 'inactive' | 'on_leave';
  hire_date: DateOnly;
  /** Monthly, in minor units of `currency`. */
  salary: ColumnType<number | null, number | null, number | null>;
  currency: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

/** Employees not deleted per department and status; written only by a database trigger. */
export interface HrEmployeeCountsTable {
  business_id: string;
  department_id: string;
  status: 'active' | 'inactive' | 'on_leave';
  employees: Money;
}

export interface HrLeavesTable {
  business_id: string;
  id: string;
  employee_id: string;
  type: 'annual' | 'sick' | 'unpaid' | 'parental' | 'other';
  start_date: DateOnly;
  end_date: DateOnly;
  days: number;
  reason: string | null;
  status: 'pending' | 'approved' | 'rejected' | 'cancelled';
  status_reason: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface FinanceAccountsTable {
  business_id: string;
  code: string;
  name: string;
  type: 'asset' | 'liability' | 'equity' | 'revenue' | 'expense';
  system: Generated<boolean>;
  created_at: GeneratedTimestamp;
}

export interface FinanceJournalEntriesTable {
  business_id: string;
  id: string;
  date: DateOnly;
  description: string;
  currency: string;
  source_type: 'bill' | 'bill_payment' | 'invoice' | 'invoice_payment' | 'void' | 'manual';
  source_id: string;
  line_count: number;
  created_at: Timestamp;
}

export interface FinanceJournalLinesTable {
  business_id: string;
  entry_id: string;
  line_no: number;
  account_code: string;
  date: DateOnly;
  currency: string;
  debit: Money;
  credit: Money;
}

/** Debits and credits per account, currency and day; written only by a database trigger. */
export interface FinanceAccountDaysTable {
  business_id: string;
  account_code: string;
  currency: string;
  date: DateOnly;
  debit: Decimal;
  credit: Decimal;
  entries: number;
  slot: Generated<number>;
}

/** Journal entries per day; written only by a database trigger. */
export interface FinanceEntryDaysTable {
  business_id: string;
  date: DateOnly;
  entries: number;
  slot: Generated<number>;
}

export interface FinanceVendorsTable {
  business_id: string;
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  currency: string | null;
  tax_id: string | null;
  address: ColumnType<Record<string, string> | null, string | null, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface FinanceBillsTable {
  business_id: string;
  id: string;
  vendor_id: string;
  status: 'draft' | 'pending' | 'paid' | 'void';
  currency: string;
  amount: Money;
  amount_paid: ColumnType<number, number | bigint | undefined, number | bigint>;
  issue_date: DateOnly;
  due_date: DateOnly;
  notes: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  approved_at: NullableTimestamp;
  paid_at: NullableTimestamp;
  voided_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
}

export interface FinanceBillItemsTable {
  business_id: string;
  bill_id: string;
  position: number;
  description: string;
  quantity: Decimal;
  unit_price: Money;
  amount: Money;
}

export interface FinanceBillPaymentsTable {
  business_id: string;
  id: string;
  bill_id: string;
  amount: Money;
  currency: string;
  payment_method: 'bank_transfer' | 'cash' | 'check' | 'mobile_money';
  payment_date: DateOnly;
  created_at: Timestamp;
}

export interface FinanceVatThresholdsTable {
  business_id: string;
  public_id: string;
  country: string;
  threshold_amount: Money;
  currency: string;
  period_type: 'annual' | 'quarterly' | 'rolling_12_months';
  alert_at_percentage: number;
  alert_email: string;
  registered: Generated<boolean>;
  registration_date: NullableDateOnly;
  registration_number: string | null;
  alerted_level_window: string | null;
  alerted_full_window: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface QuotesTable {
  business_id: string;
  id: string;
  number: string;
  customer_id: string;
  status: 'draft' | 'sent' | 'accepted' | 'declined' | 'converted';
  currency: string;
  valid_until: DateOnly;
  notes: string | null;
  subtotal_minor: Money;
  tax_minor: Money;
  total_minor: Money;
  invoice_id: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
  sent_at: NullableTimestamp;
  accepted_at: NullableTimestamp;
  declined_at: NullableTimestamp;
  converted_at: NullableTimestamp;
  deleted_at: NullableTimestamp;
  /** When its hosted page was first opened. */
  viewed_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface QuoteItemsTable {
  business_id: string;
  id: string;
  quote_id: string;
  position: number;
  product_id: string | null;
  description: string;
  quantity: Decimal;
  unit_price_minor: Money;
  tax_rate: Decimal;
  total_minor: Money;
  tax_minor: Money;
}

export interface MarketingDomainsTable {
  business_id: string;
  id: string;
  domain: string;
  status: 'pending' | 'verified';
  verification_token: string;
  dkim_selector: string;
  dkim_public_key: string;
  /** Sealed with the service's SecretBox. */
  dkim_private_key: string;
  verified_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface MarketingSegmentsTable {
  business_id: string;
  id: string;
  name: string;
  description: string | null;
  status: 'active' | 'archived';
  /** The contract's SegmentFilters, or null when the segment is only its listed contacts. */
  filters: ColumnType<unknown, string | null, string | null>;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface MarketingSegmentContactsTable {
  business_id: string;
  segment_id: string;
  customer_id: string;
}

export interface MarketingTemplatesTable {
  business_id: string;
  id: string;
  name: string;
  subject: string;
  html_body: string;
  text_body: string | null;
  from_name: string | null;
  from_email: string | null;
  status: 'draft' | 'published' | 'archived';
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: NullableTimestamp;
}

export interface MarketingCampaignsTable {
  business_id: string;
  id: string;
  name: string;
  template_id: string;
  segment_id: string;
  status: 'draft' | 'scheduled' | 'sending' | 'sent' | 'paused' | 'cancelled';
  subject_override: string | null;
  from_name_override: string | null;
  from_email_override: string | null;
  reply_to: string | null;
  scheduled_at: NullableTimestamp;
  sent_at: NullableTimestamp;
  created_at: Timestamp;
  updated_at: Timestamp;
  recipients_count: Generated<number>;
  started_at: NullableTimestamp;
  paused_reason: string | null;
}

export type RecipientStatus = 'queued' | 'sending' | 'sent' | 'failed' | 'bounced' | 'skipped';

export interface MarketingRecipientsTable {
  business_id: string;
  campaign_id: string;
  customer_id: string;
  email: string;
  /** The contact's merge fields when sending started. */
  fields: ColumnType<unknown, string, string>;
  status: RecipientStatus;
  attempts: Generated<number>;
  next_attempt_at: Timestamp;
  claimed_at: NullableTimestamp;
  sent_at: NullableTimestamp;
  opened_at: NullableTimestamp;
  clicked_at: NullableTimestamp;
  unsubscribed_at: NullableTimestamp;
  complained_at: NullableTimestamp;
  error: string | null;
  updated_at: Timestamp;
}

export interface MarketingSendAttemptsTable {
  business_id: string;
  campaign_id: string;
  id: Generated<number>;
  ok: boolean;
  at: Timestamp;
}

export interface MarketingSuppressionsTable {
  business_id: string;
  email: string;
  reason: 'hard_bounce' | 'complaint';
  campaign_id: string | null;
  created_at: Timestamp;
}

export interface MarketingTrackingEventsTable {
  business_id: string;
  campaign_id: string;
  customer_id: string;
  id: Generated<number>;
  kind: 'open' | 'click';
  counted: boolean;
  url: string | null;
  user_agent: string | null;
  at: Timestamp;
}

/** A column of a published view: read, never written (the view refuses writes). */
type ViewColumn<T> = ColumnType<T, never, never>;

/**
 * `customer_directory`, published by general: the customer columns other domains read
 * (docs/decisions.md D71, "Published views").
 */
export interface CustomerDirectoryView {
  business_id: ViewColumn<string>;
  id: ViewColumn<string>;
  name: ViewColumn<string>;
  email: ViewColumn<string | null>;
  first_name: ViewColumn<string | null>;
  last_name: ViewColumn<string | null>;
  phone: ViewColumn<string | null>;
  company: ViewColumn<string | null>;
  attributes: ViewColumn<Record<string, string>>;
  unsubscribed: ViewColumn<boolean>;
  created_at: ViewColumn<Date>;
  updated_at: ViewColumn<Date>;
}

/** `business_time_zones`, published by the platform: each business's IANA time zone. */
export interface BusinessTimeZonesView {
  business_id: ViewColumn<string>;
  timezone: ViewColumn<string>;
}

/** `business_invoice_reminder_steps`, published by the platform: one row per reminder step while on. */
export interface BusinessInvoiceReminderStepsView {
  business_id: ViewColumn<string>;
  timezone: ViewColumn<string>;
  days_after_due: ViewColumn<number>;
}

export interface Database {
  businesses: BusinessesTable;
  users: UsersTable;
  memberships: MembershipsTable;
  invitations: InvitationsTable;
  access_tokens: AccessTokensTable;
  user_recovery_codes: UserRecoveryCodesTable;
  sign_in_challenges: SignInChallengesTable;
  password_resets: PasswordResetsTable;
  api_keys: ApiKeysTable;
  sequences: SequencesTable;
  customers: CustomersTable;
  products: ProductsTable;
  invoices: InvoicesTable;
  invoice_items: InvoiceItemsTable;
  payments: PaymentsTable;
  events: EventsTable;
  audit_log: AuditLogTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  mail_messages: MailMessagesTable;
  mail_attachments: MailAttachmentsTable;
  invoice_reminders: InvoiceRemindersTable;
  loyalty_programs: LoyaltyProgramsTable;
  loyalty_tiers: LoyaltyTiersTable;
  loyalty_members: LoyaltyMembersTable;
  loyalty_transactions: LoyaltyTransactionsTable;
  idempotency_keys: IdempotencyKeysTable;
  loyalty_rewards: LoyaltyRewardsTable;
  loyalty_redemptions: LoyaltyRedemptionsTable;
  loyalty_reminders: LoyaltyRemindersTable;
  loyalty_member_reminders: LoyaltyMemberRemindersTable;
  hr_departments: HrDepartmentsTable;
  hr_employees: HrEmployeesTable;
  hr_employee_counts: HrEmployeeCountsTable;
  hr_leaves: HrLeavesTable;
  finance_accounts: FinanceAccountsTable;
  finance_journal_entries: FinanceJournalEntriesTable;
  finance_journal_lines: FinanceJournalLinesTable;
  finance_account_days: FinanceAccountDaysTable;
  finance_entry_days: FinanceEntryDaysTable;
  finance_vendors: FinanceVendorsTable;
  finance_bills: FinanceBillsTable;
  finance_bill_items: FinanceBillItemsTable;
  finance_bill_payments: FinanceBillPaymentsTable;
  finance_vat_thresholds: FinanceVatThresholdsTable;
  quotes: QuotesTable;
  quote_items: QuoteItemsTable;
  marketing_domains: MarketingDomainsTable;
  marketing_segments: MarketingSegmentsTable;
  marketing_segment_contacts: MarketingSegmentContactsTable;
  marketing_templates: MarketingTemplatesTable;
  marketing_campaigns: MarketingCampaignsTable;
  marketing_recipients: MarketingRecipientsTable;
  marketing_send_attempts: MarketingSendAttemptsTable;
  marketing_suppressions: MarketingSuppressionsTable;
  marketing_tracking_events: MarketingTrackingEventsTable;
  // Published views (read-only).
  customer_directory: CustomerDirectoryView;
  business_time_zones: BusinessTimeZonesView;
  business_invoice_reminder_steps: BusinessInvoiceReminderStepsView;
}

export type CustomerRow = Selectable<CustomersTable>;
export type ProductRow = Selectable<ProductsTable>;
export type InvoiceRow = Selectable<InvoicesTable>;
export type InvoiceItemRow = Selectable<InvoiceItemsTable>;
export type PaymentRow = Selectable<PaymentsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type InvitationRow = Selectable<InvitationsTable>;
export type NewCustomer = Insertable<CustomersTable>;
export type CustomerUpdate = Updateable<CustomersTable>;
export type WebhookRow = Selectable<WebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type AttemptRow = Selectable<WebhookAttemptsTable>;
export type ProgramRow = Selectable<LoyaltyProgramsTable>;
export type TierRow = Selectable<LoyaltyTiersTable>;
export type MemberRow = Selectable<LoyaltyMembersTable>;
export type LoyaltyTransactionRow = Selectable<LoyaltyTransactionsTable>;
export type RewardRow = Selectable<LoyaltyRewardsTable>;
export type RedemptionRow = Selectable<LoyaltyRedemptionsTable>;
export type ReminderRow = Selectable<LoyaltyRemindersTable>;
