import type { finance } from '../../../../client/index.js';

/**
 * The first lines of a CSV statement, read in the browser to show its columns before anything is
 * sent: the header, a few rows, and a first guess at which column is which. The service reads the
 * whole file by the mapping chosen; nothing here decides what is imported.
 */

/** How much of the file is read for the preview. */
export const PREVIEW_BYTES = 64 * 1024;

/** The roles of a mapping, in the order the form asks for them. */
export const MAPPING_ROLES = ['date', 'description', 'amount', 'debit', 'credit', 'reference'] as const;
export type MappingRole = (typeof MAPPING_ROLES)[number];
export type Mapping = Record<MappingRole, string>;

/** The delimiter the header uses most outside quotes, as the service picks it (a comma if none). */
function delimiterOf(line: string): string {
  const counts = new Map<string, number>();
  let quoted = false;
  for (const char of line) {
    if (char === '"') quoted = !quoted;
    else if (!quoted) counts.set(char, (counts.get(char) ?? 0) + 1);
  }
  let best = ',';
  for (const d of [',', ';', '\t', '|']) if ((counts.get(d) ?? 0) > (counts.get(best) ?? 0)) best = d;
  return best;
}

/** One line's cells (quotes and doubled quotes as CSV writes them); a quote left open ends the line. */
function cellsOf(line: string, delimiter: string): string[] {
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === delimiter) {
      cells.push(cell.trim());
      cell = '';
    } else cell += char;
  }
  cells.push(cell.trim());
  return cells;
}

/** The header and up to `rows` rows of the text's first lines (blank lines skipped, BOM dropped). */
export function readCsvHead(text: string, rows = 5): { header: string[]; rows: string[][] } {
  const lines = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter((line) => line.trim() !== '');
  const first = lines[0];
  if (first === undefined) return { header: [], rows: [] };
  const delimiter = delimiterOf(first);
  return {
    header: cellsOf(first, delimiter),
    rows: lines.slice(1, rows + 1).map((line) => cellsOf(line, delimiter)),
  };
}

/** Words banks name each column with, tried in order against the header. */
const NAMES: Record<MappingRole, RegExp> = {
  date: /^(transaction |booking |value |posting )?date$|^datum$|^date/i,
  description: /description|details|narrative|memo|payee|particulars|text/i,
  amount: /^(amount|value|betrag)\b/i,
  debit: /debit|paid out|withdrawal|money out/i,
  credit: /credit|paid in|deposit|money in/i,
  reference: /reference|^ref\b|fitid|transaction id/i,
};

/**
 * A first guess at the mapping from the header's words: each role the first column named like it
 * (and not taken); debit and credit only when no amount column is found.
 */
export function guessMapping(header: string[]): Mapping {
  const taken = new Set<string>();
  const find = (role: MappingRole) => {
    const column = header.find((h) => !taken.has(h) && NAMES[role].test(h)) ?? '';
    if (column) taken.add(column);
    return column;
  };
  const date = find('date');
  const amount = find('amount');
  const debit = amount ? '' : find('debit');
  const credit = amount ? '' : find('credit');
  const description = find('description');
  const reference = find('reference');
  return { date, description, amount, debit, credit, reference };
}

/**
 * The date format the first dates fit: a four-digit year first, dots, or slashes (day first unless
 * only a second part above 12 is seen: the month comes first then).
 */
export function guessDateFormat(dates: string[]): (typeof finance.STATEMENT_DATE_FORMATS)[number] {
  const sample = dates.map((d) => d.trim()).filter(Boolean);
  if (sample.some((d) => /^\d{1,2}\.\d{1,2}\.\d{4}$/.test(d))) return 'DD.MM.YYYY';
  const slashed = sample.filter((d) => /^\d{1,2}\/\d{1,2}\/\d{4}$/.test(d));
  if (slashed.length === 0) return 'YYYY-MM-DD';
  const above12 = (part: number) => slashed.some((d) => Number(d.split('/')[part]) > 12);
  return above12(1) && !above12(0) ? 'MM/DD/YYYY' : 'DD/MM/YYYY';
}

/** The mapping as the service takes it: the roles given a column, as JSON. */
export function mappingJson(mapping: Mapping): string {
  const named = Object.fromEntries(MAPPING_ROLES.filter((role) => mapping[role]).map((r) => [r, mapping[r]]));
  return JSON.stringify(named);
}
