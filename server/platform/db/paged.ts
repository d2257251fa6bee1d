import type { SelectQueryBuilder } from 'kysely';

/**
 * One page of a listing and the size of the whole listing, read together: `sorted` orders `base`
 * (ending on a unique key, so pages never overlap), the page is cut from it by limit and offset,
 * and the total counts `base` as it is.
 */
export async function pageWithTotal<DB, TB extends keyof DB, O>(
  base: SelectQueryBuilder<DB, TB, O>,
  sorted: (query: SelectQueryBuilder<DB, TB, O>) => SelectQueryBuilder<DB, TB, O>,
  page: { limit: number; offset: number },
): Promise<{ rows: O[]; total: number }> {
  const [rows, count] = await Promise.all([
    sorted(base).limit(page.limit).offset(page.offset).execute(),
    base
      .clearSelect()
      .select((eb) => eb.fn.countAll<number>().as('total'))
      // Kysely cannot resolve the selection over a generic table set; it is this one column.
      .$castTo<{ total: number | string }>()
      .executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.total) };
}
