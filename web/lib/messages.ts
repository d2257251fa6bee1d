import type { ErrorCode, Role } from '../../client/index.js';
import { toMinor } from '../../client/money.js';

/**
 * Every word the dashboard says about a refusal, a role or a document's status, in one place and in
 * plain English (docs/decisions.md D199); the audit log's sentences are its second part
 * (audit-messages.ts), loaded with that screen only. The contract's
 * messages are written for integrators (units, formats, field names); the dashboard shows these
 * instead, chosen by the rule that failed (a Zod issue's code, or the code of the server's answer),
 * never by the text of one server message.
 */

// ---------------------------------------------------------------------------------------------
// Field rules

/** What a form tells the catalogue about itself: the currency its amounts are in. */
export interface FieldContext {
  currency?: string | undefined;
}

/** A Zod issue as the form sees it (the fields the catalogue reads; all optional but `code`). */
export interface FieldIssue {
  code: string;
  message: string;
  path?: (string | number)[];
  expected?: unknown;
  received?: unknown;
  type?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  exact?: boolean;
  validation?: unknown;
}

/** An example amount in the currency's decimals: `12.50`, `1250` (JPY), `12.500` (KWD). */
export function exampleAmount(currency: string | undefined): string {
  const exponent = currency ? safeExponent(currency) : 2;
  return exponent === 0 ? '1250' : `12.${'5'.padEnd(exponent, '0')}`;
}

function safeExponent(currency: string): number {
  try {
    return String(toMinor(1, currency)).length - 1;
  } catch {
    return 2;
  }
}

const inCurrency = (currency: string | undefined) => (currency ? ` in ${currency}` : '');

/** The field rules, each in the words a person reads beside a field. */
export const FIELD_MESSAGES = {
  required: 'Fill this in.',
  choose: 'Choose one of the options.',
  tooShort: (min: number) => (min <= 1 ? 'Fill this in.' : `Enter at least ${min} characters.`),
  tooLong: (max: number) => `Keep this to ${max} characters or fewer.`,
  exactLength: (length: number) => `Enter exactly ${length} characters.`,
  email: 'Enter an email address, like name@example.com.',
  url: 'Enter a web address, like https://example.com/hooks.',
  date: 'Enter a date.',
  dateTime: 'Enter a date and time.',
  number: 'Enter a number, like 12.',
  wholeNumber: 'Enter a whole number, like 12.',
  atLeast: (min: number | string) => `Enter ${min} or more.`,
  moreThan: (min: number | string) => `Enter a number greater than ${min}.`,
  atMost: (max: number | string) => `Enter ${max} or less.`,
  lessThan: (max: number | string) => `Enter a number less than ${max}.`,
  atLeastItems: (min: number) => (min <= 1 ? 'Add at least one.' : `Add at least ${min}.`),
  atMostItems: (max: number) => `Keep this to ${max} or fewer.`,
  currency: 'Choose a currency from the list.',
  unsafeText: 'Remove the invisible control characters from this text.',
  unverifiedSender:
    'This address is not at one of your verified sender domains: use one that is (Settings, Sender domains), or leave it empty.',
  unknown: 'This field is not one the form sends; reload the page.',
  invalid: 'Check this value.',
  amount: (currency?: string) => `Enter an amount${inCurrency(currency)}, like ${exampleAmount(currency)}.`,
  amountDecimals: (currency: string) => {
    const exponent = safeExponent(currency);
    return exponent === 0
      ? `Enter an amount in ${currency} without decimals, like ${exampleAmount(currency)}.`
      : `Enter an amount in ${currency} with at most ${exponent} decimals, like ${exampleAmount(currency)}.`;
  },
  amountAbove: (currency?: string) =>
    `Enter an amount${inCurrency(currency)} greater than zero, like ${exampleAmount(currency)}.`,
  amountAtLeast: (currency?: string) =>
    `Enter an amount${inCurrency(currency)} of zero or more, like ${exampleAmount(currency)}.`,
  amountTooLarge: (currency?: string) =>
    `That amount${inCurrency(currency)} is larger than the service holds.`,
} as const;

/** The contract names the unit of every amount it refuses (contract/common/money.ts). */
const AMOUNT = /\b(major|minor) units\b|^Major units of|amount/i;

const numberText = (n: number | bigint | undefined) => (n === undefined ? '' : String(n));

/** The message of one Zod issue, by its rule; amounts name the form's currency. */
export function fieldMessage(issue: FieldIssue, context: FieldContext = {}): string {
  const currency = context.currency;
  const isAmount = AMOUNT.test(issue.message) && /units/.test(issue.message);
  switch (issue.code) {
    case 'invalid_type':
      if (issue.received === 'undefined' || issue.received === 'null') return FIELD_MESSAGES.required;
      if (isAmount) return FIELD_MESSAGES.amount(currency);
      if (issue.expected === 'number' || issue.expected === 'bigint') return FIELD_MESSAGES.number;
      if (issue.expected === 'integer') return FIELD_MESSAGES.wholeNumber;
      if (issue.expected === 'date') return FIELD_MESSAGES.date;
      return FIELD_MESSAGES.invalid;
    case 'invalid_enum_value':
    case 'invalid_literal':
    case 'invalid_union_discriminator':
      return FIELD_MESSAGES.choose;
    case 'invalid_string':
      if (issue.validation === 'email') return FIELD_MESSAGES.email;
      if (issue.validation === 'url') return FIELD_MESSAGES.url;
      if (issue.validation === 'datetime') return FIELD_MESSAGES.dateTime;
      if (issue.validation === 'date') return FIELD_MESSAGES.date;
      // A pattern of the contract names its format ("a domain name such as mail.example.com").
      return plainDetail(issue.message, context);
    case 'invalid_date':
      return FIELD_MESSAGES.date;
    case 'too_small': {
      const min = Number(issue.minimum ?? 0);
      if (issue.type === 'string')
        return issue.exact ? FIELD_MESSAGES.exactLength(min) : FIELD_MESSAGES.tooShort(min);
      if (issue.type === 'array' || issue.type === 'set') return FIELD_MESSAGES.atLeastItems(min);
      if (isAmount)
        return issue.inclusive
          ? FIELD_MESSAGES.amountAtLeast(currency)
          : FIELD_MESSAGES.amountAbove(currency);
      return issue.inclusive === false
        ? FIELD_MESSAGES.moreThan(numberText(issue.minimum))
        : FIELD_MESSAGES.atLeast(numberText(issue.minimum));
    }
    case 'too_big': {
      const max = Number(issue.maximum ?? 0);
      if (issue.type === 'string')
        return issue.exact ? FIELD_MESSAGES.exactLength(max) : FIELD_MESSAGES.tooLong(max);
      if (issue.type === 'array' || issue.type === 'set') return FIELD_MESSAGES.atMostItems(max);
      if (isAmount) return FIELD_MESSAGES.amountTooLarge(currency);
      return issue.inclusive === false
        ? FIELD_MESSAGES.lessThan(numberText(issue.maximum))
        : FIELD_MESSAGES.atMost(numberText(issue.maximum));
    }
    case 'not_multiple_of':
      return isAmount && currency ? FIELD_MESSAGES.amountDecimals(currency) : FIELD_MESSAGES.number;
    case 'not_finite':
      return isAmount ? FIELD_MESSAGES.amount(currency) : FIELD_MESSAGES.number;
    case 'unrecognized_keys':
      return FIELD_MESSAGES.unknown;
    default:
      // A refinement of the contract (`custom`) or a union: its own message, unless it is written
      // for an integrator rather than a person.
      return plainDetail(issue.message, context);
  }
}

/**
 * The rules behind the messages the server's validation writes in `details` (zod's own wording, and
 * the contract's units and formats), each read back to the rule it reports. Messages of business
 * rules ("The due date is before the issue date") are already written for people and pass through.
 */
const SERVER_RULES: [RegExp, (m: RegExpExecArray, context: FieldContext) => string][] = [
  [/^Required\b/, () => FIELD_MESSAGES.required],
  [/^String must contain at least (\d+) character/, (m) => FIELD_MESSAGES.tooShort(Number(m[1]))],
  [/^String must contain at most (\d+) character/, (m) => FIELD_MESSAGES.tooLong(Number(m[1]))],
  [/^String must contain exactly (\d+) character/, (m) => FIELD_MESSAGES.exactLength(Number(m[1]))],
  [/^Array must contain at least (\d+) element/, (m) => FIELD_MESSAGES.atLeastItems(Number(m[1]))],
  [/^Array must contain at most (\d+) element/, (m) => FIELD_MESSAGES.atMostItems(Number(m[1]))],
  [/^Invalid email/, () => FIELD_MESSAGES.email],
  [/^Invalid url/, () => FIELD_MESSAGES.url],
  [/^Invalid datetime/, () => FIELD_MESSAGES.dateTime],
  [/^Invalid date\b|calendar date|YYYY-MM-DD/, () => FIELD_MESSAGES.date],
  [/^Invalid (enum value|literal value|discriminator value)/, () => FIELD_MESSAGES.choose],
  [/ISO 4217|currency code/i, () => FIELD_MESSAGES.currency],
  [/NUL characters|unpaired surrogates/, () => FIELD_MESSAGES.unsafeText],
  [/verified sender domain/, () => FIELD_MESSAGES.unverifiedSender],
  [/^Unknown field$|^Unrecognized key/, () => FIELD_MESSAGES.unknown],
  // Date ranges and schedules: the field the rule compares with, in words.
  [/^Must be on or after start_date\b/, () => 'Enter the start date or a later one.'],
  [/^Must be today \(\S+\) or later/, () => 'Enter today or a later date.'],
  // Amounts: the contract's units (contract/common/money.ts) and the server's decimals rule.
  [/^Major units of ([A-Z]{3}) take at most/, (m) => FIELD_MESSAGES.amountDecimals(m[1]!)],
  [/^Must be more than .* units/, (_m, c) => FIELD_MESSAGES.amountAbove(c.currency)],
  [/^Must be at least .* units/, (_m, c) => FIELD_MESSAGES.amountAtLeast(c.currency)],
  [/^Must be at most .* units/, (_m, c) => FIELD_MESSAGES.amountTooLarge(c.currency)],
  [/whole number of minor units/, (_m, c) => FIELD_MESSAGES.amount(c.currency)],
  [/(major|minor) units/, (_m, c) => FIELD_MESSAGES.amount(c.currency)],
  [/^Expected integer, received float/, () => FIELD_MESSAGES.wholeNumber],
  [/^Expected (\w+), received (undefined|null)/, () => FIELD_MESSAGES.required],
  [/^Expected (number|bigint|nan)/, () => FIELD_MESSAGES.number],
  [/^Expected an? ([\w -]+?) such as (\S+)$/, (m) => `Enter a ${m[1]}, like ${m[2]}.`],
  [/^Expected /, () => FIELD_MESSAGES.invalid],
  [/^Number must be greater than or equal to (\S+)/, (m) => FIELD_MESSAGES.atLeast(m[1]!)],
  [/^Number must be greater than (\S+)/, (m) => FIELD_MESSAGES.moreThan(m[1]!)],
  [/^Number must be less than or equal to (\S+)/, (m) => FIELD_MESSAGES.atMost(m[1]!)],
  [/^Number must be less than (\S+)/, (m) => FIELD_MESSAGES.lessThan(m[1]!)],
  [/^Invalid input/, () => FIELD_MESSAGES.invalid],
  // Exchange rates (contract/common/exchange.ts): the rule, without the advice to an integrator.
  [
    /^Must be a positive decimal such as "([\d.]+)"/,
    (m) => `Enter a rate such as ${m[1]}: digits and one point.`,
  ],
  [/^Must have at most (\d+) significant digits/, (m) => `Enter at most ${m[1]} significant digits.`],
  [/^(.+?); send it as a string such as/, (m) => sentence(m[1]!)],
  [
    /^No exchange rate from ([A-Z]{3}) to ([A-Z]{3}) on or before (\S+?):/,
    (m) => `No rate of ${m[1]} to ${m[2]} is known on or before ${m[3]}: set one under Exchange rates.`,
  ],
];

/** A message the server or a refinement wrote for a field, in the dashboard's words. */
export function plainDetail(message: string, context: FieldContext = {}): string {
  for (const [pattern, say] of SERVER_RULES) {
    const m = pattern.exec(message);
    if (m) return say(m, context);
  }
  return sentence(message);
}

/** Starts with a capital and ends with a full stop; an API path it points to is left out. */
function sentence(text: string): string {
  const trimmed = text.replace(/\s*\((see )?\/v1\/[^)]*\)/g, '').trim();
  if (!trimmed) return FIELD_MESSAGES.invalid;
  const capital = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

// ---------------------------------------------------------------------------------------------
// Refusals by error code

/** The line a refusal shows, by its code; the server's own message where it is written for people. */
export function refusalMessage(code: ErrorCode | 'UNKNOWN', serverMessage: string): string {
  switch (code) {
    case 'VALIDATION_ERROR':
      return 'Some of what you entered was not accepted: check the form.';
    case 'UNAUTHORIZED':
      // A dead credential ends the session; a refused sign-in (password, code) says why itself.
      return /access token|API key/i.test(serverMessage)
        ? 'Your session has ended: sign in again.'
        : sentence(serverMessage);
    case 'FORBIDDEN':
      return /two-factor/i.test(serverMessage)
        ? 'This business requires two-factor sign-in: turn it on under Security first.'
        : 'Your role does not allow this. Ask an owner or admin of the business.';
    case 'NOT_FOUND':
      return 'This no longer exists, or was never here: it may have been deleted.';
    case 'BAD_REQUEST':
    case 'URI_TOO_LONG':
    case 'HEADERS_TOO_LARGE':
      return 'The service could not read the request: reload the page and try again.';
    case 'PAYLOAD_TOO_LARGE':
      return 'That is too much to send at once (more than 1 MB).';
    case 'IDEMPOTENCY_IN_PROGRESS':
      return 'This is still being saved: wait a moment, then reload.';
    case 'IDEMPOTENCY_KEY_REUSED':
      return 'This was already sent with different values: reload the page and try again.';
    case 'RATE_LIMITED':
      return 'Too many requests just now: wait a moment and try again.';
    case 'INTERNAL_ERROR':
    case 'UNKNOWN':
      return 'Something went wrong on our side: try again in a moment.';
    default:
      // INVALID_STATE, CONFLICT, RESOURCE_IN_USE, INSUFFICIENT_POINTS, LIMIT_EXCEEDED: the
      // business rule's own message, written for people by the service.
      return sentence(serverMessage);
  }
}

export const CONNECTION_LOST = 'The service cannot be reached: check the connection and try again.';
export const SOMETHING_WENT_WRONG = 'Something went wrong: try again.';
export const CHECK_FIELDS = (count: number) =>
  count <= 1 ? 'Check the highlighted field.' : `Check the ${count} highlighted fields.`;

// ---------------------------------------------------------------------------------------------
// Roles and statuses

export const ROLE_LABELS: Readonly<Record<Role, string>> = {
  owner: 'Owner',
  admin: 'Admin',
  accountant: 'Accountant',
  hr: 'HR',
  marketing: 'Marketing',
  loyalty: 'Loyalty',
  viewer: 'Viewer',
};

/** What each role lets a person do, as the team screen and the invitation screen say it. */
export const ROLE_HELP: Readonly<Record<Role, string>> = {
  owner: 'Everything, including making or removing owners.',
  admin: 'Everything else: settings, team, API keys, webhooks and the audit log.',
  accountant: 'Customers, sales and finance.',
  hr: 'Employees, departments and leave.',
  marketing: 'Marketing, and customers as contacts.',
  loyalty: 'The loyalty program and its members.',
  viewer: 'Reads everything but the audit log; changes nothing.',
};

export const roleLabel = (role: string): string => ROLE_LABELS[role as Role] ?? humanize(role);

/** `partially_paid` as `Partially paid`. */
function humanize(value: string): string {
  const words = value.replace(/[_-]+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Status words of every list and detail page (documents, bills, campaigns, members, ...). */
export const STATUS_LABELS: Readonly<Record<string, string>> = {
  draft: 'Draft',
  unpaid: 'Unpaid',
  issued: 'Issued',
  sent: 'Sent',
  partially_paid: 'Partially paid',
  overdue: 'Overdue',
  paid: 'Paid',
  void: 'Void',
  accepted: 'Accepted',
  declined: 'Declined',
  converted: 'Converted',
  expired: 'Expired',
  pending: 'Pending',
  approved: 'Approved',
  rejected: 'Rejected',
  cancelled: 'Cancelled',
  active: 'Active',
  disabled: 'Off',
  suspended: 'Suspended',
  scheduled: 'Scheduled',
  sending: 'Sending',
  paused: 'Paused',
  verified: 'Verified',
  failed: 'Failed',
  succeeded: 'Succeeded',
  delivered: 'Delivered',
  on: 'On',
  off: 'Off',
  live: 'Live',
  sandbox: 'Sandbox',
};

export const statusLabel = (status: string): string => STATUS_LABELS[status] ?? humanize(status);

/**
 * An invoice's status as its owner reads it: an issued invoice with some payments is "Partially
 * paid" (the API says `unpaid` or `overdue` until it is paid in full), with what is still due.
 */
export function invoiceStatus(invoice: {
  status: string;
  amount_paid: number;
  payments?: readonly unknown[];
}): { key: string; label: string } {
  const open = invoice.status === 'unpaid' || invoice.status === 'overdue';
  if (open && invoice.amount_paid > 0) {
    return invoice.status === 'overdue'
      ? { key: 'overdue', label: 'Overdue, partially paid' }
      : { key: 'partially_paid', label: 'Partially paid' };
  }
  return { key: invoice.status, label: statusLabel(invoice.status) };
}

// ---------------------------------------------------------------------------------------------
// VAT threshold projection

/**
 * How far a projected crossing of the VAT threshold is worth showing: the projection extends the
 * last 90 days' pace over a window of at most a year, so a date past two years says only "not soon",
 * and a date decades away reads as an error.
 */
export const PROJECTION_HORIZON_YEARS = 2;

/** A projected date within the horizon of `today` (both `YYYY-MM-DD`); null when beyond it. */
export function withinHorizon(projected: string | null | undefined, today: string): string | null {
  if (!projected) return null;
  const limit = `${Number(today.slice(0, 4)) + PROJECTION_HORIZON_YEARS}${today.slice(4, 10)}`;
  return projected.slice(0, 10) <= limit ? projected : null;
}

export const NOT_WITHIN_HORIZON = `Not within the next ${PROJECTION_HORIZON_YEARS} years`;

// ---------------------------------------------------------------------------------------------
// Hints

/** Beside an optional From address (a template's, or a campaign's override). */
export const FROM_EMAIL_HINT = {
  template:
    "Optional. Empty, mail goes from the service's own sender. One you type must be at a verified sender domain.",
  campaign:
    "Optional. Empty, the template's From address is used. One you type must be at a verified sender domain.",
} as const;
