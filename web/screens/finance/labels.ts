import type { finance } from '../../../client/index.js';

/**
 * How the finance screens name bill statuses, payment methods, posting sources, account types, the
 * words of bank reconciliation and where an exchange rate came from.
 */

export const BILL_STATUS_LABELS: Record<finance.BillStatus, string> = {
  draft: 'Draft',
  pending: 'Pending',
  overdue: 'Overdue',
  paid: 'Paid',
  void: 'Void',
};

export const BILL_METHOD_LABELS: Record<(typeof finance.BILL_PAYMENT_METHODS)[number], string> = {
  bank_transfer: 'Bank transfer',
  cash: 'Cash',
  check: 'Cheque',
  mobile_money: 'Mobile money',
};

export const SOURCE_LABELS: Record<finance.SourceType, string> = {
  bill: 'Bill',
  bill_payment: 'Bill payment',
  invoice: 'Invoice',
  invoice_payment: 'Invoice payment',
  credit_note: 'Credit note',
  customer_credit: 'Paid online to customer credit',
  card_refund: 'Card refund',
  payout: 'Payout to the bank',
  bank_opening: 'Bank opening balance',
  bank_transaction: 'Bank statement line',
  revaluation: 'Exchange revaluation',
  void: 'Void',
  manual: 'Manual',
};

export const ACCOUNT_TYPE_LABELS: Record<finance.AccountType, string> = {
  asset: 'Asset',
  liability: 'Liability',
  equity: 'Equity',
  revenue: 'Revenue',
  expense: 'Expense',
};

export const BANK_LINE_STATUS_LABELS: Record<finance.BankTransactionStatus, string> = {
  unmatched: 'To reconcile',
  matched: 'Matched',
  excluded: 'Excluded',
};

export const BANK_MATCH_LABELS: Record<finance.BankMatch['kind'], string> = {
  invoice: 'Invoice payment',
  bill: 'Bill payment',
  journal_line: 'Ledger entry',
  account: 'Categorised',
};

export const SUGGESTION_KIND_LABELS: Record<finance.BankSuggestion['kind'], string> = {
  invoice: 'Invoice',
  bill: 'Bill',
  journal_line: 'Recorded payment',
  rule: 'Bank rule',
};

export const RECONCILIATION_ITEM_LABELS: Record<finance.Reconciliation['items'][number]['kind'], string> = {
  unmatched_line: 'On the statement, not yet reconciled',
  excluded_line: 'On the statement, excluded',
  unreconciled_ledger: 'In the ledger, not on the statement',
  timing: 'Matched, but dated either side of this day',
};

/** A bank rule's direction; null is either. */
export const DIRECTION_LABELS = { either: 'Money in or out', in: 'Money in', out: 'Money out' } as const;

/** Where an exchange rate of the business came from. */
export const RATE_SOURCE_LABELS: Record<finance.ExchangeRate['source'], string> = {
  manual: 'Set here',
  import: 'Imported',
  demo: 'Sandbox demo',
};
