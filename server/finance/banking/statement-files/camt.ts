import { readAmount, readIsoDate, oneLine } from './values.js';
import { RecordCollector, walkXml, type XmlRecord } from './xml.js';
import { StatementFileError, type RefusedLine, type StatementLine } from './types.js';

/*
 * ISO 20022 CAMT.053 bank-to-customer statements, versions 001.02 to 001.13 (docs/decisions.md
 * D272). Elements are matched by local name, whatever the namespace prefix or version: the parts read
 * here (Stmt, Acct, Bal, Ntry and its TxDtls) kept their names across versions, except the entry
 * status, a code in 02-08 (`<Sts>BOOK</Sts>`) and a choice from 09 on (`<Sts><Cd>BOOK</Cd></Sts>`), and
 * the related parties' names, which moved under `Pty` in 08.
 */

const localName = (raw: string) => raw.slice(raw.indexOf(':') + 1);

/** Entries that are not (yet) on the account: pending, or sent for information only. */
const NOT_BOOKED = new Set(['PDNG', 'INFO']);

/** EndToEndId's placeholder when the payer gave none. */
const NOT_PROVIDED = 'NOTPROVIDED';

const PARTY_NAMES = ['Dbtr', 'Cdtr'].flatMap((role) => [
  `NtryDtls/TxDtls/RltdPties/${role}/Nm`,
  `NtryDtls/TxDtls/RltdPties/${role}/Pty/Nm`,
]);

/** What is read of an Ntry. */
const ENTRY_PATHS = [
  'Amt',
  'CdtDbtInd',
  'Sts',
  'Sts/Cd',
  'BookgDt/Dt',
  'BookgDt/DtTm',
  'ValDt/Dt',
  'ValDt/DtTm',
  'AcctSvcrRef',
  'NtryRef',
  'AddtlNtryInf',
  'NtryDtls/TxDtls/RmtInf/Ustrd',
  'NtryDtls/TxDtls/Refs/EndToEndId',
  ...PARTY_NAMES,
];

/** What is read of a Bal. */
const BALANCE_PATHS = ['Tp/CdOrPrtry/Cd', 'Amt', 'CdtDbtInd'];

interface CamtStatement {
  account: string;
  currency: string | null;
  closing: XmlRecord | null;
  line: number;
}

export interface CamtContent {
  statements: CamtStatement[];
  /** The Ccy of the first entry's amount: the file's currency when nothing else states one. */
  firstEntryCurrency: string | null;
}

/** `path` ends with `Stmt` followed by `tail`. */
const inStatement = (path: readonly string[], tail: string[]) => {
  const at = path.length - tail.length - 1;
  return at >= 0 && path[at] === 'Stmt' && tail.every((t, k) => path[at + 1 + k] === t);
};

/** camt.052 and camt.054 look alike: say which one was sent instead of a statement. */
function refuseOtherMessage(attributes: Readonly<Record<string, string>>, line: number): void {
  for (const [name, value] of Object.entries(attributes)) {
    const kind = /camt\.(\d{3})\.\d{3}\.\d{2}/.exec(value)?.[1];
    if ((name === 'xmlns' || name.startsWith('xmlns:')) && kind && kind !== '053') {
      throw new StatementFileError(
        `Line ${line}: the file is a camt.${kind} message, not a camt.053 statement: export the account's camt.053 statement`,
        line,
      );
    }
  }
}

/**
 * The statements of the file, each entry handed to `onEntry` as it closes: entries are turned into
 * lines one by one rather than all held until the end (a 20 MB file has tens of thousands).
 */
export function readCamt(text: string, onEntry: (entry: XmlRecord) => void): CamtContent {
  if (!text.trimStart().startsWith('<')) {
    throw new StatementFileError('The file is not XML: a CAMT.053 statement is an XML document (Document)');
  }
  const statements: CamtStatement[] = [];
  let firstEntryCurrency: string | null | undefined;
  let statementRoot = false;
  const isStatementChild = (kind: string) => (path: readonly string[]) =>
    path.at(-1) === kind && path.at(-2) === 'Stmt';
  const entryCollector = new RecordCollector(ENTRY_PATHS, isStatementChild('Ntry'), (record) => {
    firstEntryCurrency ??= record.attribute('Amt', 'Ccy')?.trim().toUpperCase() ?? null;
    onEntry(record);
  });
  const balanceCollector = new RecordCollector(BALANCE_PATHS, isStatementChild('Bal'), (record) => {
    const statement = statements.at(-1);
    if (statement && record.first('Tp/CdOrPrtry/Cd') === 'CLBD') statement.closing = record;
  });
  walkXml(text, localName, {
    open(path, attributes, line) {
      if (path.length === 1) refuseOtherMessage(attributes, line);
      const last = path.at(-1);
      if (last === 'BkToCstmrStmt') statementRoot = true;
      if (last === 'Stmt' && path.at(-2) === 'BkToCstmrStmt') {
        statements.push({ account: '', currency: null, closing: null, line });
      }
      entryCollector.open(path, attributes, line);
      balanceCollector.open(path, attributes, line);
    },
    close(path, value) {
      entryCollector.close(path, value);
      balanceCollector.close(path, value);
      const statement = statements.at(-1);
      const last = path.at(-1);
      // Most elements are an entry's: the name is looked at before the path.
      if (!statement || !(last === 'Ccy' || last === 'IBAN' || last === 'Id')) return;
      if (inStatement(path, ['Acct', 'Ccy'])) statement.currency = value.trim().toUpperCase();
      else if (inStatement(path, ['Acct', 'Id', 'IBAN']) || inStatement(path, ['Acct', 'Id', 'Othr', 'Id'])) {
        statement.account = value.trim();
      }
    },
  });
  if (!statementRoot) {
    throw new StatementFileError(
      'The file holds no BkToCstmrStmt element: it is not a CAMT.053 statement (camt.052 reports and ' +
        'camt.054 notifications are not read)',
    );
  }
  return { statements, firstEntryCurrency: firstEntryCurrency ?? null };
}

/** The currency a statement states: its account's, else its closing balance's. */
export function camtCurrency(statement: CamtStatement): string | null {
  const stated = statement.currency ?? statement.closing?.attribute('Amt', 'Ccy');
  return stated ? stated.trim().toUpperCase() : null;
}

/** A CAMT amount: unsigned decimal text, its direction given by CdtDbtInd. */
export function camtAmount(record: XmlRecord, currency: string): { value: number } | { reason: string } {
  const reasons: string[] = [];
  const text = record.first('Amt');
  const indicator = record.first('CdtDbtInd');
  if (indicator !== 'CRDT' && indicator !== 'DBIT') {
    reasons.push(
      indicator === undefined
        ? 'CdtDbtInd is missing: each entry needs CRDT or DBIT'
        : `CdtDbtInd \`${indicator}\` is neither CRDT nor DBIT`,
    );
  }
  let amount: { value: number } | { reason: string };
  if (text === undefined) amount = { reason: 'Amt is missing: each entry needs its amount' };
  else if (/^\s*[+-]/.test(text)) {
    amount = {
      reason: `Amt \`${text}\` has a sign: CAMT amounts are unsigned, and CdtDbtInd gives the direction`,
    };
  } else amount = readAmount(text, currency, { what: 'Amt' });
  if ('reason' in amount) reasons.push(amount.reason);
  const own = record.attribute('Amt', 'Ccy')?.trim().toUpperCase();
  if (own && own !== currency) reasons.push(`Amt is in ${own}, the statement in ${currency}`);
  if ('reason' in amount || reasons.length > 0) return { reason: reasons.join('; ') };
  return { value: indicator === 'DBIT' ? -amount.value : amount.value };
}

/** The remittance text, else the entry's additional information, else the other party's name. */
function description(record: XmlRecord, credit: boolean): string {
  const remittance = record.all('NtryDtls/TxDtls/RmtInf/Ustrd');
  if (remittance.length > 0) return oneLine(remittance.join(' '));
  const info = record.first('AddtlNtryInf');
  if (info) return oneLine(info);
  const party = (role: string) =>
    record.first(`NtryDtls/TxDtls/RltdPties/${role}/Nm`, `NtryDtls/TxDtls/RltdPties/${role}/Pty/Nm`);
  // Money in names who paid (the debtor); money out names who was paid (the creditor).
  const [first, second] = credit ? ['Dbtr', 'Cdtr'] : ['Cdtr', 'Dbtr'];
  return oneLine(party(first) || party(second) || '');
}

/** The bank's own reference first, as it is the one a later statement repeats. */
function reference(record: XmlRecord): string | null {
  const endToEnd = record.all('NtryDtls/TxDtls/Refs/EndToEndId').find((id) => id !== NOT_PROVIDED);
  return record.first('AcctSvcrRef') || record.first('NtryRef') || endToEnd || null;
}

/** One Ntry as a line, the reasons it is refused, or null for an entry not booked (skipped). */
export function camtLine(record: XmlRecord, currency: string): StatementLine | RefusedLine | null {
  const status = record.first('Sts/Cd', 'Sts');
  if (status && NOT_BOOKED.has(status)) return null;
  const reasons: string[] = [];
  const dated = ['BookgDt/Dt', 'BookgDt/DtTm', 'ValDt/Dt', 'ValDt/DtTm'].find(
    (p) => record.first(p) !== undefined,
  );
  const date = dated
    ? readIsoDate(dated, record.first(dated)!)
    : { reason: 'the entry has no date: BookgDt (or ValDt) with Dt or DtTm is needed' };
  if ('reason' in date) reasons.push(date.reason);
  const amount = camtAmount(record, currency);
  if ('reason' in amount) reasons.push(amount.reason);
  if ('reason' in date || 'reason' in amount) return { line: record.position, reason: reasons.join('; ') };
  return {
    line: record.position,
    date: date.value,
    description: description(record, record.first('CdtDbtInd') === 'CRDT'),
    amountMinor: amount.value,
    reference: reference(record),
  };
}
