import type { AuthSession, SessionInfo, SignInBody, SignInResult } from '../../contract/auth/index.js';
import { ROLE_PERMISSIONS } from '../../contract/permissions.js';
import { dateIn } from '../platform/calendar.js';
import type { Ctx } from '../platform/context.js';
import type { Environment } from '../platform/db/types.js';
import type { AuthInfo } from '../platform/deps.js';
import { ApiError, notFound } from '../platform/errors.js';
import { mailCaptured } from '../platform/mail.js';
import * as settings from '../platform/settings.js';
import { accessRestricted } from './access.js';
import { businessOrFail } from './business.js';
import * as queries from './queries.js';
import { DUMMY_PASSWORD_HASH, verifyPassword } from './secrets.js';
import { issueTokenTo, type AuthSource, type SignInClient, type SignInSource } from './tokens.js';
import * as twoFactor from './two-factor/service.js';

/*
 * The contract's sessions unit: signing in, the credential of the request, switching environment,
 * signing out.
 */

/**
 * Returns null for wrong credentials (the caller counts the failure): an unknown email, a wrong
 * password, a `businessId` the person is not a member of, or a wrong `code`. A person in several
 * businesses names one (422 on `businessId` with the choices otherwise). A person with two-factor
 * sign-in on gets the challenge of the second step, unless the code came with the password. Signing
 * in to the sandbox makes the live business's sandbox twin the first time (docs/decisions.md D73): the
 * same person, a business of its own.
 */
export async function signIn(
  source: SignInSource,
  input: SignInBody,
  client: SignInClient = {},
): Promise<SignInResult | null> {
  const user = await queries.findUserByEmail(source.db, input.email);
  const ok = await verifyPassword(input.password, user?.password_hash ?? DUMMY_PASSWORD_HASH);
  if (!user || !ok) return null;
  const businessId = await chosenBusiness(source, user.id, input.businessId);
  if (businessId === undefined) return null;
  const environment = input.environment ?? 'live';
  if (user.totp_enabled_at) {
    if (input.code === undefined)
      return twoFactor.challenge(source, user.id, businessId, environment, client);
    if (!(await twoFactor.secondFactorMatches(source, user.id, input.code))) return null;
  }
  return issueTokenTo(source, businessId, user.id, environment, client);
}

/**
 * The live business the person signs in to: the one named (undefined when they are not a member of
 * it), or their only one; several and none named is refused with the choices.
 */
async function chosenBusiness(
  source: AuthSource,
  userId: string,
  named: string | undefined,
): Promise<string | undefined> {
  const memberships = await queries.listMembershipsOf(source.db, userId);
  if (named !== undefined) return memberships.find((m) => m.business_id === named)?.business_id;
  if (memberships.length <= 1) return memberships[0]?.business_id;
  const choices = await Promise.all(
    memberships.map(async (m) => {
      const business = await settings.findBusiness({ db: source.db, businessId: m.business_id });
      return { field: 'businessId', message: `${m.business_id}: ${business?.name ?? ''}` };
    }),
  );
  throw new ApiError(
    'VALIDATION_ERROR',
    'You are a member of several businesses: sign in with the businessId of one of them',
    choices,
  );
}

/** Revokes the business's access token `tokenId` (the one the caller signed in with). */
export async function logout(ctx: Ctx, tokenId: string): Promise<void> {
  await queries.revokeToken(ctx.db, ctx.businessId, tokenId, ctx.clock.now());
  await accessRestricted(ctx, [ctx.businessId]);
}

/** The credential of the request: business, environment, person, role and its permissions. */
export async function getSession(ctx: Ctx, auth: AuthInfo): Promise<SessionInfo> {
  const [business, email] = await Promise.all([
    businessOrFail(ctx),
    auth.userId ? queries.findUserEmail(ctx.db, auth.userId) : undefined,
  ]);
  const role = auth.role;
  if (!role) throw new ApiError('FORBIDDEN', 'This credential has no role in the business');
  const now = ctx.clock.now();
  return {
    businessId: business.id,
    businessName: business.name,
    environment: auth.environment,
    credential: auth.kind === 'user' ? 'access_token' : 'api_key',
    user: auth.userId && email ? { id: auth.userId, email } : null,
    role,
    permissions: [...ROLE_PERMISSIONS[role]],
    expiresAt: auth.expiresAt?.toISOString() ?? null,
    twoFactor: auth.twoFactor ?? null,
    mail: (await mailCaptured(ctx, ctx.businessId)) ? 'captured' : 'smtp',
    clock: { now: now.toISOString(), today: dateIn(business.timezone, now), timezone: business.timezone },
  };
}

/**
 * A new access token for the signed-in person to the other environment of their business (or the
 * same one): the sandbox made on its first use.
 */
export async function switchEnvironment(
  ctx: Ctx,
  auth: AuthInfo,
  environment: Environment,
  client?: SignInClient,
): Promise<AuthSession> {
  if (!auth.userId) throw new ApiError('FORBIDDEN', 'Only a signed-in person switches environment');
  const access = await settings.businessAccess(ctx);
  if (!access) throw notFound('Business');
  return issueTokenTo(ctx, access.teamBusinessId, auth.userId, environment, client);
}
