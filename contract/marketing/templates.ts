import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultEnvelope } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import {
  EmailSchema,
  IdempotencyHeadersSchema,
  IdParamsSchema,
  IdSchema,
  idOf,
  TimestampSchema,
} from '../common/schemas.js';
import { MarketingPageQuerySchema, marketingRoute } from './shared.js';

const c = initContract();

export const TEMPLATE_STATUSES = ['draft', 'published', 'archived'] as const;
/** 512 KiB of HTML. */
export const MAX_HTML_BODY = 512 * 1024;
export const MAX_SUBJECT = 255;

const MERGE_TAGS =
  'Merge tags: {{first_name}}, {{last_name}}, {{name}}, {{email}}, {{company}}, {{attributes.<key>}}; HTML-escaped ' +
  'in html_body, unknown tags render empty; {{{x}}}, {{&x}}, sections and partials are refused (422).';

const TemplateFields = {
  id: idOf('tpl'),
  name: z.string(),
  subject: z.string(),
  from_name: z.string().nullable(),
  from_email: z.string().nullable(),
  status: z.enum(TEMPLATE_STATUSES),
  created_at: TimestampSchema,
  updated_at: TimestampSchema,
};

export const TemplateSummarySchema = extendApi(z.object(TemplateFields), {
  title: 'EmailTemplateSummary',
  description: 'A template without its bodies (the list).',
});
export type TemplateSummary = z.infer<typeof TemplateSummarySchema>;

export const TemplateSchema = extendApi(
  z.object({
    ...TemplateFields,
    html_body: z.string(),
    text_body: z.string().describe('As saved, or derived from html_body when none was given.'),
    text_body_derived: z.boolean().describe('True when text_body is derived from html_body.'),
  }),
  {
    title: 'EmailTemplate',
    example: {
      id: 'tpl_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      name: 'Welcome',
      subject: 'Welcome, {{first_name}}',
      from_name: 'Acme',
      from_email: 'news@mail.example.com',
      status: 'draft',
      html_body: '<p>Hello {{first_name}},</p><p>Welcome to Acme.</p>',
      text_body: 'Hello {{first_name}},\n\nWelcome to Acme.',
      text_body_derived: true,
      created_at: '2026-11-24T09:30:00.000Z',
      updated_at: '2026-11-24T09:30:00.000Z',
    },
  },
);
export type Template = z.infer<typeof TemplateSchema>;

/** UTF-8 bytes of a string (the contract also runs in browsers, without Buffer). */
const utf8Length = (s: string) => new TextEncoder().encode(s).length;

const SubjectSchema = z.string().trim().min(1).max(MAX_SUBJECT);
const HtmlBodySchema = z
  .string()
  .min(1)
  .max(MAX_HTML_BODY)
  .refine((s) => utf8Length(s) <= MAX_HTML_BODY, {
    message: `At most ${MAX_HTML_BODY} bytes of HTML`,
  });
const TextBodySchema = z
  .string()
  .max(MAX_HTML_BODY)
  .describe('Plain-text part; derived from html_body when absent or null.');
const FromEmailSchema = EmailSchema.describe(
  'An address at a verified sender domain of the business (422 otherwise).',
);

export const CreateTemplateBodySchema = extendApi(
  z
    .object({
      name: z.string().trim().min(1).max(200),
      subject: SubjectSchema,
      html_body: HtmlBodySchema,
      text_body: TextBodySchema.nullable().optional(),
      from_name: z.string().trim().min(1).max(200).nullable().optional(),
      from_email: FromEmailSchema.nullable().optional(),
      status: z.enum(TEMPLATE_STATUSES).optional().describe('Default draft.'),
    })
    .strict(),
  {
    title: 'CreateTemplateBody',
    description: MERGE_TAGS,
    example: {
      name: 'Welcome',
      subject: 'Welcome, {{first_name}}',
      html_body: '<p>Hello {{first_name}},</p><p>Welcome to Acme.</p>',
      from_name: 'Acme',
      from_email: 'news@mail.example.com',
    },
  },
);
export type CreateTemplateBody = z.infer<typeof CreateTemplateBodySchema>;

export const UpdateTemplateBodySchema = extendApi(
  z
    .object({
      name: z.string().trim().min(1).max(200).optional(),
      subject: SubjectSchema.optional(),
      html_body: HtmlBodySchema.optional(),
      text_body: TextBodySchema.nullable().optional().describe('null: derive it from html_body from now on.'),
      from_name: z.string().trim().min(1).max(200).nullable().optional(),
      from_email: FromEmailSchema.nullable().optional(),
      status: z.enum(TEMPLATE_STATUSES).optional(),
    })
    .strict(),
  { title: 'UpdateTemplateBody', description: MERGE_TAGS, example: { status: 'published' } },
);
export type UpdateTemplateBody = z.infer<typeof UpdateTemplateBodySchema>;

export const ListTemplatesQuerySchema = MarketingPageQuerySchema.extend({
  status: z.enum(TEMPLATE_STATUSES).optional(),
});
export type ListTemplatesQuery = z.infer<typeof ListTemplatesQuerySchema>;

export const PreviewBodySchema = extendApi(
  z.object({ customer_id: IdSchema.optional().describe('Default: sample values.') }).strict(),
  { title: 'PreviewTemplateBody' },
);
export type PreviewBody = z.infer<typeof PreviewBodySchema>;

export const PreviewSchema = extendApi(
  z.object({
    subject: z.string(),
    html: z.string().describe('With CSS inlined for mail clients.'),
    text: z.string(),
  }),
  { title: 'TemplatePreview' },
);
export type Preview = z.infer<typeof PreviewSchema>;

export const templatesContract = c.router({
  listTemplates: {
    method: 'GET',
    path: '/marketing/templates',
    summary: 'List templates',
    description: 'Newest first, without their bodies.',
    query: ListTemplatesQuerySchema,
    responses: {
      200: resultEnvelope({ templates: z.array(TemplateSummarySchema), total_count: z.number().int() }),
      ...resultErrors(),
    },
    metadata: marketingRoute,
  },
  createTemplate: {
    method: 'POST',
    path: '/marketing/templates',
    summary: 'Create a template',
    description: MERGE_TAGS,
    headers: IdempotencyHeadersSchema,
    body: CreateTemplateBodySchema,
    responses: {
      201: resultEnvelope({ template_id: z.string(), message: z.string(), template: TemplateSchema }),
      ...resultErrors(409),
    },
    metadata: marketingRoute,
  },
  getTemplate: {
    method: 'GET',
    path: '/marketing/templates/:id',
    summary: 'Get a template',
    pathParams: IdParamsSchema,
    responses: { 200: resultEnvelope({ template: TemplateSchema }), ...resultErrors(404) },
    metadata: marketingRoute,
  },
  updateTemplate: {
    method: 'PUT',
    path: '/marketing/templates/:id',
    summary: 'Update a template',
    description: `Partial update. ${MERGE_TAGS}`,
    pathParams: IdParamsSchema,
    body: UpdateTemplateBodySchema,
    responses: {
      200: resultEnvelope({ message: z.string(), template: TemplateSchema }),
      ...resultErrors(404),
    },
    metadata: marketingRoute,
  },
  deleteTemplate: {
    method: 'DELETE',
    path: '/marketing/templates/:id',
    summary: 'Delete a template',
    description: 'Refused with 409 RESOURCE_IN_USE while a scheduled, sending or paused campaign uses it.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: resultEnvelope({ message: z.string() }), ...resultErrors(404, 409) },
    metadata: marketingRoute,
  },
  previewTemplate: {
    method: 'POST',
    path: '/marketing/templates/:id/preview',
    summary: 'Preview a template',
    description:
      'Subject, HTML (CSS inlined) and text rendered for a contact of the business, or with sample values. An ' +
      'unknown customer_id is 422.',
    pathParams: IdParamsSchema,
    body: PreviewBodySchema,
    responses: { 200: resultEnvelope({ preview: PreviewSchema }), ...resultErrors(404) },
    metadata: marketingRoute,
  },
});
