import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { EmailSchema, TimestampSchema, idOf } from '../common/schemas.js';

export const RegisterBodySchema = extendApi(
  z
    .object({
      businessName: z.string().trim().min(1).max(200),
      email: EmailSchema,
      password: z.string().min(12, 'Password must be at least 12 characters').max(200),
    })
    .strict(),
  {
    title: 'RegisterBody',
    example: { businessName: 'Acme Ltd', email: 'owner@acme.test', password: 'correct horse battery' },
  },
);
export type RegisterBody = z.infer<typeof RegisterBodySchema>;

export const SignInBodySchema = extendApi(
  z.object({ email: EmailSchema, password: z.string().min(1).max(200) }).strict(),
  { title: 'SignInBody', example: { email: 'owner@acme.test', password: 'correct horse battery' } },
);
export type SignInBody = z.infer<typeof SignInBodySchema>;

export const AuthSessionSchema = extendApi(
  z.object({
    businessId: idOf('biz'),
    accessToken: z.string().describe('Opaque bearer token; shown once, stored only as a hash.'),
    tokenType: z.literal('Bearer'),
    expiresAt: TimestampSchema,
  }),
  { title: 'AuthSession' },
);
export type AuthSession = z.infer<typeof AuthSessionSchema>;

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
};

export const ApiKeySchema = extendApi(z.object(apiKeyFields), { title: 'ApiKey' });
export type ApiKey = z.infer<typeof ApiKeySchema>;

export const CreatedApiKeySchema = extendApi(
  z.object({ ...apiKeyFields, key: z.string().describe('The full key; shown only in this response.') }),
  { title: 'CreatedApiKey' },
);
export type CreatedApiKey = z.infer<typeof CreatedApiKeySchema>;
