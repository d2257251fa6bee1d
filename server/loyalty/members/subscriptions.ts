import { ApiError } from '../../platform/errors.js';
import type { HookCtx, HookPayloads } from '../../platform/hooks.js';
import * as queries from './queries.js';

/**
 * `customerDeleting`: refuses to delete a customer who is, or was, a loyalty member (a deleted
 * member's history still names the customer), as general refuses one with invoices.
 */
export async function refuseDeletingMemberCustomer(
  ctx: HookCtx,
  { customerId }: HookPayloads['customerDeleting'],
): Promise<void> {
  if (await queries.hasMembership(ctx.db, ctx.businessId, customerId)) {
    throw new ApiError(
      'RESOURCE_IN_USE',
      'The customer has invoices or a loyalty membership and cannot be deleted',
    );
  }
}
