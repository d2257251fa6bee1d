import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultData } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { IdempotencyHeadersSchema, TimestampSchema } from '../common/schemas.js';

const c = initContract();

export const ResetSandboxBodySchema = extendApi(
  z
    .object({
      seed: z
        .boolean()
        .default(false)
        .describe(
          'Fill the emptied sandbox with a coherent demo business over the past 18 months (customers, products, ' +
            'invoices, quotes, vendors and bills, employees and leaves, a loyalty program, a sent campaign).',
        ),
    })
    .strict(),
  { title: 'ResetSandboxBody', example: { seed: true } },
);
export type ResetSandboxBody = z.infer<typeof ResetSandboxBodySchema>;

export const SandboxResetSchema = extendApi(
  z.object({
    deleted_rows: z.number().int().describe('Rows of the sandbox deleted, over every table.'),
    seeded: z
      .record(z.number().int())
      .describe('What the demo data created, by kind (customers, invoices, ...); empty without `seed`.'),
    clock: TimestampSchema.describe("The sandbox's time after the reset: back on real time."),
  }),
  {
    title: 'SandboxReset',
    example: {
      deleted_rows: 1204,
      seeded: { customers: 24, invoices: 180 },
      clock: '2026-11-26T09:30:00.000Z',
    },
  },
);
export type SandboxReset = z.infer<typeof SandboxResetSchema>;

export const resetContract = c.router({
  resetSandbox: {
    method: 'POST',
    path: '/sandbox/reset',
    headers: IdempotencyHeadersSchema,
    summary: 'Reset the sandbox',
    description:
      "Deletes every row of the sandbox's data in one transaction and puts its test clock back on real time; " +
      'its API keys, access tokens, webhook endpoints and settings stay. With `{"seed": true}` it then fills the ' +
      'sandbox with demo data (no webhook is sent for it). Sandbox credentials only: a live one gets 403.',
    body: ResetSandboxBodySchema,
    responses: { 200: resultData(SandboxResetSchema), ...resultErrors(409) },
    metadata: meta('token', 'Sandbox'),
  },
});
