import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultData } from '../common/envelopes.js';
import { errorResponses, PUBLIC } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { SignInResultSchema } from './sessions.js';

const c = initContract();

export const AcceptInvitationBodySchema = extendApi(
  z
    .object({
      token: z.string().min(1).max(200).describe('The token of the invitation mail.'),
      password: z
        .string()
        .min(12, 'Password must be at least 12 characters')
        .max(200)
        .optional()
        .describe('Required when the invited email has no account yet; ignored otherwise.'),
    })
    .strict(),
  { title: 'AcceptInvitationBody', example: { token: 'bms_inv_...', password: 'correct horse battery' } },
);
export type AcceptInvitationBody = z.infer<typeof AcceptInvitationBodySchema>;

/** Accepting an invitation to a team (DESIGN section 15): the way a new member first signs in. */
export const invitationsContract = c.router({
  acceptInvitation: {
    method: 'POST',
    path: '/auth/invitations/accept',
    summary: 'Accept an invitation',
    description:
      'Joins the invited business: a person without an account gives a password (12+ characters) and gets ' +
      'one; a person with an account joins with it (no password needed). Answers an access token to the ' +
      'business, as sign-in does (a person with two-factor sign-in on: the challenge of its second step). ' +
      'An unknown, used or expired token: 422 on `token`. Throttled as sign-in is.',
    body: AcceptInvitationBodySchema,
    responses: { 200: resultData(SignInResultSchema), ...errorResponses('result', [...PUBLIC]) },
    metadata: meta('none', 'Auth'),
  },
});
