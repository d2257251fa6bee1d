import { CsvError, parse, type Options } from 'csv-parse/sync';
import { readAmount, readCsvDate, oneLine, type Read } from './values.js';
import {
  StatementFileError,
  type CsvMapping,
  type DateFormat,
  type RefusedLine,
  type StatementLine,
} from './types.js';

/*
 * CSV statements (docs/decisions.md D272): a header row, columns named by a mapping, every row read
 * on its own so that one bad row is refused with its line and the others are kept.
 */

/** The longest cell read: a longer one is a broken file (a quote never closed), not data. */
const MAX_RECORD_CHARS = 64 * 1024;

const DELIMITERS = [',', ';', '\t', '|'] as const;

const CSV_PROBLEMS: Record<string, string> = {
  CSV_QUOTE_NOT_CLOSED: 'a quoted cell is never closed',
  CSV_INVALID_CLOSING_QUOTE: 'text after the closing quote of a quoted cell',
  CSV_MAX_RECORD_SIZE: `a row is longer than ${MAX_RECORD_CHARS / 1024} KiB (is a quote never closed?)`,
  CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE: 'text after the closing quote of a quoted cell',
};

/** The delimiter the header line uses most outside quotes (a comma when it uses none). */
function delimiterOf(text: string): string {
  const firstLine = /^[^\n]*\S[^\n]*/m.exec(text)?.[0] ?? '';
  const counts = new Map<string, number>();
  let quoted = false;
  for (const char of firstLine) {
    if (char === '"') quoted = !quoted;
    else if (!quoted) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best: string = ',';
  for (const d of DELIMITERS) if ((counts.get(d) ?? 0) > (counts.get(best) ?? 0)) best = d;
  return best;
}

/** Whether a first line holds a delimiter: what makes a file read as CSV when nothing else fits. */
export const looksLikeCsv = (firstLine: string) => DELIMITERS.some((d) => firstLine.includes(d));

interface Row {
  line: number;
  cells: string[];
}

/** Where the row that broke the file starts: the first non-blank line after the last good row. */
function brokenRowLine(text: string, lastEnd: number): number {
  const lines = text.split('\n');
  let line = lastEnd + 1;
  while (line < lines.length && lines[line - 1]!.trim() === '') line++;
  return line;
}

/**
 * The rows with the physical line each starts on. csv-parse counts a record's last line, and counts
 * CR LF as two line breaks, so the text comes with LF endings only and a row's first line is its last
 * less the line breaks inside its quoted cells.
 */
function readRows(text: string): Row[] {
  let lastEnd = 0;
  try {
    const records = parse(text, {
      delimiter: delimiterOf(text),
      info: true,
      skip_empty_lines: true,
      relax_column_count: true,
      relax_quotes: true,
      max_record_size: MAX_RECORD_CHARS,
      on_record: (record, context) => {
        lastEnd = context.lines;
        return record;
      },
    } satisfies Options) as unknown as { record: string[]; info: { lines: number } }[];
    return records.map(({ record, info }) => {
      let breaks = 0;
      for (const cell of record)
        for (let i = cell.indexOf('\n'); i !== -1; i = cell.indexOf('\n', i + 1)) breaks++;
      return { line: info.lines - breaks, cells: record };
    });
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    const line = brokenRowLine(text, lastEnd);
    const problem = CSV_PROBLEMS[err.code] ?? err.message;
    throw new StatementFileError(`Line ${line}: the file is not valid CSV: ${problem}`, line);
  }
}

const listed = (header: string[]) => header.map((h) => `"${h}"`).join(', ');

interface Columns {
  date: number;
  description: number;
  amount: number | null;
  debit: number | null;
  credit: number | null;
  reference: number | null;
}

/** The mapping's columns in the header: exactly as named, else regardless of case. */
function columnsOf(mapping: CsvMapping, header: string[], headerLine: number): Columns {
  const index = (role: keyof CsvMapping, name: string): number => {
    const wanted = name.trim();
    let found = header.flatMap((h, i) => (h === wanted ? [i] : []));
    if (found.length === 0)
      found = header.flatMap((h, i) => (h.toLowerCase() === wanted.toLowerCase() ? [i] : []));
    if (found.length === 1) return found[0]!;
    const problem =
      found.length === 0
        ? `the mapping names the column "${wanted}" for ${role}, which the header row does not have`
        : `the header row has ${found.length} columns named "${wanted}" (the mapping's ${role}): rename one`;
    throw new StatementFileError(
      `Line ${headerLine}: ${problem}; its columns are ${listed(header)}`,
      headerLine,
    );
  };
  const optional = (role: keyof CsvMapping) => {
    const name = mapping[role];
    return name === undefined || name.trim() === '' ? null : index(role, name);
  };
  const columns = {
    date: index('date', mapping.date),
    description: index('description', mapping.description),
    amount: optional('amount'),
    debit: optional('debit'),
    credit: optional('credit'),
    reference: optional('reference'),
  };
  const signed = columns.amount !== null;
  const split = columns.debit !== null || columns.credit !== null;
  if (signed === split || (split && (columns.debit === null || columns.credit === null))) {
    throw new StatementFileError(
      signed
        ? 'The mapping names amount and debit or credit: name either amount (signed), or debit and credit'
        : 'The mapping needs the column of amount (signed), or the columns of both debit and credit',
      undefined,
      'mapping',
    );
  }
  return columns;
}

/** A row's amount: the signed amount column, or credit (money in) less debit (money out). */
function rowAmount(cells: string[], columns: Columns, currency: string): Read<number> {
  if (columns.amount !== null) return readAmount(cells[columns.amount]!, currency, { what: 'amount' });
  const debitText = cells[columns.debit!]!.trim();
  const creditText = cells[columns.credit!]!.trim();
  if (debitText === '' && creditText === '') {
    return { reason: 'debit and credit are both empty: fill debit for money out or credit for money in' };
  }
  const debit = debitText === '' ? { value: 0 } : readAmount(debitText, currency, { what: 'debit' });
  const credit = creditText === '' ? { value: 0 } : readAmount(creditText, currency, { what: 'credit' });
  const reasons = [debit, credit].flatMap((r) => ('reason' in r ? [r.reason] : []));
  if ('reason' in debit || 'reason' in credit) return { reason: reasons.join('; ') };
  // The column says the direction: a bank that writes its debits with a minus still means money out.
  const out = Math.abs(debit.value);
  if (credit.value < 0) {
    return {
      reason: `credit \`${creditText}\` is negative: the credit column is money in; money out goes in the debit column`,
    };
  }
  if (out !== 0 && credit.value !== 0) {
    return {
      reason: `debit \`${debitText}\` and credit \`${creditText}\` are both filled: a row is money in or money out, fill one`,
    };
  }
  return { value: credit.value - out };
}

export interface CsvOptions {
  currency: string;
  mapping: CsvMapping | undefined;
  dateFormat: DateFormat;
}

/** `text` has LF line endings and no BOM. */
export function parseCsv(
  text: string,
  options: CsvOptions,
): { lines: StatementLine[]; refused: RefusedLine[] } {
  const [head, ...rows] = readRows(text);
  if (!head)
    throw new StatementFileError('The file is empty: expected a header row and a row per transaction');
  const header = head.cells.map((h) => h.trim());
  if (!options.mapping) {
    throw new StatementFileError(
      'A CSV statement needs a mapping naming its columns for date, description and amount (or debit and ' +
        `credit); the header row (line ${head.line}) has ${listed(header)}`,
      head.line,
      'mapping',
    );
  }
  const columns = columnsOf(options.mapping, header, head.line);
  const lines: StatementLine[] = [];
  const refused: RefusedLine[] = [];
  for (const { line, cells } of rows) {
    // A row of empty cells (`,,,`) is a spreadsheet's blank line.
    if (cells.every((c) => c.trim() === '')) continue;
    if (cells.length !== header.length) {
      refused.push({
        line,
        reason: `the row has ${cells.length} cells and the header ${header.length}: quote a cell that holds the delimiter`,
      });
      continue;
    }
    const date = readCsvDate(cells[columns.date]!, options.dateFormat);
    const amount = rowAmount(cells, columns, options.currency);
    if ('reason' in date || 'reason' in amount) {
      const reasons = [date, amount].flatMap((r) => ('reason' in r ? [r.reason] : []));
      refused.push({ line, reason: reasons.join('; ') });
      continue;
    }
    const reference = columns.reference === null ? '' : oneLine(cells[columns.reference]!);
    lines.push({
      line,
      date: date.value,
      description: oneLine(cells[columns.description]!),
      amountMinor: amount.value,
      reference: reference === '' ? null : reference,
    });
  }
  return { lines, refused };
}
