import { z } from 'zod';
import { meta } from '../common/metadata.js';
import { offsetPageQuery } from '../common/pagination.js';

/** What every loyalty resource shares: its route metadata, id parameter, paging and text fields. */

/** Every loyalty route takes an access token or a `full` API key. */
export const loyaltyRoute = meta('token', 'Loyalty');

export const PublicIdSchema = z.string().max(64);
export const PublicIdParamsSchema = z.object({ publicId: PublicIdSchema });

export const NameSchema = z.string().trim().min(1).max(200);
export const DescriptionSchema = z.string().max(2000);

/** `limit` (default 50, max 200) and `offset` of the loyalty lists. */
export const LoyaltyPageQuerySchema = offsetPageQuery(10_000_000);
