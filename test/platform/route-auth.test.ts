import { isAppRouteNoBody, type AppRoute } from '@ts-rest/core';
import { describe, expect, it } from 'vitest';
import type { RouteMetadata } from '../../contract/common/metadata.js';
import { contract } from '../../contract/index.js';
import { routesOf } from '../../contract/openapi.js';
import { raw } from '../support/business.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer();

/** An id of the right look that names nothing. */
const DUMMY_ID = 'xyz_01JAAAAAAAAAAAAAAAAAAAAAAA';

/** Paths of the general group, which answer `{error}`; every other path answers `{result, error}`. */
const GENERAL_PATH =
  /^\/v1\/(customers|products|invoices|employees|reports|quotes|credit-notes|recurring-invoices)(\/|$)/;

const protectedRoutes = routesOf().filter((route) => (route.metadata as RouteMetadata).auth !== 'none');

const label = (route: AppRoute) => `${route.method} ${route.path}`;

function requestFor(route: AppRoute, headers: Record<string, string>) {
  const path = route.path.replace(/:[A-Za-z_]\w*/g, DUMMY_ID);
  const hasBody = 'body' in route && !isAppRouteNoBody(route.body);
  return {
    path,
    init: hasBody ? { headers: { ...headers, 'content-type': 'application/json' }, body: '{}' } : { headers },
  };
}

function expectUnauthorized(route: AppRoute, res: Awaited<ReturnType<typeof raw>>) {
  expect(res.status, `${label(route)} answered ${JSON.stringify(res.body)}`).toBe(401);
  const challenge = (route.metadata as RouteMetadata).auth === 'apiKey' ? /^ApiKey\b/ : /^Bearer\b/;
  expect(res.headers.get('www-authenticate')).toMatch(challenge);
  expect(res.headers.get('x-request-id')).toBeTruthy();
  const error = { code: 'UNAUTHORIZED', status: 401, message: expect.stringMatching(/^Invalid or expired /) };
  if (GENERAL_PATH.test(route.path)) {
    expect(res.body).toEqual({ error });
  } else {
    expect(res.body).toEqual({ result: 'error', error });
  }
}

describe('authentication on every protected route of the contract', () => {
  it('walks a non-empty set of routes that includes the known protected ones', () => {
    expect(protectedRoutes.length).toBeGreaterThan(10);
    expect(protectedRoutes).toContain(contract.general.invoices.createInvoice);
    expect(protectedRoutes).toContain(contract.general.customers.deleteCustomer);
    expect(protectedRoutes).toContain(contract.auth.createApiKey);
    expect(protectedRoutes).not.toContain(contract.auth.register);
    expect(protectedRoutes).not.toContain(contract.auth.signIn);
  });

  describe.each(protectedRoutes.map((route) => [label(route), route] as const))('%s', (_name, route) => {
    it('answers 401 UNAUTHORIZED with a challenge when no credential is sent', async () => {
      const { path, init } = requestFor(route, {});
      expectUnauthorized(route, await raw(server(), route.method, path, init));
    });

    it('answers 401 UNAUTHORIZED to an unknown bearer token', async () => {
      const { path, init } = requestFor(route, { authorization: 'Bearer bms_at_nope' });
      expectUnauthorized(route, await raw(server(), route.method, path, init));
    });

    it('answers 401 UNAUTHORIZED to an Authorization header that is not a bearer token', async () => {
      const { path, init } = requestFor(route, { authorization: 'Basic dXNlcjpwYXNz' });
      expectUnauthorized(route, await raw(server(), route.method, path, init));
    });

    it('answers 401 UNAUTHORIZED to an unknown API key in X-Api-Key', async () => {
      const { path, init } = requestFor(route, { 'x-api-key': 'bms_sk_nope' });
      expectUnauthorized(route, await raw(server(), route.method, path, init));
    });
  });
});
