import { initContract } from '@ts-rest/core';
import { apiKeysContract } from './api-keys.js';
import { sessionsContract } from './sessions.js';

const c = initContract();

/** The auth domain: its routes sit directly under `auth` (`client.auth.register`, `client.auth.createApiKey`). */
export const authContract = c.router({ ...sessionsContract, ...apiKeysContract });

export * from './api-keys.js';
export * from './sessions.js';
