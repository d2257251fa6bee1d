/*
 * What a statement file reads as, whichever format it came in. The reading rules are those of
 * docs/decisions.md D272.
 */

export type StatementFormat = 'csv' | 'ofx' | 'camt053';

export const STATEMENT_FORMATS: readonly StatementFormat[] = ['csv', 'ofx', 'camt053'];

export type DateFormat = 'YYYY-MM-DD' | 'DD/MM/YYYY' | 'MM/DD/YYYY' | 'DD.MM.YYYY';

export const DATE_FORMATS: readonly DateFormat[] = ['YYYY-MM-DD', 'DD/MM/YYYY', 'MM/DD/YYYY', 'DD.MM.YYYY'];

/** The header names of a CSV file's columns: `amount`, or `debit` and `credit`. */
export interface CsvMapping {
  date: string;
  description: string;
  amount?: string;
  debit?: string;
  credit?: string;
  reference?: string;
}

export interface StatementLine {
  /** CSV: the physical line the row starts on (the header is line 1); OFX and CAMT: the 1-based position of the transaction in the file. */
  line: number;
  /** YYYY-MM-DD */
  date: string;
  description: string;
  /** Integer minor units of the account's currency: positive money in, negative money out. */
  amountMinor: number;
  /** OFX: FITID; CAMT: AcctSvcrRef, NtryRef or EndToEndId; CSV: the mapped reference column. */
  reference: string | null;
}

export interface RefusedLine {
  line: number;
  /** What is wrong with the line and what to send instead. */
  reason: string;
}

export interface ParsedStatement {
  format: StatementFormat;
  /** The currency the file states (null for CSV, which states none). */
  currency: string | null;
  closingBalanceMinor: number | null;
  lines: StatementLine[];
  refused: RefusedLine[];
}

export interface ParseStatementOptions {
  /** Detected from the content when absent. */
  format?: StatementFormat;
  /** The bank account's currency: amounts are read with its decimals, and a file in another is refused. */
  currency: string;
  /** Required for CSV. */
  mapping?: CsvMapping;
  /** CSV only; YYYY-MM-DD when absent. */
  dateFormat?: DateFormat;
}

/** A file that cannot be read at all; `line` is where the problem is, when known. */
export class StatementFileError extends Error {
  constructor(
    message: string,
    readonly line?: number,
    /** The option to correct instead of the file (`mapping`), when it is one. */
    readonly field?: string,
  ) {
    super(message);
    this.name = 'StatementFileError';
  }
}

/** One line that cannot be read, thrown inside a format's reader and turned into a RefusedLine. */
export class LineRefusal extends Error {
  constructor(readonly reasons: string[]) {
    super(reasons.join('; '));
    this.name = 'LineRefusal';
  }
}

/** The 1-based line of character `offset` of `text`. */
export function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}
