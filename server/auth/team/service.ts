import { publicBaseUrl } from '../../config.js';
import type { AcceptInvitationBody, SignInResult } from '../../../contract/auth/index.js';
import type {
  ChangeRoleBody,
  Invitation,
  InviteBody,
  Team,
  TeamMember,
} from '../../../contract/team/index.js';
import type { Role } from '../../../contract/permissions.js';
import { inTransaction, type Ctx } from '../../platform/context.js';
import { withTransaction } from '../../platform/db/database.js';
import { refuseDuplicates } from '../../platform/db/errors.js';
import { ApiError, conflict, invalid, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { queueMail } from '../../platform/mail.js';
import * as settings from '../../platform/settings.js';
import * as authQueries from '../queries.js';
import { hashPassword, hashSecret, INVITATION_PREFIX, newSecret } from '../secrets.js';
import { issueToken, type AuthSource, type SignInClient } from '../tokens.js';
import * as twoFactor from '../two-factor/service.js';
import { toInvitation, toMember } from './mappers.js';
import * as queries from './queries.js';

/** How long an invitation can be accepted (DESIGN section 15). */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

/** Who acts on the team: the role of the credential the request came with. */
export type Actor = { role: Role | undefined };

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
  const [members, invitations] = await Promise.all([
    queries.listMembers(ctx.db, teamId),
    queries.listPendingInvitations(ctx.db, teamId, ctx.clock.now()),
  ]);
  return { members: members.map(toMember), invitations: invitations.map(toInvitation) };
}

/**
 * Invites the email to the team with the role: a single-use token, mailed with its link, valid 7
 * days; a new invitation to the same email replaces the pending one. Only an owner may invite an
 * owner; a member already in the team: 409.
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
      expires_at: new Date(now.getTime() + INVITATION_TTL_MS),
      accepted_at: null,
      created_at: now,
    });
    const business = await settings.findBusiness(ctx);
    const link = `${publicBaseUrl(ctx.config)}/invitations/${token}`;
    await queueMail(ctx, {
      to: email,
      subject: `You are invited to join ${business?.name ?? 'a business'}`,
      text:
        `You are invited to join ${business?.name ?? 'a business'} as ${input.role}.\n\n` +
        `Accept the invitation: ${link}\n\n` +
        `Or accept it through the API: POST /v1/auth/invitations/accept with the token ${token}\n\n` +
        `The invitation can be used once and expires on ${row.expires_at.toISOString()}.`,
    });
    return toInvitation(row);
  });
}

/**
 * Changes a member's role. Only an owner may make or unmake an owner; the last owner stays one.
 * The ids of the member's access tokens, which the caller forgets from its credential cache so the
 * new role applies to their next request.
 */
export async function changeRole(
  ctx: Ctx,
  actor: Actor,
  userId: string,
  input: ChangeRoleBody,
): Promise<{ member: TeamMember; tokenIds: string[] }> {
  const teamId = ctx.businessId;
  return inTransaction(ctx, async (ctx) => {
    const owners = await queries.lockOwners(ctx.db, teamId);
    const member = await queries.findMember(ctx.db, teamId, userId);
    if (!member) throw notFound('Team member');
    if ((member.role === 'owner' || input.role === 'owner') && actor.role !== 'owner') throw ownersOnly();
    if (member.role === 'owner' && input.role !== 'owner' && owners <= 1) throw lastOwner('demoted');
    const updated = await queries.updateRole(ctx.db, teamId, userId, input.role, ctx.clock.now());
    if (!updated) throw notFound('Team member');
    const tokenIds = await queries.activeTokenIds(ctx.db, await businessesOf(ctx, teamId), userId);
    return { member: toMember({ ...updated, email: member.email }), tokenIds };
  });
}

/**
 * Removes a member from the team and revokes their access tokens for the business and its sandbox
 * at once; the ids of the revoked tokens, which the caller forgets from its credential cache.
 */
export async function removeMember(ctx: Ctx, actor: Actor, userId: string): Promise<string[]> {
  const teamId = ctx.businessId;
  return inTransaction(ctx, async (ctx) => {
    const owners = await queries.lockOwners(ctx.db, teamId);
    const member = await queries.findMember(ctx.db, teamId, userId);
    if (!member) throw notFound('Team member');
    if (member.role === 'owner' && actor.role !== 'owner') throw ownersOnly();
    if (member.role === 'owner' && owners <= 1) throw lastOwner('removed');
    await queries.deleteMembership(ctx.db, teamId, userId);
    return queries.revokeMemberTokens(ctx.db, await businessesOf(ctx, teamId), userId, ctx.clock.now());
  });
}

/** The live business and, when it has one, its sandbox: where a member's tokens reach. */
async function businessesOf(ctx: Pick<Ctx, 'db'>, teamId: string): Promise<string[]> {
  const sandboxId = await settings.existingSandboxOf(ctx, teamId);
  return sandboxId ? [teamId, sandboxId] : [teamId];
}

/** What an invitation's page shows: the business, the role, and whether the person has an account. */
export interface InvitationView {
  businessName: string;
  email: string;
  role: Role;
  hasAccount: boolean;
}

const hashOfToken = (token: string) =>
  token.length > 200 || !token.startsWith(INVITATION_PREFIX) ? null : hashSecret(token);

/** The invitation a token names while it can be accepted; null when unknown, used or expired. */
export async function describeInvitation(source: AuthSource, token: string): Promise<InvitationView | null> {
  const hash = hashOfToken(token);
  const invitation = hash && (await queries.findInvitationByHash(source.db, hash));
  if (
    !invitation ||
    invitation.accepted_at ||
    invitation.expires_at.getTime() <= source.clock.now().getTime()
  )
    return null;
  const [business, user] = await Promise.all([
    settings.findBusiness({ db: source.db, businessId: invitation.business_id }),
    authQueries.findUserByEmail(source.db, invitation.email),
  ]);
  return {
    businessName: business?.name ?? 'a business',
    email: invitation.email,
    role: invitation.role,
    hasAccount: user !== undefined,
  };
}

/**
 * Accepts an invitation: a person without an account gives a password and gets one, a person with
 * one joins with it (a password given is ignored); the membership is made, the invitation used, and
 * an access token to the business returned. null for an unknown, used or expired token (the caller
 * counts the failure and refuses it).
 */
export async function acceptInvitation(
  source: AuthSource,
  input: AcceptInvitationBody,
  client: SignInClient = {},
): Promise<SignInResult | null> {
  const hash = hashOfToken(input.token);
  if (!hash) return null;
  return withTransaction(source.db, async (trx) => {
    const invitation = await queries.lockInvitationByHash(trx, hash);
    const now = source.clock.now();
    if (!invitation || invitation.accepted_at || invitation.expires_at.getTime() <= now.getTime())
      return null;
    const businessId = invitation.business_id;
    const existing = await authQueries.findUserByEmail(trx, invitation.email);
    let userId = existing?.id;
    if (!userId) {
      if (input.password === undefined) {
        throw invalid('password', 'A password (12+ characters) is needed to create your account');
      }
      userId = newId('usr');
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
    }
    if ((await authQueries.findRole(trx, businessId, userId)) === undefined) {
      await authQueries.insertMembership(trx, {
        business_id: businessId,
        user_id: userId,
        role: invitation.role,
        created_at: now,
        updated_at: now,
      });
    }
    await queries.markAccepted(trx, invitation.id, now);
    // A person with a second factor joins, and signs in to the business with it.
    if (existing?.totp_enabled_at) {
      return twoFactor.challenge({ ...source, db: trx }, userId, businessId, 'live', client);
    }
    return issueToken(trx, source, businessId, userId, 'live', client);
  });
}
