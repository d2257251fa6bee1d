import { sql } from 'kysely';
import { earnForInvoice } from '../loyalty/members.js';
import type { Executor } from '../platform/db/database.js';

export const leak = (db: Executor) => db.selectFrom('customers').selectAll().execute();
export const raw = (db: Executor) => sql`SELECT 1`.execute(db);
export const reach = earnForInvoice;
