import type { ApiKey, CreateApiKeyBody, CreatedApiKey } from '../../contract/auth/index.js';
import type { Ctx } from '../platform/context.js';
import { notFound } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import * as settings from '../platform/settings.js';
import { accessRestricted } from './access.js';
import { toApiKey } from './mappers.js';
import * as queries from './queries.js';
import { KEY_PREFIXES, TEST_KEY_PREFIXES, hashSecret, newSecret } from './secrets.js';

/**
 * The business's context is all a key needs; the CLI passes these parts of one. `createdBy` is the
 * person making it (none from the CLI): removing them from the team revokes it.
 */
export async function createApiKey(
  ctx: Pick<Ctx, 'db' | 'clock' | 'businessId'>,
  input: CreateApiKeyBody,
  createdBy: string | null = null,
): Promise<CreatedApiKey> {
  const scope = input.scope ?? 'public_loyalty';
  const access = await settings.businessAccess(ctx);
  const prefix = (access?.environment === 'sandbox' ? TEST_KEY_PREFIXES : KEY_PREFIXES)[scope];
  const key = newSecret(prefix);
  const row = await queries.insertKey(ctx.db, {
    id: newId('key'),
    business_id: ctx.businessId,
    name: input.name,
    scope,
    // The prefix shown in lists: the kind, then four characters of the secret.
    prefix: key.slice(0, prefix.length + 4),
    key_hash: hashSecret(key),
    created_at: ctx.clock.now(),
    last_used_at: null,
    revoked_at: null,
    created_by: createdBy,
  });
  return { ...toApiKey(row), key };
}

export async function listApiKeys(ctx: Ctx): Promise<ApiKey[]> {
  return (await queries.listKeys(ctx.db, ctx.businessId)).map(toApiKey);
}

export async function revokeApiKey(ctx: Ctx, id: string): Promise<void> {
  if (!(await queries.revokeKey(ctx.db, ctx.businessId, id, ctx.clock.now()))) throw notFound('API key');
  await accessRestricted(ctx, [ctx.businessId]);
}
