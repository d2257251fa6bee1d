import { readdirSync, readFileSync } from 'node:fs';
import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { describe, expect, it } from 'vitest';
import type { RouteMetadata } from '../../contract/common/metadata.js';
import { contract } from '../../contract/index.js';
import { OPENAPI_PATH } from '../../server/app.js';
import {
  collectionOf,
  fuzzSettings,
  generateRequests,
  loadOperations,
  SEEDED_COLLECTIONS,
  seedOf,
  sharesOf,
  type FuzzContext,
  type Operation,
} from '../support/fuzz.js';

/**
 * Every operation of the contract is covered by the two contract-wide mechanisms, checked here
 * without running them:
 *
 * - the fuzz test (test/platform/fuzz.test.ts) reads it from openapi.json, with the credentials its
 *   metadata asks for, gives it a share of the requests and generates requests for it, and its path
 *   ids are ids the fuzz test seeds;
 * - an authenticated operation has a builder, `route(<router>.<operation>, ...)`, in a
 *   `test/<domain>/security.test.ts` (each of those files checks that its builders cover its
 *   router exactly; this checks that no operation is left outside every file); a public one is
 *   listed below with the reason it needs no credential.
 */

/** The operations that take no credential, and why. */
const PUBLIC: Record<string, string> = {
  register: 'makes the business and its first credential: the caller has none yet',
  signIn: 'exchanges an email and password for an access token',
  forgotPassword:
    'the person cannot sign in: the mailed link, not the request, is the capability (test/auth/password-reset)',
  resetPassword:
    'the single-use, hour-long token of the mailed link is the capability (test/auth/password-reset: unknown, used and expired tokens)',
  completeSignIn:
    'the single-use, short-lived challenge token of the first step is the capability, with the code (test/auth/two-factor)',
  describeInvitation:
    'the invitation token in the body is the capability (test/team/invitations: unknown, used and expired tokens)',
  acceptInvitation:
    'the single-use invitation token in the body is the capability (test/team: unknown, used and expired tokens)',
  receiveProviderWebhook:
    "the payment provider's signature over the raw body, with the business's own signing secret, is the check " +
    '(test/general/online-payments-stripe: forged, stale, unsigned and misaddressed events refused)',
};

interface Named {
  /** The operation's name, unique in the contract: `createInvoice`. */
  name: string;
  /** The contract's top-level router it belongs to: `general`. */
  domain: string;
  route: AppRoute;
}

function namedRoutes(router: AppRouter, domain?: string): Named[] {
  return Object.entries(router).flatMap(([name, entry]) =>
    isAppRoute(entry) ? [{ name, domain: domain ?? name, route: entry }] : namedRoutes(entry, domain ?? name),
  );
}

const operationsOfContract = namedRoutes(contract);
const authOf = (route: AppRoute) => (route.metadata as RouteMetadata).auth;
const describeOperation = ({ domain, name, route }: Named) =>
  `${domain}.${name} (${route.method} ${route.path})`;

// ---------------------------------------------------------------------------------------------
// The fuzz test's view of the contract, through its own functions.

const fuzzOperations = loadOperations(OPENAPI_PATH);
const { requests, seed } = fuzzSettings();
const shares = sharesOf(fuzzOperations, requests);

/** `/v1/invoices/:id/payments` -> `/v1/invoices/{id}/payments`, as openapi.json spells it. */
const templateOf = (route: AppRoute) => route.path.replace(/:([A-Za-z_]\w*)/g, '{$1}');

const fuzzOperationOf = (route: AppRoute): Operation | undefined =>
  fuzzOperations.find((op) => op.method === route.method && op.template === templateOf(route));

/** What the generator needs to know; values that need not exist, for generation only. */
const generationContext: FuzzContext = {
  own: { accessToken: 'bms_at_own', fullKey: 'bms_sk_own', publicKey: 'bms_pk_own' },
  other: { accessToken: 'bms_at_other', fullKey: 'bms_sk_other', publicKey: 'bms_pk_other' },
  ids: Object.fromEntries(SEEDED_COLLECTIONS.map((collection) => [collection, [`${collection}_1`]])),
  foreignIds: ['foreign_1'],
  hints: {},
};

/** The operations of the contract for which `problem` says something, each with what it says. */
function problems(problem: (named: Named) => string | null): string[] {
  return operationsOfContract.flatMap((named) => {
    const found = problem(named);
    return found === null ? [] : [`${describeOperation(named)}: ${found}`];
  });
}

describe('the fuzz test covers every operation of the contract', () => {
  it('walks the whole contract', () => {
    expect(operationsOfContract.length).toBeGreaterThan(100);
    expect(new Set(operationsOfContract.map((o) => o.domain))).toEqual(new Set(Object.keys(contract)));
  });

  it('reads every operation from openapi.json with the credential kind of its metadata', () => {
    const missing = problems(({ route }) => {
      const op = fuzzOperationOf(route);
      if (!op) return 'absent from openapi.json (run `npm run openapi`)';
      return op.auth === authOf(route) ? null : `read as ${op.auth}, the contract says ${authOf(route)}`;
    });
    expect(missing, 'operations the fuzz test does not read as the contract has them').toEqual([]);
    expect(fuzzOperations).toHaveLength(operationsOfContract.length);
  });

  it(`gives every operation a share of the ${requests} requests (FUZZ_REQUESTS) and generates requests for it`, () => {
    const unfuzzed = problems(({ route }) => {
      const op = fuzzOperationOf(route);
      if (!op) return 'absent from openapi.json';
      const share = shares.get(op) ?? 0;
      if (share === 0) return 'gets no request: FUZZ_REQUESTS is below the number of operations';
      const generated = generateRequests(op, generationContext, Math.min(share, 5), seedOf(op, seed));
      if (generated.length === 0) return 'no request generated';
      const prefix = op.template.split('{')[0] ?? op.template;
      const stray = generated.find((req) => req.method !== op.method || !req.target.startsWith(prefix));
      return stray ? `a request generated for it goes elsewhere: ${stray.method} ${stray.target}` : null;
    });
    expect(unfuzzed, 'operations the fuzz test sends nothing to').toEqual([]);
  });

  it('seeds real ids for every path parameter, so generated paths reach rows', () => {
    const seeded = new Set<string>(SEEDED_COLLECTIONS);
    const unseeded = problems(({ route }) => {
      const op = fuzzOperationOf(route);
      const collections = (op?.path ?? []).map((p) => collectionOf(op!.template, p.name));
      const missing = collections.filter((collection) => !seeded.has(collection));
      return missing.length
        ? `seed ids of ${missing.join(', ')} in test/platform/fuzz.test.ts (SEEDED_COLLECTIONS)`
        : null;
    });
    expect(unseeded, 'path parameters whose collection the fuzz test does not seed').toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The per-route security builders, read from the security test files.

const TEST_DIR = new URL('../', import.meta.url);

/** Every `test/<domain>/security.test.ts`, by its path. */
const securityFiles = readdirSync(TEST_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => `${entry.name}/security.test.ts`)
  .filter((file) => {
    try {
      return readFileSync(new URL(file, TEST_DIR), 'utf8').includes('describeRouteSecurity(');
    } catch {
      return false;
    }
  });

/**
 * The operations a security file gives a builder: `route(<router path>.<operation>,` outside
 * comments. Operation names are unique in the contract (checked below), so the last name says which.
 */
function buildersIn(file: string): string[] {
  const source = readFileSync(new URL(file, TEST_DIR), 'utf8')
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');
  return [...source.matchAll(/\broute\(\s*(?:[\w$]+\s*\.\s*)*([\w$]+)\s*,/g)].map((m) => m[1]!);
}

const builders = new Map<string, string[]>();
for (const file of securityFiles) {
  for (const name of buildersIn(file)) builders.set(name, [...(builders.get(name) ?? []), file]);
}

describe('every authenticated operation of the contract has a security builder', () => {
  it('finds the security files and their builders', () => {
    expect(securityFiles.length).toBeGreaterThan(5);
    expect(builders.get('createInvoice')).toEqual(['general/security.test.ts']);
  });

  it('names every operation once in the whole contract, so a builder names exactly one', () => {
    const seen = new Map<string, string[]>();
    for (const named of operationsOfContract) {
      seen.set(named.name, [...(seen.get(named.name) ?? []), describeOperation(named)]);
    }
    const repeated = [...seen.values()].filter((list) => list.length > 1).map((list) => list.join(' and '));
    expect(repeated, 'operations sharing a name').toEqual([]);
  });

  it('has a builder in a test/<domain>/security.test.ts for every authenticated operation', () => {
    const missing = problems(({ name, route }) =>
      authOf(route) === 'none' || builders.has(name)
        ? null
        : `no route(..., build) in any test/*/security.test.ts (${securityFiles.length} files read)`,
    );
    expect(missing, 'authenticated operations without a security builder').toEqual([]);
  });

  it('gives each authenticated operation one builder only', () => {
    const twice = [...builders]
      .filter(([, files]) => files.length > 1)
      .map(([name, files]) => `${name}: ${files.join(', ')}`);
    expect(twice, 'operations with builders in several places').toEqual([]);
  });

  it('names only operations of the contract in builders', () => {
    const known = new Set(operationsOfContract.map((o) => o.name));
    const stray = [...builders]
      .filter(([name]) => !known.has(name))
      .map(([name, files]) => `${name} (${files.join(', ')})`);
    expect(stray, 'builders of operations the contract does not have').toEqual([]);
  });

  it('lists every public operation with the reason it takes no credential, and no other', () => {
    const unlisted = problems(({ name, route }) =>
      authOf(route) === 'none' && !(name in PUBLIC)
        ? 'public (auth none) but not listed in PUBLIC with its reason'
        : null,
    );
    expect(unlisted, 'public operations nobody said are public').toEqual([]);
    const stale = Object.keys(PUBLIC).filter(
      (name) => !operationsOfContract.some((o) => o.name === name && authOf(o.route) === 'none'),
    );
    expect(stale, 'PUBLIC names operations that are not public operations of the contract').toEqual([]);
  });
});
