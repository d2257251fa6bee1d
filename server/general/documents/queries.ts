import type { Trx } from '../../platform/db/database.js';

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
