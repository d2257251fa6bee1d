import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultEnvelope } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import {
  DateSchema,
  dateField,
  IdempotencyHeadersSchema,
  IdParamsSchema,
  idOf,
  TimestampSchema,
} from '../common/schemas.js';
import { HrPageQuerySchema, hrRoute } from './shared.js';

const c = initContract();

export const HolidaySchema = extendApi(
  z.object({
    id: idOf('hol'),
    date: DateSchema,
    name: z.string(),
    created_at: TimestampSchema,
    updated_at: TimestampSchema,
  }),
  {
    title: 'Holiday',
    example: {
      id: 'hol_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      date: '2026-12-25',
      name: 'Christmas Day',
      created_at: '2026-11-21T09:30:00.000Z',
      updated_at: '2026-11-21T09:30:00.000Z',
    },
  },
);
export type Holiday = z.infer<typeof HolidaySchema>;

export const CreateHolidayBodySchema = extendApi(
  z
    .object({
      date: dateField('One holiday a date: a date that already has one is 409 CONFLICT.'),
      name: z.string().trim().min(1).max(100),
    })
    .strict(),
  { title: 'CreateHolidayBody', example: { date: '2026-12-25', name: 'Christmas Day' } },
);
export type CreateHolidayBody = z.infer<typeof CreateHolidayBodySchema>;

export const UpdateHolidayBodySchema = extendApi(CreateHolidayBodySchema.partial().strict(), {
  title: 'UpdateHolidayBody',
  example: { name: 'Christmas' },
});
export type UpdateHolidayBody = z.infer<typeof UpdateHolidayBodySchema>;

export const ListHolidaysQuerySchema = HrPageQuerySchema.extend({
  from: dateField('Holidays on or after this date.').optional(),
  to: dateField('Holidays on or before this date.').optional(),
});
export type ListHolidaysQuery = z.infer<typeof ListHolidaysQuerySchema>;

const recount =
  'The working days of the pending leave requests it falls in are counted again (approved ones keep theirs).';

export const holidaysContract = c.router({
  listHolidays: {
    method: 'GET',
    path: '/hr/holidays',
    summary: 'List public holidays',
    description: 'By date, between `from` and `to` when given; `limit` (default 50, max 200), `offset`.',
    query: ListHolidaysQuerySchema,
    responses: {
      200: resultEnvelope({ holidays: z.array(HolidaySchema), total_count: z.number().int() }),
      ...resultErrors(),
    },
    metadata: hrRoute,
  },
  createHoliday: {
    method: 'POST',
    path: '/hr/holidays',
    summary: 'Add a public holiday',
    description: `Working days leave it out, in requests and balances. ${recount}`,
    headers: IdempotencyHeadersSchema,
    body: CreateHolidayBodySchema,
    responses: {
      201: resultEnvelope({ holiday_id: z.string(), message: z.string(), holiday: HolidaySchema }),
      ...resultErrors(409),
    },
    metadata: hrRoute,
  },
  getHoliday: {
    method: 'GET',
    path: '/hr/holidays/:id',
    summary: 'Get a public holiday',
    pathParams: IdParamsSchema,
    responses: { 200: resultEnvelope({ holiday: HolidaySchema }), ...resultErrors(404) },
    metadata: hrRoute,
  },
  updateHoliday: {
    method: 'PUT',
    path: '/hr/holidays/:id',
    summary: 'Rename or move a public holiday',
    description: `A date another holiday has is 409 CONFLICT. ${recount}`,
    pathParams: IdParamsSchema,
    body: UpdateHolidayBodySchema,
    responses: {
      200: resultEnvelope({ message: z.string(), holiday: HolidaySchema }),
      ...resultErrors(404, 409),
    },
    metadata: hrRoute,
  },
  deleteHoliday: {
    method: 'DELETE',
    path: '/hr/holidays/:id',
    summary: 'Delete a public holiday',
    description: recount,
    pathParams: IdParamsSchema,
    body: c.noBody(),
    responses: { 200: resultEnvelope({ message: z.string() }), ...resultErrors(404) },
    metadata: hrRoute,
  },
});
