import { extendApi } from '@anatine/zod-openapi';
import { initContract } from '@ts-rest/core';
import { z } from 'zod';
import { resultData } from '../common/envelopes.js';
import { ErrorDetailSchema, resultErrors } from '../common/errors.js';
import { meta } from '../common/metadata.js';
import { BooleanQuerySchema } from '../common/pagination.js';
import { IdempotencyHeadersSchema } from '../common/schemas.js';

const c = initContract();

/** What a business brings in from a spreadsheet (docs/decisions.md D165), and what each row is matched by. */
export const IMPORT_KINDS = [
  'customers',
  'products',
  'vendors',
  'employees',
  'exchange_rates',
  'holidays',
] as const;
export type ImportKind = (typeof IMPORT_KINDS)[number];

/** The largest file an import takes, and its most rows (after the header). */
export const IMPORT_MAX_BYTES = 10 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 50_000;

export const ImportQuerySchema = z.object({
  dry_run: BooleanQuerySchema.optional().describe(
    '`true`: change nothing, answer what each row would do (the same checks as the real run).',
  ),
  all_or_nothing: BooleanQuerySchema.optional().describe(
    'Default `true`: one refused row imports nothing (422 naming every refused row). `false`: the valid ' +
      'rows are imported and the refused ones reported.',
  ),
});
export type ImportQuery = z.infer<typeof ImportQuerySchema>;

export const ImportBodySchema = z.object({
  file: extendApi(
    // Checked by the operation, which says what to send (400) once the credential and permission pass.
    z.custom<File>(() => true),
    {
      type: 'string',
      format: 'binary',
      description: "The CSV file; from the SDK a `File` (`new File([csv], 'customers.csv')`).",
    },
  ),
});

export const ImportRowSchema = extendApi(
  z.object({
    line: z.number().int().describe("The row's line in the file (the header is line 1)."),
    action: z.enum(['create', 'update', 'refused']),
    id: z
      .string()
      .nullable()
      .describe(
        'The record created or updated (on a dry run, only the one an update would change); an exchange ' +
          'rate is named by its currency and date, `USD:2026-11-27`; a holiday by its id.',
      ),
    errors: z.array(ErrorDetailSchema).describe('Why the row is refused: each field and reason.'),
  }),
  { title: 'ImportRow' },
);
export type ImportRow = z.infer<typeof ImportRowSchema>;

export const ImportReportSchema = extendApi(
  z.object({
    kind: z.enum(IMPORT_KINDS),
    dry_run: z.boolean(),
    applied: z.boolean().describe('True when the rows were written (never on a dry run).'),
    columns: z.object({
      mapped: z.array(z.string()).describe('The fields the header columns were read as, in file order.'),
      unknown: z.array(z.string()).describe('Header columns matching no field: ignored.'),
    }),
    counts: z.object({
      rows: z.number().int(),
      create: z.number().int(),
      update: z.number().int(),
      refused: z.number().int(),
    }),
    rows: z.array(ImportRowSchema),
  }),
  {
    title: 'ImportReport',
    example: {
      kind: 'customers',
      dry_run: true,
      applied: false,
      columns: { mapped: ['name', 'email', 'address.city'], unknown: ['Notes'] },
      counts: { rows: 2, create: 1, update: 0, refused: 1 },
      rows: [
        { line: 2, action: 'create', id: null, errors: [] },
        { line: 3, action: 'refused', id: null, errors: [{ field: 'email', message: 'Invalid email' }] },
      ],
    },
  },
);
export type ImportReport = z.infer<typeof ImportReportSchema>;

const matching: Record<ImportKind, string> = {
  customers: 'an existing customer with the same `email` is updated',
  products: 'an existing product with the same `sku` is updated',
  vendors: 'an existing vendor with the same `email` is updated',
  employees: 'an existing employee with the same `email` is updated',
  exchange_rates:
    'columns `date`, `currency` (not the base currency) and `rate` (units of the base currency one unit buys, ' +
    'as `POST /v1/finance/exchange-rates` takes it); a rate already set for the same `currency` and `date` is ' +
    'replaced',
  holidays:
    'columns `date` and `name`, as `POST /v1/hr/holidays` takes them; a date that already has a holiday has it ' +
    'renamed, and the pending leave requests over a new date count their working days again',
};

const importRoute = <K extends ImportKind>(kind: K) =>
  ({
    method: 'POST',
    path: `/imports/${kind.replace('_', '-')}`,
    summary: `Import ${kind.replace('_', ' ')} from CSV`,
    description:
      `A CSV file (UTF-8, header row, at most 10 MiB and ${IMPORT_MAX_ROWS.toLocaleString('en')} rows) as ` +
      '`text/csv` or as the `file` field of `multipart/form-data`. Columns are matched to fields by header ' +
      'name, case and spacing forgiven (`First Name` is `first_name`, `Address City` is `address.city`); ' +
      `unknown columns are reported and ignored, empty cells left out. Each row is checked as the create ` +
      `(or update) operation checks its body; ${matching[kind]}; a row repeating an earlier row's key is ` +
      'refused. A broken file (unclosed quote, uneven columns, bytes that are not UTF-8, NUL) is 422 naming ' +
      'the line. Every created or updated record fires its usual event.',
    contentType: 'multipart/form-data',
    query: ImportQuerySchema,
    headers: IdempotencyHeadersSchema,
    body: ImportBodySchema,
    responses: { 200: resultData(ImportReportSchema), ...resultErrors(409) },
    metadata: meta('token', 'Imports'),
  }) as const;

export const importsContract = c.router({
  importCustomers: importRoute('customers'),
  importProducts: importRoute('products'),
  importVendors: importRoute('vendors'),
  importEmployees: importRoute('employees'),
  importExchangeRates: importRoute('exchange_rates'),
  importHolidays: importRoute('holidays'),
});
