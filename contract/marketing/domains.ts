import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultEnvelope } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { IdempotencyHeadersSchema, IdParamsSchema, idOf, TimestampSchema } from '../common/schemas.js';
import { marketingRoute } from './shared.js';

const c = initContract();

/** A DNS host name of at least two labels, letters, digits and hyphens, lower-cased. */
const DOMAIN =
  /^(?=.{4,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

export const DomainNameSchema = extendApi(
  z
    .string()
    .trim()
    .toLowerCase()
    .transform((d) => (d.endsWith('.') ? d.slice(0, -1) : d))
    .pipe(z.string().regex(DOMAIN, 'Expected a domain name such as mail.example.com')),
  { description: 'Case-insensitive; unique per business.', example: 'mail.example.com' },
);

export const DnsRecordSchema = z.object({
  purpose: z.enum(['ownership', 'dkim']),
  type: z.literal('TXT'),
  name: z.string().describe('Host name of the record.'),
  value: z.string().describe('Exact TXT value to publish.'),
  verified: z.boolean().describe('Whether the last verification found this record.'),
});

export const DomainSchema = extendApi(
  z.object({
    id: idOf('dom'),
    domain: z.string(),
    status: z.enum(['pending', 'verified']),
    verification: z
      .array(DnsRecordSchema)
      .describe('The TXT ownership record and the DKIM public key record to publish, in that order.'),
    dkim_selector: z.string(),
    verified_at: TimestampSchema.nullable(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
  {
    title: 'SenderDomain',
    example: {
      id: 'dom_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      domain: 'mail.example.com',
      status: 'pending',
      verification: [
        {
          purpose: 'ownership',
          type: 'TXT',
          name: '_bms-verification.mail.example.com',
          value: 'bms-verification=4f1c0d9e2b7a4e3f9a6d1c8b5e2f7a0d',
          verified: false,
        },
        {
          purpose: 'dkim',
          type: 'TXT',
          name: 'bms1._domainkey.mail.example.com',
          value: 'v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA...',
          verified: false,
        },
      ],
      dkim_selector: 'bms1',
      verified_at: null,
      created_at: '2026-11-24T09:30:00.000Z',
      updated_at: '2026-11-24T09:30:00.000Z',
    },
  },
);
export type Domain = z.infer<typeof DomainSchema>;

export const CreateDomainBodySchema = extendApi(z.object({ domain: DomainNameSchema }).strict(), {
  title: 'CreateDomainBody',
  example: { domain: 'mail.example.com' },
});
export type CreateDomainBody = z.infer<typeof CreateDomainBodySchema>;

export const domainsContract = c.router({
  listDomains: {
    method: 'GET',
    path: '/marketing/domains',
    summary: 'List sender domains',
    description: 'Every sender domain of the business, by domain name.',
    responses: { 200: resultEnvelope({ domains: z.array(DomainSchema) }), ...resultErrors() },
    metadata: marketingRoute,
  },
  createDomain: {
    method: 'POST',
    path: '/marketing/domains',
    summary: 'Add a sender domain',
    description:
      'Makes an ownership token and a DKIM key pair (RSA 2048; the private key is sealed at rest) and answers the ' +
      'two TXT records to publish. A domain the business already has is 409 CONFLICT; at most 50 domains per ' +
      'business (422 LIMIT_EXCEEDED). Domains listed in the MAIL_TRUSTED_DOMAINS setting are verified at once.',
    headers: IdempotencyHeadersSchema,
    body: CreateDomainBodySchema,
    responses: { 201: resultEnvelope({ domain: DomainSchema }), ...resultErrors(409) },
    metadata: marketingRoute,
  },
  getDomain: {
    method: 'GET',
    path: '/marketing/domains/:id',
    summary: 'Get a sender domain',
    pathParams: IdParamsSchema,
    responses: { 200: resultEnvelope({ domain: DomainSchema }), ...resultErrors(404) },
    metadata: marketingRoute,
  },
  verifyDomain: {
    method: 'POST',
    path: '/marketing/domains/:id/verify',
    summary: 'Verify a sender domain',
    description:
      'Looks both TXT records up in DNS; the domain becomes verified when both are published as answered. ' +
      'Otherwise it stays pending and each record says whether it was found. A verified domain stays verified.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: resultEnvelope({ domain: DomainSchema }), ...resultErrors(404) },
    metadata: marketingRoute,
  },
  deleteDomain: {
    method: 'DELETE',
    path: '/marketing/domains/:id',
    summary: 'Delete a sender domain',
    description: 'Refused with 409 RESOURCE_IN_USE while a template sends from an address at the domain.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: resultEnvelope({ message: z.string() }), ...resultErrors(404, 409) },
    metadata: marketingRoute,
  },
});
