import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultData } from '../common/envelopes.js';
import { errorResponses, PUBLIC, resultErrors } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { IdempotencyHeadersSchema, TimestampSchema } from '../common/schemas.js';
import { AuthSessionSchema } from './sessions.js';
import { TwoFactorCodeSchema } from './two-factor-code.js';

const c = initContract();

export { TwoFactorCodeSchema };

export const TwoFactorStatusSchema = extendApi(
  z.object({
    enabled: z.boolean().describe('Whether signing in asks for a code after the password.'),
    enabledAt: TimestampSchema.nullable(),
    recoveryCodesRemaining: z.number().int().describe('Recovery codes not used yet (10 when made).'),
    required: z
      .boolean()
      .describe(
        'Whether the business requires two-factor sign-in of every member (`require_two_factor` in its ' +
          'settings). A member without it can then only turn it on, see who they are and sign out.',
      ),
  }),
  { title: 'TwoFactorStatus' },
);
export type TwoFactorStatus = z.infer<typeof TwoFactorStatusSchema>;

export const TwoFactorEnrolmentSchema = extendApi(
  z.object({
    secret: z.string().describe('The shared secret (base32), for typing into an app that cannot scan.'),
    otpauthUri: z
      .string()
      .describe('`otpauth://totp/...` (SHA-1, 6 digits, 30 seconds): what the QR code holds.'),
    qrCode: z.string().describe('The URI as a QR code: an SVG image as a `data:image/svg+xml;base64,` URL.'),
  }),
  {
    title: 'TwoFactorEnrolment',
    description:
      'Scan the QR code (or type the secret) into an authenticator app, then confirm with a code it shows. ' +
      'Nothing changes for signing in until then; starting again replaces the secret.',
  },
);
export type TwoFactorEnrolment = z.infer<typeof TwoFactorEnrolmentSchema>;

export const RecoveryCodesSchema = extendApi(
  z.object({
    recoveryCodes: z
      .array(z.string())
      .length(10)
      .describe('Ten single-use codes, shown only here: each signs in once in place of an app code.'),
  }),
  { title: 'RecoveryCodes' },
);
export type RecoveryCodes = z.infer<typeof RecoveryCodesSchema>;

export const CodeBodySchema = extendApi(z.object({ code: TwoFactorCodeSchema }).strict(), {
  title: 'TwoFactorCodeBody',
  example: { code: '492039' },
});
export type CodeBody = z.infer<typeof CodeBodySchema>;

const CurrentPasswordSchema = z
  .string()
  .min(1)
  .max(200)
  .describe('The current password of the signed-in person.');

export const StartTwoFactorEnrolmentBodySchema = extendApi(
  z.object({ password: CurrentPasswordSchema }).strict(),
  { title: 'StartTwoFactorEnrolmentBody', example: { password: 'correct horse battery' } },
);
export type StartTwoFactorEnrolmentBody = z.infer<typeof StartTwoFactorEnrolmentBodySchema>;

export const ConfirmTwoFactorBodySchema = extendApi(
  z.object({ password: CurrentPasswordSchema, code: TwoFactorCodeSchema }).strict(),
  { title: 'ConfirmTwoFactorBody', example: { password: 'correct horse battery', code: '492039' } },
);
export type ConfirmTwoFactorBody = z.infer<typeof ConfirmTwoFactorBodySchema>;

export const CompleteSignInBodySchema = extendApi(
  z.object({ challengeToken: z.string().min(1).max(200), code: TwoFactorCodeSchema }).strict(),
  { title: 'CompleteSignInBody', example: { challengeToken: 'bms_ch_...', code: '492039' } },
);
export type CompleteSignInBody = z.infer<typeof CompleteSignInBodySchema>;

export const DisableTwoFactorBodySchema = extendApi(
  z.object({ password: CurrentPasswordSchema, code: TwoFactorCodeSchema }).strict(),
  { title: 'DisableTwoFactorBody', example: { password: 'correct horse battery', code: '492039' } },
);
export type DisableTwoFactorBody = z.infer<typeof DisableTwoFactorBodySchema>;

const twoFactorRoute = meta('user', 'Auth');

/**
 * Two-factor sign-in (TOTP, RFC 6238) of the signed-in person, and the second step of signing in.
 * Wrong passwords and codes count as failed sign-in attempts (10 a minute per IP and per email),
 * each counted before it is checked: once over, a request is refused with 429 and not checked.
 */
export const twoFactorContract = c.router({
  completeSignIn: {
    method: 'POST',
    path: '/auth/token/two-factor',
    summary: 'Sign in: the second step',
    description:
      'Answers the challenge of `POST /v1/auth/token` with a code from the authenticator app or a recovery ' +
      'code, and returns the access token. A wrong code: 401 (the challenge stays usable for 5 wrong codes ' +
      'in all); an unknown, used or expired challenge: 401, sign in again with the password.',
    body: CompleteSignInBodySchema,
    responses: { 200: resultData(AuthSessionSchema), ...errorResponses('result', [...PUBLIC, 401]) },
    metadata: meta('none', 'Auth'),
  },
  getTwoFactor: {
    method: 'GET',
    path: '/auth/two-factor',
    summary: 'Two-factor sign-in: status',
    description:
      "Whether the signed-in person's two-factor sign-in is on, and whether the business requires it.",
    responses: { 200: resultData(TwoFactorStatusSchema), ...resultErrors() },
    metadata: twoFactorRoute,
  },
  startTwoFactorEnrolment: {
    method: 'POST',
    path: '/auth/two-factor/enrolment',
    headers: IdempotencyHeadersSchema,
    summary: 'Two-factor sign-in: start',
    description:
      'A new secret for an authenticator app, as an `otpauth://` URI and its QR code, given the current ' +
      'password. Two-factor sign-in is on once confirmed with a code (`POST /v1/auth/two-factor/confirm`). ' +
      'Wrong or missing password: 422 on `password` (a wrong one counts as a failed sign-in). Already on: 409.',
    body: StartTwoFactorEnrolmentBodySchema,
    responses: { 200: resultData(TwoFactorEnrolmentSchema), ...resultErrors(409) },
    metadata: twoFactorRoute,
  },
  confirmTwoFactor: {
    method: 'POST',
    path: '/auth/two-factor/confirm',
    headers: IdempotencyHeadersSchema,
    summary: 'Two-factor sign-in: confirm',
    description:
      'Turns two-factor sign-in on with the current password and a code from the app just set up, and ' +
      'returns ten recovery codes (shown only here). A wrong password or code: 422 on the field (counted as ' +
      'a failed sign-in). No enrolment started, or already on: 409.',
    body: ConfirmTwoFactorBodySchema,
    responses: { 200: resultData(RecoveryCodesSchema), ...resultErrors(409) },
    metadata: twoFactorRoute,
  },
  disableTwoFactor: {
    method: 'POST',
    path: '/auth/two-factor/disable',
    headers: IdempotencyHeadersSchema,
    summary: 'Two-factor sign-in: turn off',
    description:
      'Turns two-factor sign-in off, with the password and a code (app or recovery); the recovery codes are ' +
      'deleted. Wrong password or code: 422 on the field. Not on, or required by a business the person is a ' +
      'member of: 409.',
    body: DisableTwoFactorBodySchema,
    responses: { 200: resultData(TwoFactorStatusSchema), ...resultErrors(409) },
    metadata: twoFactorRoute,
  },
  regenerateRecoveryCodes: {
    method: 'POST',
    path: '/auth/two-factor/recovery-codes',
    headers: IdempotencyHeadersSchema,
    summary: 'Two-factor sign-in: new recovery codes',
    description:
      'Replaces every recovery code (used or not) with ten new ones, given a code from the app. Wrong code: ' +
      '422 on `code`. Not on: 409.',
    body: CodeBodySchema,
    responses: { 200: resultData(RecoveryCodesSchema), ...resultErrors(409) },
    metadata: twoFactorRoute,
  },
});
