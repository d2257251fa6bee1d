import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultCreated, resultData, ResultMessageSchema } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { BooleanQuerySchema } from '../common/pagination.js';
import { DateSchema, IdempotencyHeadersSchema, TimestampSchema } from '../common/schemas.js';
import {
  DescriptionSchema,
  loyaltyRoute,
  NameSchema,
  PublicIdParamsSchema,
  PublicIdSchema,
} from './shared.js';
import { TransactionShape } from './transactions.js';

const c = initContract();

export const ReminderSchema = extendApi(
  z.object({
    publicId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    intervalDays: z.number().int(),
    bonusPoints: z.number().int(),
    isActive: z.boolean(),
    dateCreated: TimestampSchema,
  }),
  { title: 'LoyaltyReminder' },
);
export type Reminder = z.infer<typeof ReminderSchema>;

export const CreateReminderBodySchema = extendApi(
  z
    .object({
      name: NameSchema,
      intervalDays: z.number().int().min(1).max(3650),
      description: DescriptionSchema.optional(),
      bonusPoints: z.number().int().min(0).max(1_000_000).optional(),
      isActive: z.boolean().optional(),
    })
    .strict(),
  { title: 'CreateReminderBody', example: { name: 'Bike service', intervalDays: 180, bonusPoints: 50 } },
);
export type CreateReminderBody = z.infer<typeof CreateReminderBodySchema>;

export const UpdateReminderBodySchema = extendApi(CreateReminderBodySchema.partial().strict(), {
  title: 'UpdateReminderBody',
});
export type UpdateReminderBody = z.infer<typeof UpdateReminderBodySchema>;

export const ListRemindersQuerySchema = z.object({ isActive: BooleanQuerySchema.optional() });
export type ListRemindersQuery = z.infer<typeof ListRemindersQuerySchema>;

export const CompleteReminderBodySchema = extendApi(z.object({ memberId: PublicIdSchema }).strict(), {
  title: 'CompleteReminderBody',
});
export type CompleteReminderBody = z.infer<typeof CompleteReminderBodySchema>;

export const CompleteReminderResultSchema = z.object({
  // The bonus earn transaction; null when bonusPoints is 0.
  transaction: TransactionShape.nullable(),
  nextDueDate: DateSchema,
});
export type CompleteReminderResult = z.infer<typeof CompleteReminderResultSchema>;

/** Service reminders: a service due every intervalDays, completed by a member for bonus points. */
export const remindersContract = c.router({
  listReminders: {
    method: 'GET',
    path: '/loyalty/reminders',
    summary: 'List service reminders',
    description: 'Newest first; filter by isActive.',
    query: ListRemindersQuerySchema,
    responses: { 200: resultData(z.array(ReminderSchema)), ...resultErrors() },
    metadata: loyaltyRoute,
  },
  createReminder: {
    method: 'POST',
    path: '/loyalty/reminders',
    summary: 'Create a service reminder',
    description: 'A service due every intervalDays; completing it awards bonusPoints.',
    headers: IdempotencyHeadersSchema,
    body: CreateReminderBodySchema,
    responses: { 201: resultCreated(ReminderSchema), ...resultErrors(409) },
    metadata: loyaltyRoute,
  },
  updateReminder: {
    method: 'PUT',
    path: '/loyalty/reminders/:publicId',
    summary: 'Update a service reminder',
    description: 'Partial update; an empty body changes nothing. An unknown id is 404.',
    pathParams: PublicIdParamsSchema,
    body: UpdateReminderBodySchema,
    responses: { 200: ResultMessageSchema, ...resultErrors(404) },
    metadata: loyaltyRoute,
  },
  deleteReminder: {
    method: 'DELETE',
    path: '/loyalty/reminders/:publicId',
    summary: 'Delete a service reminder',
    description: 'No more reminders of it are sent.',
    pathParams: PublicIdParamsSchema,
    body: c.noBody(),
    responses: { 200: ResultMessageSchema, ...resultErrors(404) },
    metadata: loyaltyRoute,
  },
  completeReminder: {
    method: 'POST',
    path: '/loyalty/reminders/:publicId/complete',
    headers: IdempotencyHeadersSchema,
    summary: 'Record a completed service',
    description:
      'Awards bonusPoints to the member (earn, referenceType reminder) and schedules the next reminder ' +
      'intervalDays later. Inactive reminder or member: 409 INVALID_STATE; unknown memberId: 422; a bonus that ' +
      "would take the member's balance or lifetime points past 9007199254740991 (2^53-1): 422 naming `memberId`.",
    pathParams: PublicIdParamsSchema,
    body: CompleteReminderBodySchema,
    responses: { 200: resultData(CompleteReminderResultSchema), ...resultErrors(404, 409) },
    metadata: loyaltyRoute,
  },
});
