import type { Executor } from '../platform/db/database.js';

/** The business's customers, as general publishes them, oldest first: whom the demo enrolls. */
export async function demoCustomers(db: Executor, businessId: string) {
  return db
    .selectFrom('customer_directory')
    .select(['id', 'name', 'company', 'created_at'])
    .where('business_id', '=', businessId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
