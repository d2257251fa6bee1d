import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import SwaggerParser from '@apidevtools/swagger-parser';
import type { AppRoute } from '@ts-rest/core';
import type {
  OpenAPIObject,
  OperationObject,
  ResponseObject,
  SchemaObject,
  SecuritySchemeObject,
} from 'openapi3-ts/oas30';
import { describe, expect, it } from 'vitest';
import type { RouteAuth, RouteMetadata } from '../../contract/common/metadata.js';
import { renderOpenApiDocument, routesOf } from '../../contract/openapi.js';
import { raw } from '../support/business.js';
import { undocumentedHeaders } from '../support/documented-headers.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer();

const COMMITTED_PATH = new URL('../../openapi.json', import.meta.url);
const committed = readFileSync(COMMITTED_PATH, 'utf8');
const doc = JSON.parse(committed) as OpenAPIObject;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'] as const;

/** Every operation of the committed document, with its method and path. */
const operations = Object.entries(doc.paths ?? {}).flatMap(([path, item]) =>
  METHODS.filter((m) => item[m]).map((method) => ({
    label: `${method.toUpperCase()} ${path}`,
    path,
    method,
    op: item[method] as OperationObject,
  })),
);

/** `/v1/invoices/:id/payments` -> `/v1/invoices/{id}/payments` */
const openApiPath = (route: AppRoute) => route.path.replace(/:([A-Za-z_]\w*)/g, '{$1}');
const operationOf = (route: AppRoute): OperationObject | undefined =>
  doc.paths?.[openApiPath(route)]?.[route.method.toLowerCase() as (typeof METHODS)[number]];

/** The security requirement each kind of route metadata must publish. */
const EXPECTED_SECURITY: Record<RouteAuth, Record<string, string[]>[]> = {
  none: [],
  user: [{ bearerAuth: [] }],
  token: [{ bearerAuth: [] }, { apiKeyBearer: [] }],
  apiKey: [{ apiKeyHeader: [] }],
};

const routes = routesOf();

function firstDifference(a: string, b: string): string {
  const left = a.split('\n');
  const right = b.split('\n');
  const line = left.findIndex((l, i) => l !== right[i]);
  const at = line === -1 ? Math.min(left.length, right.length) : line;
  return `first difference at line ${at + 1}: committed ${JSON.stringify(left[at])}, generated ${JSON.stringify(right[at])}`;
}

describe('openapi.json', () => {
  it('is exactly what the contract generates (run `npm run openapi` when this fails)', () => {
    const generated = renderOpenApiDocument();
    const same = committed === generated;
    expect(
      same,
      same
        ? ''
        : `openapi.json is out of date with the contract: run \`npm run openapi\` and commit the result (${firstDifference(committed, generated)})`,
    ).toBe(true);
  });

  it('is accepted by an independent OpenAPI validator', async () => {
    await expect(SwaggerParser.validate(JSON.parse(committed) as never)).resolves.toBeTruthy();
  });

  it('is OpenAPI 3.0.x', () => {
    expect(doc.openapi).toMatch(/^3\.0\.\d+$/);
  });

  it('describes a non-empty set of operations, one per route of the contract', () => {
    expect(routes.length).toBeGreaterThan(10);
    expect(operations).toHaveLength(routes.length);
  });

  it.each(routes.map((route) => [`${route.method} ${route.path}`, route] as const))(
    '%s is documented with its summary, tag, operationId and security',
    (_label, route) => {
      const op = operationOf(route);
      expect(op, `${route.method} ${openApiPath(route)} is missing from openapi.json`).toBeDefined();
      const metadata = route.metadata as RouteMetadata;
      expect(op!.summary?.trim()).toBeTruthy();
      expect(op!.tags).toEqual([metadata.tag]);
      expect(op!.operationId).toMatch(/^\w+$/);
      expect(op!.security).toEqual(EXPECTED_SECURITY[metadata.auth]);
    },
  );

  it('gives every operation a unique operationId', () => {
    const ids = operations.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('declares every tag it uses', () => {
    const declared = new Set((doc.tags ?? []).map((t) => t.name));
    for (const { label, op } of operations) {
      for (const tag of op.tags ?? [])
        expect(declared.has(tag), `${label} uses undeclared tag ${tag}`).toBe(true);
    }
  });

  it('describes every response, never with the bare status code', () => {
    for (const { label, op } of operations) {
      const responses = Object.entries(op.responses ?? {});
      expect(responses.length, label).toBeGreaterThan(0);
      for (const [status, response] of responses) {
        const { description } = response as ResponseObject;
        expect(description?.trim(), `${label} ${status}`).toBeTruthy();
        expect(description, `${label} ${status}`).not.toBe(status);
        expect(description, `${label} ${status}`).not.toMatch(/^\s*\d{3}\s*$/);
        if (Number(status) >= 400) expect(description, `${label} ${status}`).not.toBe('Error');
      }
    }
  });

  it('documents 401 on every authenticated operation', () => {
    for (const route of routes.filter((r) => (r.metadata as RouteMetadata).auth !== 'none')) {
      expect(Object.keys(operationOf(route)!.responses ?? {}), `${route.method} ${route.path}`).toContain(
        '401',
      );
    }
  });

  it('documents 409 on every operation that takes an Idempotency-Key (IDEMPOTENCY_IN_PROGRESS)', () => {
    const keyed = operations.filter(({ op }) =>
      (op.parameters ?? []).some((p) => 'name' in p && p.name === 'idempotency-key'),
    );
    expect(keyed.length).toBeGreaterThan(10);
    expect(keyed.filter(({ op }) => !op.responses['409']).map(({ label }) => label)).toEqual([]);
  });

  it('defines the bearer and X-Api-Key security schemes that operations refer to', () => {
    const schemes = (doc.components?.securitySchemes ?? {}) as Record<string, SecuritySchemeObject>;
    expect(schemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.apiKeyBearer).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(schemes.apiKeyHeader).toMatchObject({ type: 'apiKey', in: 'header', name: 'X-Api-Key' });
    for (const { label, op } of operations) {
      for (const requirement of op.security ?? []) {
        for (const name of Object.keys(requirement)) {
          expect(schemes[name], `${label} refers to unknown scheme ${name}`).toBeDefined();
        }
      }
    }
  });
});

describe('openapi.json tells the whole truth about headers and dates', () => {
  const headerNames = (response: unknown) =>
    Object.keys((response as ResponseObject).headers ?? {}).map((h) => h.toLowerCase());

  it('lists X-Request-Id and the X-RateLimit headers on every response of every operation', () => {
    for (const { label, op } of operations) {
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        expect(headerNames(response), `${label} ${status}`).toEqual(
          expect.arrayContaining([
            'x-request-id',
            'x-ratelimit-limit',
            'x-ratelimit-remaining',
            'x-ratelimit-reset',
          ]),
        );
      }
    }
  });

  it('lists WWW-Authenticate on 401, Retry-After on 409 and 429, Idempotent-Replayed where a key is taken', () => {
    for (const { label, op } of operations) {
      const keyed = (op.parameters ?? []).some((p) => 'name' in p && p.name === 'idempotency-key');
      for (const [status, response] of Object.entries(op.responses ?? {})) {
        const names = headerNames(response);
        expect(names.includes('www-authenticate'), `${label} ${status}`).toBe(status === '401');
        expect(names.includes('retry-after'), `${label} ${status}`).toBe(
          status === '409' || status === '429',
        );
        expect(names.includes('idempotent-replayed'), `${label} ${status}`).toBe(
          keyed && Number(status) < 500,
        );
      }
    }
    for (const name of Object.keys(doc.components?.headers ?? {})) {
      expect((doc.components!.headers![name] as { description?: string }).description, name).toBeTruthy();
    }
  });

  it('gives every date field format: date (request bodies, queries and responses)', () => {
    const dates: string[] = [];
    const visit = (node: unknown, where: string) => {
      if (Array.isArray(node)) node.forEach((n, i) => visit(n, `${where}[${i}]`));
      else if (node && typeof node === 'object') {
        const obj = node as Record<string, unknown>;
        for (const [name, schema] of Object.entries((obj.properties ?? {}) as Record<string, SchemaObject>)) {
          if (/(^|_)date$|Date$|^valid_until$|^as_of$/.test(name) && schema.type === 'string') {
            dates.push(`${where}.${name}${schema.format === 'date' ? '' : ' (no format: date)'}`);
          }
        }
        if (obj.in === 'query' && typeof obj.name === 'string' && /(_date|Date|as_of)$/.test(obj.name)) {
          const schema = obj.schema as SchemaObject;
          dates.push(`${where}?${obj.name}${schema.format === 'date' ? '' : ' (no format: date)'}`);
        }
        for (const [key, value] of Object.entries(obj)) visit(value, `${where}.${key}`);
      }
    };
    visit(doc, '#');
    expect(dates.length).toBeGreaterThan(30);
    expect(dates.filter((d) => d.endsWith('(no format: date)'))).toEqual([]);
  });

  it('flags a header the server sends that the document does not list (the check every test file runs)', () => {
    const req = { method: 'GET', url: '/v1/customers?page=1' } as IncomingMessage;
    const response = (statusCode: number, names: string[]) =>
      ({ statusCode, getHeaderNames: () => names }) as unknown as ServerResponse;
    expect(
      undocumentedHeaders(req, response(200, ['x-request-id', 'x-ratelimit-limit', 'content-type'])),
    ).toBe(undefined);
    expect(undocumentedHeaders(req, response(200, ['x-request-id', 'x-debug-sql']))).toBe(
      'GET /v1/customers 200: headers not in openapi.json: x-debug-sql',
    );
    expect(undocumentedHeaders(req, response(200, ['retry-after']))).toMatch(/retry-after/);
    expect(undocumentedHeaders(req, response(429, ['retry-after']))).toBe(undefined);
  });
});

describe('GET /openapi.json', () => {
  it('serves the committed document', async () => {
    const res = await raw(server(), 'GET', '/openapi.json');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body).toEqual(doc);
    expect(res.body).toEqual(JSON.parse(renderOpenApiDocument()));
  });

  it('needs no credentials and ignores a bad one', async () => {
    const res = await raw(server(), 'GET', '/openapi.json', { token: 'bms_at_nope' });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe(doc.openapi);
  });
});
