import type { Insertable, Updateable } from 'kysely';
import type { ListTemplatesQuery } from '../../../contract/marketing/index.js';
import type { Executor } from '../../platform/db/database.js';
import { pageWithTotal } from '../../platform/db/paged.js';
import type { MarketingTemplatesTable } from '../../platform/db/types.js';

function templates(db: Executor, businessId: string) {
  return db
    .selectFrom('marketing_templates')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('deleted_at', 'is', null);
}

/**
 * A template not deleted; `lock` takes its row lock until the transaction ends: `update` to change
 * or delete it, `share` to keep it from being deleted meanwhile (a campaign starting to send).
 */
export async function findTemplate(db: Executor, businessId: string, id: string, lock?: 'update' | 'share') {
  const q = templates(db, businessId).where('id', '=', id);
  return (lock === 'update' ? q.forUpdate() : lock === 'share' ? q.forShare() : q).executeTakeFirst();
}

export type TemplateRow = NonNullable<Awaited<ReturnType<typeof findTemplate>>>;

export async function listTemplates(db: Executor, businessId: string, query: ListTemplatesQuery) {
  let base = db
    .selectFrom('marketing_templates')
    .select(['id', 'name', 'subject', 'from_name', 'from_email', 'status', 'created_at', 'updated_at'])
    .where('business_id', '=', businessId)
    .where('deleted_at', 'is', null);
  if (query.status) base = base.where('status', '=', query.status);
  return pageWithTotal(base, (q) => q.orderBy('created_at', 'desc').orderBy('id', 'desc'), query);
}

export async function insertTemplate(
  db: Executor,
  values: Insertable<MarketingTemplatesTable>,
): Promise<void> {
  await db.insertInto('marketing_templates').values(values).execute();
}

export async function updateTemplate(
  db: Executor,
  businessId: string,
  id: string,
  changes: Updateable<MarketingTemplatesTable>,
): Promise<void> {
  await db
    .updateTable('marketing_templates')
    .set(changes)
    .where('business_id', '=', businessId)
    .where('id', '=', id)
    .execute();
}

/** Whether a template (not deleted) sends from an address at `domain`. */
export async function templateSendsFrom(db: Executor, businessId: string, domain: string): Promise<boolean> {
  const row = await db
    .selectFrom('marketing_templates')
    .select('id')
    .where('business_id', '=', businessId)
    .where('deleted_at', 'is', null)
    .where((eb) =>
      eb(eb.fn('lower', [eb.fn('split_part', ['from_email', eb.val('@'), eb.val(2)])]), '=', domain),
    )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
