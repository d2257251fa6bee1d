import type { Insertable } from 'kysely';
import type { Db, Executor, Trx } from './db/database.js';
import { pageWithTotal } from './db/paged.js';
import type { MailAttachmentsTable, MailMessagesTable } from './db/types.js';

export async function insertMessage(
  trx: Db | Trx,
  row: Omit<Insertable<MailMessagesTable>, 'status' | 'sent_at' | 'error'> & { created_at: Date },
  status: 'queued' | 'logged' = 'queued',
): Promise<void> {
  await trx
    .insertInto('mail_messages')
    .values({ ...row, status, sent_at: status === 'logged' ? row.created_at : null, error: null })
    .execute();
}

/** Stores a message's attachments, in order. */
export async function insertAttachments(
  trx: Db | Trx,
  rows: readonly Insertable<MailAttachmentsTable>[],
): Promise<void> {
  if (rows.length > 0)
    await trx
      .insertInto('mail_attachments')
      .values([...rows])
      .execute();
}

/** A message's attachments, in order. */
export function attachmentsOf(db: Db, businessId: string, messageId: string) {
  return db
    .selectFrom('mail_attachments')
    .select(['filename', 'content_type', 'content'])
    .where('business_id', '=', businessId)
    .where('message_id', '=', messageId)
    .orderBy('position')
    .execute();
}

/** What the messages carry attached, without the contents: name, type and size. */
export function attachmentSummaries(db: Executor, businessId: string, messageIds: readonly string[]) {
  return db
    .selectFrom('mail_attachments')
    .select([
      'message_id',
      'filename',
      'content_type',
      (eb) => eb.fn<number>('octet_length', ['content']).as('size'),
    ])
    .where('business_id', '=', businessId)
    .where('message_id', 'in', messageIds)
    .orderBy('message_id')
    .orderBy('position')
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

/** Captured (`logged`) messages of the business, newest first, with their count. */
export async function listCaptured(
  db: Executor,
  businessId: string,
  page: { limit: number; offset: number },
) {
  const base = db
    .selectFrom('mail_messages')
    .where('business_id', '=', businessId)
    .where('status', '=', 'logged');
  return pageWithTotal(
    base.select([
      'id',
      'to_address',
      'from_address',
      'subject',
      'body',
      'html',
      'headers',
      'cc_addresses',
      'reply_to',
      'created_at',
    ]),
    (q) => q.orderBy('created_at', 'desc').orderBy('id', 'desc'),
    page,
  );
}
