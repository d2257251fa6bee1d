import type { ImportStatementQuery, StatementImportReport } from '../../../contract/finance/index.js';
import { inTransaction, type Ctx } from '../../platform/context.js';
import { ApiError, invalid, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { uploadBody } from '../../imports/index.js';
import {
  parseStatement,
  StatementFileError,
  type CsvMapping,
  type ParsedStatement,
  type StatementLine,
} from '../banking/statement-files/index.js';
import { applyRules } from '../bank-rules/queries.js';
import * as queries from './queries.js';

/*
 * Statement import (docs/decisions.md D273): a file read by the statement-file readers, each line
 * kept once (an earlier import's line of the same date, amount, reference and occurrence is a
 * duplicate, by the table's unique index even when two imports race), the bank rules applied to the
 * new lines, and the closing balance the file states checked against the lines.
 */

const OPTIONS = ['format', 'dry_run', 'all_or_nothing', 'mapping', 'date_format'] as const;

/** A statement's body: the file itself (any of these types) or a form with the options beside it. */
export const statementBody = uploadBody({
  types: [
    'text/csv',
    'application/csv',
    'text/plain',
    'application/x-ofx',
    'application/ofx',
    'application/vnd.intu.qfx',
    'application/xml',
    'text/xml',
    'application/octet-stream',
  ],
  fields: OPTIONS,
  what: 'the statement file',
});

/** How many lines one statement writes. */
const CHUNK = 1000;
/** How many skipped lines the answer names. */
const SHOWN_DUPLICATES = 100;

/** The options, each from the form when sent there, otherwise from the query string (both checked by the contract). */
function optionsOf(body: ImportStatementQuery, query: ImportStatementQuery) {
  return {
    format: body.format ?? query.format,
    dryRun: body.dry_run ?? query.dry_run ?? false,
    allOrNothing: body.all_or_nothing ?? query.all_or_nothing ?? true,
    mapping: mappingOf(body.mapping ?? query.mapping),
    dateFormat: body.date_format ?? query.date_format,
  };
}

function mappingOf(sent: string | undefined): CsvMapping | undefined {
  if (sent === undefined) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(sent);
  } catch {
    throw invalid(
      'mapping',
      'Expected a JSON object such as {"date":"Date","description":"Details","amount":"Amount"}',
    );
  }
  const keys = ['date', 'description', 'amount', 'debit', 'credit', 'reference'];
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    throw invalid('mapping', 'Expected a JSON object naming the column of each field');
  }
  for (const [key, column] of Object.entries(value)) {
    if (!keys.includes(key)) throw invalid(`mapping.${key}`, `Unknown field: map ${keys.join(', ')}`);
    if (typeof column !== 'string' || column.trim() === '' || column.length > 200) {
      throw invalid(`mapping.${key}`, 'Expected the header of a column of the file');
    }
  }
  return value as CsvMapping;
}

/** The file's text: UTF-8, or Windows-1252 for the older OFX files that declare it (or are not UTF-8). */
function textOf(file: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(file);
  } catch {
    return new TextDecoder('windows-1252').decode(file);
  }
}

/** What makes two lines the same line: date, amount and reference. */
const keyOf = (l: { date: string; amountMinor: number; reference: string | null }) =>
  `${l.date}|${l.amountMinor}|${l.reference ?? ''}`;

/** Each line with its occurrence among identical lines of the file, in file order. */
function withOccurrences(lines: StatementLine[]) {
  const seen = new Map<string, number>();
  return lines.map((line) => {
    const key = keyOf(line);
    const occurrence = (seen.get(key) ?? 0) + 1;
    seen.set(key, occurrence);
    return { ...line, occurrence, key: `${key}|${occurrence}` };
  });
}

function readFile(file: Buffer, account: queries.BankAccountRow, options: ReturnType<typeof optionsOf>) {
  try {
    return parseStatement(textOf(file), {
      format: options.format,
      currency: account.currency,
      mapping: options.mapping,
      dateFormat: options.dateFormat,
    });
  } catch (err) {
    if (err instanceof StatementFileError) {
      throw new ApiError('VALIDATION_ERROR', err.message, [
        { field: err.field ?? (err.line === undefined ? 'file' : `line.${err.line}`), message: err.message },
      ]);
    }
    throw err;
  }
}

function refusedInFull(parsed: ParsedStatement): ApiError {
  const { refused, lines } = parsed;
  return new ApiError(
    'VALIDATION_ERROR',
    `${refused.length} of ${refused.length + lines.length} lines refused, so nothing was imported: correct them, ` +
      'or send all_or_nothing=false to import the readable lines (dry_run=true reports every line)',
    refused.slice(0, 100).map((r) => ({ field: `line.${r.line}`, message: r.reason })),
  );
}

export async function importStatement(
  ctx: Ctx,
  bankAccountId: string,
  body: ImportStatementQuery & { file?: unknown },
  query: ImportStatementQuery,
): Promise<StatementImportReport> {
  const account = await queries.findBankAccount(ctx.db, ctx.businessId, bankAccountId);
  if (!account) throw notFound('Bank account');
  const file = body.file;
  if (!Buffer.isBuffer(file) || file.length === 0) {
    throw new ApiError(
      'BAD_REQUEST',
      'Send the statement file as the body (Content-Type: text/csv, application/x-ofx or application/xml), ' +
        'or as the `file` field of multipart/form-data',
    );
  }
  const options = optionsOf(body, query);
  const parsed = readFile(file, account, options);
  if (!options.dryRun && options.allOrNothing && parsed.refused.length > 0) throw refusedInFull(parsed);
  const lines = withOccurrences(parsed.lines);
  const dates = lines.map((l) => l.date).sort();
  const [first, last] = [dates[0], dates.at(-1)];

  return inTransaction(ctx, async (ctx) => {
    // Serialises imports into one account, so each sees the lines of the one before it.
    await queries.lockBankAccount(ctx.db, ctx.businessId, account.id);
    const held = new Set(
      first === undefined ? [] : await queries.lineKeys(ctx.db, ctx.businessId, account.id, first, last!),
    );
    const fresh = lines.filter((l) => !held.has(l.key));
    const duplicates = lines.filter((l) => held.has(l.key));
    let importId: string | null = null;
    let suggested = 0;
    if (!options.dryRun && fresh.length > 0) {
      importId = newId('bimp');
      const now = ctx.clock.now();
      await queries.insertImport(ctx.db, {
        business_id: ctx.businessId,
        id: importId,
        bank_account_id: account.id,
        format: parsed.format,
        imported: fresh.length,
        duplicates: duplicates.length,
        refused: parsed.refused.length,
        closing_balance_minor: parsed.closingBalanceMinor,
        created_at: now,
      });
      for (let i = 0; i < fresh.length; i += CHUNK) {
        await queries.insertLines(
          ctx.db,
          fresh.slice(i, i + CHUNK).map((l) => ({
            business_id: ctx.businessId,
            id: newId('btx'),
            bank_account_id: account.id,
            import_id: importId!,
            line_no: l.line,
            date: l.date,
            description: l.description.slice(0, 500),
            amount_minor: l.amountMinor,
            reference: l.reference,
            occurrence: l.occurrence,
            status: 'unmatched' as const,
            created_at: now,
            updated_at: now,
          })),
        );
      }
      suggested = await applyRules(ctx.db, ctx.businessId, { importId });
    }
    const statementBalance =
      last === undefined
        ? null
        : (last >= account.opening_date ? Number(account.opening_balance_minor) : 0) +
          (await queries.linesTotal(ctx.db, ctx.businessId, account.id, last)) +
          (options.dryRun
            ? fresh.filter((l) => l.date <= last).reduce((sum, l) => sum + l.amountMinor, 0)
            : 0);
    const warnings: string[] = [];
    if (
      parsed.closingBalanceMinor !== null &&
      statementBalance !== null &&
      parsed.closingBalanceMinor !== statementBalance
    ) {
      warnings.push(
        `The file's closing balance is ${parsed.closingBalanceMinor}, but the opening balance plus the lines to ` +
          `${last} make ${statementBalance} (minor units): a statement may be missing, or the opening balance differ`,
      );
    }
    if (!options.allOrNothing && parsed.refused.length > 0 && !options.dryRun) {
      const n = parsed.refused.length;
      warnings.push(
        `${n} refused ${n === 1 ? 'line was' : 'lines were'} left out: import them once corrected`,
      );
    }
    return {
      import_id: importId,
      format: parsed.format,
      dry_run: options.dryRun,
      applied: importId !== null,
      counts: {
        lines: lines.length + parsed.refused.length,
        imported: fresh.length,
        duplicates: duplicates.length,
        refused: parsed.refused.length,
        suggested,
      },
      refused: parsed.refused,
      duplicates: duplicates
        .slice(0, SHOWN_DUPLICATES)
        .map((l) => ({ line: l.line, date: l.date, amount: l.amountMinor })),
      closing_balance: parsed.closingBalanceMinor,
      statement_balance: statementBalance,
      warnings,
    };
  });
}
