import type { Pagination } from '../../contract/common/pagination.js';

export interface PageRequest {
  page: number;
  limit: number;
}

export const offsetOf = ({ page, limit }: PageRequest): number => (page - 1) * limit;

export const paginationOf = ({ page, limit }: PageRequest, total: number): Pagination => ({
  page,
  limit,
  total,
  total_pages: Math.ceil(total / limit),
});

export interface Sort<F extends string> {
  field: F;
  direction: 'asc' | 'desc';
}

/** `field:asc|desc`, already checked against the allow-list by the contract. */
export function parseSort<F extends string>(sort: string | undefined, fallback: Sort<F>): Sort<F> {
  if (!sort) return fallback;
  const [field, direction] = sort.split(':') as [F, 'asc' | 'desc'];
  return { field, direction };
}

/** Escapes LIKE wildcards so a search term matches literally. */
export const likePattern = (term: string): string => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
