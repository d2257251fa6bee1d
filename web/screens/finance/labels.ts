import type { finance } from '../../../client/index.js';

/** How the finance screens name bill statuses, payment methods, posting sources and account types. */

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
