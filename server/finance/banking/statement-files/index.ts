import { CURRENCY_EXPONENTS } from '../../../../contract/common/currencies.js';
import { camtAmount, camtCurrency, camtLine, readCamt } from './camt.js';
import { looksLikeCsv, parseCsv } from './csv.js';
import { ofxLine, readOfx } from './ofx.js';
import { readAmount } from './values.js';
import {
  lineOf,
  StatementFileError,
  type ParsedStatement,
  type ParseStatementOptions,
  type RefusedLine,
  type StatementFormat,
  type StatementLine,
} from './types.js';

/*
 * Bank statement files (CSV, OFX/QFX, CAMT.053) read into statement lines: pure, no database and
 * no network. The rules, from line numbers to duplicates left to the importer, are docs/decisions.md
 * D272.
 */

export {
  DATE_FORMATS,
  STATEMENT_FORMATS,
  StatementFileError,
  type CsvMapping,
  type DateFormat,
  type ParsedStatement,
  type ParseStatementOptions,
  type RefusedLine,
  type StatementFormat,
  type StatementLine,
} from './types.js';

/** The largest file read, as characters of its UTF-8 text: a statement upload is at most 20 MB. */
export const MAX_STATEMENT_CHARS = 20 * 1024 * 1024;

/** How far into a file its format is looked for: past any XML prolog or OFX header. */
const DETECT_WINDOW = 64 * 1024;

const withoutBom = (text: string) => (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);

/** The format a file's content shows, or null when it shows none of them. */
export function detectFormat(text: string): StatementFormat | null {
  const head = withoutBom(text).slice(0, DETECT_WINDOW);
  const start = head.trimStart();
  if (/^OFXHEADER\s*:/i.test(start)) return 'ofx';
  if (start.startsWith('<')) {
    if (/<\?OFX\b|<OFX>/i.test(head)) return 'ofx';
    if (/BkToCstmrStmt|urn:iso:std:iso:20022:tech:xsd:camt\.053\./.test(head)) return 'camt053';
    return null;
  }
  const firstLine = /^[^\r\n]*/.exec(start)?.[0] ?? '';
  return looksLikeCsv(firstLine) ? 'csv' : null;
}

interface StatedAccount {
  account: string;
  currency: string | null;
  line: number;
}

/**
 * The currency of a file's statements, which must all be of one account: several statements of
 * one account (a month of daily ones) read as one, but a file of two accounts cannot be imported into
 * one bank account.
 */
function oneAccount(statements: StatedAccount[]): string | null {
  const accounts = [...new Set(statements.map((s) => s.account).filter((a) => a !== ''))];
  const currencies = [...new Set(statements.map((s) => s.currency).filter((c) => c !== null))];
  const several =
    accounts.length > 1 ? `accounts (${accounts.join(', ')})` : `currencies (${currencies.join(', ')})`;
  if (accounts.length > 1 || currencies.length > 1) {
    const second = statements.find(
      (s) => s.account !== statements[0]!.account || s.currency !== statements[0]!.currency,
    );
    throw new StatementFileError(
      `Line ${second!.line}: the file holds statements of several ${several}: send one account per file`,
      second!.line,
    );
  }
  return currencies[0] ?? null;
}

function checkCurrency(fileCurrency: string | null, accountCurrency: string): void {
  if (fileCurrency !== null && fileCurrency !== accountCurrency) {
    throw new StatementFileError(
      `The file is in ${fileCurrency}, the bank account in ${accountCurrency}: import it into a bank account in ${fileCurrency}`,
    );
  }
}

/** Lines and refusals as records are read; null (a CAMT entry not booked) is neither. */
function sorter() {
  const lines: StatementLine[] = [];
  const refused: RefusedLine[] = [];
  const add = (result: StatementLine | RefusedLine | null) => {
    if (result === null) return;
    if ('reason' in result) refused.push(result);
    else lines.push(result);
  };
  return { lines, refused, add };
}

function parseOfx(text: string, currency: string): ParsedStatement {
  const { lines, refused, add } = sorter();
  const statements = readOfx(text, (transaction, statement) =>
    add(ofxLine(transaction, currency, statement.currency)),
  );
  const fileCurrency = oneAccount(statements);
  checkCurrency(fileCurrency, currency);
  const last = statements.findLast((s) => s.closing !== null);
  let closingBalanceMinor: number | null = null;
  if (last) {
    const balance = readAmount(last.closing!, currency, { what: 'LEDGERBAL/BALAMT', decimalComma: true });
    if ('reason' in balance)
      throw new StatementFileError(`The closing balance is unreadable: ${balance.reason}`);
    closingBalanceMinor = balance.value;
  }
  return { format: 'ofx', currency: fileCurrency, closingBalanceMinor, lines, refused };
}

function parseCamt053(text: string, currency: string): ParsedStatement {
  const { lines, refused, add } = sorter();
  const { statements, firstEntryCurrency } = readCamt(text, (entry) => add(camtLine(entry, currency)));
  const fileCurrency =
    oneAccount(statements.map((s) => ({ account: s.account, currency: camtCurrency(s), line: s.line }))) ??
    firstEntryCurrency;
  checkCurrency(fileCurrency, currency);
  const last = statements.findLast((s) => s.closing !== null)?.closing;
  let closingBalanceMinor: number | null = null;
  if (last) {
    const balance = camtAmount(last, currency);
    if ('reason' in balance) {
      throw new StatementFileError(
        `Line ${last.line}: the closing balance (CLBD) is unreadable: ${balance.reason}`,
        last.line,
      );
    }
    closingBalanceMinor = balance.value;
  }
  return { format: 'camt053', currency: fileCurrency, closingBalanceMinor, lines, refused };
}

/**
 * Reads a statement file whole. A line that cannot be read is refused with its line number and
 * reason while the others are kept; a file that cannot be read at all, or not into this account, is
 * a StatementFileError.
 */
export function parseStatement(text: string, options: ParseStatementOptions): ParsedStatement {
  const currency = options.currency;
  if (CURRENCY_EXPONENTS[currency] === undefined) {
    throw new StatementFileError(
      `Unknown currency ${currency}: a bank account's currency is an ISO 4217 code`,
    );
  }
  if (text.length > MAX_STATEMENT_CHARS) {
    throw new StatementFileError('The file is larger than 20 MB: split the statement into shorter periods');
  }
  const nul = text.indexOf('\0');
  if (nul !== -1) {
    const line = lineOf(text, nul);
    throw new StatementFileError(`Line ${line}: the file holds a NUL character: is it a binary file?`, line);
  }
  const body = withoutBom(text);
  if (body.trim() === '') throw new StatementFileError('The file is empty');
  const format = options.format ?? detectFormat(body);
  switch (format) {
    case 'csv': {
      // csv-parse counts CR LF as two lines; LF alone keeps its line numbers the file's.
      const csv = parseCsv(body.replace(/\r\n?/g, '\n'), {
        currency,
        mapping: options.mapping,
        dateFormat: options.dateFormat ?? 'YYYY-MM-DD',
      });
      return { format: 'csv', currency: null, closingBalanceMinor: null, ...csv };
    }
    case 'ofx':
      return parseOfx(body, currency);
    case 'camt053':
      return parseCamt053(body, currency);
    default:
      throw new StatementFileError(
        'The format of the file could not be told from its content (not OFX, CAMT.053, nor CSV with a ' +
          'header row): send format=csv|ofx|camt053',
      );
  }
}
