import type { ApiKey } from '../../contract/auth/index.js';
import type { ApiKeyRow } from '../platform/db/types.js';

export const toApiKey = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  scope: row.scope,
  prefix: row.prefix,
  createdAt: row.created_at.toISOString(),
  lastUsedAt: row.last_used_at ? row.last_used_at.toISOString() : null,
});
