import { z } from 'zod';
import { meta } from '../common/metadata.js';

/** Every public loyalty route takes an `X-Api-Key`. */
export const publicLoyaltyRoute = meta('apiKey', 'Public loyalty');

/** A member is named by the email of its customer. */
export const MemberEmailSchema = z.string().trim().email().max(254);
