import { createExpressEndpoints } from '@ts-rest/express';
import { withCsvExports } from '../platform/exports.js';
import { contract } from '../../contract/index.js';
import { QUEUES } from '../platform/jobs.js';
import type { DomainModule } from '../platform/module.js';
import { mailResetLink } from './password-reset.js';
import { authRoutes } from './routes.js';
import { mountInvitationPages } from './team/pages.js';
import { teamRoutes } from './team/routes.js';

export { requireAuth, resolveCredentials } from './middleware.js';
export { createApiKey } from './api-keys.js';
export { createBusiness, sandboxSession, type ProvisionedBusiness } from './provisioning.js';
export type { AuthSource } from './tokens.js';
export type { AuthInfo } from '../platform/deps.js';

/**
 * Sign-up, sign-in, access tokens, API keys, the business's own settings, and its team: a file per unit
 * of contract/auth/ (docs/decisions.md D231).
 */
export const authModule: DomainModule = {
  name: 'auth',
  tables: [
    'users',
    'memberships',
    'invitations',
    'access_tokens',
    'api_keys',
    'user_recovery_codes',
    'sign_in_challenges',
    'password_resets',
  ],
  pages: mountInvitationPages,
  mount: (app, deps, options) => {
    createExpressEndpoints(
      contract.auth,
      withCsvExports(deps, contract.auth, authRoutes(deps)),
      app,
      options,
    );
    createExpressEndpoints(
      contract.team,
      withCsvExports(deps, contract.team, teamRoutes(deps)),
      app,
      options,
    );
  },
  jobs: [{ queue: QUEUES.passwordReset, handle: (deps, job) => mailResetLink(deps, job) }],
};
