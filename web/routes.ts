import type { Permission } from '../client/index.js';
import type { ScreenModule } from './lib/screen.js';

/**
 * Every screen of the dashboard: its path under /app, the permission it needs (the screen and its
 * link are hidden from roles without it), and its module, loaded the first time it is opened (one
 * chunk per screen).
 */

export interface Screen {
  path: string;
  title: string;
  permission: Permission | null;
  load: () => Promise<ScreenModule>;
  /** Where the navigation lists it, if it does. */
  nav?: {
    group: 'Business' | 'Sales' | 'Finance' | 'HR' | 'Marketing' | 'Loyalty' | 'Sandbox' | 'Settings';
    label: string;
  };
}

/** The person's own sign-in security: the one screen open while the business requires a second factor. */
export const SECURITY_PATH = '/settings/security';

/** The reset page a password reset mail links to (the token in the fragment). */
export const RESET_PASSWORD: Screen = {
  path: '/reset-password',
  title: 'Choose a new password',
  permission: null,
  load: () => import('./screens/account/reset-password.js'),
};

/** Screens for a person who is not signed in, beyond sign-in and register (in the first load). */
export const SIGNED_OUT_SCREENS: Screen[] = [
  {
    path: '/forgot-password',
    title: 'Forgot password',
    permission: null,
    load: () => import('./screens/account/forgot-password.js'),
  },
];

export const SCREENS: Screen[] = [
  {
    path: '/',
    title: 'Overview',
    permission: null,
    load: () => import('./screens/business/overview.js'),
    nav: { group: 'Business', label: 'Overview' },
  },
  {
    path: '/customers',
    title: 'Customers',
    permission: 'customers.read',
    load: () => import('./screens/general/customers/customers.js'),
    nav: { group: 'Sales', label: 'Customers' },
  },
  {
    path: '/customers/:id',
    title: 'Customer',
    permission: 'customers.read',
    load: () => import('./screens/general/customers/customer.js'),
  },
  {
    path: '/customers/:id/statement',
    title: 'Statement',
    permission: 'sales.read',
    load: () => import('./screens/general/customers/statement.js'),
  },
  {
    path: '/products',
    title: 'Products',
    permission: 'sales.read',
    load: () => import('./screens/general/products/products.js'),
    nav: { group: 'Sales', label: 'Products' },
  },
  {
    path: '/invoices',
    title: 'Invoices',
    permission: 'sales.read',
    load: () => import('./screens/general/invoices/invoices.js'),
    nav: { group: 'Sales', label: 'Invoices' },
  },
  {
    path: '/invoices/new',
    title: 'New invoice',
    permission: 'sales.write',
    load: () => import('./screens/general/invoices/invoice-new.js'),
  },
  {
    path: '/invoices/:id',
    title: 'Invoice',
    permission: 'sales.read',
    load: () => import('./screens/general/invoices/invoice.js'),
  },
  {
    path: '/recurring-invoices',
    title: 'Recurring invoices',
    permission: 'sales.read',
    load: () => import('./screens/general/recurring-invoices/recurring-invoices.js'),
    nav: { group: 'Sales', label: 'Recurring invoices' },
  },
  {
    path: '/recurring-invoices/new',
    title: 'New recurring invoice',
    permission: 'sales.write',
    load: () => import('./screens/general/recurring-invoices/recurring-invoice-new.js'),
  },
  {
    path: '/recurring-invoices/:id',
    title: 'Recurring invoice',
    permission: 'sales.read',
    load: () => import('./screens/general/recurring-invoices/recurring-invoice.js'),
  },
  {
    path: '/credit-notes',
    title: 'Credit notes',
    permission: 'sales.read',
    load: () => import('./screens/general/credit-notes/credit-notes.js'),
    nav: { group: 'Sales', label: 'Credit notes' },
  },
  {
    path: '/credit-notes/:id',
    title: 'Credit note',
    permission: 'sales.read',
    load: () => import('./screens/general/credit-notes/credit-note.js'),
  },
  {
    path: '/quotes',
    title: 'Quotes',
    permission: 'sales.read',
    load: () => import('./screens/general/quotes/quotes.js'),
    nav: { group: 'Sales', label: 'Quotes' },
  },
  {
    path: '/quotes/new',
    title: 'New quote',
    permission: 'sales.write',
    load: () => import('./screens/general/quotes/quote-new.js'),
  },
  {
    path: '/quotes/:id',
    title: 'Quote',
    permission: 'sales.read',
    load: () => import('./screens/general/quotes/quote.js'),
  },
  {
    path: '/finance/vendors',
    title: 'Vendors',
    permission: 'finance.read',
    load: () => import('./screens/finance/vendors.js'),
    nav: { group: 'Finance', label: 'Vendors' },
  },
  {
    path: '/finance/bills',
    title: 'Bills',
    permission: 'finance.read',
    load: () => import('./screens/finance/bills.js'),
    nav: { group: 'Finance', label: 'Bills' },
  },
  {
    path: '/finance/bills/new',
    title: 'New bill',
    permission: 'finance.write',
    load: () => import('./screens/finance/bill-new.js'),
  },
  {
    path: '/finance/bills/:id',
    title: 'Bill',
    permission: 'finance.read',
    load: () => import('./screens/finance/bill.js'),
  },
  {
    path: '/finance/recurring-bills',
    title: 'Recurring bills',
    permission: 'finance.read',
    load: () => import('./screens/finance/recurring-bills.js'),
    nav: { group: 'Finance', label: 'Recurring bills' },
  },
  {
    path: '/finance/recurring-bills/new',
    title: 'New recurring bill',
    permission: 'finance.write',
    load: () => import('./screens/finance/recurring-bill-new.js'),
  },
  {
    path: '/finance/recurring-bills/:id',
    title: 'Recurring bill',
    permission: 'finance.read',
    load: () => import('./screens/finance/recurring-bill.js'),
  },
  {
    path: '/finance/bank-accounts',
    title: 'Bank accounts',
    permission: 'finance.read',
    load: () => import('./screens/finance/banking/bank-accounts.js'),
    nav: { group: 'Finance', label: 'Bank accounts' },
  },
  {
    path: '/finance/bank-accounts/:id',
    title: 'Reconcile',
    permission: 'finance.read',
    load: () => import('./screens/finance/banking/reconcile.js'),
  },
  {
    path: '/finance/bank-accounts/:id/import',
    title: 'Import a statement',
    permission: 'finance.write',
    load: () => import('./screens/finance/banking/statement-import.js'),
  },
  {
    path: '/finance/bank-accounts/:id/reconciliation',
    title: 'Reconciliation report',
    permission: 'finance.read',
    load: () => import('./screens/finance/banking/reconciliation.js'),
  },
  {
    path: '/finance/bank-rules',
    title: 'Bank rules',
    permission: 'finance.read',
    load: () => import('./screens/finance/banking/bank-rules.js'),
    nav: { group: 'Finance', label: 'Bank rules' },
  },
  {
    path: '/finance/journal',
    title: 'Journal',
    permission: 'finance.read',
    load: () => import('./screens/finance/journal.js'),
    nav: { group: 'Finance', label: 'Journal' },
  },
  {
    path: '/finance/journal/new',
    title: 'New journal entry',
    permission: 'finance.write',
    load: () => import('./screens/finance/journal-new.js'),
  },
  {
    path: '/finance/accounts',
    title: 'Chart of accounts',
    permission: 'finance.read',
    load: () => import('./screens/finance/accounts.js'),
    nav: { group: 'Finance', label: 'Chart of accounts' },
  },
  {
    path: '/finance/trial-balance',
    title: 'Trial balance',
    permission: 'finance.read',
    load: () => import('./screens/finance/trial-balance.js'),
    nav: { group: 'Finance', label: 'Trial balance' },
  },
  {
    path: '/finance/profit-and-loss',
    title: 'Profit and loss',
    permission: 'finance.read',
    load: () => import('./screens/finance/profit-loss.js'),
    nav: { group: 'Finance', label: 'Profit and loss' },
  },
  {
    path: '/finance/balance-sheet',
    title: 'Balance sheet',
    permission: 'finance.read',
    load: () => import('./screens/finance/balance-sheet.js'),
    nav: { group: 'Finance', label: 'Balance sheet' },
  },
  {
    path: '/finance/cash-flow',
    title: 'Cash flow',
    permission: 'finance.read',
    load: () => import('./screens/finance/cash-flow.js'),
    nav: { group: 'Finance', label: 'Cash flow' },
  },
  {
    path: '/finance/aged-receivables',
    title: 'Aged receivables',
    permission: 'finance.read',
    load: () => import('./screens/finance/ageing.js'),
    nav: { group: 'Finance', label: 'Aged receivables' },
  },
  {
    path: '/finance/aged-payables',
    title: 'Aged payables',
    permission: 'finance.read',
    load: () => import('./screens/finance/ageing.js'),
    nav: { group: 'Finance', label: 'Aged payables' },
  },
  {
    path: '/finance/general-ledger',
    title: 'General ledger',
    permission: 'finance.read',
    load: () => import('./screens/finance/general-ledger.js'),
    nav: { group: 'Finance', label: 'General ledger' },
  },
  {
    path: '/finance/vat-return',
    title: 'VAT return',
    permission: 'finance.read',
    load: () => import('./screens/finance/vat-return.js'),
    nav: { group: 'Finance', label: 'VAT return' },
  },
  {
    path: '/finance/lock-date',
    title: 'Lock date',
    permission: 'finance.read',
    load: () => import('./screens/finance/lock-date.js'),
    nav: { group: 'Finance', label: 'Lock date' },
  },
  {
    path: '/finance/exchange-rates',
    title: 'Exchange rates',
    permission: 'finance.read',
    load: () => import('./screens/finance/exchange-rates.js'),
    nav: { group: 'Finance', label: 'Exchange rates' },
  },
  {
    path: '/finance/sales-schedule',
    title: 'Sales schedule',
    permission: 'finance.read',
    load: () => import('./screens/finance/sales-schedule.js'),
    nav: { group: 'Finance', label: 'Sales schedule' },
  },
  {
    path: '/finance/vat',
    title: 'VAT threshold',
    permission: 'finance.read',
    load: () => import('./screens/finance/vat.js'),
    nav: { group: 'Finance', label: 'VAT threshold' },
  },
  {
    path: '/finance/revenue',
    title: 'Revenue calculator',
    permission: 'finance.read',
    load: () => import('./screens/finance/revenue.js'),
    nav: { group: 'Finance', label: 'Revenue calculator' },
  },
  {
    path: '/hr/departments',
    title: 'Departments',
    permission: 'hr.read',
    load: () => import('./screens/hr/departments.js'),
    nav: { group: 'HR', label: 'Departments' },
  },
  {
    path: '/hr/employees',
    title: 'Employees',
    permission: 'hr.read',
    load: () => import('./screens/hr/employees.js'),
    nav: { group: 'HR', label: 'Employees' },
  },
  {
    path: '/hr/employees/:id',
    title: 'Employee',
    permission: 'hr.read',
    load: () => import('./screens/hr/employee.js'),
  },
  {
    path: '/hr/leaves',
    title: 'Leaves',
    permission: 'hr.read',
    load: () => import('./screens/hr/leaves.js'),
    nav: { group: 'HR', label: 'Leaves' },
  },
  {
    path: '/hr/calendar',
    title: 'Leave calendar',
    permission: 'hr.read',
    load: () => import('./screens/hr/calendar.js'),
    nav: { group: 'HR', label: 'Calendar' },
  },
  {
    path: '/hr/leave-types',
    title: 'Leave types',
    permission: 'hr.read',
    load: () => import('./screens/hr/leave-types.js'),
    nav: { group: 'HR', label: 'Leave types' },
  },
  {
    path: '/hr/holidays',
    title: 'Public holidays',
    permission: 'hr.read',
    load: () => import('./screens/hr/holidays.js'),
    nav: { group: 'HR', label: 'Public holidays' },
  },
  {
    path: '/marketing/segments',
    title: 'Segments',
    permission: 'marketing.read',
    load: () => import('./screens/marketing/segments.js'),
    nav: { group: 'Marketing', label: 'Segments' },
  },
  {
    path: '/marketing/segments/:id',
    title: 'Segment',
    permission: 'marketing.read',
    load: () => import('./screens/marketing/segment.js'),
  },
  {
    path: '/marketing/templates',
    title: 'Templates',
    permission: 'marketing.read',
    load: () => import('./screens/marketing/templates.js'),
    nav: { group: 'Marketing', label: 'Templates' },
  },
  {
    path: '/marketing/templates/:id',
    title: 'Template',
    permission: 'marketing.read',
    load: () => import('./screens/marketing/template.js'),
  },
  {
    path: '/marketing/campaigns',
    title: 'Campaigns',
    permission: 'marketing.read',
    load: () => import('./screens/marketing/campaigns.js'),
    nav: { group: 'Marketing', label: 'Campaigns' },
  },
  {
    path: '/marketing/campaigns/:id',
    title: 'Campaign',
    permission: 'marketing.read',
    load: () => import('./screens/marketing/campaign.js'),
  },
  {
    path: '/marketing/suppressions',
    title: 'Suppressions',
    permission: 'marketing.read',
    load: () => import('./screens/marketing/suppressions.js'),
    nav: { group: 'Marketing', label: 'Suppressions' },
  },
  {
    path: '/loyalty/program',
    title: 'Loyalty program',
    permission: 'loyalty.read',
    load: () => import('./screens/loyalty/program.js'),
    nav: { group: 'Loyalty', label: 'Program and tiers' },
  },
  {
    path: '/loyalty/members',
    title: 'Members',
    permission: 'loyalty.read',
    load: () => import('./screens/loyalty/members.js'),
    nav: { group: 'Loyalty', label: 'Members' },
  },
  {
    path: '/loyalty/members/:id',
    title: 'Member',
    permission: 'loyalty.read',
    load: () => import('./screens/loyalty/member.js'),
  },
  {
    path: '/loyalty/rewards',
    title: 'Rewards',
    permission: 'loyalty.read',
    load: () => import('./screens/loyalty/rewards.js'),
    nav: { group: 'Loyalty', label: 'Rewards' },
  },
  {
    path: '/loyalty/redemptions',
    title: 'Redemptions',
    permission: 'loyalty.read',
    load: () => import('./screens/loyalty/redemptions.js'),
    nav: { group: 'Loyalty', label: 'Redemptions' },
  },
  {
    path: '/loyalty/vouchers',
    title: 'Vouchers',
    permission: 'loyalty.read',
    load: () => import('./screens/loyalty/vouchers.js'),
    nav: { group: 'Loyalty', label: 'Vouchers' },
  },
  {
    path: '/loyalty/reminders',
    title: 'Reminders',
    permission: 'loyalty.read',
    load: () => import('./screens/loyalty/reminders.js'),
    nav: { group: 'Loyalty', label: 'Reminders' },
  },
  {
    path: '/loyalty/stats',
    title: 'Loyalty stats',
    permission: 'loyalty.read',
    load: () => import('./screens/loyalty/stats.js'),
    nav: { group: 'Loyalty', label: 'Stats' },
  },
  {
    path: '/sandbox/inbox',
    title: 'Captured mail',
    permission: 'sandbox.read',
    load: () => import('./screens/sandbox/inbox.js'),
    nav: { group: 'Sandbox', label: 'Captured mail' },
  },
  {
    path: '/sandbox/controls',
    title: 'Reset and clock',
    permission: 'sandbox.manage',
    load: () => import('./screens/sandbox/controls.js'),
    nav: { group: 'Sandbox', label: 'Reset and clock' },
  },
  {
    path: '/settings/business',
    title: 'Business settings',
    permission: 'settings.read',
    load: () => import('./screens/settings/business.js'),
    nav: { group: 'Settings', label: 'Business' },
  },
  {
    path: '/settings/payments',
    title: 'Payments',
    permission: 'settings.read',
    load: () => import('./screens/settings/payments.js'),
    nav: { group: 'Settings', label: 'Payments' },
  },
  {
    path: SECURITY_PATH,
    title: 'Security',
    permission: null,
    load: () => import('./screens/settings/security.js'),
    nav: { group: 'Settings', label: 'Security' },
  },
  {
    path: '/settings/team',
    title: 'Team',
    permission: 'team.read',
    load: () => import('./screens/settings/team.js'),
    nav: { group: 'Settings', label: 'Team' },
  },
  {
    path: '/settings/api-keys',
    title: 'API keys',
    permission: 'api_keys.manage',
    load: () => import('./screens/settings/api-keys.js'),
    nav: { group: 'Settings', label: 'API keys' },
  },
  {
    path: '/settings/webhooks',
    title: 'Webhooks',
    permission: 'webhooks.manage',
    load: () => import('./screens/settings/webhooks.js'),
    nav: { group: 'Settings', label: 'Webhooks' },
  },
  {
    path: '/settings/webhooks/:id',
    title: 'Webhook',
    permission: 'webhooks.manage',
    load: () => import('./screens/settings/webhook.js'),
  },
  {
    path: '/settings/domains',
    title: 'Sender domains',
    permission: 'marketing.read',
    load: () => import('./screens/settings/domains.js'),
    nav: { group: 'Settings', label: 'Sender domains' },
  },
  {
    path: '/audit-log',
    title: 'Audit log',
    permission: 'audit.read',
    load: () => import('./screens/business/audit-log.js'),
    nav: { group: 'Settings', label: 'Audit log' },
  },
];
