import { z } from 'zod';
import { meta } from '../common/metadata.js';
import { offsetPageQuery } from '../common/pagination.js';

/** What every finance resource shares: its route metadata, paging and money fields. */

/** Every finance route takes an access token or a `full` API key. */
export const financeRoute = meta('token', 'Finance');

/** `limit` (default 50, max 200) and `offset` of the finance lists. */
export const FinancePageQuerySchema = offsetPageQuery(10_000_000);

/** An account code of the business's chart (`1000`, `5000`, `6100-rent`). */
export const AccountCodeSchema = z
  .string()
  .max(20)
  .regex(/^[0-9A-Za-z][0-9A-Za-z.-]{0,19}$/, 'Expected an account code: letters, digits, "." or "-"');
