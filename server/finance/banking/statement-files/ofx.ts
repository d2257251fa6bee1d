import { walkSgml } from './sgml.js';
import { readAmount, readOfxDate, oneLine } from './values.js';
import { RecordCollector, walkXml, type XmlRecord, type XmlVisitor } from './xml.js';
import { StatementFileError, type RefusedLine, type StatementLine } from './types.js';

/*
 * OFX and QFX (docs/decisions.md D272). OFX 2 is XML and is read by the XML reader; OFX 1 is SGML
 * and is read by a small tokenizer (sgml.ts) into the same element events, so both versions share
 * one extraction. The npm OFX parsers were passed over: they close tags with regular expressions
 * over the whole text, lose line numbers, and mishandle `&` (one double-escapes it, the other
 * decodes only three entities).
 */

/** OFX 2 announces itself as XML; anything else is read as OFX 1 SGML. */
const isXml = (text: string) => /^\s*<\?(xml|OFX)\b/i.test(text);

export interface OfxStatement {
  account: string;
  currency: string | null;
  closing: string | null;
  line: number;
}

/** The end of `path` is `tail` (`['LEDGERBAL', 'BALAMT']`) and the element before it is a statement. */
const under = (path: readonly string[], tail: string[]) => {
  const at = path.length - tail.length - 1;
  return (
    at >= 0 &&
    (path[at] === 'STMTRS' || path[at] === 'CCSTMTRS') &&
    tail.every((t, k) => path[at + 1 + k] === t)
  );
};

/** What is read of a STMTTRN. */
const TRANSACTION_PATHS = [
  'DTPOSTED',
  'TRNAMT',
  'FITID',
  'REFNUM',
  'CHECKNUM',
  'NAME',
  'PAYEE/NAME',
  'MEMO',
  'CURRENCY/CURSYM',
];

/**
 * The statements (bank and credit card) of the file, each transaction handed to `onTransaction`
 * with its statement as it closes: transactions are turned into lines one by one rather than all
 * held until the end.
 */
export function readOfx(
  text: string,
  onTransaction: (transaction: XmlRecord, statement: OfxStatement) => void,
): OfxStatement[] {
  const statements: OfxStatement[] = [];
  const collector = new RecordCollector(
    TRANSACTION_PATHS,
    (path) =>
      path.at(-1) === 'STMTTRN' &&
      path.at(-2) === 'BANKTRANLIST' &&
      (path.at(-3) === 'STMTRS' || path.at(-3) === 'CCSTMTRS'),
    (record) => onTransaction(record, statements.at(-1)!),
  );
  const visitor: XmlVisitor = {
    open(path, attributes, line) {
      const last = path.at(-1);
      if (last === 'STMTRS' || last === 'CCSTMTRS') {
        statements.push({ account: '', currency: null, closing: null, line });
      }
      collector.open(path, attributes, line);
    },
    close(path, value) {
      collector.close(path, value);
      const statement = statements.at(-1);
      const last = path.at(-1);
      // Most elements are a transaction's: the name is looked at before the path.
      if (!statement || !(last === 'CURDEF' || last === 'BALAMT' || last === 'BANKID' || last === 'ACCTID'))
        return;
      if (under(path, ['CURDEF'])) statement.currency = value.trim().toUpperCase();
      else if (under(path, ['LEDGERBAL', 'BALAMT'])) statement.closing = value.trim();
      else if (under(path, ['BANKACCTFROM', 'BANKID']))
        statement.account = `${value.trim()} ${statement.account}`;
      else if (under(path, ['BANKACCTFROM', 'ACCTID']) || under(path, ['CCACCTFROM', 'ACCTID'])) {
        statement.account += value.trim();
      }
    },
  };
  // OFX names are upper case; a file that is not still reads.
  if (isXml(text)) walkXml(text, (raw) => (/[a-z]/.test(raw) ? raw.toUpperCase() : raw), visitor);
  else walkSgml(text, visitor);
  if (statements.length === 0) {
    throw new StatementFileError(
      'The OFX file holds no bank or credit card statement (STMTRS or CCSTMTRS): export the account’s statement',
    );
  }
  return statements;
}

/** NAME (or PAYEE's), with MEMO after it when it says something else. */
function description(record: XmlRecord): string {
  const name = oneLine(record.first('NAME', 'PAYEE/NAME') ?? '');
  const memo = oneLine(record.first('MEMO') ?? '');
  if (!memo || memo.toLowerCase() === name.toLowerCase()) return name;
  return name ? `${name} / ${memo}` : memo;
}

/**
 * One STMTTRN as a line, or the reasons it is refused. FITID is the reference; a bank that leaves it
 * out (it is required) still has its REFNUM or CHECKNUM kept, so that a re-import is recognised.
 */
export function ofxLine(
  record: XmlRecord,
  currency: string,
  statementCurrency: string | null,
): StatementLine | RefusedLine {
  const reasons: string[] = [];
  const posted = record.first('DTPOSTED');
  const date =
    posted === undefined
      ? { reason: 'DTPOSTED is missing: each STMTTRN needs the date it was posted' }
      : readOfxDate('DTPOSTED', posted);
  if ('reason' in date) reasons.push(date.reason);
  const trnamt = record.first('TRNAMT');
  const amount =
    trnamt === undefined
      ? { reason: 'TRNAMT is missing: each STMTTRN needs its amount' }
      : readAmount(trnamt, currency, { what: 'TRNAMT', decimalComma: true });
  if ('reason' in amount) reasons.push(amount.reason);
  const own = record.first('CURRENCY/CURSYM')?.toUpperCase();
  if (own && own !== (statementCurrency ?? currency)) {
    reasons.push(`the transaction is in ${own}, the statement in ${statementCurrency ?? currency}`);
  }
  if ('reason' in date || 'reason' in amount || reasons.length > 0) {
    return { line: record.position, reason: reasons.join('; ') };
  }
  const reference = record.first('FITID') || record.first('REFNUM') || record.first('CHECKNUM') || null;
  return {
    line: record.position,
    date: date.value,
    description: description(record),
    amountMinor: amount.value,
    reference,
  };
}
