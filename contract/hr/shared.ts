import { z } from 'zod';
import { meta } from '../common/metadata.js';
import { offsetPageQuery } from '../common/pagination.js';

/** What every HR resource shares: its route metadata, paging and text fields. */

/** Every HR route takes an access token or a `full` API key. */
export const hrRoute = meta('token', 'HR');

/** `limit` (default 50, max 200) and `offset` of the HR lists. */
export const HrPageQuerySchema = offsetPageQuery(10_000_000);

export const NameSchema = z.string().trim().min(1).max(100);
