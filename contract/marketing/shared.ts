import { meta } from '../common/metadata.js';
import { offsetPageQuery } from '../common/pagination.js';

/** What every marketing resource shares: its route metadata and paging. */

/** Every marketing route takes an access token or a `full` API key. */
export const marketingRoute = meta('token', 'Marketing');

/** `limit` (default 50, max 200) and `offset` of the marketing lists. */
export const MarketingPageQuerySchema = offsetPageQuery(10_000_000);
