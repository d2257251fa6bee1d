import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { EmailSchema, TimestampSchema } from '../common/schemas.js';

const c = initContract();

/** What `POST /v1/invoices/:id/send` and `POST /v1/quotes/:id/send` take: every field optional. */
export const SendDocumentBodySchema = extendApi(
  z
    .object({
      to: EmailSchema.optional().describe(
        "The recipient; the customer's email when left out (422 on `to` when the customer has none).",
      ),
      cc: z.array(EmailSchema).max(10).optional().describe('Up to 10 addresses copied on the mail.'),
      message: z
        .string()
        .trim()
        .min(1)
        .max(5000)
        .optional()
        .describe('A note shown above the document in the mail (plain text).'),
    })
    .strict(),
  {
    title: 'SendDocumentBody',
    example: { cc: ['accounts@example.com'], message: 'Thank you for your business.' },
  },
);
export type SendDocumentBody = z.infer<typeof SendDocumentBodySchema>;

/** A document rendered as a PDF file (the body of a 200). */
export const pdfResponse = c.otherResponse({
  contentType: 'application/pdf',
  body: c.type<Blob>(),
});

/** The hosted page's fields every document answers. */
export const hostedFields = {
  hosted_url: z
    .string()
    .nullable()
    .describe(
      'The page the customer opens without signing in (the link in the mail): the document, its PDF and, for ' +
        'a quote, Accept and Decline. Null while a draft. Anyone holding it can see the document: share it ' +
        'only with the customer.',
    ),
  viewed_at: TimestampSchema.nullable().describe(
    'When the customer first opened the hosted page; null until then.',
  ),
};
