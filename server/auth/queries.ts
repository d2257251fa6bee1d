import type { Executor } from '../platform/db/database.js';

export async function findUserByEmail(db: Executor, email: string) {
  return db
    .selectFrom('users')
    .select(['id', 'business_id', 'password_hash'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
}

export async function findTokenByHash(db: Executor, tokenHash: string) {
  return db
    .selectFrom('access_tokens as t')
    .innerJoin('businesses as b', 'b.id', 't.business_id')
    .select(['t.id', 't.business_id', 't.user_id', 't.expires_at', 't.revoked_at', 'b.plan'])
    .where('t.token_hash', '=', tokenHash)
    .executeTakeFirst();
}

export async function findKeyByHash(db: Executor, keyHash: string) {
  return db
    .selectFrom('api_keys as k')
    .innerJoin('businesses as b', 'b.id', 'k.business_id')
    .select(['k.id', 'k.business_id', 'k.scope', 'k.revoked_at', 'k.last_used_at', 'b.plan'])
    .where('k.key_hash', '=', keyHash)
    .executeTakeFirst();
}

export async function listKeys(db: Executor, businessId: string) {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('business_id', '=', businessId)
    .where('revoked_at', 'is', null)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1000)
    .execute();
}
