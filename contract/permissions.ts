import { PERMISSIONS, type Permission, type Role } from './roles.js';

/*
 * Who may do what (docs/decisions.md D53): each operation of the contract names the permission it needs,
 * and each role holds a set of permissions. One table, beside the contract, read by the server's
 * middleware (403 FORBIDDEN naming the missing permission), by the SDK and by the dashboard (which
 * hides what a role cannot do). `null`: no permission beyond the credential itself (sign-up and
 * sign-in, signing out, and the public loyalty interface, whose keys keep their own scope).
 */

export { PERMISSIONS, ROLES, readsCapturedLiveMail, type Permission, type Role } from './roles.js';

const READS = PERMISSIONS.filter((p) => p.endsWith('.read') && p !== 'audit.read');

/**
 * What each role may do. `owner` and `admin` everything (only an owner may make or unmake owners:
 * the team's own rule); `full` API keys act as `admin`. `viewer` reads everything but the audit log.
 */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  owner: PERMISSIONS,
  admin: PERMISSIONS,
  accountant: [
    'settings.read',
    'team.read',
    'customers.read',
    'customers.write',
    'sales.read',
    'sales.write',
    'finance.read',
    'finance.write',
    'sandbox.read',
  ],
  hr: ['settings.read', 'team.read', 'hr.read', 'hr.write', 'sandbox.read'],
  marketing: [
    'settings.read',
    'team.read',
    'customers.read',
    'customers.write',
    'marketing.read',
    'marketing.write',
    'sandbox.read',
  ],
  loyalty: ['settings.read', 'team.read', 'customers.read', 'loyalty.read', 'loyalty.write', 'sandbox.read'],
  viewer: READS,
};

/** The permission each operation needs, by operation id (the contract's route names). */
export const OPERATION_PERMISSIONS: Readonly<Record<string, Permission | null>> = {
  // auth
  register: null,
  signIn: null,
  forgotPassword: null,
  resetPassword: null,
  getSession: null,
  switchEnvironment: 'sandbox.read',
  logout: null,
  // Two-factor sign-in, sessions and password: the signed-in person's own account.
  completeSignIn: null,
  getTwoFactor: null,
  startTwoFactorEnrolment: null,
  confirmTwoFactor: null,
  disableTwoFactor: null,
  regenerateRecoveryCodes: null,
  listSessions: null,
  revokeSession: null,
  revokeOtherSessions: null,
  changePassword: null,
  createApiKey: 'api_keys.manage',
  listApiKeys: 'api_keys.manage',
  revokeApiKey: 'api_keys.manage',
  getBusiness: 'settings.read',
  updateBusiness: 'settings.write',
  getPaymentSettings: 'settings.read',
  updatePaymentSettings: 'settings.write',
  checkPaymentSettings: 'settings.write',
  getTeam: 'team.read',
  inviteMember: 'team.manage',
  resendInvitation: 'team.manage',
  getInvitationLink: 'team.manage',
  revokeInvitation: 'team.manage',
  changeMemberRole: 'team.manage',
  removeMember: 'team.manage',
  acceptInvitation: null,
  describeInvitation: null,
  // general.customers
  listCustomers: 'customers.read',
  createCustomer: 'customers.write',
  getCustomer: 'customers.read',
  updateCustomer: 'customers.write',
  deleteCustomer: 'customers.write',
  // general.products
  listProducts: 'sales.read',
  createProduct: 'sales.write',
  getProduct: 'sales.read',
  updateProduct: 'sales.write',
  deleteProduct: 'sales.write',
  // general.invoices
  listInvoices: 'sales.read',
  createInvoice: 'sales.write',
  getInvoice: 'sales.read',
  updateInvoice: 'sales.write',
  deleteInvoice: 'sales.write',
  issueInvoice: 'sales.write',
  getInvoicePdf: 'sales.read',
  sendInvoice: 'sales.write',
  createPayment: 'sales.write',
  createPaymentLink: 'sales.write',
  // A payment provider's signed webhook: no credential, the signature is the check.
  receiveProviderWebhook: null,
  voidInvoice: 'sales.write',
  // general.quotes
  listQuotes: 'sales.read',
  createQuote: 'sales.write',
  getQuote: 'sales.read',
  updateQuote: 'sales.write',
  deleteQuote: 'sales.write',
  getQuotePdf: 'sales.read',
  sendQuote: 'sales.write',
  acceptQuote: 'sales.write',
  declineQuote: 'sales.write',
  convertQuote: 'sales.write',
  // general.creditNotes
  listCreditNotes: 'sales.read',
  createCreditNote: 'sales.write',
  getCreditNote: 'sales.read',
  getCreditNotePdf: 'sales.read',
  sendCreditNote: 'sales.write',
  voidCreditNote: 'sales.write',
  // general.statements
  getCustomerStatement: 'sales.read',
  getCustomerStatementPdf: 'sales.read',
  // general.recurringInvoices
  listRecurringInvoices: 'sales.read',
  createRecurringInvoice: 'sales.write',
  getRecurringInvoice: 'sales.read',
  updateRecurringInvoice: 'sales.write',
  pauseRecurringInvoice: 'sales.write',
  resumeRecurringInvoice: 'sales.write',
  endRecurringInvoice: 'sales.write',
  // hr.departments
  listDepartments: 'hr.read',
  createDepartment: 'hr.write',
  getDepartment: 'hr.read',
  updateDepartment: 'hr.write',
  deleteDepartment: 'hr.write',
  // hr.employees
  listEmployees: 'hr.read',
  listEmployeesAlias: 'hr.read',
  listGeneralEmployees: 'hr.read',
  createEmployee: 'hr.write',
  getEmployee: 'hr.read',
  updateEmployee: 'hr.write',
  deleteEmployee: 'hr.write',
  // hr.leaves
  listLeaves: 'hr.read',
  createLeave: 'hr.write',
  getLeave: 'hr.read',
  updateLeave: 'hr.write',
  deleteLeave: 'hr.write',
  // hr.leaveTypes
  listLeaveTypes: 'hr.read',
  createLeaveType: 'hr.write',
  getLeaveType: 'hr.read',
  updateLeaveType: 'hr.write',
  deleteLeaveType: 'hr.write',
  getLeaveBalances: 'hr.read',
  setLeaveEntitlement: 'hr.write',
  // hr.holidays
  listHolidays: 'hr.read',
  createHoliday: 'hr.write',
  getHoliday: 'hr.read',
  updateHoliday: 'hr.write',
  deleteHoliday: 'hr.write',
  // finance.vendors
  listVendors: 'finance.read',
  createVendor: 'finance.write',
  getVendor: 'finance.read',
  updateVendor: 'finance.write',
  listBankAccounts: 'finance.read',
  createBankAccount: 'finance.write',
  getBankAccount: 'finance.read',
  updateBankAccount: 'finance.write',
  importStatement: 'finance.write',
  getReconciliation: 'finance.read',
  listBankTransactions: 'finance.read',
  acceptBankSuggestions: 'finance.write',
  getBankTransaction: 'finance.read',
  getBankTransactionSuggestions: 'finance.read',
  matchBankTransaction: 'finance.write',
  categoriseBankTransaction: 'finance.write',
  excludeBankTransaction: 'finance.write',
  unmatchBankTransaction: 'finance.write',
  listBankRules: 'finance.read',
  createBankRule: 'finance.write',
  getBankRule: 'finance.read',
  updateBankRule: 'finance.write',
  deleteBankRule: 'finance.write',
  // finance.bills
  listBills: 'finance.read',
  createBill: 'finance.write',
  getBill: 'finance.read',
  updateBill: 'finance.write',
  deleteBill: 'finance.write',
  approveBill: 'finance.write',
  voidBill: 'finance.write',
  payBill: 'finance.write',
  // finance.recurringBills
  listRecurringBills: 'finance.read',
  createRecurringBill: 'finance.write',
  getRecurringBill: 'finance.read',
  updateRecurringBill: 'finance.write',
  pauseRecurringBill: 'finance.write',
  resumeRecurringBill: 'finance.write',
  endRecurringBill: 'finance.write',
  // finance.accounts
  listAccounts: 'finance.read',
  createAccount: 'finance.write',
  getTrialBalance: 'finance.read',
  // finance.books
  getBalanceSheet: 'finance.read',
  getBalanceSheetPdf: 'finance.read',
  getProfitLossPdf: 'finance.read',
  getCashFlow: 'finance.read',
  getAgedReceivables: 'finance.read',
  getAgedPayables: 'finance.read',
  getGeneralLedger: 'finance.read',
  getVatReturn: 'finance.read',
  getLockDate: 'finance.read',
  setLockDate: 'finance.write',
  // finance.exchangeRates and finance.revaluations
  listExchangeRates: 'finance.read',
  createExchangeRate: 'finance.write',
  lookupExchangeRate: 'finance.read',
  createRevaluation: 'finance.write',
  listRevaluations: 'finance.read',
  // finance.journal
  listJournal: 'finance.read',
  createJournalEntry: 'finance.write',
  // finance.reports
  getSalesSchedule: 'finance.read',
  getRevenueCalculator: 'finance.read',
  getProfitLoss: 'finance.read',
  // finance.vat
  getVatThreshold: 'finance.read',
  createVatThreshold: 'finance.write',
  updateVatThreshold: 'finance.write',
  markVatRegistered: 'finance.write',
  // marketing.domains
  listDomains: 'marketing.read',
  createDomain: 'marketing.write',
  getDomain: 'marketing.read',
  verifyDomain: 'marketing.write',
  deleteDomain: 'marketing.write',
  // marketing.segments
  listSegments: 'marketing.read',
  createSegment: 'marketing.write',
  getSegment: 'marketing.read',
  listSegmentContacts: 'marketing.read',
  updateSegment: 'marketing.write',
  deleteSegment: 'marketing.write',
  // marketing.templates
  listTemplates: 'marketing.read',
  createTemplate: 'marketing.write',
  getTemplate: 'marketing.read',
  updateTemplate: 'marketing.write',
  deleteTemplate: 'marketing.write',
  previewTemplate: 'marketing.write',
  // marketing.campaigns
  listCampaigns: 'marketing.read',
  createCampaign: 'marketing.write',
  getCampaign: 'marketing.read',
  sendCampaign: 'marketing.write',
  scheduleCampaign: 'marketing.write',
  pauseCampaign: 'marketing.write',
  resumeCampaign: 'marketing.write',
  cancelCampaign: 'marketing.write',
  getCampaignAnalytics: 'marketing.read',
  listCampaignRecipients: 'marketing.read',
  reportBounce: 'marketing.write',
  // webhooks
  createWebhook: 'webhooks.manage',
  listWebhooks: 'webhooks.manage',
  getWebhook: 'webhooks.manage',
  updateWebhook: 'webhooks.manage',
  deleteWebhook: 'webhooks.manage',
  rotateSecret: 'webhooks.manage',
  listDeliveries: 'webhooks.manage',
  redeliver: 'webhooks.manage',
  // loyalty.program
  getProgram: 'loyalty.read',
  createProgram: 'loyalty.write',
  updateProgram: 'loyalty.write',
  deleteProgram: 'loyalty.write',
  // loyalty.tiers
  listTiers: 'loyalty.read',
  createTier: 'loyalty.write',
  updateTier: 'loyalty.write',
  deleteTier: 'loyalty.write',
  // loyalty.members
  listMembers: 'loyalty.read',
  getMember: 'loyalty.read',
  enrollMember: 'loyalty.write',
  bulkEnrollMembers: 'loyalty.write',
  updateMember: 'loyalty.write',
  deleteMember: 'loyalty.write',
  listMemberTransactions: 'loyalty.read',
  // loyalty.transactions
  listTransactions: 'loyalty.read',
  adjustPoints: 'loyalty.write',
  // loyalty.rewards
  listRewards: 'loyalty.read',
  listRewardsAlias: 'loyalty.read',
  createReward: 'loyalty.write',
  updateReward: 'loyalty.write',
  deleteReward: 'loyalty.write',
  // loyalty.redemptions
  listRedemptions: 'loyalty.read',
  createRedemption: 'loyalty.write',
  updateRedemption: 'loyalty.write',
  verifyVoucher: 'loyalty.read',
  // loyalty.stats
  getStats: 'loyalty.read',
  getStatsAlias: 'loyalty.read',
  // loyalty.reminders
  listReminders: 'loyalty.read',
  createReminder: 'loyalty.write',
  updateReminder: 'loyalty.write',
  deleteReminder: 'loyalty.write',
  completeReminder: 'loyalty.write',
  // publicLoyalty
  publicGetBalance: null,
  publicEarn: null,
  publicRedeem: null,
  publicListRewards: null,
  publicVerifyVoucher: null,
  // sandbox.messages
  listMessages: 'sandbox.read',
  // sandbox.clock
  getClock: 'sandbox.read',
  advanceClock: 'sandbox.manage',
  // sandbox.reset
  resetSandbox: 'sandbox.manage',
  // auditLog
  listAuditLog: 'audit.read',
  // imports: the permission of creating what is imported
  importCustomers: 'customers.write',
  importProducts: 'sales.write',
  importVendors: 'finance.write',
  importEmployees: 'hr.write',
  importExchangeRates: 'finance.write',
  importHolidays: 'hr.write',
};

/** Whether the role may do what the permission allows. */
export const roleAllows = (role: Role, permission: Permission | null): boolean =>
  permission === null || ROLE_PERMISSIONS[role].includes(permission);
