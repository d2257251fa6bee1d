import type { Db, Trx } from './db/database.js';

export async function insertMessage(
  trx: Db | Trx,
  row: {
    business_id: string;
    id: string;
    to_address: string;
    subject: string;
    body: string;
    created_at: Date;
  },
  status: 'queued' | 'logged' = 'queued',
): Promise<void> {
  await trx
    .insertInto('mail_messages')
    .values({ ...row, status, sent_at: status === 'logged' ? row.created_at : null, error: null })
    .execute();
}

/** The message, while it is still queued (a job that runs twice finds nothing the second time). */
export function findQueued(db: Db, businessId: string, id: string) {
  return db
    .selectFrom('mail_messages')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .executeTakeFirst();
}

export async function markMessage(
  db: Db,
  businessId: string,
  id: string,
  outcome: { status: 'sent' | 'logged' | 'failed'; sent_at: Date; error: string | null },
): Promise<void> {
  await db
    .updateTable('mail_messages')
    .set(outcome)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}
