import type { Ctx } from '../platform/context.js';
import * as settings from '../platform/settings.js';
import { listMembershipsOf } from './queries.js';

/*
 * Changes that restrict access (a role changed, a member removed, a key or session revoked, two-factor
 * sign-in required) raise the access generation of the businesses they touch, in their own
 * transaction: every process's credential cache compares it on each request, so the change applies
 * to the next request wherever it lands (docs/decisions.md D221, "Access changes reach every process").
 */

/** Access to these businesses (and their sandboxes) was restricted in the context's transaction. */
export const accessRestricted = (ctx: Pick<Ctx, 'db'>, businessIds: readonly string[]): Promise<void> =>
  settings.raiseAccessGeneration(ctx, businessIds);

/** The person's sessions ended: every business they are a member of (and its sandbox). */
export async function sessionsEnded(ctx: Pick<Ctx, 'db'>, userId: string): Promise<void> {
  const memberships = await listMembershipsOf(ctx.db, userId);
  await settings.raiseAccessGeneration(
    ctx,
    memberships.map((m) => m.business_id),
  );
}
