import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultEnvelope } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import {
  IdempotencyHeadersSchema,
  IdParamsSchema,
  IdSchema,
  idOf,
  TimestampSchema,
} from '../common/schemas.js';
import { MarketingPageQuerySchema, marketingRoute } from './shared.js';

const c = initContract();

/** Contact fields a condition may test (and `attributes.<key>`). */
export const TEXT_FIELDS = ['email', 'name', 'first_name', 'last_name', 'company'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];
export const OPERATORS = [
  'eq',
  'neq',
  'contains',
  'starts_with',
  'gt',
  'gte',
  'lt',
  'lte',
  'in',
  'exists',
] as const;
export type Operator = (typeof OPERATORS)[number];
export const MAX_CONDITIONS = 100;
export const MAX_SEGMENT_CONTACT_IDS = 10_000;

const ATTRIBUTE_FIELD = /^attributes\.([\s\S]{1,40})$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:\d{2})$/;

/** What a field is, for the operators and values it takes. */
export type FieldKind = 'text' | 'attribute' | 'created_at' | 'unsubscribed';

export function fieldKind(field: string): FieldKind | null {
  if ((TEXT_FIELDS as readonly string[]).includes(field)) return 'text';
  if (field === 'created_at') return 'created_at';
  if (field === 'unsubscribed') return 'unsubscribed';
  return ATTRIBUTE_FIELD.test(field) ? 'attribute' : null;
}

/** The attribute key of an `attributes.<key>` field. */
export const attributeKey = (field: string): string => field.slice('attributes.'.length);

const OPERATORS_OF: Record<FieldKind, readonly Operator[]> = {
  text: OPERATORS,
  attribute: OPERATORS,
  created_at: ['eq', 'neq', 'gt', 'gte', 'lt', 'lte'],
  unsubscribed: ['eq', 'neq'],
};

const validDate = (value: string) =>
  (DATE.test(value) || TIMESTAMP.test(value)) &&
  !Number.isNaN(Date.parse(DATE.test(value) ? `${value}T00:00:00Z` : value)) &&
  (!DATE.test(value) || new Date(`${value}T00:00:00Z`).toISOString().startsWith(value));

const ScalarSchema = z.union([z.string().max(500), z.number().finite(), z.boolean()]);

export const ConditionSchema = extendApi(
  z
    .object({
      field: z
        .string()
        .min(1)
        .max(52)
        .describe(
          'email, name, first_name, last_name, company, created_at, unsubscribed, or attributes.<key> (a key of ' +
            '1-40 characters).',
        ),
      operator: z.enum(OPERATORS),
      value: z
        .union([
          ScalarSchema,
          z
            .array(z.union([z.string().max(500), z.number().finite()]))
            .min(1)
            .max(1000),
        ])
        .optional()
        .describe(
          'Text fields: a string (eq, neq and in compare case-insensitively; contains and starts_with too). ' +
            'Attributes: a string (eq, neq and in compare exactly; contains and starts_with case-insensitively), ' +
            'or a number to compare numerically. created_at: a date (compared by UTC day) ' +
            'or a timestamp. unsubscribed: a boolean. in: an array of 1-1000 values. exists: true (has a ' +
            'non-empty value) or false.',
        ),
    })
    .strict()
    .superRefine((condition, ctx) => {
      const kind = fieldKind(condition.field);
      if (kind === null) {
        ctx.addIssue({ code: 'custom', path: ['field'], message: `Unknown field "${condition.field}"` });
        return;
      }
      if (!OPERATORS_OF[kind].includes(condition.operator)) {
        ctx.addIssue({
          code: 'custom',
          path: ['operator'],
          message: `${condition.field} takes ${OPERATORS_OF[kind].join(', ')}`,
        });
        return;
      }
      const { value, operator } = condition;
      const fail = (message: string) => ctx.addIssue({ code: 'custom', path: ['value'], message });
      if (operator === 'exists') {
        if (typeof value !== 'boolean') fail('exists takes true or false');
      } else if (operator === 'in') {
        if (!Array.isArray(value)) fail('in takes an array of values');
        else if (kind !== 'attribute' && value.some((v) => typeof v !== 'string'))
          fail('in takes strings here');
      } else if (kind === 'unsubscribed') {
        if (typeof value !== 'boolean') fail('unsubscribed compares with true or false');
      } else if (kind === 'created_at') {
        if (typeof value !== 'string' || !validDate(value))
          fail('created_at compares with a date or a timestamp');
      } else if (operator === 'contains' || operator === 'starts_with') {
        if (typeof value !== 'string' || value.length === 0) fail(`${operator} takes a non-empty string`);
      } else if (kind === 'attribute') {
        if (typeof value !== 'string' && typeof value !== 'number') fail('Expected a string or a number');
      } else if (typeof value !== 'string') {
        fail('Expected a string');
      }
    }),
  { title: 'SegmentCondition', example: { field: 'attributes.plan', operator: 'eq', value: 'pro' } },
);
export type Condition = z.infer<typeof ConditionSchema>;

export const SegmentFiltersSchema = extendApi(
  z
    .object({
      match: z
        .enum(['all', 'any'])
        .default('all')
        .describe('Whether a contact must meet all or any conditions.'),
      conditions: z.array(ConditionSchema).max(MAX_CONDITIONS),
    })
    .strict(),
  // No title: a titled schema becomes a $ref, and OpenAPI 3.0 cannot make a $ref nullable.
  {
    description: `At most ${MAX_CONDITIONS} conditions. No conditions: every contact matches.`,
    example: {
      match: 'all',
      conditions: [
        { field: 'attributes.plan', operator: 'eq', value: 'pro' },
        { field: 'created_at', operator: 'gte', value: '2026-01-01' },
      ],
    },
  },
);
export type SegmentFilters = z.infer<typeof SegmentFiltersSchema>;

export const SegmentSchema = extendApi(
  z.object({
    id: idOf('seg'),
    name: z.string(),
    description: z.string().nullable(),
    status: z.enum(['active', 'archived']),
    filters: SegmentFiltersSchema.nullable().describe('null: the segment is only its listed contacts.'),
    contact_count: z.number().int().describe('Contacts in the segment now (listed or matching).'),
    listed_contacts: z.number().int().describe('Contacts given by id (contact_ids).'),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
  {
    title: 'Segment',
    example: {
      id: 'seg_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      name: 'Pro customers',
      description: 'Everyone on the pro plan',
      status: 'active',
      filters: { match: 'all', conditions: [{ field: 'attributes.plan', operator: 'eq', value: 'pro' }] },
      contact_count: 1240,
      listed_contacts: 0,
      created_at: '2026-11-24T09:30:00.000Z',
      updated_at: '2026-11-24T09:30:00.000Z',
    },
  },
);
export type Segment = z.infer<typeof SegmentSchema>;

const ContactIdsSchema = z
  .array(IdSchema)
  .max(MAX_SEGMENT_CONTACT_IDS)
  .describe(
    `Customers of the business to include whatever the filters say (at most ${MAX_SEGMENT_CONTACT_IDS}); ` +
      'unknown ids are 422 naming each.',
  );

export const CreateSegmentBodySchema = extendApi(
  z
    .object({
      name: z.string().trim().min(1).max(200),
      description: z.string().max(1000).nullable().optional(),
      filters: SegmentFiltersSchema.optional(),
      contact_ids: ContactIdsSchema.optional(),
    })
    .strict(),
  {
    title: 'CreateSegmentBody',
    description:
      'A contact is in the segment when it is listed in contact_ids or meets the filters. Without filters the ' +
      'segment is only its listed contacts.',
    example: {
      name: 'Pro customers',
      filters: { conditions: [{ field: 'attributes.plan', operator: 'eq', value: 'pro' }] },
    },
  },
);
export type CreateSegmentBody = z.infer<typeof CreateSegmentBodySchema>;

export const UpdateSegmentBodySchema = extendApi(
  z
    .object({
      name: z.string().trim().min(1).max(200).optional(),
      description: z.string().max(1000).nullable().optional(),
      filters: SegmentFiltersSchema.nullable().optional().describe('null removes the filters.'),
      contact_ids: ContactIdsSchema.optional().describe('Replaces the listed contacts.'),
      status: z.enum(['active', 'archived']).optional(),
    })
    .strict(),
  { title: 'UpdateSegmentBody', example: { status: 'archived' } },
);
export type UpdateSegmentBody = z.infer<typeof UpdateSegmentBodySchema>;

export const ListSegmentsQuerySchema = MarketingPageQuerySchema.extend({
  status: z.enum(['active', 'archived']).optional(),
});
export type ListSegmentsQuery = z.infer<typeof ListSegmentsQuerySchema>;

export const ContactSchema = extendApi(
  z.object({
    id: z.string(),
    name: z.string(),
    email: z.string().nullable(),
    first_name: z.string().nullable(),
    last_name: z.string().nullable(),
    company: z.string().nullable(),
    attributes: z.record(z.string()),
    unsubscribed: z.boolean(),
    created_at: TimestampSchema,
  }),
  { title: 'Contact', description: 'A customer of the business, as marketing sees it.' },
);
export type Contact = z.infer<typeof ContactSchema>;

export const segmentsContract = c.router({
  listSegments: {
    method: 'GET',
    path: '/marketing/segments',
    summary: 'List segments',
    description: 'Newest first, with live contact counts.',
    query: ListSegmentsQuerySchema,
    responses: {
      200: resultEnvelope({ segments: z.array(SegmentSchema), total_count: z.number().int() }),
      ...resultErrors(),
    },
    metadata: marketingRoute,
  },
  createSegment: {
    method: 'POST',
    path: '/marketing/segments',
    summary: 'Create a segment',
    headers: IdempotencyHeadersSchema,
    body: CreateSegmentBodySchema,
    responses: {
      201: resultEnvelope({ segment_id: z.string(), message: z.string(), segment: SegmentSchema }),
      ...resultErrors(409),
    },
    metadata: marketingRoute,
  },
  getSegment: {
    method: 'GET',
    path: '/marketing/segments/:id',
    summary: 'Get a segment',
    pathParams: IdParamsSchema,
    responses: { 200: resultEnvelope({ segment: SegmentSchema }), ...resultErrors(404) },
    metadata: marketingRoute,
  },
  listSegmentContacts: {
    method: 'GET',
    path: '/marketing/segments/:id/contacts',
    summary: 'Contacts in a segment',
    description: 'In the order contacts were created (oldest first, then id).',
    pathParams: IdParamsSchema,
    query: MarketingPageQuerySchema,
    responses: {
      200: resultEnvelope({ contacts: z.array(ContactSchema), total_count: z.number().int() }),
      ...resultErrors(404),
    },
    metadata: marketingRoute,
  },
  updateSegment: {
    method: 'PUT',
    path: '/marketing/segments/:id',
    summary: 'Update a segment',
    description: 'Partial update.',
    pathParams: IdParamsSchema,
    body: UpdateSegmentBodySchema,
    responses: {
      200: resultEnvelope({ message: z.string(), segment: SegmentSchema }),
      ...resultErrors(404),
    },
    metadata: marketingRoute,
  },
  deleteSegment: {
    method: 'DELETE',
    path: '/marketing/segments/:id',
    summary: 'Delete a segment',
    description:
      'The contacts stay. Refused with 409 RESOURCE_IN_USE while a scheduled, sending or paused campaign uses it.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: resultEnvelope({ message: z.string() }), ...resultErrors(404, 409) },
    metadata: marketingRoute,
  },
});
