import { isAppRoute, isAppRouteOtherResponse, type AppRoute, type AppRouter } from '@ts-rest/core';
import { generateSchema } from '@anatine/zod-openapi';
import { generateOpenApi } from '@ts-rest/open-api';
import type { OpenAPIObject, SchemaObject } from 'openapi3-ts/oas30';
import { errorStatusText } from './common/errors.js';
import { EVENT_NAMES } from './common/events.js';
import { csvListingOf, EXPORT_FORMATS } from './common/exports.js';
import type { RouteMetadata } from './common/metadata.js';
import { contract } from './index.js';
import { WEBHOOK_MESSAGE_SCHEMAS } from './webhooks/events.js';

const SUCCESS_TEXT: Record<string, string> = {
  '200': 'Success.',
  '201': 'Created.',
};

const TAGS = [
  { name: 'Auth', description: 'Registration, sign-in and sign-out. Access tokens are opaque and expire.' },
  {
    name: 'Team',
    description: 'The people of a business, their roles, and invitations to join it.',
  },
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
    name: 'Credit notes',
    description:
      "General group: credit notes against issued invoices, lowering what they owe, refunding, or adding to the customer's credit.",
  },
  {
    name: 'Recurring invoices',
    description:
      'General group: schedules that issue an invoice each week, month, quarter or year, and mail it when asked.',
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
    name: 'Audit log',
    description:
      'Every change made to the business, who made it and when; append-only, kept at least 2 years.',
  },
  {
    name: 'Imports',
    description:
      'Customers, products, vendors and employees brought in from a CSV file, with a dry run that reports ' +
      'what each row would do. Every list answers CSV too (`Accept: text/csv` or `?format=csv`).',
  },
  {
    name: 'Sandbox',
    description:
      'What an integrator tests against: mail the service captured instead of sending it (all mail, where ' +
      '`SMTP_URL` is not set).',
  },
  {
    name: 'Webhooks',
    description:
      'Signed HTTP POSTs to your endpoints when resources change, retried for about 3 days. See docs/webhooks.md.',
  },
];

type HeaderObject = {
  description: string;
  schema: { type: 'string' | 'integer'; enum?: string[] };
  example?: string | number;
};

/**
 * The headers the service sends (docs/decisions.md D13: the document tells the whole truth), as named
 * components that every response refers to. Transport headers (Content-Type, Content-Length, Date,
 * Connection, Keep-Alive, Vary and the CORS headers of the public loyalty interface) are HTTP's own.
 */
const RESPONSE_HEADERS: Record<string, HeaderObject> = {
  'X-Request-Id': {
    description:
      "Identifies the request in the service's logs: the `X-Request-Id` the client sent (1-128 characters of " +
      '`A-Z a-z 0-9 . _ : -`), otherwise a new UUID. Quote it when reporting a problem.',
    schema: { type: 'string' },
    example: '0b6f1f6e-3c1e-4f5e-9b43-2d9f3c7a1e52',
  },
  'X-RateLimit-Limit': {
    description:
      "Requests allowed per minute: the business's plan, or the per-IP limit without a credential.",
    schema: { type: 'integer' },
    example: 1000,
  },
  'X-RateLimit-Remaining': {
    description: 'Requests left in the current window.',
    schema: { type: 'integer' },
    example: 997,
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the current window resets.',
    schema: { type: 'integer' },
    example: 42,
  },
  'Retry-After': {
    description:
      'Seconds to wait before retrying: on 429 until the rate-limit window resets; on 409 while a request with ' +
      'the same Idempotency-Key is still running, or after a conflict with a concurrent change.',
    schema: { type: 'integer' },
    example: 1,
  },
  'Idempotent-Replayed': {
    description:
      '`true` when this is the stored response of an earlier request with the same `Idempotency-Key` (replayed, ' +
      'not run again); absent otherwise.',
    schema: { type: 'string', enum: ['true'] },
  },
  'Bms-Environment': {
    description:
      'The environment of the business the credential reached: `live`, or `sandbox` (its staging twin, whose ' +
      'mail is captured and whose clock can be advanced). Sent once the credential is accepted.',
    schema: { type: 'string', enum: ['live', 'sandbox'] },
    example: 'live',
  },
  'Content-Disposition': {
    description:
      'On a file: `inline` (a document) or `attachment` (a CSV export) with the name to save it under, e.g. ' +
      '`inline; filename="INV-000001.pdf"`.',
    schema: { type: 'string' },
    example: 'inline; filename="INV-000001.pdf"',
  },
  'WWW-Authenticate': {
    description:
      'The credential the operation takes: `Bearer` (an access token or a full API key in `Authorization`), or ' +
      '`ApiKey header="X-Api-Key"` on the public loyalty interface.',
    schema: { type: 'string' },
    example: 'Bearer',
  },
};

/** Listed on every response. */
const EVERY_RESPONSE = ['X-Request-Id', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'];

/**
 * Sent on every response too, the same whatever the operation: documented once (in the document's
 * description and as components) rather than on each of the responses.
 */
export const SECURITY_HEADERS = [
  'Cache-Control',
  'X-Content-Type-Options',
  'X-Frame-Options',
  'Referrer-Policy',
  'Strict-Transport-Security',
];

/** The headers a response of `status` carries, for an operation that takes an Idempotency-Key or not. */
function headersOf(status: string, idempotent: boolean, authenticated: boolean): string[] {
  return [
    ...EVERY_RESPONSE,
    ...(authenticated && status !== '401' ? ['Bms-Environment'] : []),
    ...(status === '401' ? ['WWW-Authenticate'] : []),
    ...(status === '409' || status === '429' ? ['Retry-After'] : []),
    ...(idempotent && Number(status) < 500 ? ['Idempotent-Replayed'] : []),
  ];
}

const headerRefs = (names: string[]) =>
  Object.fromEntries(names.map((name) => [name, { $ref: `#/components/headers/${name}` }]));

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

/**
 * The headers of every webhook delivery (docs/decisions.md D228), as the receiver reads them. A test
 * compares them with what the service really sends.
 */
export const DELIVERY_HEADERS: Record<string, { description: string; example: string }> = {
  'X-Webhook-Signature': {
    description: 'Hex HMAC-SHA256 of the raw body, keyed with the whole secret (`whsec_...`) as UTF-8 bytes.',
    example: '5f2b0c1e9d8a7f6e5d4c3b2a1908f7e6d5c4b3a29180f7e6d5c4b3a291807f6e',
  },
  'X-Webhook-Event': { description: 'The event name, as in the body.', example: 'invoice.paid' },
  'X-Webhook-Delivery-Id': {
    description: 'The delivery id, the same on every retry: deduplicate on it.',
    example: '0b0f7d5e-6b0f-4a4e-9d59-2b1b8f6f2a71',
  },
  'X-Webhook-Timestamp': { description: 'Unix seconds of this attempt.', example: '1795340400' },
  'webhook-id': {
    description: 'Standard Webhooks: the delivery id.',
    example: '0b0f7d5e-6b0f-4a4e-9d59-2b1b8f6f2a71',
  },
  'webhook-timestamp': {
    description: 'Standard Webhooks: unix seconds of this attempt.',
    example: '1795340400',
  },
  'webhook-signature': {
    description:
      'Standard Webhooks: `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed with the base64-decoded bytes ' +
      'after `whsec_`; for 24 h after a secret rotation, a second signature with the old secret follows, ' +
      'separated by a space.',
    example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  },
  'User-Agent': { description: 'The sender.', example: 'BMS-Webhooks/1.0' },
};

/**
 * The webhook deliveries, one per event of the catalogue, as the `x-webhooks` extension (OpenAPI
 * 3.0 has no `webhooks`; Redocly renders the extension): the body is the event's named schema.
 */
function webhookDocs(): { webhooks: Record<string, unknown>; schemas: Record<string, SchemaObject> } {
  const webhooks: Record<string, unknown> = {};
  const schemas: Record<string, SchemaObject> = {};
  for (const event of EVENT_NAMES) {
    const schema = generateSchema(WEBHOOK_MESSAGE_SCHEMAS[event], false, '3.0') as SchemaObject;
    const name = String(schema.title);
    schemas[name] = schema;
    webhooks[event] = {
      post: {
        summary: event,
        description:
          `Sent to every active webhook subscribed to \`${event}\`. Answer 2xx within 15 s to acknowledge; ` +
          'anything else (a redirect too) is retried for about 3 days; 410 Gone disables the webhook. ' +
          "Verify a signature (either scheme) and the timestamp before trusting the body (the SDK's " +
          '`verifyWebhook` does both).',
        operationId: `webhook_${event.replace(/[.]/g, '_')}`,
        tags: ['Webhooks'],
        // The receiver authenticates the sender by the signatures, not by a credential.
        security: [],
        parameters: Object.entries(DELIVERY_HEADERS).map(([header, { description, example }]) => ({
          name: header,
          in: 'header',
          required: true,
          description,
          schema: { type: 'string' },
          example,
        })),
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } },
        },
        responses: {
          '200': { description: 'Any 2xx acknowledges the delivery.' },
          '410': { description: 'Gone: the service disables the webhook.' },
        },
      },
    };
  }
  return { webhooks, schemas };
}

export function buildOpenApiDocument(): OpenAPIObject {
  const doc = generateOpenApi(
    contract,
    {
      info: {
        title: 'Business Management Service API',
        version: '1.0.0',
        license: { name: 'Apache-2.0', url: 'https://www.apache.org/licenses/LICENSE-2.0' },
        description:
          'Back-office API: invoices, customers and products (general group), finance, HR, marketing, ' +
          'loyalty and webhooks.\n\nAuthenticate with `Authorization: Bearer <access token or full API key>`; ' +
          'the public loyalty interface takes `X-Api-Key`. A credential reaches one environment: `live`, or the ' +
          '`sandbox` of `POST /v1/auth/token {"environment": "sandbox"}` (keys `bms_sk_test_...`, ' +
          '`bms_pk_test_...`); each answer to it names it in `Bms-Environment`, and a request may pin it by ' +
          'sending `Bms-Environment: live` or `sandbox` itself (a credential of the other environment is then 401; ' +
          'any other value is 400 BAD_REQUEST naming the header). Every response carries `X-Request-Id` and the ' +
          '`X-RateLimit-Limit`, `X-RateLimit-Remaining` and `X-RateLimit-Reset` (seconds until the window ' +
          'resets) headers; a 429 adds `Retry-After` (seconds). Each response below lists its headers; every ' +
          'response also carries `Cache-Control: no-store`, `X-Content-Type-Options: nosniff`, ' +
          '`X-Frame-Options: DENY`, `Referrer-Policy: no-referrer` and `Strict-Transport-Security`.\n\n' +
          '**Money.** The general group (`/v1/invoices`, `/v1/customers`, `/v1/products`, `/v1/quotes`, ' +
          '`/v1/employees`, `/v1/reports`) and the public loyalty earn take and give **major units** (a decimal: ' +
          '12.50 is 12.50 USD); every other group takes and gives integer **minor units** (1250 is 12.50 USD, ' +
          '1250 JPY is 1,250 JPY). Each money field says which.\n\n' +
          '**Limits.** JSON bodies up to 1 MiB (413), UTF-8 only (400); the request line and headers up to ' +
          '16 KiB together (414 for a URL over it, 431 otherwise).',
      },
      servers: [{ url: '/', description: 'This server' }],
      tags: TAGS,
      components: {
        headers: RESPONSE_HEADERS,
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
        const listing = csvListingOf(route);
        const idempotent = (operation.parameters ?? []).some(
          (p) => 'name' in p && p.in === 'header' && p.name.toLowerCase() === 'idempotency-key',
        );
        for (const [status, response] of Object.entries(operation.responses ?? {})) {
          const r = response as {
            description?: string;
            headers?: Record<string, unknown>;
            content?: Record<string, unknown>;
          };
          if (r.description === status) {
            r.description = SUCCESS_TEXT[status] ?? errorStatusText(Number(status));
          }
          const headers = headersOf(status, idempotent, metadata.auth !== 'none');
          const declared = route.responses[Number(status)];
          if (declared !== undefined && isAppRouteOtherResponse(declared)) {
            // A file (a document's PDF): its own media type, bytes rather than JSON, and its name.
            r.content = { [declared.contentType]: { schema: { type: 'string', format: 'binary' } } };
            headers.push('Content-Disposition');
          }
          if (status === '200' && listing) {
            // Every list also answers CSV (docs/decisions.md D155).
            r.content = {
              ...r.content,
              'text/csv': {
                schema: {
                  type: 'string',
                  description:
                    'Every matching item (all pages), in the order above, as RFC 4180 CSV in UTF-8 with a header ' +
                    `row; columns: ${listing.columns.map((c) => `\`${c}\``).join(', ')}.`,
                },
              },
            };
            headers.push('Content-Disposition');
          }
          r.headers = headerRefs(headers);
        }
        if (listing) {
          operation.parameters = [
            ...(operation.parameters ?? []).filter((p) => !('name' in p && p.name === 'format')),
            {
              name: 'format',
              in: 'query',
              required: false,
              description:
                '`csv` answers every matching item as CSV, like `Accept: text/csv` (paging parameters are then ' +
                'ignored); `json` (the default) one page.',
              schema: { type: 'string', enum: [...EXPORT_FORMATS] },
            },
          ];
        }
        if (operation.requestBody && 'description' in operation.requestBody) {
          operation.requestBody.description = 'JSON body (at most 1 MiB).';
          operation.requestBody.required = true;
          if (route.method === 'POST' && route.contentType === 'multipart/form-data') {
            operation.requestBody = uploadRequestBody(route.path);
          }
        }
        return { ...operation, tags: [metadata.tag], security: securityFor(metadata.auth) };
      },
    },
  );
  const { webhooks, schemas } = webhookDocs();
  doc.components = {
    ...doc.components,
    schemas: { ...(doc.components?.schemas ?? {}), ...schemas },
  } as typeof doc.components;
  (doc as OpenAPIObject & { 'x-webhooks'?: unknown })['x-webhooks'] = webhooks;
  fixSchemas(doc);
  return doc;
}

/**
 * An upload's request body: the file as the body itself, or as the `file` field of a form. A CSV
 * import takes CSV; a bank statement also OFX and CAMT.053 XML, with its options as form fields.
 */
function uploadRequestBody(path: string) {
  const statement = path.endsWith('/statements');
  const file = {
    type: 'string',
    format: 'binary',
    description: statement ? 'The statement file.' : 'The CSV file.',
  };
  const options = statement
    ? {
        format: { type: 'string', enum: ['csv', 'ofx', 'camt053'] },
        dry_run: { type: 'string', enum: ['true', 'false'] },
        all_or_nothing: { type: 'string', enum: ['true', 'false'] },
        mapping: { type: 'string', description: 'CSV: a JSON object naming the column of each field.' },
        date_format: { type: 'string', enum: ['YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY', 'DD.MM.YYYY'] },
      }
    : {};
  const text = { schema: { type: 'string' } };
  return {
    required: true,
    description: statement
      ? 'The statement file (CSV, OFX/QFX or CAMT.053; at most 10 MiB), the options as form fields or query parameters.'
      : 'The CSV file (UTF-8, at most 10 MiB).',
    content: {
      'text/csv': text,
      ...(statement && { 'application/x-ofx': text, 'application/xml': text }),
      'multipart/form-data': {
        schema: { type: 'object', required: ['file'], properties: { file, ...options } },
      },
    },
  } as NonNullable<OperationObject['requestBody']>;
}

/** The document as it is committed: stable key order, two-space indent, trailing newline. */
export function renderOpenApiDocument(): string {
  return `${JSON.stringify(buildOpenApiDocument(), null, 2)}\n`;
}
