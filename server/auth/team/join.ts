import type { Executor } from '../../platform/db/database.js';
import * as authQueries from '../queries.js';
import * as queries from './queries.js';

/** Whether an invitation row can still be accepted at `now`. */
export const isPending = (invitation: { accepted_at: Date | null; expires_at: Date }, now: Date): boolean =>
  !invitation.accepted_at && invitation.expires_at.getTime() > now.getTime();

/**
 * Makes the user a member with the invitation's role and uses it up, inside the caller's
 * transaction; false when the invitation is gone, used, expired or for another email. Shared by
 * accepting and by the second sign-in step of a person who accepted with their password, so the
 * membership exists only once every factor the person has was given.
 */
export async function joinByInvitation(
  trx: Executor,
  invitationId: string,
  user: { id: string; email: string },
  now: Date,
): Promise<{ businessId: string } | null> {
  const invitation = await queries.lockInvitation(trx, invitationId);
  if (!invitation || !isPending(invitation, now)) return null;
  if (invitation.email.toLowerCase() !== user.email.toLowerCase()) return null;
  if ((await authQueries.findRole(trx, invitation.business_id, user.id)) === undefined) {
    await authQueries.insertMembership(trx, {
      business_id: invitation.business_id,
      user_id: user.id,
      role: invitation.role,
      created_at: now,
      updated_at: now,
    });
  }
  await queries.markAccepted(trx, invitation.id, now);
  return { businessId: invitation.business_id };
}
