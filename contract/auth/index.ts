import { initContract } from '@ts-rest/core';
import { apiKeysContract } from './api-keys.js';
import { businessContract } from './business.js';
import { sessionsContract } from './sessions.js';
import { invitationsContract } from './invitations.js';
import { twoFactorContract } from './two-factor.js';
import { accountContract } from './account.js';
import { passwordContract } from './password.js';

const c = initContract();

/**
 * The auth domain: its routes sit directly under `auth` (`client.auth.register`, `client.auth.createApiKey`,
 * `client.auth.getBusiness`).
 */
export const authContract = c.router({
  ...sessionsContract,
  ...twoFactorContract,
  ...accountContract,
  ...passwordContract,
  ...apiKeysContract,
  ...businessContract,
  ...invitationsContract,
});

export * from './api-keys.js';
export * from './business.js';
export * from './sessions.js';
export * from './invitations.js';
export * from './two-factor.js';
export * from './account.js';
export * from './password.js';
