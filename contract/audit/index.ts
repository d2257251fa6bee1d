import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultEnvelope } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { offsetPageQuery } from '../common/pagination.js';
import { TimestampSchema, dateTimeField, idOf } from '../common/schemas.js';

const c = initContract();

export const AuditActorKindSchema = z.enum(['user', 'api_key']);

export const AuditOutcomeSchema = extendApi(
  z
    .enum(['success', 'denied'])
    .describe(
      '`success`: a change that succeeded. `denied`: an attempt a valid credential made and was refused ' +
        '(403 FORBIDDEN) for lack of the permission, role or scope the operation needs; at most one such ' +
        'entry per actor and operation a minute.',
    ),
  { title: 'AuditOutcome' },
);
export type AuditOutcome = z.infer<typeof AuditOutcomeSchema>;

export const AuditSummarySchema = extendApi(
  z.object({
    label: z
      .string()
      .nullable()
      .describe(
        "The resource as people name it when the change was made: an invoice's number, a customer's name.",
      ),
    amount: extendApi(
      z
        .number()
        .int()
        .nullable()
        .describe(
          'The money the change moved (a payment recorded), in minor units of `currency`: 20000 is 200.00 GBP.',
        ),
      { example: 20000 },
    ),
    currency: z.string().nullable().describe('The currency of `amount`.'),
  }),
  { title: 'AuditSummary' },
);
export type AuditSummary = z.infer<typeof AuditSummarySchema>;

export const AuditEntrySchema = extendApi(
  z.object({
    id: idOf('aud'),
    occurred_at: TimestampSchema,
    actor: z.object({
      kind: AuditActorKindSchema.describe('`user`: a person signed in; `api_key`: an API key.'),
      id: z.string().describe('The user id, or the API key id.'),
    }),
    operation: z
      .string()
      .describe('The contract operation that made the change, or was refused (`createInvoice`).'),
    outcome: AuditOutcomeSchema,
    resource_id: z
      .string()
      .nullable()
      .describe(
        "The resource changed: the path's id, else the id the answer gave, else null. For a refusal, the path's id.",
      ),
    request_id: z.string().describe('The `X-Request-Id` of the request.'),
    summary: AuditSummarySchema.nullable().describe(
      'What the change was about, read from its request and answer: null when they name nothing, on ' +
        'refusals and on entries older than this field.',
    ),
  }),
  {
    title: 'AuditEntry',
    example: {
      id: 'aud_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      occurred_at: '2026-11-21T09:30:00.000Z',
      actor: { kind: 'user', id: 'usr_01JD7X2R5VQ8N3K4M6P9T1W2Y4' },
      operation: 'createCustomer',
      outcome: 'success',
      resource_id: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y5',
      request_id: '3f1c8d2e-5b7a-4c1e-9f0a-2d6b8e4c7a91',
      summary: { label: 'Ada Lovelace', amount: null, currency: null },
    },
  },
);
export type AuditEntry = z.infer<typeof AuditEntrySchema>;

const FilterText = z.string().trim().min(1).max(128);

export const ListAuditLogQuerySchema = offsetPageQuery(10_000_000).extend({
  actor_id: FilterText.optional().describe('Only changes by this user or API key.'),
  resource_id: FilterText.optional().describe('Only changes of this resource.'),
  operation: FilterText.optional().describe('Only this operation (`createInvoice`).'),
  outcome: AuditOutcomeSchema.optional().describe(
    'Only changes that succeeded (`success`) or only refused attempts (`denied`); both unless told.',
  ),
  from: dateTimeField('Only changes at or after this instant.').optional(),
  to: dateTimeField('Only changes before this instant.').optional(),
});
export type ListAuditLogQuery = z.infer<typeof ListAuditLogQuerySchema>;

export const auditLogContract = c.router({
  listAuditLog: {
    method: 'GET',
    path: '/audit-log',
    summary: 'List the audit log',
    description:
      'Every change made to the business (any request other than a read that succeeded), newest first: who (a ' +
      'user or an API key), when, the operation, the resource and the request id, written in the same transaction ' +
      'as the change (`outcome: success`). Refused attempts are there too (`outcome: denied`): a request, a read ' +
      'included, that a valid credential made and was refused with 403 FORBIDDEN for lack of the permission, ' +
      'role or scope its operation needs; at most one per actor and operation a minute. Filters by actor, ' +
      'resource, operation, outcome and a date range (`from` inclusive, `to` exclusive); ' +
      '`limit` (default 50, max 200) and `offset`. Owners and admins only. Entries cannot be changed or deleted ' +
      'and are kept at least 2 years.',
    query: ListAuditLogQuerySchema,
    responses: {
      200: resultEnvelope({ entries: z.array(AuditEntrySchema), total_count: z.number().int() }),
      ...resultErrors(),
    },
    metadata: meta('token', 'Audit log'),
  },
});
