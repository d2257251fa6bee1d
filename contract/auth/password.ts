import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { ResultMessageSchema } from '../common/envelopes.js';
import { errorResponses, PUBLIC } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { EmailSchema } from '../common/schemas.js';

const c = initContract();

/** The rule of every password a person chooses: at registration, on a change and on a reset. */
export const NewPasswordSchema = z.string().min(12, 'Password must be at least 12 characters').max(200);

/** How long a password reset link works (docs/decisions.md D208). */
export const PASSWORD_RESET_TTL_MINUTES = 60;

export const ForgotPasswordBodySchema = extendApi(
  z.object({ email: EmailSchema.describe('The email the person signs in with.') }).strict(),
  { title: 'ForgotPasswordBody', example: { email: 'owner@acme.test' } },
);
export type ForgotPasswordBody = z.infer<typeof ForgotPasswordBodySchema>;

export const ResetPasswordBodySchema = extendApi(
  z
    .object({
      token: z.string().min(1).max(200).describe('The token of the reset link (after `#token=`).'),
      password: NewPasswordSchema.describe('The new password, 12 characters or more.'),
    })
    .strict(),
  {
    title: 'ResetPasswordBody',
    example: { token: 'bms_pwr_...', password: 'staple battery horse correct' },
  },
);
export type ResetPasswordBody = z.infer<typeof ResetPasswordBodySchema>;

/** A forgotten password: a mailed link, then a new password (docs/decisions.md D208). */
export const passwordContract = c.router({
  forgotPassword: {
    method: 'POST',
    path: '/auth/password/forgot',
    summary: 'Ask for a password reset link',
    description:
      "Mails a link to the dashboard's reset page (`/app/reset-password#token=...`), single use and valid " +
      `${PASSWORD_RESET_TTL_MINUTES} minutes, to the person who signs in with this email; a newer link replaces ` +
      'the ones before. The answer is the same 202, after the same work, whether or not the email has an ' +
      'account, so it tells nobody who has one. Each request counts as a sign-in attempt of the address and ' +
      'of the email: after 10 in a minute for either, 429 until the minute ends.',
    body: ForgotPasswordBodySchema,
    responses: { 202: ResultMessageSchema, ...errorResponses('result', [...PUBLIC]) },
    metadata: meta('none', 'Auth'),
  },
  resetPassword: {
    method: 'POST',
    path: '/auth/password/reset',
    summary: 'Set a new password with a reset link',
    description:
      "Sets the person's password (12+ characters) with the token of a reset link and ends every session of " +
      'the person, in every business and environment; their next sign-in uses the new password (and still ' +
      'asks for the second factor when two-factor sign-in is on). An unknown, used or expired token: 422 on ' +
      '`token`, counted as a failed sign-in of the address; throttled as sign-in is.',
    body: ResetPasswordBodySchema,
    responses: { 200: ResultMessageSchema, ...errorResponses('result', [...PUBLIC]) },
    metadata: meta('none', 'Auth'),
  },
});
