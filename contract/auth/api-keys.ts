import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultData, ResultMessageSchema } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { IdempotencyHeadersSchema, IdParamsSchema, TimestampSchema, idOf } from '../common/schemas.js';

const c = initContract();

export const ApiKeyScopeSchema = extendApi(z.enum(['public_loyalty', 'full']), {
  description:
    '`public_loyalty`: only `/v1/public/loyalty/*` through `X-Api-Key`. `full`: also accepted as ' +
    '`Authorization: Bearer` on every other group (server-to-server).',
});
export type ApiKeyScope = z.infer<typeof ApiKeyScopeSchema>;

export const CreateApiKeyBodySchema = extendApi(
  z
    .object({
      name: z.string().trim().min(1).max(100),
      scope: ApiKeyScopeSchema.default('public_loyalty'),
    })
    .strict(),
  { title: 'CreateApiKeyBody', example: { name: 'Till 1', scope: 'public_loyalty' } },
);
export type CreateApiKeyBody = z.input<typeof CreateApiKeyBodySchema>;

const apiKeyFields = {
  id: idOf('key'),
  name: z.string(),
  scope: ApiKeyScopeSchema,
  prefix: z.string().describe('The first characters of the key, to recognise it.'),
  createdAt: TimestampSchema,
  lastUsedAt: TimestampSchema.nullable(),
  createdBy: idOf('usr')
    .nullable()
    .describe(
      'The user id of the person who made the key (removing them from the team revokes it); null when ' +
        'unknown: made from the command line, or before makers were kept.',
    ),
};

export const ApiKeySchema = extendApi(z.object(apiKeyFields), { title: 'ApiKey' });
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const CreatedApiKeySchema = extendApi(
  z.object({ ...apiKeyFields, key: z.string().describe('The full key; shown only in this response.') }),
  { title: 'CreatedApiKey' },
);
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;

const apiKeyRoute = meta('user', 'API keys');

export const apiKeysContract = c.router({
  createApiKey: {
    method: 'POST',
    path: '/api-keys',
    headers: IdempotencyHeadersSchema,
    summary: 'Create an API key',
    description:
      'Creates an API key for the business. The full key is returned once; only its hash is stored.',
    body: CreateApiKeyBodySchema,
    responses: { 201: resultData(CreatedApiKeySchema), ...resultErrors(409) },
    metadata: apiKeyRoute,
  },
  listApiKeys: {
    method: 'GET',
    path: '/api-keys',
    summary: 'List API keys',
    description: 'Active (not revoked) keys of the business, newest first, without the secret part.',
    responses: { 200: resultData(z.array(ApiKeySchema).max(1000)), ...resultErrors() },
    metadata: apiKeyRoute,
  },
  revokeApiKey: {
    method: 'DELETE',
    path: '/api-keys/:id',
    summary: 'Revoke an API key',
    description: 'Revokes the key at once; requests using it answer 401 from then on.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: ResultMessageSchema, ...resultErrors(404) },
    metadata: apiKeyRoute,
  },
});
