import type { Customer } from '../../../contract/general/customers.js';
import type { CustomerRow } from '../../platform/db/types.js';

export const toCustomer = (row: CustomerRow): Customer => ({
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
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
});
