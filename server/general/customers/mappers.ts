import type { Customer } from '../../../contract/general/customers.js';
import type { CustomerRow } from '../../platform/db/types.js';
import { toMajor } from '../../platform/money.js';

/** A customer's credit by currency, in major units. */
export type CreditBalance = Customer['credit_balance'];

/** `credit`: the customer's credit balance (none for a customer who has none, a new one among them). */
export const toCustomer = (row: CustomerRow, credit: CreditBalance = {}): Customer => ({
  id: row.id,
  name: row.name,
  email: row.email,
  phone: row.phone,
  company: row.company,
  address: row.address ?? null,
  first_name: row.first_name,
  last_name: row.last_name,
  attributes: row.attributes ?? {},
  unsubscribed: row.unsubscribed,
  credit_balance: credit,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});

/** Credit balance rows as each customer's `credit_balance`, by customer id. */
export function creditByCustomer(
  rows: readonly { customer_id: string; currency: string; balance_minor: number }[],
): Map<string, CreditBalance> {
  const byCustomer = new Map<string, CreditBalance>();
  for (const row of rows) {
    const credit = byCustomer.get(row.customer_id) ?? {};
    credit[row.currency] = toMajor(Number(row.balance_minor), row.currency);
    byCustomer.set(row.customer_id, credit);
  }
  return byCustomer;
}
