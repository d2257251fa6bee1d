import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultData, ResultMessageSchema } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { CurrencySchema, IdempotencyHeadersSchema, TimestampSchema } from '../common/schemas.js';
import { loyaltyRoute, NameSchema } from './shared.js';

const c = initContract();

export const ENROLLMENT_TYPES = ['automatic', 'manual'] as const;

/** Untitled, so it can also be used nullable (a titled schema becomes a $ref, which cannot). */
export const ProgramShape = z.object({
  publicId: z.string(),
  name: z.string(),
  pointsName: z.string(),
  pointsPerCurrency: z.number().int(),
  currency: z.string(),
  enrollmentType: z.enum(ENROLLMENT_TYPES),
  pointsExpiryDays: z.number().int().describe('0 means points never expire.'),
  isActive: z.boolean(),
  autoNotify: z.boolean(),
  dateCreated: TimestampSchema,
});
// extendApi marks the schema it is given, so the titled one is a separate instance.
export const ProgramSchema = extendApi(ProgramShape.extend({}), { title: 'LoyaltyProgram' });
export type Program = z.infer<typeof ProgramSchema>;

export const CreateProgramBodySchema = extendApi(
  z
    .object({
      name: NameSchema,
      pointsName: z.string().trim().min(1).max(50),
      pointsPerCurrency: z.number().int().min(1).max(100_000),
      currency: CurrencySchema,
      enrollmentType: z.enum(ENROLLMENT_TYPES).optional().describe('Default automatic.'),
      pointsExpiryDays: z.number().int().min(0).max(3650).optional().describe('Default 0 (no expiry).'),
      autoNotify: z.boolean().optional().describe('Default true.'),
    })
    .strict(),
  {
    title: 'CreateProgramBody',
    example: { name: 'Coffee Club', pointsName: 'Beans', pointsPerCurrency: 10, currency: 'USD' },
  },
);
export type CreateProgramBody = z.infer<typeof CreateProgramBodySchema>;

export const UpdateProgramBodySchema = extendApi(
  z
    .object({
      name: NameSchema.optional(),
      pointsName: z.string().trim().min(1).max(50).optional(),
      pointsPerCurrency: z.number().int().min(1).max(100_000).optional(),
      enrollmentType: z.enum(ENROLLMENT_TYPES).optional(),
      pointsExpiryDays: z.number().int().min(0).max(3650).optional(),
      isActive: z.boolean().optional(),
      autoNotify: z.boolean().optional(),
    })
    .strict(),
  { title: 'UpdateProgramBody', example: { pointsPerCurrency: 5 } },
);
export type UpdateProgramBody = z.infer<typeof UpdateProgramBodySchema>;

export const programContract = c.router({
  getProgram: {
    method: 'GET',
    path: '/loyalty/program',
    summary: 'Get the loyalty program',
    description: 'The active program, else the most recently deactivated one, else `data: null`.',
    responses: { 200: resultData(ProgramShape.nullable()), ...resultErrors() },
    metadata: loyaltyRoute,
  },
  createProgram: {
    method: 'POST',
    path: '/loyalty/program',
    summary: 'Create the loyalty program',
    description: 'One active program per business: a second is 409 CONFLICT.',
    headers: IdempotencyHeadersSchema,
    body: CreateProgramBodySchema,
    responses: { 201: resultData(ProgramSchema), ...resultErrors(409) },
    metadata: loyaltyRoute,
  },
  updateProgram: {
    method: 'PUT',
    path: '/loyalty/program',
    summary: 'Update the loyalty program',
    description:
      'Partial update of the current program (404 when there is none); an empty body changes nothing.',
    body: UpdateProgramBodySchema,
    responses: { 200: ResultMessageSchema, ...resultErrors(404, 409) },
    metadata: loyaltyRoute,
  },
  deleteProgram: {
    method: 'DELETE',
    path: '/loyalty/program',
    summary: 'Delete the loyalty program',
    description: 'Deactivates the program and removes its tiers; members, transactions and redemptions stay.',
    body: c.noBody(),
    responses: { 200: ResultMessageSchema, ...resultErrors(404) },
    metadata: loyaltyRoute,
  },
});
