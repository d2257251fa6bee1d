import { isAppRoute, type AppRoute, type AppRouter } from '@ts-rest/core';
import { generateOpenApi } from '@ts-rest/open-api';
import type { OpenAPIObject } from 'openapi3-ts/oas30';
import { errorStatusText } from './common/errors.js';
import type { RouteMetadata } from './common/metadata.js';
import { contract } from './index.js';

const SUCCESS_TEXT: Record<string, string> = {
  '200': 'Success.',
  '201': 'Created.',
};

const TAGS = [
  { name: 'Auth', description: 'Registration, sign-in and sign-out. Access tokens are opaque and expire.' },
  {
    name: 'API keys',
    description: 'Keys for server-to-server (`full`) and point-of-sale (`public_loyalty`) use.',
  },
  {
    name: 'Customers',
    description: "General group: the business's customers, who are also its marketing contacts.",
  },
  { name: 'Products', description: 'General group: products with a SKU unique per business.' },
  { name: 'Invoices', description: 'General group: invoices from draft to paid, with payments.' },
  {
    name: 'Quotes',
    description: 'General group: quotes from draft to sent, accepted or declined, converted into invoices.',
  },
  {
    name: 'HR',
    description:
      'Departments, employees and their leave requests; also the general-group employee list (`/v1/employees`).',
  },
  {
    name: 'Finance',
    description:
      'Vendors, bills and their payments, the double-entry ledger every bill and invoice posts to, the trial ' +
      'balance, the sales schedule, the revenue calculator, profit and loss, and the VAT registration threshold.',
  },
  {
    name: 'Marketing',
    description:
      "Sender domains with DKIM, segments of contacts (the business's customers) compiled from filter conditions, " +
      'and email templates with merge tags.',
  },
  {
    name: 'Loyalty',
    description:
      'The loyalty program: tiers, members and their point ledger, rewards, redemptions and vouchers.',
  },
  {
    name: 'Public loyalty',
    description:
      'For point-of-sale and e-commerce systems, with `X-Api-Key`: balance, earning, redeeming, the rewards ' +
      'catalogue and voucher checks. Browsers may call it from the origins in `CORS_ORIGINS`.',
  },
  {
    name: 'Webhooks',
    description:
      'Signed HTTP POSTs to your endpoints when resources change, retried for about 3 days. See docs/webhooks.md.',
  },
];

/** The operation type of ts-rest's own openapi3-ts copy. */
type OperationObject = Parameters<
  NonNullable<NonNullable<Parameters<typeof generateOpenApi>[2]>['operationMapper']>
>[0];

function securityFor(auth: RouteMetadata['auth']): OperationObject['security'] {
  switch (auth) {
    case 'user':
      return [{ bearerAuth: [] }];
    case 'token':
      return [{ bearerAuth: [] }, { apiKeyBearer: [] }];
    case 'apiKey':
      return [{ apiKeyHeader: [] }];
    case 'none':
      return [];
  }
}

/**
 * `@ts-rest/open-api` emits constructs OpenAPI 3.0 does not allow: a numeric `exclusiveMinimum`
 * (3.1 style), `additionalProperties: { nullable: true }` without a type, nullable enums without
 * null among their values, and nullable references. Rewrite them.
 */
function fixSchemas(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(fixSchemas);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const obj = node as Record<string, unknown>;
  for (const key of ['exclusiveMinimum', 'exclusiveMaximum'] as const) {
    const bound = key === 'exclusiveMinimum' ? 'minimum' : 'maximum';
    if (typeof obj[key] === 'number') {
      obj[bound] = obj[key];
      obj[key] = true;
    }
  }
  // A nullable reference comes out as `{ nullable, allOf: [$ref] }`, which validators read as "never
  // null"; say "the reference or null" instead.
  if (obj.nullable === true && obj.type === undefined && Array.isArray(obj.allOf) && obj.allOf.length === 1) {
    obj.anyOf = [obj.allOf[0], { type: 'string', nullable: true, enum: [null] }];
    delete obj.allOf;
    delete obj.nullable;
  }
  // OpenAPI 3.0.3: a nullable enum must list null among its values.
  if (obj.nullable === true && Array.isArray(obj.enum) && !obj.enum.includes(null)) obj.enum.push(null);
  const extra = obj.additionalProperties as Record<string, unknown> | undefined;
  if (extra && typeof extra === 'object' && !('type' in extra) && !('$ref' in extra) && !('oneOf' in extra)) {
    obj.additionalProperties = {};
  }
  Object.values(obj).forEach(fixSchemas);
}

function allRoutes(router: AppRouter): AppRoute[] {
  return Object.values(router).flatMap((v) => (isAppRoute(v) ? [v] : allRoutes(v)));
}

export function routesOf(router: AppRouter = contract): AppRoute[] {
  return allRoutes(router);
}

export function buildOpenApiDocument(): OpenAPIObject {
  const doc = generateOpenApi(
    contract,
    {
      info: {
        title: 'Business Management Service API',
        version: '1.0.0',
        license: { name: 'Proprietary' },
        description:
          'Back-office API: invoices, customers and products (general group), finance, HR, marketing, ' +
          'loyalty and webhooks.\n\nAuthenticate with `Authorization: Bearer <access token or full API key>`; ' +
          'the public loyalty interface takes `X-Api-Key`. Every response carries `X-Request-Id` and the ' +
          '`X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (seconds until the window ' +
          'resets) headers; a 429 adds `Retry-After` (seconds).',
      },
      servers: [{ url: '/', description: 'This server' }],
      tags: TAGS,
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'Access token from `POST /v1/auth/token` or `POST /v1/auth/register`.',
          },
          apiKeyBearer: {
            type: 'http',
            scheme: 'bearer',
            description: 'A `full` API key (`bms_sk_...`) sent as `Authorization: Bearer`.',
          },
          apiKeyHeader: {
            type: 'apiKey',
            in: 'header',
            name: 'X-Api-Key',
            description: 'An API key (`bms_pk_...` or `bms_sk_...`) for the public loyalty interface.',
          },
        },
      },
    },
    {
      setOperationId: true,
      operationMapper: (operation: OperationObject, route: AppRoute): OperationObject => {
        const metadata = route.metadata as RouteMetadata;
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          const r = response as { description?: string };
          if (r.description === status) {
            r.description = SUCCESS_TEXT[status] ?? errorStatusText(Number(status));
          }
        }
        if (operation.requestBody && 'description' in operation.requestBody) {
          operation.requestBody.description = 'JSON body (at most 1 MiB).';
          operation.requestBody.required = true;
        }
        return { ...operation, tags: [metadata.tag], security: securityFor(metadata.auth) };
      },
    },
  );
  fixSchemas(doc);
  return doc;
}

/** The document as it is committed: stable key order, two-space indent, trailing newline. */
export function renderOpenApiDocument(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
