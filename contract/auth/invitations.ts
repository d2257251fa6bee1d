import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultData } from '../common/envelopes.js';
import { errorResponses, PUBLIC } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { TimestampSchema } from '../common/schemas.js';
import { ROLES } from '../roles.js';
import { SignInResultSchema } from './sessions.js';
import { NewPasswordSchema } from './password.js';

const c = initContract();

const InvitationTokenSchema = z.string().min(1).max(200).describe('The token of the invitation mail.');

export const AcceptInvitationBodySchema = extendApi(
  z
    .object({
      token: InvitationTokenSchema,
      password: NewPasswordSchema.optional().describe(
        'A person without an account: the password they choose. A person with an account who is not ' +
          'signed in as themselves: their password.',
      ),
    })
    .strict(),
  { title: 'AcceptInvitationBody', example: { token: 'bms_inv_...', password: 'correct horse battery' } },
);
export type AcceptInvitationBody = z.infer<typeof AcceptInvitationBodySchema>;

export const DescribeInvitationBodySchema = extendApi(z.object({ token: InvitationTokenSchema }).strict(), {
  title: 'DescribeInvitationBody',
  example: { token: 'bms_inv_...' },
});
export type DescribeInvitationBody = z.infer<typeof DescribeInvitationBodySchema>;

export const InvitationPreviewSchema = extendApi(
  z.object({
    businessName: z.string(),
    email: z.string().describe('The invited email: the account that accepting joins or makes.'),
    role: z.enum(ROLES),
    invitedBy: z
      .string()
      .nullable()
      .describe('The email of the person who invited; null when an API key did.'),
    expiresAt: TimestampSchema,
    hasAccount: z
      .boolean()
      .describe('Whether the email has an account: accepting then needs its password or its session.'),
  }),
  { title: 'InvitationPreview' },
);
export type InvitationPreview = z.infer<typeof InvitationPreviewSchema>;

/** Accepting an invitation to a team (docs/decisions.md D54): the way a new member first signs in. */
export const invitationsContract = c.router({
  describeInvitation: {
    method: 'POST',
    path: '/auth/invitations/describe',
    summary: 'Read an invitation',
    description:
      'What an invitation token offers, for the screen that accepts it: the business, the role, the invited ' +
      'email and whether it has an account. The token travels in the body, never in a URL. An unknown, used ' +
      'or expired token: 422 on `token`, counted as a failed sign-in of the address.',
    body: DescribeInvitationBodySchema,
    responses: { 200: resultData(InvitationPreviewSchema), ...errorResponses('result', [...PUBLIC]) },
    metadata: meta('none', 'Auth'),
  },
  acceptInvitation: {
    method: 'POST',
    path: '/auth/invitations/accept',
    summary: 'Accept an invitation',
    description:
      'Joins the invited business and answers an access token to it, as sign-in does. The token alone never ' +
      'signs anyone in to an existing account. A person without an account gives a password (12+ ' +
      'characters) and gets one. A person with an account either sends the request signed in as themselves ' +
      '(`Authorization: Bearer` with their own access token) or gives their password: a wrong one is 401, ' +
      'throttled and counted as sign-in is; neither is 422 on `password`, and nothing changes. With ' +
      'two-factor sign-in on, the password answers the challenge of the second step, and ' +
      '`POST /v1/auth/token/two-factor` joins the business and signs in. An unknown, used or expired token: ' +
      '422 on `token`.',
    body: AcceptInvitationBodySchema,
    responses: { 200: resultData(SignInResultSchema), ...errorResponses('result', [...PUBLIC, 401]) },
    metadata: meta('none', 'Auth'),
  },
});
