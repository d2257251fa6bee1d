import type { AccessSession } from '../../contract/auth/index.js';
import { inTransaction, type Ctx } from '../platform/context.js';
import type { Environment } from '../platform/db/types.js';
import type { AuthInfo } from '../platform/deps.js';
import { ApiError, notFound } from '../platform/errors.js';
import * as settings from '../platform/settings.js';
import { sessionsEnded } from './access.js';
import * as queries from './queries.js';

/*
 * The signed-in person's sessions (access tokens).
 */

/** The signed-in person, or 403 for an API key. */
export function personOf(auth: AuthInfo): string {
  if (!auth.userId) throw new ApiError('FORBIDDEN', 'Only a signed-in person has sessions');
  return auth.userId;
}

export async function listSessions(ctx: Ctx, auth: AuthInfo): Promise<AccessSession[]> {
  const rows = await queries.listLiveTokensOf(ctx.db, personOf(auth), ctx.clock.now());
  const environments = new Map<string, Environment>();
  for (const id of new Set(rows.map((r) => r.business_id))) {
    const access = await settings.businessAccess({ db: ctx.db, businessId: id });
    environments.set(id, access?.environment ?? 'live');
  }
  return rows.map((row) => ({
    id: row.id,
    businessId: row.business_id,
    environment: environments.get(row.business_id) ?? 'live',
    current: row.id === auth.credentialId,
    createdAt: row.created_at.toISOString(),
    lastUsedAt: row.last_used_at?.toISOString() ?? null,
    expiresAt: row.expires_at.toISOString(),
    userAgent: row.user_agent,
    ip: row.ip,
  }));
}

export async function revokeSession(ctx: Ctx, auth: AuthInfo, id: string): Promise<void> {
  if (!(await queries.revokeTokenOf(ctx.db, personOf(auth), id, ctx.clock.now()))) throw notFound('Session');
  await sessionsEnded(ctx, personOf(auth));
}

/** Revokes the person's other tokens; their ids, for the caller to forget. */
export async function revokeOtherSessions(ctx: Ctx, auth: AuthInfo): Promise<string[]> {
  return inTransaction(ctx, async (tx) => {
    const revoked = await queries.revokeTokensOfExcept(
      tx.db,
      personOf(auth),
      auth.credentialId,
      ctx.clock.now(),
    );
    await sessionsEnded(tx, personOf(auth));
    return revoked;
  });
}
