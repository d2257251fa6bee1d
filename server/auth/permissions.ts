import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { contract } from '../../contract/index.js';
import { OPERATION_PERMISSIONS, roleAllows, type Permission, type Role } from '../../contract/permissions.js';
import type { AuthInfo } from '../platform/deps.js';
import { ApiError } from '../platform/errors.js';

const keyOf = (route: Pick<AppRoute, 'method' | 'path'>) => `${route.method} ${route.path}`;

/** Every operation's permission, by method and path, read once from the contract's table. */
function permissionsByRoute(): Map<string, Permission | null> {
  const byRoute = new Map<string, Permission | null>();
  const walk = (router: AppRouter) => {
    for (const [name, entry] of Object.entries(router)) {
      if (!isAppRoute(entry)) walk(entry);
      else if (name in OPERATION_PERMISSIONS) byRoute.set(keyOf(entry), OPERATION_PERMISSIONS[name] ?? null);
    }
  };
  walk(contract);
  return byRoute;
}

let table: Map<string, Permission | null> | undefined;

/**
 * The permission the route needs. An operation missing from the table is allowed to owners and
 * admins only (a test fails the suite for it first).
 */
export function permissionOf(route: AppRoute): Permission | null | undefined {
  table ??= permissionsByRoute();
  const key = keyOf(route);
  return table.has(key) ? table.get(key) : undefined;
}

/** Refuses (403 FORBIDDEN, naming the permission) a credential whose role may not do the operation. */
export function checkPermission(route: AppRoute, auth: AuthInfo): ApiError | undefined {
  const permission = permissionOf(route);
  if (permission === null) return undefined;
  const role: Role | undefined = auth.role;
  if (permission === undefined) {
    return role === 'owner' || role === 'admin'
      ? undefined
      : new ApiError('FORBIDDEN', 'This operation is open to owners and admins only');
  }
  if (role && roleAllows(role, permission)) return undefined;
  return new ApiError(
    'FORBIDDEN',
    `Your role (${role ?? 'none'}) lacks the permission ${permission} this operation needs; ask an owner or admin of the business`,
  );
}
