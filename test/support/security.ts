import { randomBytes } from 'node:crypto';
import {
  convertQueryParamsToUrlString,
  insertParamsIntoPath,
  isAppRoute,
  type AppRoute,
  type AppRouter,
  type ClientInferRequest,
} from '@ts-rest/core';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient, unwrap, type ErrorCode } from '../../client/index.js';
import { envelopeForPath } from '../../contract/common/errors.js';
import { csvListingOf } from '../../contract/common/exports.js';
import type { RouteAuth, RouteMetadata } from '../../contract/common/metadata.js';
import { createApiKey } from './auth.js';
import { inEnvironment, signInTo, type Environment, type TestBusiness } from './business.js';
import type { TestServer } from './server.js';

/**
 * The security checks every authenticated route shares, replayed per route from its contract
 * metadata (`auth: user | token | apiKey`), so a domain writes only how to build a request for each
 * of its routes:
 *
 * - 401 UNAUTHORIZED with the route's `WWW-Authenticate` challenge to a missing, unknown, revoked or
 *   malformed credential;
 * - the refusal of a credential of the wrong kind (403 FORBIDDEN on Bearer routes; 401 on the
 *   X-Api-Key routes, which read no Bearer);
 * - acceptance (2xx) of every credential kind the route takes, so the refusals above are about the
 *   credential and not the request;
 * - another business's ids answer 404 NOT_FOUND, exactly like ids that do not exist;
 * - and so do the ids of the business's twin in the other environment (docs/decisions.md D74): its
 *   sandbox's credentials get that answer for its live resources, and its live credentials for the
 *   same resources made in its sandbox;
 *
 * and after every refusal nothing changed in the database for any business involved. A list
 * operation is also asked for its CSV export (`?format=csv`, `Accept: text/csv`): the same 401 to
 * every dead or malformed credential, a `text/csv` file to the business, and to another business
 * and to the twin the same answer as above, holding none of the business's ids.
 */

/** What a request for the route carries besides its credential, typed by the contract. */
export type RouteRequest<R extends AppRoute> = Pick<
  ClientInferRequest<R>,
  Extract<keyof ClientInferRequest<R>, 'params' | 'query' | 'body'>
>;

/** An answer the test holds: status, headers and the parsed body. */
export interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

/** The refusal a request must meet, in the route's envelope. */
export interface Refusal {
  status: number;
  code: ErrorCode;
  /** The field `details` names (422). */
  field?: string;
}

export interface RouteCheck<T> {
  route: AppRoute;
  /**
   * A request for the route about resources of `tenant`, made fresh for each call (it may create
   * what the request needs: the checks send it once each, and an accepted one may consume it).
   */
  build: (tenant: T) => Promise<{ params?: unknown; query?: unknown; body?: unknown }>;
  /**
   * What another business gets for this request about `tenant`'s resources, and what the tenant's
   * twin in the other environment gets, both ways (a twin holds items of its own, so a check of an
   * unfiltered list names what must be absent rather than expecting nothing). Default: 404
   * NOT_FOUND when the path names a resource; no check when it names none, unless this is given
   * (ids in the body or the query).
   */
  otherBusiness?: Refusal | ((answer: Answer) => void);
  /**
   * The resource is the signed-in person's own across every business and environment they sign in
   * to (their sessions): the twin's access token is the same person's, so the twin checks are not
   * made; another business's person still gets `otherBusiness`.
   */
  personal?: boolean;
}

export interface RouteSecurityOptions<T extends TestBusiness> {
  server: () => TestServer;
  /**
   * A new business as the routes need it (with a loyalty program, say). It must make the business
   * with `registerBusiness(server)` (or a factory built on it) from the server it is given: the
   * checks also call it through `inEnvironment` to make the same fixtures in the business's twin.
   */
  tenant: (server: TestServer) => Promise<T>;
  /**
   * The environment the routes' businesses are made in (default live): the sandbox's own operations
   * answer only sandbox credentials. Either way each business's twin is made in the other one.
   */
  environment?: Environment;
  /** Every authenticated route of this router must have a check. */
  router: AppRouter;
  /** One check per route: `route(contract route, build, options?)`. */
  routes: (route: RouteCheckFactory<T>) => RouteCheck<T>[];
}

export type RouteCheckFactory<T> = <R extends AppRoute>(
  route: R,
  build: (tenant: T) => Promise<RouteRequest<R>>,
  options?: Pick<RouteCheck<T>, 'otherBusiness' | 'personal'>,
) => RouteCheck<T>;

// ---------------------------------------------------------------------------------------------
// The credential rules of the contract metadata (docs/decisions.md D6; server/auth/middleware.ts).

/** The credentials a business holds: what each check presents. */
interface Credentials {
  accessToken: string;
  fullKey: string;
  publicKey: string;
  revokedFullKey: string;
  revokedPublicKey: string;
  signedOutToken: string;
}

interface Presented {
  name: string;
  headers: (c: Credentials) => Record<string, string>;
}

const bearer = (name: string, secret: (c: Credentials) => string): Presented => ({
  name: `${name} as Authorization: Bearer`,
  headers: (c) => ({ authorization: `Bearer ${secret(c)}` }),
});

const xApiKey = (name: string, secret: (c: Credentials) => string): Presented => ({
  name: `${name} as X-Api-Key`,
  headers: (c) => ({ 'x-api-key': secret(c) }),
});

const unknown = (prefix: string) => () => `${prefix}${randomBytes(24).toString('base64url')}`;

/** Every valid credential of the business, in each place it can be sent. */
const VALID = {
  tokenAsBearer: bearer('an access token', (c) => c.accessToken),
  fullKeyAsBearer: bearer('a full API key', (c) => c.fullKey),
  publicKeyAsBearer: bearer('a public_loyalty API key', (c) => c.publicKey),
  tokenAsApiKey: xApiKey('an access token', (c) => c.accessToken),
  fullKeyAsApiKey: xApiKey('a full API key', (c) => c.fullKey),
  publicKeyAsApiKey: xApiKey('a public_loyalty API key', (c) => c.publicKey),
};
type Valid = keyof typeof VALID;

/** Credentials no route accepts: 401 everywhere. */
const INVALID: Presented[] = [
  { name: 'no credential', headers: () => ({}) },
  bearer('an unknown access token', unknown('bms_at_')),
  bearer('an unknown full API key', unknown('bms_sk_')),
  bearer('a signed-out access token', (c) => c.signedOutToken),
  bearer('a revoked full API key', (c) => c.revokedFullKey),
  { name: 'a Basic Authorization header', headers: () => ({ authorization: 'Basic dXNlcjpwYXNz' }) },
  { name: 'an empty Bearer', headers: () => ({ authorization: 'Bearer ' }) },
  xApiKey('an unknown public_loyalty API key', unknown('bms_pk_')),
  xApiKey('an unknown full API key', unknown('bms_sk_')),
  xApiKey('a string that is no key', () => 'not-a-key'),
  xApiKey('a revoked public_loyalty API key', (c) => c.revokedPublicKey),
];

/**
 * How each kind of route answers each valid credential: accepted, or refused with 401 (the
 * credential is not one this route reads) or 403 (a valid credential of the wrong kind or scope).
 */
const RULES: Record<Exclude<RouteAuth, 'none'>, Record<Valid, 'accepted' | 401 | 403>> = {
  // Account management: an access token from sign-in only.
  user: {
    tokenAsBearer: 'accepted',
    fullKeyAsBearer: 403,
    publicKeyAsBearer: 403,
    tokenAsApiKey: 401,
    fullKeyAsApiKey: 403,
    publicKeyAsApiKey: 403,
  },
  // Every other group: an access token or a full key, as Bearer.
  token: {
    tokenAsBearer: 'accepted',
    fullKeyAsBearer: 'accepted',
    publicKeyAsBearer: 403,
    tokenAsApiKey: 401,
    fullKeyAsApiKey: 403,
    publicKeyAsApiKey: 403,
  },
  // Public loyalty: X-Api-Key only, either scope; a Bearer is not read there (401).
  apiKey: {
    tokenAsBearer: 401,
    fullKeyAsBearer: 401,
    publicKeyAsBearer: 401,
    tokenAsApiKey: 401,
    fullKeyAsApiKey: 'accepted',
    publicKeyAsApiKey: 'accepted',
  },
};

const CHALLENGE: Record<Exclude<RouteAuth, 'none'>, string> = {
  user: 'Bearer',
  token: 'Bearer',
  apiKey: 'ApiKey header="X-Api-Key"',
};

const authOf = (route: AppRoute): Exclude<RouteAuth, 'none'> => {
  const { auth } = route.metadata as RouteMetadata;
  if (auth === 'none') throw new Error(`${label(route)} is public: it has no security checks`);
  return auth;
};

const validOf = (auth: Exclude<RouteAuth, 'none'>) =>
  (Object.keys(VALID) as Valid[]).map((kind) => ({ kind, presented: VALID[kind], rule: RULES[auth][kind] }));

// ---------------------------------------------------------------------------------------------
// Requests and answers.

export const label = (route: AppRoute) => `${route.method} ${route.path}`;

const hasPathParams = (route: AppRoute) => /:[A-Za-z_]/.test(route.path);

async function send(
  server: TestServer,
  route: AppRoute,
  request: { params?: unknown; query?: unknown; body?: unknown },
  headers: Record<string, string>,
): Promise<Answer> {
  const params = Object.fromEntries(
    Object.entries((request.params ?? {}) as Record<string, string | number>).map(([k, v]) => [
      k,
      encodeURIComponent(String(v)),
    ]),
  );
  const path =
    insertParamsIntoPath({ path: route.path, params }) + convertQueryParamsToUrlString(request.query ?? {});
  const init: RequestInit = { method: route.method, headers: { accept: 'application/json', ...headers } };
  if (typeof request.body === 'string') {
    // A file route's body (a CSV import) is sent as the file itself.
    init.headers = { ...init.headers, 'content-type': 'text/csv' };
    init.body = request.body;
  } else if (request.body !== undefined) {
    init.headers = { ...init.headers, 'content-type': 'application/json' };
    init.body = JSON.stringify(request.body);
  }
  const res = await fetch(`${server.baseUrl}${path}`, init);
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON; keep the text
  }
  return { status: res.status, headers: res.headers, body };
}

/** The refusal exactly, in the route's envelope: `{error}` (general group) or `{result, error}`. */
export function expectRefusal(route: AppRoute, answer: Answer, refusal: Refusal, why: string): void {
  const context = `${label(route)}, ${why}: answered ${answer.status} ${JSON.stringify(answer.body)}`;
  expect(answer.status, context).toBe(refusal.status);
  expect(Object.keys(route.responses), `${label(route)} documents ${refusal.status}`).toContain(
    String(refusal.status),
  );
  const error = {
    code: refusal.code,
    status: refusal.status,
    message: expect.any(String),
    ...(refusal.field === undefined
      ? {}
      : { details: expect.arrayContaining([expect.objectContaining({ field: refusal.field })]) }),
  };
  const envelope = envelopeForPath(route.path) === 'general' ? { error } : { result: 'error', error };
  expect(answer.body, context).toEqual(envelope);
}

function expectUnauthorized(route: AppRoute, answer: Answer, why: string): void {
  expectRefusal(route, answer, { status: 401, code: 'UNAUTHORIZED' }, why);
  const { message } = (answer.body as { error: { message: string } }).error;
  expect(message, `${label(route)}, ${why}`).toMatch(/^Invalid or expired /);
  expect(answer.headers.get('www-authenticate'), `${label(route)}, ${why}`).toBe(CHALLENGE[authOf(route)]);
}

// ---------------------------------------------------------------------------------------------
// "Nothing changed": every row of the business, in every table that has a business_id.

/** Columns that a read may legitimately touch. */
const VOLATILE = new Set(['last_used_at']);

const tablesOf = new WeakMap<TestServer, Promise<string[]>>();

function tenantTables(server: TestServer): Promise<string[]> {
  let tables = tablesOf.get(server);
  if (!tables) {
    // The audit trail records every request answered 2xx (a bulk enrolment answering each item's
    // refusal, say): it is what happened, not the business's data (test/audit covers it). Its view
    // `audit_entries` with it (the public earns' own rows are read from their table).
    tables = sql<{ table_name: string }>`
      SELECT table_name FROM information_schema.columns
      WHERE column_name = 'business_id' AND table_schema = current_schema()
        AND table_name NOT IN ('audit_log', 'audit_entries')
      ORDER BY table_name`
      .execute(server.deps.db)
      .then((r) => r.rows.map((row) => row.table_name));
    tablesOf.set(server, tables);
  }
  return tables;
}

/**
 * Every row each business owns, table by table, in a stable order (the volatile columns left out),
 * read in one query over every table.
 */
async function rowsOf(server: TestServer, businessIds: string[]): Promise<Record<string, string[]>[]> {
  const tables = await tenantTables(server);
  const ids = sql.join(businessIds);
  const volatile = sql`ARRAY[${sql.join([...VOLATILE].map((column) => sql.lit(column)))}]::text[]`;
  const rowsIn = (table: string, owner: string) =>
    sql`SELECT ${sql.lit(table)} AS t, ${sql.ref(owner)}::text AS b, (to_jsonb(x) - ${volatile})::text AS r
        FROM ${sql.table(table)} AS x WHERE ${sql.ref(owner)} IN (${ids})`;
  const { rows } = await sql<{ t: string; b: string; r: string }>`${sql.join(
    [rowsIn('businesses', 'id'), ...tables.map((table) => rowsIn(table, 'business_id'))],
    sql` UNION ALL `,
  )}`.execute(server.deps.db);
  const snapshots = businessIds.map(() =>
    Object.fromEntries(['businesses', ...tables].map((table): [string, string[]] => [table, []])),
  );
  for (const { t, b, r } of rows) snapshots[businessIds.indexOf(b)]?.[t]?.push(r);
  for (const snapshot of snapshots) for (const list of Object.values(snapshot)) list.sort();
  return snapshots;
}

/** Every row the business owns, table by table, in a stable order (the volatile columns left out). */
export async function businessRows(
  server: TestServer,
  businessId: string,
): Promise<Record<string, string[]>> {
  const [snapshot] = await rowsOf(server, [businessId]);
  return snapshot ?? {};
}

/** Runs `action` and fails when it changed any row of the given businesses. */
export async function expectNothingChanged(
  server: TestServer,
  businessIds: string[],
  action: () => Promise<void>,
): Promise<void> {
  const before = await rowsOf(server, businessIds);
  await action();
  const after = await rowsOf(server, businessIds);
  expect(after, 'the rows of the businesses').toEqual(before);
}

// ---------------------------------------------------------------------------------------------
// CSV exports of the lists (docs/decisions.md D155).

/** The two ways of asking a list for its CSV export. */
const CSV_ASKS: { name: string; query: Record<string, string>; headers: Record<string, string> }[] = [
  { name: 'asked ?format=csv', query: { format: 'csv' }, headers: {} },
  { name: 'asked with Accept: text/csv', query: {}, headers: { accept: 'text/csv' } },
];

const asCsv = (
  request: { params?: unknown; query?: unknown; body?: unknown },
  ask: (typeof CSV_ASKS)[number],
) => ({ ...request, query: { ...(request.query as object | undefined), ...ask.query } });

/**
 * Id columns whose values the business shares with its twin by design (the person behind both
 * environments), or that are not ids of the business (a vendor's tax number).
 */
const SHARED_ID_COLUMNS = new Set(['user_id', 'actor_id', 'live_business_id', 'tax_id']);
const SHARED_ID_TABLES = new Set(['users', 'memberships']);

/**
 * Every id the business's rows hold (`id`, `public_id`, `*_id`: its own, its resources' and their
 * references), as text; short numbers left out, since any CSV may hold them.
 */
async function idsOf(server: TestServer, businessId: string): Promise<string[]> {
  const ids = new Set<string>([businessId]);
  for (const [table, rows] of Object.entries(await businessRows(server, businessId))) {
    if (SHARED_ID_TABLES.has(table)) continue;
    for (const row of rows) {
      for (const [column, value] of Object.entries(JSON.parse(row) as Record<string, unknown>)) {
        const isId = column === 'id' || column.endsWith('_id');
        if (isId && !SHARED_ID_COLUMNS.has(column) && typeof value === 'string' && value.length >= 8)
          ids.add(value);
      }
    }
  }
  return [...ids];
}

/** A CSV file answered 2xx. */
function expectCsvFile(route: AppRoute, answer: Answer, why: string): void {
  const context = `${label(route)}, ${why}: answered ${answer.status} ${String(answer.body).slice(0, 300)}`;
  expect(answer.status, context).toBe(200);
  expect(answer.headers.get('content-type'), context).toBe('text/csv; charset=utf-8');
}

// ---------------------------------------------------------------------------------------------
// The checks.

interface Party<T> {
  tenant: T;
  credentials: Credentials;
}

/** Credentials that no longer work: a revoked key of each scope and a signed-out token. */
type Revoked = Pick<Credentials, 'revokedFullKey' | 'revokedPublicKey' | 'signedOutToken'>;

async function revokedOf(server: TestServer, tenant: TestBusiness): Promise<Revoked> {
  const full = await createApiKey(tenant.client, 'full', 'Revoked full');
  const publicKey = await createApiKey(tenant.client, 'public_loyalty', 'Revoked public');
  for (const { id } of [full, publicKey]) await unwrap(tenant.client.auth.revokeApiKey({ params: { id } }));
  const { accessToken: signedOutToken } = await signInTo(server, tenant, tenant.environment);
  const signedIn = createClient({ baseUrl: server.baseUrl, accessToken: signedOutToken, maxRetries: 0 });
  await unwrap(signedIn.auth.logout());
  return { revokedFullKey: full.key, revokedPublicKey: publicKey.key, signedOutToken };
}

/** The tenant with a key of each scope; `revoked` are the dead credentials the checks present. */
async function partyOf<T extends TestBusiness>(tenant: T, revoked: Revoked): Promise<Party<T>> {
  return {
    tenant,
    credentials: {
      ...revoked,
      accessToken: tenant.accessToken,
      fullKey: (await createApiKey(tenant.client, 'full', 'Full')).key,
      publicKey: (await createApiKey(tenant.client, 'public_loyalty', 'Till')).key,
    },
  };
}

/** Every route under the router, depth first. */
export function routesIn(router: AppRouter): AppRoute[] {
  return Object.values(router).flatMap((entry) => (isAppRoute(entry) ? [entry] : routesIn(entry)));
}

const opposite = (environment: Environment = 'live'): Environment =>
  environment === 'live' ? 'sandbox' : 'live';

/** The keys of each environment: the sandbox's are `bms_sk_test_` / `bms_pk_test_`. */
function expectKeysOf(credentials: Credentials, environment: Environment): void {
  for (const [key, prefix] of [
    [credentials.fullKey, 'bms_sk_'],
    [credentials.publicKey, 'bms_pk_'],
  ] as const) {
    expect(key.startsWith(prefix), `${key.slice(0, 12)}... is a ${prefix} key`).toBe(true);
    expect(key.startsWith(`${prefix}test_`), `${key.slice(0, 12)}... is a ${environment} key`).toBe(
      environment === 'sandbox',
    );
  }
}

/**
 * Registers, for every route the checks list, the shared security tests (see the top of this file),
 * and a test that every authenticated route of `router` is listed. Each route gets a business of
 * its own (`tenant`), and for the routes with an other-business check its twin in the other
 * environment (`tenant` through `inEnvironment`: the same fixtures, made there); the other business
 * is shared by the file.
 */
export function describeRouteSecurity<T extends TestBusiness>(options: RouteSecurityOptions<T>): void {
  const { server } = options;
  const environment = options.environment ?? 'live';
  const twinEnvironment = opposite(environment);
  /** The route's businesses: `tenant` in the suite's environment. */
  const newTenant = () => options.tenant(inEnvironment(server(), environment));
  const factory: RouteCheckFactory<T> = (route, build, extra = {}) => ({ route, build, ...extra });
  const checks = options.routes(factory);

  describe('security of every authenticated route', () => {
    it('lists every authenticated route of the domain exactly once', () => {
      const authenticated = routesIn(options.router).filter(
        (route) => (route.metadata as RouteMetadata).auth !== 'none',
      );
      expect(authenticated.length).toBeGreaterThan(0);
      expect(checks.map((c) => label(c.route)).sort()).toEqual(authenticated.map(label).sort());
    });

    let other: Party<T>;
    beforeAll(async () => {
      const tenant = await newTenant();
      other = await partyOf(tenant, await revokedOf(server(), tenant));
    });

    for (const check of checks) {
      const { route } = check;
      const auth = authOf(route);
      const valid = validOf(auth);
      const accepted = valid.filter((v) => v.rule === 'accepted');
      const wrongKind = valid.filter((v) => v.rule !== 'accepted');
      const otherBusiness =
        check.otherBusiness ?? (hasPathParams(route) ? { status: 404, code: 'NOT_FOUND' } : null);

      describe(label(route), () => {
        let owner: Party<T>;
        /** The owner's twin in the other environment: the same account, the same fixtures. */
        let twin: Party<T>;
        beforeAll(async () => {
          // The dead credentials are the other business's: dead is dead, whoever held them.
          owner = await partyOf(await newTenant(), other.credentials);
          if (otherBusiness) {
            const tenant = await options.tenant(inEnvironment(server(), twinEnvironment, owner.tenant));
            twin = await partyOf(tenant, other.credentials);
          }
        });

        /**
         * Builds one request about the resources of `about` (the owner unless told), sends it with
         * each credential (a refused request leaves it valid for the next) and checks that no row of
         * `businesses` changed.
         */
        async function refused(
          from: () => Party<T>,
          credentials: { presented: Presented; expectAnswer: (answer: Answer, why: string) => void }[],
          businesses: () => string[],
          about: () => Party<T> = () => owner,
        ): Promise<void> {
          const request = await check.build(about().tenant);
          await expectNothingChanged(server(), businesses(), async () => {
            for (const { presented, expectAnswer } of credentials) {
              const answer = await send(server(), route, request, presented.headers(from().credentials));
              expectAnswer(answer, presented.name);
            }
          });
        }

        it(`answers 401 UNAUTHORIZED with the ${CHALLENGE[auth].split(' ')[0]} challenge to no, an unknown, a revoked or a malformed credential; nothing changes`, () =>
          refused(
            () => owner,
            INVALID.map((presented) => ({
              presented,
              expectAnswer: (answer, why) => expectUnauthorized(route, answer, why),
            })),
            () => [owner.tenant.businessId],
          ));

        it(`refuses ${wrongKind.map((v) => `${v.presented.name} (${v.rule})`).join(', ')}; nothing changes`, () =>
          refused(
            () => owner,
            wrongKind.map(({ presented, rule }) => ({
              presented,
              expectAnswer: (answer, why) =>
                rule === 401
                  ? expectUnauthorized(route, answer, why)
                  : expectRefusal(route, answer, { status: 403, code: 'FORBIDDEN' }, why),
            })),
            () => [owner.tenant.businessId],
          ));

        if (otherBusiness) {
          const expected =
            typeof otherBusiness === 'function'
              ? 'what the route documents'
              : `${otherBusiness.status} ${otherBusiness.code}`;
          const refusedTo = (whose: string) =>
            accepted.map(({ presented }) => ({
              presented,
              expectAnswer: (answer: Answer, why: string) =>
                typeof otherBusiness === 'function'
                  ? otherBusiness(answer)
                  : expectRefusal(route, answer, otherBusiness, `${whose} ${why}`),
            }));
          it(`answers ${expected} to another business's credentials for this business's resources; nothing changes in either`, () =>
            refused(
              () => other,
              refusedTo("another business's"),
              () => [owner.tenant.businessId, other.tenant.businessId],
            ));

          // The twin is a business of its own (docs/decisions.md D73): a credential reaches only its
          // own environment, in both directions.
          if (!check.personal) {
            it(`answers ${expected} to the credentials of the business's ${twinEnvironment} twin (access token, keys) for its ${environment} resources; nothing changes in either`, () => {
              expectKeysOf(twin.credentials, twinEnvironment);
              return refused(
                () => twin,
                refusedTo(`the ${twinEnvironment} twin's`),
                () => [owner.tenant.businessId, twin.tenant.businessId],
              );
            });
            it(`answers ${expected} to the business's ${environment} credentials for the same resources made in its ${twinEnvironment} twin; nothing changes in either`, () => {
              expectKeysOf(owner.credentials, environment);
              return refused(
                () => owner,
                refusedTo(`the ${environment} business's`),
                () => [owner.tenant.businessId, twin.tenant.businessId],
                () => twin,
              );
            });
          }
        }

        if (csvListingOf(route)) {
          it(`asked for its CSV export (?format=csv, Accept: text/csv), answers 401 UNAUTHORIZED to no, an unknown, a revoked or a malformed credential`, async () => {
            const request = await check.build(owner.tenant);
            for (const ask of CSV_ASKS) {
              for (const presented of INVALID) {
                const headers = { ...presented.headers(owner.credentials), ...ask.headers };
                const answer = await send(server(), route, asCsv(request, ask), headers);
                expectUnauthorized(route, answer, `${presented.name}, ${ask.name}`);
              }
            }
          });

          const refusal = typeof otherBusiness === 'object' && otherBusiness !== null ? otherBusiness : null;
          it(`exports CSV to the business; ${otherBusiness ? `another business and the business's ${twinEnvironment} twin asking the same get` : 'another business asking the same gets'} ${refusal ? `${refusal.status} ${refusal.code}` : 'a CSV of its own'}, holding none of the business's ids`, async () => {
            const [{ presented }] = accepted as [(typeof accepted)[number]];
            const request = await check.build(owner.tenant);
            for (const ask of CSV_ASKS) {
              const own = await send(server(), route, asCsv(request, ask), {
                ...presented.headers(owner.credentials),
                ...ask.headers,
              });
              expectCsvFile(route, own, `the business's ${presented.name}, ${ask.name}`);
            }
            const ownerIds = await idsOf(server(), owner.tenant.businessId);
            expect(ownerIds.length, 'the business holds ids').toBeGreaterThan(1);
            const askers = [
              { whose: "another business's", party: other },
              ...(otherBusiness ? [{ whose: `the ${twinEnvironment} twin's`, party: twin }] : []),
            ];
            for (const { whose, party } of askers) {
              for (const ask of CSV_ASKS) {
                const why = `${whose} ${presented.name}, ${ask.name}`;
                const answer = await send(server(), route, asCsv(request, ask), {
                  ...presented.headers(party.credentials),
                  ...ask.headers,
                });
                if (refusal) expectRefusal(route, answer, refusal, why);
                else expectCsvFile(route, answer, why);
                const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
                const leaked = ownerIds.filter((id) => text.includes(id));
                expect(leaked, `${label(route)}, ${why}: the business's ids in the answer`).toEqual([]);
              }
            }
          });
        }

        // Last: an accepted request may consume what the owner holds (logout signs out its token).
        it(`accepts ${accepted.map((v) => v.presented.name).join(' and ')} of the business (2xx)`, async () => {
          for (const { presented } of accepted) {
            const request = await check.build(owner.tenant);
            const answer = await send(server(), route, request, presented.headers(owner.credentials));
            const context = `${label(route)}, ${presented.name}: ${answer.status} ${JSON.stringify(answer.body)}`;
            expect(answer.status >= 200 && answer.status < 300, context).toBe(true);
          }
        });
      });
    }
  });
}
