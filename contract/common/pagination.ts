import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';

/** Page-based paging of the general group. */
export const PageQuerySchema = z.object({
  page: extendApi(z.coerce.number().int().min(1).max(1_000_000).default(1), {
    description: 'Page number, from 1.',
  }),
  limit: extendApi(z.coerce.number().int().min(1).max(100).default(20), {
    description: 'Items per page, 1-100.',
  }),
});

export const PaginationSchema = extendApi(
  z.object({
    page: z.number().int(),
    limit: z.number().int(),
    total: z.number().int().describe('Number of items matching the filters.'),
    total_pages: z.number().int(),
  }),
  { title: 'Pagination', example: { page: 1, limit: 20, total: 42, total_pages: 3 } },
);
export type Pagination = z.infer<typeof PaginationSchema>;

/**
 * `limit` (default 50, max 200) and `offset` of the result-envelope lists; the largest offset is the
 * list's own.
 */
export const offsetPageQuery = (maxOffset: number) =>
  z.object({
    limit: z.coerce.number().int().min(1).max(200).default(50),
    offset: z.coerce.number().int().min(0).max(maxOffset).default(0),
  });

/** `sort=field:asc|desc` over an allow-list of fields. */
export function sortQuery<F extends string>(fields: readonly [F, ...F[]]) {
  const pattern = new RegExp(`^(${fields.join('|')}):(asc|desc)$`);
  return extendApi(
    z
      .string()
      .max(40)
      .regex(pattern, { message: `Expected field:asc|desc with field one of ${fields.join(', ')}` })
      .optional(),
    { description: `Sort order as \`field:asc\` or \`field:desc\`; fields: ${fields.join(', ')}.` },
  );
}

/** Optional boolean query flag written as `true` or `false`. */
export const BooleanQuerySchema = z.enum(['true', 'false']).transform((v) => v === 'true');
