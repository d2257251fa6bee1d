import { publicBaseUrl } from '../../config.js';
import type { AcceptInvitationBody, InvitationPreview, SignInResult } from '../../../contract/auth/index.js';
import type {
  ChangeRoleBody,
  Invitation,
  RemovedMember,
  InvitationLink,
  InviteBody,
  Team,
  TeamMember,
} from '../../../contract/team/index.js';
import { ROLE_PERMISSIONS, type Role } from '../../../contract/permissions.js';
import { inTransaction, type Ctx, type TxCtx } from '../../platform/context.js';
import { withTransaction } from '../../platform/db/database.js';
import { refuseDuplicates } from '../../platform/db/errors.js';
import type { InvitationRow } from '../../platform/db/types.js';
import { ApiError, conflict, invalid, invalidState, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { queueMail } from '../../platform/mail.js';
import * as settings from '../../platform/settings.js';
import { accessRestricted } from '../access.js';
import * as authQueries from '../queries.js';
import { hashPassword, hashSecret, INVITATION_PREFIX, newSecret, verifyPassword } from '../secrets.js';
import { issueToken, type AuthSource, type SignInClient } from '../tokens.js';
import * as twoFactor from '../two-factor/service.js';
import { isPending, joinByInvitation } from './join.js';
import { invitationMail } from './mail.js';
import { toInvitation, toMember } from './mappers.js';
import * as queries from './queries.js';

/** How long an invitation can be accepted (docs/decisions.md D227). */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Who acts on the team: the role of the credential the request came with. */
export type Actor = { role: Role | undefined; userId?: string | undefined };

/**
 * The business whose team the caller's business uses: a sandbox's team is its live business's. It
 * is read from either, and changed only from the live business (a sandbox has no members of its
 * own: its credentials get 404 for a member, as for another business's).
 */
async function teamOf(ctx: Pick<Ctx, 'db' | 'businessId'>): Promise<string> {
  const access = await settings.businessAccess(ctx);
  if (!access) throw notFound('Business');
  return access.teamBusinessId;
}

const ownersOnly = () => new ApiError('FORBIDDEN', 'Only an owner may make, change or remove an owner');

const lastOwner = (what: string) =>
  conflict(`The business's last owner cannot be ${what}; make another member an owner first`);

export async function getTeam(ctx: Ctx): Promise<Team> {
  const teamId = await teamOf(ctx);
  const [members, invitations, businessIds] = await Promise.all([
    queries.listMembers(ctx.db, teamId),
    queries.listPendingInvitations(ctx.db, teamId, ctx.clock.now()),
    businessesOf(ctx, teamId),
  ]);
  const keys = await queries.countKeysByMaker(
    ctx.db,
    businessIds,
    members.map((m) => m.user_id),
  );
  return {
    members: members.map((m) => toMember(m, keys.get(m.user_id) ?? 0)),
    invitations: invitations.map(toInvitation),
  };
}

/**
 * Invites the email to the team with the role: a single-use token, mailed with its link, valid 7
 * days; a new invitation to the same email replaces the pending one. Only an owner may invite an
 * owner; a member already in the team: 409. The token is kept sealed beside its hash so the link
 * can be copied and mailed again (docs/decisions.md D57).
 */
export async function invite(ctx: Ctx, actor: Actor, input: InviteBody): Promise<Invitation> {
  if (input.role === 'owner' && actor.role !== 'owner') throw ownersOnly();
  const teamId = await teamOf(ctx);
  if (teamId !== ctx.businessId) {
    throw new ApiError(
      'FORBIDDEN',
      "Invite people from the live business: a sandbox's team is its live business's",
    );
  }
  const email = input.email.toLowerCase();
  const token = newSecret(INVITATION_PREFIX);
  return inTransaction(ctx, async (ctx) => {
    if (await queries.isMemberByEmail(ctx.db, teamId, email)) {
      throw conflict('This person is already a member of the team');
    }
    await queries.deletePendingInvitations(ctx.db, teamId, email);
    const now = ctx.clock.now();
    const row = await queries.insertInvitation(ctx.db, {
      id: newId('inv'),
      business_id: teamId,
      email,
      role: input.role,
      token_hash: hashSecret(token),
      token_sealed: ctx.secrets.seal(token),
      invited_by: actor.userId ?? null,
      expires_at: new Date(now.getTime() + INVITATION_TTL_MS),
      accepted_at: null,
      sent_at: now,
      created_at: now,
    });
    await mailInvitation(ctx, row, token);
    return toInvitation(row);
  });
}

const linkOf = (ctx: Pick<Ctx, 'config'>, token: string) =>
  `${publicBaseUrl(ctx.config)}/invitations/${token}`;

async function mailInvitation(ctx: TxCtx, row: InvitationRow, token: string): Promise<void> {
  const [business, inviter] = await Promise.all([
    settings.findBusiness(ctx),
    row.invited_by ? queries.findUserEmail(ctx.db, row.invited_by) : undefined,
  ]);
  await queueMail(ctx, {
    to: row.email,
    ...invitationMail({
      businessName: business?.name ?? 'a business',
      inviter,
      role: row.role,
      link: linkOf(ctx, token),
      expiresAt: row.expires_at,
    }),
  });
}

/**
 * The business's pending invitation `id`, locked, for a change by `actor`: 404 when unknown (or
 * another business's, or asked from the sandbox), 403 for an owner's invitation unless an owner
 * asks, 409 once accepted, and once expired unless `expiredToo`.
 */
async function pendingInvitation(ctx: Ctx, actor: Actor, id: string, expiredToo = false) {
  const row = await queries.lockBusinessInvitation(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Invitation');
  if (row.role === 'owner' && actor.role !== 'owner') throw ownersOnly();
  if (row.accepted_at) throw invalidState('This invitation was accepted already');
  if (!expiredToo && !isPending(row, ctx.clock.now())) {
    throw invalidState('This invitation has expired: invite the email again');
  }
  return row;
}

/** The invitation's token: the sealed one, or a new one replacing it on a row made before sealing. */
async function tokenOf(ctx: Ctx, row: InvitationRow): Promise<{ token: string; row: InvitationRow }> {
  if (row.token_sealed) return { token: ctx.secrets.open(row.token_sealed), row };
  const token = newSecret(INVITATION_PREFIX);
  const updated = await queries.updateInvitation(ctx.db, row.business_id, row.id, {
    token_hash: hashSecret(token),
    token_sealed: ctx.secrets.seal(token),
  });
  return { token, row: updated };
}

/** Mails the invitation again with the same link, valid 7 days from now. */
export async function resendInvitation(ctx: Ctx, actor: Actor, id: string): Promise<Invitation> {
  return inTransaction(ctx, async (ctx) => {
    const found = await tokenOf(ctx, await pendingInvitation(ctx, actor, id));
    const now = ctx.clock.now();
    const row = await queries.updateInvitation(ctx.db, ctx.businessId, id, {
      expires_at: new Date(now.getTime() + INVITATION_TTL_MS),
      sent_at: now,
    });
    await mailInvitation(ctx, row, found.token);
    return toInvitation(row);
  });
}

/** The link of the invitation mail, to hand over another way. */
export async function invitationLink(ctx: Ctx, actor: Actor, id: string): Promise<InvitationLink> {
  return inTransaction(ctx, async (ctx) => {
    const { token, row } = await tokenOf(ctx, await pendingInvitation(ctx, actor, id));
    return { url: linkOf(ctx, token), expiresAt: row.expires_at.toISOString() };
  });
}

/** Deletes a pending (or expired) invitation: its link stops working. */
export async function revokeInvitation(ctx: Ctx, actor: Actor, id: string): Promise<void> {
  await inTransaction(ctx, async (ctx) => {
    await pendingInvitation(ctx, actor, id, true);
    await queries.deleteInvitation(ctx.db, ctx.businessId, id);
  });
}

/**
 * Changes a member's role. Only an owner may make or unmake an owner; the last owner stays one.
 * The business's access generation is raised with it, so the new role applies to the member's next
 * request in every process. A role without `api_keys.manage` revokes the API keys the member made.
 * The ids of the member's access tokens and revoked keys, which the caller forgets from its own
 * credential cache at once.
 */
export async function changeRole(
  ctx: Ctx,
  actor: Actor,
  userId: string,
  input: ChangeRoleBody,
): Promise<{ member: TeamMember; tokenIds: string[]; revokedApiKeys: number }> {
  const teamId = ctx.businessId;
  return inTransaction(ctx, async (ctx) => {
    const owners = await queries.lockOwners(ctx.db, teamId);
    const member = await queries.findMember(ctx.db, teamId, userId);
    if (!member) throw notFound('Team member');
    if ((member.role === 'owner' || input.role === 'owner') && actor.role !== 'owner') throw ownersOnly();
    if (member.role === 'owner' && input.role !== 'owner' && owners <= 1) throw lastOwner('demoted');
    const now = ctx.clock.now();
    const updated = await queries.updateRole(ctx.db, teamId, userId, input.role, now);
    if (!updated) throw notFound('Team member');
    await accessRestricted(ctx, [teamId]);
    const businessIds = await businessesOf(ctx, teamId);
    // A role that may not manage API keys keeps none: a `full` key made as an admin would otherwise
    // go on acting as one (docs/decisions.md D229).
    const keyIds = ROLE_PERMISSIONS[input.role].includes('api_keys.manage')
      ? []
      : await queries.revokeKeysMadeBy(ctx.db, businessIds, userId, now);
    const [tokenIds, keys] = await Promise.all([
      queries.activeTokenIds(ctx.db, businessIds, userId),
      queries.countKeysByMaker(ctx.db, businessIds, [userId]),
    ]);
    return {
      member: toMember({ ...updated, email: member.email }, keys.get(userId) ?? 0),
      tokenIds: [...tokenIds, ...keyIds],
      revokedApiKeys: keyIds.length,
    };
  });
}

/**
 * Removes a member from the team and, in the same transaction, revokes their access tokens and the
 * API keys they made, for the business and its sandbox, and raises the business's access generation
 * (every process drops them at the next request). What was removed and revoked; the ids of the
 * revoked tokens and keys, which the caller forgets from its own credential cache at once.
 */
export async function removeMember(
  ctx: Ctx,
  actor: Actor,
  userId: string,
): Promise<{ removed: RemovedMember; credentialIds: string[] }> {
  const teamId = ctx.businessId;
  return inTransaction(ctx, async (ctx) => {
    const owners = await queries.lockOwners(ctx.db, teamId);
    const member = await queries.findMember(ctx.db, teamId, userId);
    if (!member) throw notFound('Team member');
    if (member.role === 'owner' && actor.role !== 'owner') throw ownersOnly();
    if (member.role === 'owner' && owners <= 1) throw lastOwner('removed');
    await queries.deleteMembership(ctx.db, teamId, userId);
    const businessIds = await businessesOf(ctx, teamId);
    const now = ctx.clock.now();
    const tokenIds = await queries.revokeMemberTokens(ctx.db, businessIds, userId, now);
    const keyIds = await queries.revokeKeysMadeBy(ctx.db, businessIds, userId, now);
    await accessRestricted(ctx, [teamId]);
    return {
      removed: { userId, email: member.email, revokedApiKeys: keyIds.length },
      credentialIds: [...tokenIds, ...keyIds],
    };
  });
}

/** The live business and, when it has one, its sandbox: where a member's tokens reach. */
async function businessesOf(ctx: Pick<Ctx, 'db'>, teamId: string): Promise<string[]> {
  const sandboxId = await settings.existingSandboxOf(ctx, teamId);
  return sandboxId ? [teamId, sandboxId] : [teamId];
}

const hashOfToken = (token: string) =>
  token.length > 200 || !token.startsWith(INVITATION_PREFIX) ? null : hashSecret(token);

/** What an invitation token offers, while it can be accepted; null when unknown, used or expired. */
export async function describeInvitation(
  source: AuthSource,
  token: string,
): Promise<InvitationPreview | null> {
  const hash = hashOfToken(token);
  const invitation = hash && (await queries.findInvitationByHash(source.db, hash));
  if (!invitation || !isPending(invitation, source.clock.now())) return null;
  const [business, user] = await Promise.all([
    settings.findBusiness({ db: source.db, businessId: invitation.business_id }),
    authQueries.findUserByEmail(source.db, invitation.email),
  ]);
  return {
    businessName: business?.name ?? 'a business',
    email: invitation.email,
    role: invitation.role,
    invitedBy: invitation.invited_by_email,
    expiresAt: invitation.expires_at.toISOString(),
    hasAccount: user !== undefined,
  };
}

export type Acceptance =
  | { session: SignInResult }
  /** The token is unknown, used or expired. */
  | { failure: 'token' }
  /** A wrong password for the existing account of `email`. */
  | { failure: 'password'; email: string };

/**
 * Accepts an invitation (docs/decisions.md D56: a link alone never yields a session for an
 * existing person). A person without an account gives a password and gets one. A person with an account is
 * joined when `signedInAs` (the user id of the access token the request carried) is theirs, or
 * when their password is right; with a second factor on, the password answers the challenge of the
 * second step, which joins them (two-factor/service.ts). Neither: 422 on `password`, nothing changes.
 */
export async function acceptInvitation(
  source: AuthSource,
  input: AcceptInvitationBody,
  client: SignInClient = {},
  signedInAs?: string,
): Promise<Acceptance> {
  const hash = hashOfToken(input.token);
  if (!hash) return { failure: 'token' };
  return withTransaction(source.db, async (trx): Promise<Acceptance> => {
    const invitation = await queries.lockInvitationByHash(trx, hash);
    const now = source.clock.now();
    if (!invitation || !isPending(invitation, now)) return { failure: 'token' };
    const businessId = invitation.business_id;
    const existing = await authQueries.findUserByEmail(trx, invitation.email);
    const tx = { ...source, db: trx };
    if (!existing) {
      if (input.password === undefined) {
        throw invalid('password', 'A password (12+ characters) is needed to create your account');
      }
      const userId = newId('usr');
      const user = {
        id: userId,
        business_id: businessId,
        email: invitation.email,
        password_hash: await hashPassword(input.password),
        created_at: now,
      };
      await refuseDuplicates(() => authQueries.insertUser(trx, user), {
        users_email_key: () => conflict('An account with this email already exists'),
      });
      await joinByInvitation(trx, invitation.id, { id: userId, email: invitation.email }, now);
      return { session: await issueToken(trx, source, businessId, userId, 'live', client) };
    }
    const person = { id: existing.id, email: invitation.email };
    if (signedInAs !== existing.id) {
      if (input.password === undefined) {
        throw invalid(
          'password',
          'This email has an account: sign in as it first, or give its password to accept',
        );
      }
      if (!(await verifyPassword(input.password, existing.password_hash))) {
        return { failure: 'password', email: invitation.email };
      }
      if (existing.totp_enabled_at) {
        const challenge = await twoFactor.challenge(
          tx,
          existing.id,
          businessId,
          'live',
          client,
          invitation.id,
        );
        return { session: challenge };
      }
    }
    await joinByInvitation(trx, invitation.id, person, now);
    return { session: await issueToken(trx, source, businessId, existing.id, 'live', client) };
  });
}
