import type { Migration } from 'kysely/migration';
import * as foundation from './2026_11_21_0001_foundation.js';
import * as rateLimits from './2026_11_21_0002_rate_limits.js';
import * as webhooks from './2026_11_21_0003_webhooks.js';
import * as loyalty from './2026_11_21_0004_loyalty.js';
import * as idempotency from './2026_11_21_0005_idempotency.js';
import * as idempotencyInTransaction from './2026_11_23_0001_idempotency_in_transaction.js';
import * as webhooksRequeue from './2026_11_23_0002_webhooks_requeue.js';
import * as loyaltyPointsLimits from './2026_11_23_0003_loyalty_points_limits.js';
import * as hr from './2026_11_23_0004_hr.js';
import * as financeLedger from './2026_11_23_0006_finance_ledger.js';
import * as financeReports from './2026_11_23_0007_finance_reports.js';
import * as generalQuotes from './2026_11_23_0008_general_quotes.js';
import * as marketing from './2026_11_24_0001_marketing.js';
import * as marketingSending from './2026_11_24_0002_marketing_sending.js';
import * as authBusinessSettings from './2026_11_25_0001_auth_business_settings.js';
import * as platformCapturedMail from './2026_11_25_0002_platform_captured_mail.js';
import * as generalCustomerDirectory from './2026_11_25_0003_general_customer_directory.js';
import * as platformBusinessTimeZones from './2026_11_25_0004_platform_business_time_zones.js';
import * as platformSandbox from './2026_11_26_0001_platform_sandbox.js';
import * as financeSandboxReset from './2026_11_26_0002_finance_sandbox_reset.js';
import * as authMemberships from './2026_11_26_0003_auth_memberships.js';
import * as authInvitations from './2026_11_26_0004_auth_invitations.js';
import * as platformAuditLog from './2026_11_26_0005_platform_audit_log.js';
import * as generalDocuments from './2026_11_26_0006_general_documents.js';
import * as marketingSendPacing from './2026_11_26_0010_marketing_send_pacing.js';
import * as platformTenantKeys from './2026_11_26_0011_platform_tenant_keys.js';
import * as authTwoFactorSessions from './2026_11_26_0012_auth_two_factor_sessions.js';
import * as authPasswordResets from './2026_11_28_0001_auth_password_resets.js';
import * as authInvitationLinks from './2026_11_28_0002_auth_invitation_links.js';
import * as platformAuditSummary from './2026_11_28_0004_platform_audit_summary.js';
import * as authApiKeyCreators from './2026_11_28_0005_auth_api_key_creators.js';
import * as platformAccessGeneration from './2026_11_28_0006_platform_access_generation.js';
import * as platformAuditOutcome from './2026_11_28_0007_platform_audit_outcome.js';
import * as loyaltyEarnAudit from './2026_11_28_0010_loyalty_earn_audit.js';
import * as financeDaysAtCommit from './2026_11_28_0011_finance_days_at_commit.js';
import * as generalLineDiscounts from './2026_11_28_0021_general_line_discounts.js';
import * as generalCreditNotes from './2026_11_28_0022_general_credit_notes.js';
import * as generalCustomerCredit from './2026_11_28_0023_general_customer_credit.js';
import * as financeSalesCreditNotes from './2026_11_28_0040_finance_sales_credit_notes.js';
import * as generalRecurringInvoices from './2026_11_28_0030_general_recurring_invoices.js';
import * as financeRecurringBills from './2026_11_28_0031_finance_recurring_bills.js';
import * as generalOnlinePayments from './2026_11_29_0032_general_online_payments.js';
import * as generalCardRefunds from './2026_11_29_0033_general_card_refunds.js';
import * as financeBankAccounts from './2026_11_29_0041_finance_bank_accounts.js';
import * as financeBankReconciliation from './2026_11_29_0042_finance_bank_reconciliation.js';
import * as financeBooks from './2026_11_29_0043_finance_books.js';
import * as financeCurrencies from './2026_11_29_0044_finance_currencies.js';
import * as financeSalesConverted from './2026_11_29_0045_finance_sales_converted.js';
import * as marketingClaimTokens from './2026_11_30_0046_marketing_claim_tokens.js';
import * as hrLeaveBalances from './2026_11_30_0047_hr_leave_balances.js';

/** Every migration, in order. Add new files here. */
export const migrations: Record<string, Migration> = {
  '2026_11_21_0001_foundation': foundation,
  '2026_11_21_0002_rate_limits': rateLimits,
  '2026_11_21_0003_webhooks': webhooks,
  '2026_11_21_0004_loyalty': loyalty,
  '2026_11_21_0005_idempotency': idempotency,
  '2026_11_23_0001_idempotency_in_transaction': idempotencyInTransaction,
  '2026_11_23_0002_webhooks_requeue': webhooksRequeue,
  '2026_11_23_0003_loyalty_points_limits': loyaltyPointsLimits,
  '2026_11_23_0004_hr': hr,
  '2026_11_23_0006_finance_ledger': financeLedger,
  '2026_11_23_0007_finance_reports': financeReports,
  '2026_11_23_0008_general_quotes': generalQuotes,
  '2026_11_24_0001_marketing': marketing,
  '2026_11_24_0002_marketing_sending': marketingSending,
  '2026_11_25_0001_auth_business_settings': authBusinessSettings,
  '2026_11_25_0002_platform_captured_mail': platformCapturedMail,
  '2026_11_25_0003_general_customer_directory': generalCustomerDirectory,
  '2026_11_25_0004_platform_business_time_zones': platformBusinessTimeZones,
  '2026_11_26_0001_platform_sandbox': platformSandbox,
  '2026_11_26_0002_finance_sandbox_reset': financeSandboxReset,
  '2026_11_26_0003_auth_memberships': authMemberships,
  '2026_11_26_0004_auth_invitations': authInvitations,
  '2026_11_26_0005_platform_audit_log': platformAuditLog,
  '2026_11_26_0006_general_documents': generalDocuments,
  '2026_11_26_0010_marketing_send_pacing': marketingSendPacing,
  '2026_11_26_0011_platform_tenant_keys': platformTenantKeys,
  '2026_11_26_0012_auth_two_factor_sessions': authTwoFactorSessions,
  '2026_11_28_0001_auth_password_resets': authPasswordResets,
  '2026_11_28_0002_auth_invitation_links': authInvitationLinks,
  '2026_11_28_0004_platform_audit_summary': platformAuditSummary,
  '2026_11_28_0005_auth_api_key_creators': authApiKeyCreators,
  '2026_11_28_0006_platform_access_generation': platformAccessGeneration,
  '2026_11_28_0007_platform_audit_outcome': platformAuditOutcome,
  '2026_11_28_0010_loyalty_earn_audit': loyaltyEarnAudit,
  '2026_11_28_0011_finance_days_at_commit': financeDaysAtCommit,
  '2026_11_28_0021_general_line_discounts': generalLineDiscounts,
  '2026_11_28_0022_general_credit_notes': generalCreditNotes,
  '2026_11_28_0023_general_customer_credit': generalCustomerCredit,
  '2026_11_28_0040_finance_sales_credit_notes': financeSalesCreditNotes,
  '2026_11_28_0030_general_recurring_invoices': generalRecurringInvoices,
  '2026_11_28_0031_finance_recurring_bills': financeRecurringBills,
  '2026_11_29_0032_general_online_payments': generalOnlinePayments,
  '2026_11_29_0033_general_card_refunds': generalCardRefunds,
  '2026_11_29_0041_finance_bank_accounts': financeBankAccounts,
  '2026_11_29_0042_finance_bank_reconciliation': financeBankReconciliation,
  '2026_11_29_0043_finance_books': financeBooks,
  '2026_11_29_0044_finance_currencies': financeCurrencies,
  '2026_11_29_0045_finance_sales_converted': financeSalesConverted,
  '2026_11_30_0046_marketing_claim_tokens': marketingClaimTokens,
  '2026_11_30_0047_hr_leave_balances': hrLeaveBalances,
};
