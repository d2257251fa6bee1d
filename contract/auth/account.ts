import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultData, ResultMessageSchema } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { IdempotencyHeadersSchema, IdParamsSchema, TimestampSchema, idOf } from '../common/schemas.js';
import { NewPasswordSchema } from './password.js';
import { EnvironmentSchema } from './sessions.js';

const c = initContract();

export const AccessSessionSchema = extendApi(
  z.object({
    id: idOf('tok'),
    businessId: idOf('biz'),
    environment: EnvironmentSchema,
    current: z.boolean().describe('Whether this is the access token of the request.'),
    createdAt: TimestampSchema,
    lastUsedAt: TimestampSchema.nullable().describe('Stamped at most once a minute; null until first used.'),
    expiresAt: TimestampSchema,
    userAgent: z.string().nullable().describe('The `User-Agent` of the sign-in (first 256 characters).'),
    ip: z.string().nullable().describe('The address the sign-in came from.'),
  }),
  {
    title: 'AccessSession',
    description: 'An access token of the signed-in person (never the token itself).',
  },
);
export type AccessSession = z.infer<typeof AccessSessionSchema>;

export const ChangePasswordBodySchema = extendApi(
  z
    .object({
      currentPassword: z.string().min(1).max(200),
      newPassword: NewPasswordSchema,
    })
    .strict(),
  {
    title: 'ChangePasswordBody',
    example: { currentPassword: 'correct horse battery', newPassword: 'staple battery horse correct' },
  },
);
export type ChangePasswordBody = z.infer<typeof ChangePasswordBodySchema>;

export const RevokedSessionsSchema = extendApi(
  z.object({ revoked: z.number().int().describe('How many access tokens were revoked.') }),
  { title: 'RevokedSessions' },
);

const accountRoute = meta('user', 'Auth');

/** The signed-in person's own sessions (access tokens) and password. */
export const accountContract = c.router({
  listSessions: {
    method: 'GET',
    path: '/auth/sessions',
    summary: 'List my sessions',
    description:
      "The signed-in person's access tokens that are neither revoked nor expired, in every business and " +
      'environment they sign in to, newest first (at most 1000).',
    responses: { 200: resultData(z.array(AccessSessionSchema).max(1000)), ...resultErrors() },
    metadata: accountRoute,
  },
  revokeSession: {
    method: 'DELETE',
    path: '/auth/sessions/:id',
    summary: 'Revoke one of my sessions',
    description:
      "Revokes one of the signed-in person's access tokens at once (the current one too: that is signing out). " +
      "Another person's token, or one already revoked: 404.",
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: ResultMessageSchema, ...resultErrors(404) },
    metadata: accountRoute,
  },
  revokeOtherSessions: {
    method: 'DELETE',
    path: '/auth/sessions',
    summary: 'Sign out everywhere else',
    description: 'Revokes every access token of the signed-in person except the one of this request.',
    body: c.noBody(),
    responses: { 200: resultData(RevokedSessionsSchema), ...resultErrors() },
    metadata: accountRoute,
  },
  changePassword: {
    method: 'POST',
    path: '/auth/password',
    headers: IdempotencyHeadersSchema,
    summary: 'Change my password',
    description:
      'Sets a new password (12+ characters) given the current one, and revokes every other access token of ' +
      'the person. A wrong current password: 422 on `currentPassword`, counted as a failed sign-in.',
    body: ChangePasswordBodySchema,
    responses: { 200: resultData(RevokedSessionsSchema), ...resultErrors(409) },
    metadata: accountRoute,
  },
});
