import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultData, ResultMessageSchema } from '../common/envelopes.js';
import { errorResponses, PUBLIC, resultErrors } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { PERMISSIONS, ROLES } from '../roles.js';
import {
  EmailSchema,
  IdempotencyHeadersSchema,
  TimestampSchema,
  dateField,
  idOf,
} from '../common/schemas.js';
import { NewPasswordSchema } from './password.js';
import { TwoFactorCodeSchema } from './two-factor-code.js';

const c = initContract();

export const RegisterBodySchema = extendApi(
  z
    .object({
      businessName: z.string().trim().min(1).max(200),
      email: EmailSchema,
      password: NewPasswordSchema,
    })
    .strict(),
  {
    title: 'RegisterBody',
    example: { businessName: 'Acme Ltd', email: 'owner@acme.test', password: 'correct horse battery' },
  },
);
export type RegisterBody = z.infer<typeof RegisterBodySchema>;

export const EnvironmentSchema = extendApi(z.enum(['live', 'sandbox']), {
  description:
    'Which of its two businesses a credential reaches: `live`, or `sandbox`, the staging twin of the live ' +
    'business (its own data, captured mail and test clock). Every authenticated answer names it in the ' +
    '`Bms-Environment` header.',
});
export type Environment = z.infer<typeof EnvironmentSchema>;

export const SignInBodySchema = extendApi(
  z
    .object({
      email: EmailSchema,
      password: z.string().min(1).max(200),
      environment: EnvironmentSchema.default('live').describe(
        'Sign in to the live business (default) or to its staging sandbox, made at the first sandbox sign-in.',
      ),
      businessId: idOf('biz')
        .optional()
        .describe(
          'The business to sign in to, for a person in several teams: without it, such a person is answered ' +
            '422 on `businessId` with the choices (`<id>: <name>`) in `details`. A business the person is not ' +
            'a member of: 401, as wrong credentials.',
        ),
      code: TwoFactorCodeSchema.optional().describe(
        'For a person with two-factor sign-in on: the code from their authenticator app (or a recovery code), ' +
          'to sign in in one step. Without it such a person gets a challenge to answer at ' +
          '`POST /v1/auth/token/two-factor`.',
      ),
    })
    .strict(),
  {
    title: 'SignInBody',
    example: { email: 'owner@acme.test', password: 'correct horse battery', environment: 'sandbox' },
  },
);
export type SignInBody = z.infer<typeof SignInBodySchema>;

export const AuthSessionSchema = extendApi(
  z.object({
    businessId: idOf('biz'),
    accessToken: z.string().describe('Opaque bearer token; shown once, stored only as a hash.'),
    tokenType: z.literal('Bearer'),
    expiresAt: TimestampSchema,
    environment: EnvironmentSchema,
  }),
  { title: 'AuthSession' },
);
export type AuthSession = z.infer<typeof AuthSessionSchema>;

export const SignInChallengeSchema = extendApi(
  z.object({
    challengeToken: z
      .string()
      .describe(
        'Single use, valid 5 minutes and for 5 wrong codes: send it with the code to `POST /v1/auth/token/two-factor`.',
      ),
    expiresAt: TimestampSchema,
    methods: z
      .array(z.enum(['totp', 'recovery_code']))
      .max(2)
      .describe('What may answer it: a code from the authenticator app, or one of the recovery codes.'),
  }),
  {
    title: 'SignInChallenge',
    description:
      'The password was right and the person has two-factor sign-in on: the second step is still to come. ' +
      'Told apart from an `AuthSession` by `challengeToken`.',
  },
);
export type SignInChallenge = z.infer<typeof SignInChallengeSchema>;

export const SignInResultSchema = extendApi(z.union([AuthSessionSchema, SignInChallengeSchema]), {
  title: 'SignInResult',
  description:
    'An access token, or (two-factor sign-in on, no `code` sent) the challenge of the second step.',
});
export type SignInResult = z.infer<typeof SignInResultSchema>;

export const SessionInfoSchema = extendApi(
  z.object({
    businessId: idOf('biz'),
    businessName: z.string(),
    environment: EnvironmentSchema,
    credential: z.enum(['access_token', 'api_key']).describe('What the request was authenticated with.'),
    user: z
      .object({ id: idOf('usr'), email: z.string() })
      .nullable()
      .describe('The person an access token was given to; null for an API key.'),
    role: z.enum(ROLES).describe('The role in the business; a `full` API key acts as `admin`.'),
    permissions: z
      .array(z.enum(PERMISSIONS))
      .max(PERMISSIONS.length)
      .describe("What the role may do: compare with each operation's permission in `OPERATION_PERMISSIONS`."),
    expiresAt: TimestampSchema.nullable().describe('When an access token expires; null for an API key.'),
    twoFactor: z
      .object({
        enabled: z.boolean().describe('Whether the person signs in with a second factor.'),
        required: z.boolean().describe('Whether the business requires it of every member.'),
      })
      .nullable()
      .describe(
        'For an access token. Required and not enabled: until it is turned on, the token reaches only this ' +
          'route, the two-factor routes, the sessions, the password change and sign-out (403 elsewhere). ' +
          'null for an API key.',
      ),
    mail: z
      .enum(['captured', 'smtp'])
      .describe(
        "Where the business's mail goes: `captured` (a sandbox's always; every business's without `SMTP_URL`), " +
          'listed at `GET /v1/sandbox/messages`, or `smtp`, really sent.',
      ),
    clock: z
      .object({
        now: TimestampSchema.describe(
          "The business's time when this answer was made: real time, or a sandbox's test clock.",
        ),
        today: dateField("The business's today: the date of `now` in its time zone."),
        timezone: z.string().describe("The business's time zone (IANA), which decides its today."),
      })
      .describe(
        "The business's clock, which dates everything the service records for it and every default date range.",
      ),
  }),
  { title: 'SessionInfo' },
);
export type SessionInfo = z.infer<typeof SessionInfoSchema>;

export const SwitchEnvironmentBodySchema = extendApi(z.object({ environment: EnvironmentSchema }).strict(), {
  title: 'SwitchEnvironmentBody',
  example: { environment: 'sandbox' },
});
export type SwitchEnvironmentBody = z.infer<typeof SwitchEnvironmentBodySchema>;

/** Registration, sign-in and sign-out: the routes that give out and revoke access tokens. */
export const sessionsContract = c.router({
  register: {
    method: 'POST',
    path: '/auth/register',
    summary: 'Register a business',
    description:
      'Creates a business and its owner user and returns an access token. Throttled to 10 per minute per IP; ' +
      'refused with 403 when sign-up is disabled (`SIGNUP_ENABLED=false`).',
    body: RegisterBodySchema,
    responses: { 201: resultData(AuthSessionSchema), ...errorResponses('result', [...PUBLIC, 403, 409]) },
    metadata: meta('none', 'Auth'),
  },
  signIn: {
    method: 'POST',
    path: '/auth/token',
    summary: 'Sign in',
    description:
      'Exchanges email and password for an access token to one of the businesses the person is a member of ' +
      '(`businessId` chooses among several). A person with two-factor sign-in on gets a `SignInChallenge` ' +
      'instead, unless the body has `code`. After 10 failed attempts (passwords or codes) in a minute for ' +
      'one IP or one email, every attempt for it is refused with 429 until the minute ends.',
    body: SignInBodySchema,
    responses: { 200: resultData(SignInResultSchema), ...errorResponses('result', [...PUBLIC, 401]) },
    metadata: meta('none', 'Auth'),
  },
  getSession: {
    method: 'GET',
    path: '/auth/session',
    summary: 'Who am I',
    description:
      'The credential of this request: its business and environment, the person (for an access token), ' +
      'the role and its permissions. A dashboard reads it to show only what the role may do.',
    responses: { 200: resultData(SessionInfoSchema), ...resultErrors() },
    metadata: meta('token', 'Auth'),
  },
  switchEnvironment: {
    method: 'POST',
    path: '/auth/environment',
    headers: IdempotencyHeadersSchema,
    summary: 'Switch between live and sandbox',
    description:
      "Exchanges a signed-in person's access token for a new one to the business's other environment " +
      '(making the sandbox on its first use), as signing in again with `environment` would, without the ' +
      'password. The token presented stays valid until signed out. Access tokens only.',
    body: SwitchEnvironmentBodySchema,
    responses: { 200: resultData(AuthSessionSchema), ...resultErrors(409) },
    metadata: meta('user', 'Auth'),
  },
  logout: {
    method: 'POST',
    path: '/auth/logout',
    headers: IdempotencyHeadersSchema,
    summary: 'Sign out',
    description: 'Revokes the access token presented with this request.',
    body: c.noBody(),
    responses: { 200: ResultMessageSchema, ...resultErrors(409) },
    metadata: meta('user', 'Auth'),
  },
});
