/** The event catalogue (spec "Events", plus invoice.paid). Webhooks may subscribe to these names only. */
export const EVENT_NAMES = [
  'customer.created',
  'customer.updated',
  'customer.deleted',
  'invoice.created',
  'invoice.updated',
  'invoice.deleted',
  'invoice.paid',
  'product.created',
  'product.updated',
  'product.deleted',
  'quote.created',
  'quote.updated',
  'quote.deleted',
  'payment.created',
  'employee.created',
  'employee.updated',
  'employee.deleted',
  'leave.created',
  'leave.updated',
  'leave.deleted',
  'loyalty.points_earned',
  'loyalty.reward_redeemed',
  'loyalty.tier_changed',
  'loyalty.reminder_sent',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];
