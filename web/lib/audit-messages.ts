import type { audit } from '../../client/index.js';

/**
 * The message catalogue's second part (the first is messages.ts): the audit log's sentences, by
 * operation id, with the resource each entry names as a link to its screen. Kept apart so the
 * first load of the dashboard does not carry them.
 */

/** What a resource id names, by its prefix: the noun, and the screen that shows it (if any). */
interface ResourceKind {
  noun: string;
  screen?: (id: string) => string;
  /** Its label reads alone (a number, an email) rather than after its noun. */
  bare?: boolean;
  /** How it reads when the entry does not name it; "a <noun>" unless told. */
  unnamed?: string;
}

const RESOURCES: Readonly<Record<string, ResourceKind>> = {
  cus: { noun: 'customer', screen: (id) => `/customers/${id}` },
  prod: { noun: 'product', screen: () => '/products' },
  inv: { noun: 'invoice', screen: (id) => `/invoices/${id}`, bare: true },
  quo: { noun: 'quote', screen: (id) => `/quotes/${id}`, bare: true },
  cn: { noun: 'credit note', screen: (id) => `/credit-notes/${id}`, bare: true },
  rinv: { noun: 'recurring invoice', screen: (id) => `/recurring-invoices/${id}` },
  pay: { noun: 'payment' },
  bill: { noun: 'bill', screen: (id) => `/finance/bills/${id}` },
  rbill: { noun: 'recurring bill', screen: (id) => `/finance/recurring-bills/${id}` },
  ven: { noun: 'vendor', screen: () => '/finance/vendors' },
  bank: { noun: 'bank account', screen: (id) => `/finance/bank-accounts/${id}` },
  btx: { noun: 'statement line' },
  brule: { noun: 'bank rule', screen: () => '/finance/bank-rules' },
  je: { noun: 'journal entry', screen: () => '/finance/journal' },
  vat: { noun: 'VAT threshold', screen: () => '/finance/vat' },
  emp: { noun: 'employee', screen: (id) => `/hr/employees/${id}` },
  dep: { noun: 'department', screen: () => '/hr/departments' },
  lv: { noun: 'leave', screen: () => '/hr/leaves' },
  lt: { noun: 'leave type', screen: () => '/hr/leave-types' },
  hol: { noun: 'public holiday', screen: () => '/hr/holidays' },
  seg: { noun: 'segment', screen: (id) => `/marketing/segments/${id}` },
  tpl: { noun: 'template', screen: (id) => `/marketing/templates/${id}` },
  cmp: { noun: 'campaign', screen: (id) => `/marketing/campaigns/${id}` },
  dom: { noun: 'sender domain', screen: () => '/settings/domains' },
  prog: { noun: 'loyalty program', screen: () => '/loyalty/program' },
  tier: { noun: 'tier', screen: () => '/loyalty/program' },
  mem: { noun: 'member', screen: (id) => `/loyalty/members/${id}` },
  rew: { noun: 'reward', screen: () => '/loyalty/rewards' },
  red: { noun: 'redemption', screen: () => '/loyalty/redemptions' },
  rem: { noun: 'reminder', screen: () => '/loyalty/reminders' },
  ltx: { noun: 'points transaction' },
  key: { noun: 'API key', screen: () => '/settings/api-keys' },
  usr: { noun: 'team member', screen: () => '/settings/team', bare: true },
  biz: { noun: 'business', screen: () => '/settings/business' },
};

/** The resource an audit entry names: its noun, its screen (if the dashboard has one), its label. */
export interface AuditResource {
  noun: string;
  /** The dashboard path of its screen; none for a resource the dashboard does not show. */
  to?: string;
  /** Its number or name when known, else "the <noun>". */
  label: string;
}

const INVITATION: ResourceKind = {
  noun: 'invitation',
  screen: () => '/settings/team',
  bare: true,
  unnamed: 'someone',
};

/**
 * What the operation's resource is when its id says nothing or says it ambiguously: webhooks are
 * numbered, and invitations share the `inv_` prefix of invoices.
 */
const OPERATION_RESOURCES: Readonly<Record<string, ResourceKind>> = {
  inviteMember: INVITATION,
  acceptInvitation: INVITATION,
  describeInvitation: INVITATION,
  resendInvitation: INVITATION,
  getInvitationLink: INVITATION,
  revokeInvitation: INVITATION,
  createWebhook: { noun: 'webhook', screen: (id) => `/settings/webhooks/${id}` },
  updateWebhook: { noun: 'webhook', screen: (id) => `/settings/webhooks/${id}` },
  deleteWebhook: { noun: 'webhook', screen: () => '/settings/webhooks' },
  rotateSecret: { noun: 'webhook', screen: (id) => `/settings/webhooks/${id}` },
  redeliver: { noun: 'webhook delivery' },
};

export function auditResource(
  entry: Pick<audit.AuditEntry, 'operation' | 'resource_id' | 'summary'>,
): AuditResource | null {
  const id = entry.resource_id;
  if (!id) return null;
  const prefix = /^([a-z]+)_/.exec(id)?.[1];
  const kind =
    OPERATION_RESOURCES[entry.operation] ??
    (/Invitation/.test(entry.operation) ? INVITATION : undefined) ??
    (prefix ? RESOURCES[prefix] : undefined);
  const noun = kind?.noun ?? nounOf(entry.operation) ?? 'item';
  const named = entry.summary?.label;
  return {
    noun,
    ...(kind?.screen ? { to: kind.screen(id) } : {}),
    // A number or an email names it alone (INV-000004); a name reads with its noun (customer Ada).
    label: named ? (kind?.bare ? named : `${noun} ${named}`) : (kind?.unnamed ?? withArticle(noun)),
  };
}

const withArticle = (noun: string) => `${/^[aeiouAEIOU]/.test(noun) ? 'an' : 'a'} ${noun}`;

/** The noun an operation id ends with: `createDepartment` -> `department`. */
function nounOf(operation: string): string | null {
  const m = /^[a-z]+([A-Z].*)$/.exec(operation);
  if (!m) return null;
  return m[1]!
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .replace(/\bapi\b/, 'API')
    .replace(/\bvat\b/, 'VAT');
}

/**
 * The sentence of each change, by operation id: `{resource}` is the resource (a link to its screen,
 * labelled by number or name), `{amount}` the money the change moved. Operations missing here read
 * as `Changed {resource}`; a raw operation id is never shown.
 */
export const AUDIT_SENTENCES: Readonly<Record<string, string>> = {
  // auth and settings
  register: 'Registered the business',
  signIn: 'Signed in',
  switchEnvironment: 'Switched between live and sandbox',
  logout: 'Signed out',
  completeSignIn: 'Signed in with a second factor',
  startTwoFactorEnrolment: 'Started turning on two-factor sign-in',
  confirmTwoFactor: 'Turned on two-factor sign-in',
  disableTwoFactor: 'Turned off two-factor sign-in',
  regenerateRecoveryCodes: 'Made new recovery codes',
  revokeSession: 'Signed out a session',
  revokeOtherSessions: 'Signed out every other session',
  changePassword: 'Changed their password',
  forgotPassword: 'Asked for a password reset link',
  resetPassword: 'Set a new password with a reset link',
  createApiKey: 'Created {resource}',
  revokeApiKey: 'Revoked {resource}',
  updateBusiness: 'Changed the business settings',
  updatePaymentSettings: 'Connected the payment provider',
  checkPaymentSettings: 'Tested the payment provider connection',
  inviteMember: 'Invited {resource} to the team',
  changeMemberRole: 'Changed the role of {resource}',
  removeMember: 'Removed {resource} from the team',
  acceptInvitation: 'Joined the team',
  describeInvitation: 'Opened an invitation',
  resendInvitation: 'Sent the invitation to {resource} again',
  getInvitationLink: 'Copied the link of the invitation to {resource}',
  revokeInvitation: 'Revoked the invitation to {resource}',
  // customers, products, invoices, quotes
  createCustomer: 'Added {resource}',
  updateCustomer: 'Changed {resource}',
  deleteCustomer: 'Deleted {resource}',
  createProduct: 'Added {resource}',
  updateProduct: 'Changed {resource}',
  deleteProduct: 'Deleted {resource}',
  createInvoice: 'Drafted {resource}',
  updateInvoice: 'Changed {resource}',
  deleteInvoice: 'Deleted {resource}, a draft',
  issueInvoice: 'Issued {resource}',
  sendInvoice: 'Sent {resource} to the customer',
  createPaymentLink: 'Copied the payment link of {resource}',
  receiveProviderWebhook: "Recorded the payment provider's event",
  createPayment: 'Recorded a payment{amount} on {resource}',
  voidInvoice: 'Voided {resource}',
  createQuote: 'Drafted {resource}',
  updateQuote: 'Changed {resource}',
  deleteQuote: 'Deleted {resource}, a draft',
  sendQuote: 'Sent {resource} to the customer',
  acceptQuote: 'Marked {resource} accepted',
  declineQuote: 'Marked {resource} declined',
  convertQuote: 'Turned {resource} into an invoice',
  createCreditNote: 'Issued {resource}',
  sendCreditNote: 'Sent {resource} to the customer',
  voidCreditNote: 'Voided {resource}',
  createRecurringInvoice: 'Scheduled {resource}',
  updateRecurringInvoice: 'Changed {resource}',
  pauseRecurringInvoice: 'Paused {resource}',
  resumeRecurringInvoice: 'Resumed {resource}',
  endRecurringInvoice: 'Ended {resource}',
  // HR
  createDepartment: 'Added {resource}',
  updateDepartment: 'Changed {resource}',
  deleteDepartment: 'Deleted {resource}',
  createEmployee: 'Added {resource}',
  updateEmployee: 'Changed {resource}',
  deleteEmployee: 'Removed {resource}',
  createLeave: 'Recorded {resource}',
  updateLeave: 'Changed {resource}',
  deleteLeave: 'Deleted {resource}',
  createLeaveType: 'Added {resource}',
  updateLeaveType: 'Changed {resource}',
  deleteLeaveType: 'Deleted {resource}',
  setLeaveEntitlement: "Set an employee's own leave entitlement",
  createHoliday: 'Added {resource}',
  updateHoliday: 'Changed {resource}',
  deleteHoliday: 'Deleted {resource}',
  // finance
  createVendor: 'Added {resource}',
  updateVendor: 'Changed {resource}',
  createBankAccount: 'Added {resource}',
  updateBankAccount: 'Changed {resource}',
  importStatement: 'Imported a bank statement into {resource}',
  matchBankTransaction: 'Matched {resource}',
  categoriseBankTransaction: 'Categorised {resource}',
  excludeBankTransaction: 'Excluded {resource}',
  unmatchBankTransaction: 'Undid the match of {resource}',
  acceptBankSuggestions: "Accepted the bank rules' suggestions for {resource}",
  createBankRule: 'Added {resource}',
  updateBankRule: 'Changed {resource}',
  deleteBankRule: 'Deleted {resource}',
  createBill: 'Recorded {resource}',
  updateBill: 'Changed {resource}',
  deleteBill: 'Deleted {resource}',
  approveBill: 'Approved {resource}',
  voidBill: 'Voided {resource}',
  payBill: 'Recorded a payment{amount} on {resource}',
  createRecurringBill: 'Scheduled {resource}',
  updateRecurringBill: 'Changed {resource}',
  pauseRecurringBill: 'Paused {resource}',
  resumeRecurringBill: 'Resumed {resource}',
  endRecurringBill: 'Ended {resource}',
  createAccount: 'Added an account to the chart of accounts',
  createJournalEntry: 'Posted a journal entry',
  createVatThreshold: 'Set the VAT threshold',
  updateVatThreshold: 'Changed the VAT threshold',
  markVatRegistered: 'Marked the business registered for VAT',
  setLockDate: 'Set the lock date of the books',
  createExchangeRate: 'Set an exchange rate',
  createRevaluation: 'Posted a revaluation of the balances held in other currencies',
  // marketing
  createDomain: 'Added {resource}',
  verifyDomain: 'Checked the DNS records of {resource}',
  deleteDomain: 'Deleted {resource}',
  createSegment: 'Created {resource}',
  updateSegment: 'Changed {resource}',
  deleteSegment: 'Deleted {resource}',
  createTemplate: 'Created {resource}',
  updateTemplate: 'Changed {resource}',
  deleteTemplate: 'Deleted {resource}',
  previewTemplate: 'Previewed {resource}',
  createCampaign: 'Created {resource}',
  sendCampaign: 'Started sending {resource}',
  scheduleCampaign: 'Scheduled {resource}',
  pauseCampaign: 'Paused {resource}',
  resumeCampaign: 'Resumed {resource}',
  cancelCampaign: 'Cancelled {resource}',
  reportBounce: 'Reported a bounced email',
  // webhooks
  createWebhook: 'Added {resource}',
  updateWebhook: 'Changed {resource}',
  deleteWebhook: 'Deleted {resource}',
  rotateSecret: 'Made a new signing secret for {resource}',
  redeliver: 'Sent a webhook delivery again',
  // loyalty
  createProgram: 'Started {resource}',
  updateProgram: 'Changed {resource}',
  deleteProgram: 'Deleted {resource}',
  createTier: 'Added {resource}',
  updateTier: 'Changed {resource}',
  deleteTier: 'Deleted {resource}',
  enrollMember: 'Enrolled {resource} in the loyalty program',
  bulkEnrollMembers: 'Enrolled customers in the loyalty program',
  updateMember: 'Changed {resource}',
  deleteMember: 'Removed {resource} from the loyalty program',
  adjustPoints: "Adjusted a member's points",
  createReward: 'Added {resource}',
  updateReward: 'Changed {resource}',
  deleteReward: 'Deleted {resource}',
  createRedemption: 'Recorded {resource} of a reward',
  updateRedemption: 'Changed {resource}',
  createReminder: 'Added {resource}',
  updateReminder: 'Changed {resource}',
  deleteReminder: 'Deleted {resource}',
  completeReminder: 'Completed {resource}',
  publicEarn: 'Awarded points at the point of sale',
  publicRedeem: 'Redeemed a reward at the point of sale',
  // sandbox
  advanceClock: 'Moved the sandbox clock forward',
  resetSandbox: 'Reset the sandbox',
  // imports
  importCustomers: 'Imported customers from a CSV file',
  importProducts: 'Imported products from a CSV file',
  importVendors: 'Imported vendors from a CSV file',
  importEmployees: 'Imported employees from a CSV file',
  importExchangeRates: 'Imported exchange rates from a CSV file',
  importHolidays: 'Imported public holidays from a CSV file',
  // one row per record an import created or updated
  'importCustomers.create': 'Added {resource} from a CSV file',
  'importCustomers.update': 'Changed {resource} from a CSV file',
  'importProducts.create': 'Added {resource} from a CSV file',
  'importProducts.update': 'Changed {resource} from a CSV file',
  'importVendors.create': 'Added {resource} from a CSV file',
  'importVendors.update': 'Changed {resource} from a CSV file',
  'importEmployees.create': 'Added {resource} from a CSV file',
  'importEmployees.update': 'Changed {resource} from a CSV file',
  'importExchangeRates.create': 'Set an exchange rate from a CSV file',
  'importExchangeRates.update': 'Changed an exchange rate from a CSV file',
  'importHolidays.create': 'Added a public holiday from a CSV file',
  'importHolidays.update': 'Changed a public holiday from a CSV file',
};

/** The generic sentence of a change the catalogue has no words for. */
export const AUDIT_FALLBACK = 'Changed {resource}';
/** The generic sentence of such a change that names no resource. */
export const AUDIT_FALLBACK_NO_RESOURCE = 'Made a change';

/** One piece of an audit sentence: text, or the resource (rendered as a link where it has a screen). */
export type SentencePart = { text: string } | { resource: AuditResource };

/** What an audit entry says: a change, or (`outcome: denied`) an attempt that was refused. */
export type AuditEntryWords = Pick<audit.AuditEntry, 'operation' | 'resource_id' | 'summary'> &
  Partial<Pick<audit.AuditEntry, 'outcome'>>;

/**
 * The sentence of an audit entry, in parts: the screen renders the resource part as a link.
 * `formatMoney` writes an amount in minor units of its currency (the screen's `minorMoney`).
 */
export function auditSentence(
  entry: AuditEntryWords,
  formatMoney: (minor: number, currency: string) => string,
): SentencePart[] {
  if (entry.outcome === 'denied') return refusedSentence(entry);
  return changeSentence(entry, formatMoney);
}

function changeSentence(
  entry: AuditEntryWords,
  formatMoney: (minor: number, currency: string) => string,
): SentencePart[] {
  const resource = auditResource(entry);
  let template = AUDIT_SENTENCES[entry.operation] ?? AUDIT_FALLBACK;
  if (template.includes('{resource}') && !resource) {
    // No resource named: "a customer", from what the operation acts on.
    template =
      template === AUDIT_FALLBACK
        ? AUDIT_FALLBACK_NO_RESOURCE
        : template.replace('{resource}', withArticle(nounOfOperation(entry.operation)));
  }
  const summary = entry.summary;
  const amount =
    summary && summary.amount !== null && summary.currency
      ? ` of ${formatMoney(summary.amount, summary.currency)}`
      : '';
  const parts: SentencePart[] = [];
  const pieces = template.replace('{amount}', amount).split('{resource}');
  pieces.forEach((piece, i) => {
    if (piece) parts.push({ text: piece });
    if (i < pieces.length - 1 && resource) parts.push({ resource });
  });
  return parts;
}

/** How a refused attempt starts: "Was refused: add a customer". */
export const REFUSED_PREFIX = 'Was refused: ';

/** The plain form of the verb each change's sentence starts with, to say what was refused. */
export const PLAIN_VERBS: Readonly<Record<string, string>> = {
  Accepted: 'accept',
  Added: 'add',
  Adjusted: 'adjust',
  Approved: 'approve',
  Asked: 'ask',
  Awarded: 'award',
  Cancelled: 'cancel',
  Categorised: 'categorise',
  Changed: 'change',
  Checked: 'check',
  Completed: 'complete',
  Connected: 'connect',
  Copied: 'copy',
  Created: 'create',
  Deleted: 'delete',
  Drafted: 'draft',
  Ended: 'end',
  Enrolled: 'enrol',
  Excluded: 'exclude',
  Imported: 'import',
  Invited: 'invite',
  Issued: 'issue',
  Joined: 'join',
  Made: 'make',
  Marked: 'mark',
  Matched: 'match',
  Moved: 'move',
  Opened: 'open',
  Paused: 'pause',
  Posted: 'post',
  Previewed: 'preview',
  Recorded: 'record',
  Redeemed: 'redeem',
  Registered: 'register',
  Removed: 'remove',
  Reported: 'report',
  Reset: 'reset',
  Resumed: 'resume',
  Revoked: 'revoke',
  Scheduled: 'schedule',
  Sent: 'send',
  Set: 'set',
  Signed: 'sign',
  Started: 'start',
  Switched: 'switch',
  Tested: 'test',
  Turned: 'turn',
  Undid: 'undo',
  Voided: 'void',
};

/** What a read would have shown: `listCustomers` -> "the customers", `getProfitLoss` -> "the profit and loss report". */
const READ_NOUNS: Readonly<Record<string, string>> = {
  getProfitLoss: 'the profit and loss report',
  getProfitLossPdf: 'the profit and loss PDF',
  getBalanceSheet: 'the balance sheet',
  getBalanceSheetPdf: 'the balance sheet PDF',
  getCashFlow: 'the cash-flow statement',
  getAgedReceivables: 'the aged receivables',
  getAgedPayables: 'the aged payables',
  getGeneralLedger: 'the general ledger',
  getVatReturn: 'the VAT return',
  getLockDate: 'the lock date of the books',
  getInvoicePdf: 'the PDF of {resource}',
  getQuotePdf: 'the PDF of {resource}',
  getCreditNotePdf: 'the PDF of {resource}',
  getCustomerStatement: 'the statement of {resource}',
  getCustomerStatementPdf: 'the statement PDF of {resource}',
  getStats: 'the loyalty statistics',
  getStatsAlias: 'the loyalty statistics',
  listEmployeesAlias: 'the employees',
  listGeneralEmployees: 'the employees',
  listRewardsAlias: 'the rewards',
  getSession: 'who is signed in',
  getClock: 'the sandbox clock',
  getTwoFactor: 'the two-factor sign-in settings',
};

/**
 * The sentence of an attempt that was refused (the credential lacked the permission, role or
 * scope): what it would have done, in the plain form: "Was refused: add a customer", "Was refused:
 * see the audit log". A refusal names no summary, only the resource of its path.
 */
function refusedSentence(entry: AuditEntryWords): SentencePart[] {
  const template = AUDIT_SENTENCES[entry.operation];
  if (template === undefined) return readSentence(entry);
  const parts = changeSentence({ ...entry, summary: null }, () => '');
  const first = parts[0];
  if (first && 'text' in first) {
    const text = first.text.replace(/^([A-Z][a-z]*)/, (verb) => PLAIN_VERBS[verb] ?? verb.toLowerCase());
    parts[0] = { text: `${REFUSED_PREFIX}${text}` };
  } else parts.unshift({ text: REFUSED_PREFIX });
  const last = parts[parts.length - 1];
  if (last && 'text' in last) parts[parts.length - 1] = { text: last.text.replace(/, a draft$/, '') };
  return parts;
}

/** A refused read: "Was refused: see the customers", "Was refused: see a customer" (its link). */
function readSentence(entry: AuditEntryWords): SentencePart[] {
  const resource = auditResource({ ...entry, summary: null });
  const named = READ_NOUNS[entry.operation];
  const operation = entry.operation.replace(/^public([A-Z])/, (_, c: string) => c.toLowerCase());
  const noun = nounOf(operation.replace(/Alias$/, ''));
  const what = named ?? (resource ? '{resource}' : `the ${noun ?? 'records'}`);
  const pieces = `${REFUSED_PREFIX}see ${what}`.split('{resource}');
  const parts: SentencePart[] = [];
  pieces.forEach((piece, i) => {
    if (piece) parts.push({ text: piece });
    if (i < pieces.length - 1) parts.push(resource ? { resource } : { text: withArticle(noun ?? 'record') });
  });
  return parts;
}

/**
 * What an operation does, without its resource, as a filter's choice names it: `Added customer`,
 * `Recorded a payment on invoice`; the generic "Changed <resource>" for one the catalogue lacks.
 */
const nounOfOperation = (operation: string): string =>
  OPERATION_NOUNS[operation] ?? OPERATION_RESOURCES[operation]?.noun ?? nounOf(operation) ?? 'item';

export function operationLabel(operation: string): string {
  const noun = nounOfOperation(operation);
  const template = AUDIT_SENTENCES[operation] ?? AUDIT_FALLBACK;
  const text = template
    .replace('{amount}', '')
    .replace(/\{resource\}/g, withArticle(noun))
    .replace(/, a draft$/, '');
  return text;
}

/** The resource of an operation whose name ends with something else (`createPayment` acts on an invoice). */
const OPERATION_NOUNS: Readonly<Record<string, string>> = {
  createPayment: 'invoice',
  payBill: 'bill',
  importStatement: 'bank account',
  acceptBankSuggestions: 'bank account',
  matchBankTransaction: 'statement line',
  categoriseBankTransaction: 'statement line',
  excludeBankTransaction: 'statement line',
  unmatchBankTransaction: 'statement line',
  changeMemberRole: 'team member',
  removeMember: 'team member',
  rotateSecret: 'webhook',
  verifyDomain: 'sender domain',
  createDomain: 'sender domain',
  deleteDomain: 'sender domain',
  enrollMember: 'customer',
  inviteMember: 'person',
  createProgram: 'loyalty program',
  updateProgram: 'loyalty program',
  deleteProgram: 'loyalty program',
};

/** The sentence as plain text (for tests and titles). */
export const sentenceText = (parts: SentencePart[]): string =>
  parts.map((p) => ('text' in p ? p.text : p.resource.label)).join('');
