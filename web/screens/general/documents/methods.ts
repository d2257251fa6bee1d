import { general } from '../../../../client/index.js';

/** How an invoice is paid, or a credit note refunded, in words: the methods offered and every one recorded. */
export const PAYMENT_METHOD_LABELS = {
  bank_transfer: 'Bank transfer',
  card: 'Card',
  cash: 'Cash',
  check: 'Cheque',
  mobile_money: 'Mobile money',
  // Recorded by the service when customer credit pays an invoice; never offered in a form.
  credit: 'Customer credit',
} satisfies Record<(typeof general.RECORDED_PAYMENT_METHODS)[number], string>;

/** The methods a person records a payment with, as the payment dialog takes them. */
export const PAYMENT_METHODS = { list: general.PAYMENT_METHODS, labels: PAYMENT_METHOD_LABELS };
