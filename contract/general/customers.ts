import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { dataEnvelope, pageEnvelope } from '../common/envelopes.js';
import { generalErrors } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { PageQuerySchema, sortQuery } from '../common/pagination.js';
import {
  AddressSchema,
  EmailSchema,
  IdParamsSchema,
  IdempotencyHeadersSchema,
  TimestampSchema,
  idOf,
} from '../common/schemas.js';

const c = initContract();

/** The postal address every domain shares (common/schemas.ts), under the general group's name too. */
export { AddressSchema } from '../common/schemas.js';

export const AttributesSchema = extendApi(
  z
    .record(z.string().min(1).max(40), z.string().max(500))
    .refine((a) => Object.keys(a).length <= 50, { message: 'At most 50 attributes' }),
  { description: 'Custom string attributes (at most 50 keys of up to 40 characters, values up to 500).' },
);

const customerFields = {
  name: z.string().trim().min(1).max(200),
  email: EmailSchema.nullable(),
  phone: z.string().max(40).nullable(),
  company: z.string().max(200).nullable(),
  address: AddressSchema.nullable(),
  first_name: z
    .string()
    .max(100)
    .nullable()
    .describe('Derived from `name` at the first space when not given.'),
  last_name: z.string().max(100).nullable(),
  attributes: AttributesSchema,
  unsubscribed: z.boolean().describe('True when the contact opted out of marketing email.'),
};

export const CustomerSchema = extendApi(
  z.object({
    id: idOf('cus'),
    ...customerFields,
    credit_balance: extendApi(z.record(z.string(), z.number()), {
      description:
        'The customer\'s credit by currency, in major units (`{"USD": 50}`), from credit notes\' ' +
        '`customer_credit_amount`; applied to the next invoice of that currency when it is issued (a payment ' +
        'with method `credit`). Never below zero; currencies without credit are left out.',
      example: { USD: 50 },
    }),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
  {
    title: 'Customer',
    example: {
      id: 'cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      phone: '+44 20 7946 0000',
      company: 'Analytical Engines Ltd',
      address: { line1: '12 St James Square', city: 'London', country: 'GB' },
      first_name: 'Ada',
      last_name: 'Lovelace',
      attributes: { segment: 'vip' },
      unsubscribed: false,
      credit_balance: {},
      created_at: '2026-11-21T09:30:00.000Z',
      updated_at: '2026-11-21T09:30:00.000Z',
    },
  },
);
export type Customer = z.infer<typeof CustomerSchema>;

export const CreateCustomerBodySchema = extendApi(
  z
    .object({
      name: customerFields.name,
      email: customerFields.email.optional(),
      phone: customerFields.phone.optional(),
      company: customerFields.company.optional(),
      address: customerFields.address.optional(),
      first_name: customerFields.first_name.optional(),
      last_name: customerFields.last_name.optional(),
      attributes: AttributesSchema.optional(),
      unsubscribed: z.boolean().optional(),
    })
    .strict(),
  {
    title: 'CreateCustomerBody',
    example: { name: 'Ada Lovelace', email: 'ada@example.com', company: 'Analytical Engines Ltd' },
  },
);
export type CreateCustomerBody = z.infer<typeof CreateCustomerBodySchema>;

export const UpdateCustomerBodySchema = extendApi(CreateCustomerBodySchema.partial().strict(), {
  title: 'UpdateCustomerBody',
  example: { phone: '+44 20 7946 0001', unsubscribed: true },
});
export type UpdateCustomerBody = z.infer<typeof UpdateCustomerBodySchema>;

export const CUSTOMER_SORT_FIELDS = ['created_at', 'name', 'email'] as const;

export const ListCustomersQuerySchema = PageQuerySchema.extend({
  email: z.string().max(254).optional().describe('Exact email match (case-insensitive).'),
  search: z.string().max(100).optional().describe('Case-insensitive substring of name, email or company.'),
  sort: sortQuery(CUSTOMER_SORT_FIELDS),
});
export type ListCustomersQuery = z.infer<typeof ListCustomersQuerySchema>;

export const customersContract = c.router({
  listCustomers: {
    method: 'GET',
    path: '/customers',
    summary: 'List customers',
    description: 'Newest first unless `sort` says otherwise; ties are broken by id so pages are stable.',
    query: ListCustomersQuerySchema,
    responses: { 200: pageEnvelope(CustomerSchema), ...generalErrors() },
    metadata: meta('token', 'Customers'),
  },
  createCustomer: {
    method: 'POST',
    path: '/customers',
    summary: 'Create a customer',
    description:
      'Emails are unique per business (case-insensitive): a second customer with the same email is 409 CONFLICT.',
    headers: IdempotencyHeadersSchema,
    body: CreateCustomerBodySchema,
    responses: { 201: dataEnvelope(CustomerSchema), ...generalErrors(409) },
    metadata: meta('token', 'Customers'),
  },
  getCustomer: {
    method: 'GET',
    path: '/customers/:id',
    summary: 'Get a customer',
    description: "The customer with this id; another business's id answers 404.",
    pathParams: IdParamsSchema,
    responses: { 200: dataEnvelope(CustomerSchema), ...generalErrors(404) },
    metadata: meta('token', 'Customers'),
  },
  updateCustomer: {
    method: 'PUT',
    path: '/customers/:id',
    summary: 'Update a customer',
    description:
      'Partial update: only the fields given change. An empty body changes nothing (no event) and returns the ' +
      'customer as it is.',
    pathParams: IdParamsSchema,
    body: UpdateCustomerBodySchema,
    responses: { 200: dataEnvelope(CustomerSchema), ...generalErrors(404, 409) },
    metadata: meta('token', 'Customers'),
  },
  deleteCustomer: {
    method: 'DELETE',
    path: '/customers/:id',
    summary: 'Delete a customer',
    description:
      'Refused with 409 RESOURCE_IN_USE while invoices or a loyalty membership reference the customer.',
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: dataEnvelope(CustomerSchema), ...generalErrors(404, 409) },
    metadata: meta('token', 'Customers'),
  },
});
