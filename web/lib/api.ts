import { computed } from '@preact/signals';
import { createClient, OPERATION_PERMISSIONS, type Client } from '../../client/index.js';
import { allowed, session } from './session.js';

/*
 * The client of every route of the service, for the screens. Only they import this module, and
 * they load after sign-in, each in its own chunk: the contract of every domain comes with the first
 * screen, not with the sign-in page (docs/decisions.md D260).
 */

const anonymousClient = createClient({ baseUrl: location.origin, maxRetries: 1 });

/** The typed client of the signed-in person (or an anonymous one for the pages before sign-in). */
export const api = computed<Client>(() => {
  const current = session.value;
  if (!current) return anonymousClient;
  return createClient({
    baseUrl: location.origin,
    accessToken: current.accessToken,
    environment: current.environment,
    maxRetries: 2,
  });
});

/** Whether the role may call the operation (its permission in the contract's table). */
export function can(operation: keyof typeof OPERATION_PERMISSIONS): boolean {
  const permission = OPERATION_PERMISSIONS[operation];
  return permission === undefined ? allowed('team.manage') && allowed('audit.read') : allowed(permission);
}
