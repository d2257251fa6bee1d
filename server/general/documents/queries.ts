import type { Insertable, Selectable } from 'kysely';
import type { Executor, Trx } from '../../platform/db/database.js';
import type { InvoiceItemsTable } from '../../platform/db/types.js';

/** Next number of a per-business gapless sequence; holds the counter's row lock until commit. */
export async function nextSequenceValue(trx: Trx, businessId: string, name: string): Promise<number> {
  const row = await trx
    .insertInto('sequences')
    .values({ business_id: businessId, name, last_value: 1 })
    .onConflict((oc) =>
      oc
        .columns(['business_id', 'name'])
        .doUpdateSet((eb) => ({ last_value: eb('sequences.last_value', '+', 1) })),
    )
    .returning('last_value')
    .executeTakeFirstOrThrow();
  return Number(row.last_value);
}

/**
 * The tables of invoice, quote, credit-note and recurring-invoice lines: the same columns but the one
 * naming the line's document.
 */
export type LineTable = 'invoice_items' | 'quote_items' | 'credit_note_items' | 'recurring_invoice_items';

const DOCUMENT_COLUMN = {
  invoice_items: 'invoice_id',
  quote_items: 'quote_id',
  credit_note_items: 'credit_note_id',
  recurring_invoice_items: 'recurring_invoice_id',
} as const satisfies Record<LineTable, string>;

/** A line as either table holds it, its document's id under one name. */
export type LineRow = Omit<Selectable<InvoiceItemsTable>, 'invoice_id'> & { document_id: string };

/** A line to write; the document it belongs to is given beside it. */
export type NewLine = Omit<Insertable<InvoiceItemsTable>, 'invoice_id'>;

/** The lines of the documents, by document then position. */
export async function itemsOf(
  db: Executor,
  businessId: string,
  table: LineTable,
  documentIds: string[],
): Promise<LineRow[]> {
  if (documentIds.length === 0) return [];
  const document = DOCUMENT_COLUMN[table];
  return db
    .selectFrom(table)
    .select([
      'id',
      'business_id',
      'position',
      'product_id',
      'description',
      'quantity',
      'unit_price_minor',
      'tax_rate',
      'discount_percent',
      'total_minor',
      'tax_minor',
    ])
    .select((eb) => eb.ref(document).as('document_id'))
    .where('business_id', '=', businessId)
    .where(document, 'in', documentIds)
    .orderBy(document)
    .orderBy('position')
    .execute();
}

/** Replaces the document's lines with `lines` (in their order). */
export async function replaceItems(
  trx: Trx,
  businessId: string,
  table: LineTable,
  documentId: string,
  lines: NewLine[],
): Promise<void> {
  const document = DOCUMENT_COLUMN[table];
  await trx
    .deleteFrom(table)
    .where('business_id', '=', businessId)
    .where(document, '=', documentId)
    .execute();
  if (lines.length > 0) {
    await trx
      .insertInto(table)
      .values(lines.map((line) => ({ ...line, [document]: documentId })))
      .execute();
  }
}
