import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultEnvelope } from '../common/envelopes.js';
import { resultErrors } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { offsetPageQuery } from '../common/pagination.js';
import { TimestampSchema, idOf } from '../common/schemas.js';

const c = initContract();

export const CapturedMessageSchema = extendApi(
  z.object({
    id: idOf('mail'),
    to: z.string(),
    from: z.string().nullable().describe('The sender; null for service mail sent as `MAIL_FROM`.'),
    subject: z.string(),
    text: z.string(),
    html: z.string().nullable().describe('The HTML part; null for plain-text mail.'),
    headers: z
      .record(z.string())
      .describe('Headers the message carries beyond From, To and Subject (List-Unsubscribe, ...).'),
    cc: z.array(z.string()).describe('Addresses copied on the message.'),
    reply_to: z.string().nullable().describe('Where replies go; null for the sender itself.'),
    attachments: z
      .array(
        z.object({
          filename: z.string(),
          content_type: z.string(),
          size: z.number().int().describe('Bytes.'),
        }),
      )
      .describe('Files attached (an invoice or quote PDF), by name, type and size.'),
    created_at: TimestampSchema,
  }),
  {
    title: 'CapturedMessage',
    example: {
      id: 'mail_01JD7X2R5VQ8N3K4M6P9T1W2Y3',
      to: 'ada@example.com',
      from: 'Acme News <news@acme.example>',
      subject: 'Hello Ada',
      text: 'Hello Ada, our winter menu is out.',
      html: '<p>Hello Ada, our winter menu is out.</p>',
      headers: {
        'List-Unsubscribe': '<https://bms.example/u/...>',
        'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
      },
      cc: [],
      reply_to: null,
      attachments: [],
      created_at: '2026-11-21T09:30:00.000Z',
    },
  },
);
export type CapturedMessage = z.infer<typeof CapturedMessageSchema>;

/** Who reads a live business's captured mail: a rule of the roles (roles.ts), named here too. */
export { readsCapturedLiveMail } from '../roles.js';

export const ListMessagesQuerySchema = offsetPageQuery(10_000_000);
export type ListMessagesQuery = z.infer<typeof ListMessagesQuerySchema>;

export const messagesContract = c.router({
  listMessages: {
    method: 'GET',
    path: '/sandbox/messages',
    summary: 'List captured mail',
    description:
      'Mail the service captured instead of handing it to SMTP, newest first: campaigns, VAT alerts, reminders ' +
      'and every other message of the business. Without `SMTP_URL` (a developer machine) all mail is captured ' +
      'and listed here, to owners and admins only (and `full` API keys): it carries invitation links, so any ' +
      'other role gets 403 in live; with `SMTP_URL` set, live mail is sent and a live credential gets 403. ' +
      "A sandbox's captured mail is listed to every role with `sandbox.read`. `GET /v1/auth/session` says " +
      'which applies (`mail`).',
    query: ListMessagesQuerySchema,
    responses: {
      200: resultEnvelope({ messages: z.array(CapturedMessageSchema), total_count: z.number().int() }),
      ...resultErrors(),
    },
    metadata: meta('token', 'Sandbox'),
  },
});
