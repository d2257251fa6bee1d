import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { AUTHED, PUBLIC, errorResponses } from '../common/errors.js';
import { meta, ROUTER_OPTIONS } from '../common/metadata.js';
import { IdempotencyHeadersSchema, IdParamsSchema } from '../common/schemas.js';
import {
  ApiKeySchema,
  AuthSessionSchema,
  CreateApiKeyBodySchema,
  CreatedApiKeySchema,
  RegisterBodySchema,
  SignInBodySchema,
} from './schemas.js';

const c = initContract();
const success = z.literal('success');

export const authContract = c.router(
  {
    register: {
      method: 'POST',
      path: '/auth/register',
      summary: 'Register a business',
      description:
        'Creates a business and its owner user and returns an access token. Throttled to 10 per minute per IP; ' +
        'refused with 403 when sign-up is disabled (`SIGNUP_ENABLED=false`).',
      body: RegisterBodySchema,
      responses: {
        201: z.object({ result: success, data: AuthSessionSchema }),
        ...errorResponses('result', [...PUBLIC, 403, 409]),
      },
      metadata: meta('none', 'Auth'),
    },
    signIn: {
      method: 'POST',
      path: '/auth/token',
      summary: 'Sign in',
      description:
        'Exchanges email and password for an access token. After 10 failed attempts in a minute for one IP or ' +
        'one email, every attempt for it is refused with 429 until the minute ends.',
      body: SignInBodySchema,
      responses: {
        200: z.object({ result: success, data: AuthSessionSchema }),
        ...errorResponses('result', [...PUBLIC, 401]),
      },
      metadata: meta('none', 'Auth'),
    },
    logout: {
      method: 'POST',
      path: '/auth/logout',
      headers: IdempotencyHeadersSchema,
      summary: 'Sign out',
      description: 'Revokes the access token presented with this request.',
      body: c.noBody(),
      responses: {
        200: z.object({ result: success, message: z.string() }),
        ...errorResponses('result', [...AUTHED, 409]),
      },
      metadata: meta('user', 'Auth'),
    },
    createApiKey: {
      method: 'POST',
      path: '/api-keys',
      headers: IdempotencyHeadersSchema,
      summary: 'Create an API key',
      description:
        'Creates an API key for the business. The full key is returned once; only its hash is stored.',
      body: CreateApiKeyBodySchema,
      responses: {
        201: z.object({ result: success, data: CreatedApiKeySchema }),
        ...errorResponses('result', [...AUTHED, 409]),
      },
      metadata: meta('user', 'API keys'),
    },
    listApiKeys: {
      method: 'GET',
      path: '/api-keys',
      summary: 'List API keys',
      description: 'Active (not revoked) keys of the business, newest first, without the secret part.',
      responses: {
        200: z.object({ result: success, data: z.array(ApiKeySchema).max(1000) }),
        ...errorResponses('result', AUTHED),
      },
      metadata: meta('user', 'API keys'),
    },
    revokeApiKey: {
      method: 'DELETE',
      path: '/api-keys/:id',
      summary: 'Revoke an API key',
      description: 'Revokes the key at once; requests using it answer 401 from then on.',
      pathParams: IdParamsSchema,
      body: c.noBody(),
      responses: {
        200: z.object({ result: success, message: z.string() }),
        ...errorResponses('result', [...AUTHED, 404]),
      },
      metadata: meta('user', 'API keys'),
    },
  },
  ROUTER_OPTIONS,
);
