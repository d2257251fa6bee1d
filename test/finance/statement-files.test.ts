import { readFileSync, mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  detectFormat,
  parseStatement,
  StatementFileError,
  type CsvMapping,
  type ParsedStatement,
} from '../../server/finance/banking/statement-files/index.js';

/* Bank statement files read into lines: pure, no server. Rules: docs/decisions.md D272. */

const fixture = (name: string) => readFileSync(new URL(`../fixtures/bank/${name}`, import.meta.url), 'utf8');

/** The StatementFileError `read` throws. */
function fileError(read: () => unknown): StatementFileError {
  try {
    read();
  } catch (err) {
    if (err instanceof StatementFileError) return err;
    throw err;
  }
  throw new Error('expected a StatementFileError');
}

const SINGLE: CsvMapping = {
  date: 'Date',
  description: 'Description',
  amount: 'Amount',
  reference: 'Reference',
};
const SPLIT: CsvMapping = {
  date: 'Posted',
  description: 'Details',
  debit: 'Money out',
  credit: 'Money in',
  reference: 'Ref',
};

/** A CSV of `rows` under the header `Date,Description,Amount`. */
const csvOf = (...rows: string[]) => ['Date,Description,Amount', ...rows].join('\n');
const MINIMAL: CsvMapping = { date: 'Date', description: 'Description', amount: 'Amount' };

const SINGLE_AMOUNT_EXPECTED: ParsedStatement = {
  format: 'csv',
  currency: null,
  closingBalanceMinor: null,
  lines: [
    {
      line: 2,
      date: '2026-11-02',
      description: 'Opening deposit',
      amountMinor: 250000,
      reference: 'DEP-001',
    },
    {
      line: 3,
      date: '2026-11-03',
      description: 'Coffee Corner, High Street',
      amountMinor: -380,
      reference: 'CARD-7781',
    },
    // A quoted cell over two lines: the row starts on line 4, and the next one on line 6.
    {
      line: 4,
      date: '2026-11-04',
      description: 'Invoice INV-0042 paid by Ada Lovelace',
      amountMinor: 125000,
      reference: 'INV-0042',
    },
    // Line 7 is blank; the two identical fee lines are both kept.
    { line: 8, date: '2026-11-06', description: 'Monthly account fee', amountMinor: -500, reference: null },
    { line: 9, date: '2026-11-06', description: 'Monthly account fee', amountMinor: -500, reference: null },
  ],
  refused: [
    {
      line: 6,
      reason: 'amount `1,250.00` has a thousands separator: remove it (1250.00, not 1,250.00 or 1.250,00)',
    },
    { line: 10, reason: 'date `2026-11-31` is not a calendar date' },
    { line: 11, reason: 'amount is empty: write the amount (-12.50)' },
    {
      line: 12,
      reason:
        'amount `-12.505` has 3 decimals and GBP takes at most 2 decimals: send the amount in GBP as the bank booked it',
    },
  ],
};

describe('CSV statements', () => {
  it('reads a single amount column: signed minor units, physical line numbers, refusals with reasons', () => {
    const parsed = parseStatement(fixture('single-amount.csv'), { currency: 'GBP', mapping: SINGLE });
    expect(parsed).toEqual(SINGLE_AMOUNT_EXPECTED);
  });

  it('reads the same file with a BOM and CRLF line endings to the same lines', () => {
    const text = '\uFEFF' + fixture('single-amount.csv').replace(/\n/g, '\r\n');
    expect(parseStatement(text, { currency: 'GBP', mapping: SINGLE })).toEqual(SINGLE_AMOUNT_EXPECTED);
    expect(detectFormat(text)).toBe('csv');
  });

  it('reads debit and credit columns, DD/MM/YYYY dates and a semicolon delimiter', () => {
    const parsed = parseStatement(fixture('debit-credit.csv'), {
      currency: 'GBP',
      mapping: SPLIT,
      dateFormat: 'DD/MM/YYYY',
    });
    expect(parsed.lines).toEqual([
      { line: 2, date: '2026-11-03', description: 'Rent November', amountMinor: -95000, reference: 'SO-118' },
      {
        line: 3,
        date: '2026-11-04',
        description: 'Client payment Babbage & Co',
        amountMinor: 48050,
        reference: 'FP-2231',
      },
      // 0.00 in the debit column beside a credit: the credit.
      { line: 4, date: '2026-11-05', description: 'Card refund', amountMinor: 1299, reference: null },
      // A debit written with a minus is still money out; the day may have one digit.
      { line: 5, date: '2026-11-06', description: 'ATM withdrawal', amountMinor: -4000, reference: 'ATM-55' },
    ]);
    expect(parsed.refused).toEqual([
      {
        line: 6,
        reason: 'debit `10.00` and credit `10.00` are both filled: a row is money in or money out, fill one',
      },
      { line: 7, reason: 'debit and credit are both empty: fill debit for money out or credit for money in' },
      { line: 8, reason: 'date `31/02/2026` is not a calendar date' },
      {
        line: 9,
        reason:
          'date `2026-11-09` is not DD/MM/YYYY (03/11/2026 is 3 November 2026): send the date_format the file uses',
      },
    ]);
  });

  it('refuses a negative credit: the credit column is money in', () => {
    const text = 'Posted;Details;Money out;Money in;Ref\n03/11/2026;Odd;;-5.00;X';
    const parsed = parseStatement(text, { currency: 'GBP', mapping: SPLIT, dateFormat: 'DD/MM/YYYY' });
    expect(parsed.refused).toEqual([
      {
        line: 2,
        reason:
          'credit `-5.00` is negative: the credit column is money in; money out goes in the debit column',
      },
    ]);
  });

  it('reads each date format strictly and refuses dates that are not on the calendar', () => {
    const read = (dateFormat: 'MM/DD/YYYY' | 'DD.MM.YYYY' | 'YYYY-MM-DD', ...dates: string[]) =>
      parseStatement(csvOf(...dates.map((d) => `${d},x,1.00`)), {
        currency: 'USD',
        mapping: MINIMAL,
        dateFormat,
      });
    const us = read('MM/DD/YYYY', '11/03/2026', '02/29/2028', '02/29/2027', '13/01/2026');
    expect(us.lines.map((l) => [l.line, l.date])).toEqual([
      [2, '2026-11-03'],
      [3, '2028-02-29'],
    ]);
    expect(us.refused).toEqual([
      { line: 4, reason: 'date `02/29/2027` is not a calendar date' },
      { line: 5, reason: 'date `13/01/2026` is not a calendar date' },
    ]);
    const german = read('DD.MM.YYYY', '03.11.2026', '3.11.26');
    expect(german.lines.map((l) => l.date)).toEqual(['2026-11-03']);
    expect(german.refused).toEqual([
      {
        line: 3,
        reason:
          'date `3.11.26` is not DD.MM.YYYY (03.11.2026 is 3 November 2026): send the date_format the file uses',
      },
    ]);
    const iso = read('YYYY-MM-DD', '2026-11-03', '03/11/2026', '2026-04-31');
    expect(iso.lines.map((l) => l.date)).toEqual(['2026-11-03']);
    expect(iso.refused.map((r) => r.reason)).toEqual([
      'date `03/11/2026` is not YYYY-MM-DD (2026-11-03 is 3 November 2026): send the date_format the file uses',
      'date `2026-04-31` is not a calendar date',
    ]);
  });

  it('reads JPY without decimals and KWD with three, exactly', () => {
    const jpy = parseStatement(csvOf('2026-11-03,a,1500', '2026-11-03,b,-1500.00', '2026-11-03,c,1500.5'), {
      currency: 'JPY',
      mapping: MINIMAL,
    });
    expect(jpy.lines.map((l) => l.amountMinor)).toEqual([1500, -1500]);
    expect(jpy.refused).toEqual([
      {
        line: 4,
        reason:
          'amount `1500.5` has 1 decimal and JPY takes no decimals: send the amount in JPY as the bank booked it',
      },
    ]);
    const kwd = parseStatement(
      csvOf('2026-11-03,a,1.250', '2026-11-03,b,-0.005', '2026-11-03,c,12.5', '2026-11-03,d,1.2505'),
      { currency: 'KWD', mapping: MINIMAL },
    );
    expect(kwd.lines.map((l) => l.amountMinor)).toEqual([1250, -5, 12500]);
    expect(kwd.refused.map((r) => r.line)).toEqual([5]);
    // 0.1 + 0.2 style float error cannot happen: 0.29 is read digit by digit.
    const usd = parseStatement(csvOf('2026-11-03,a,0.29', '2026-11-03,b,-1234567.89', '2026-11-03,c,+.5'), {
      currency: 'USD',
      mapping: MINIMAL,
    });
    expect(usd.lines.map((l) => l.amountMinor)).toEqual([29, -123456789, 50]);
  });

  it('refuses amounts it would have to guess, saying what to send instead', () => {
    const parsed = parseStatement(
      csvOf(
        '2026-11-03,a,"1.250,00"',
        '2026-11-03,b,"12,50"',
        '2026-11-03,c,1 250.00',
        '2026-11-03,d,(12.50)',
        '2026-11-03,e,£12.50',
        '2026-11-03,f,1.2.3',
        '2026-11-03,g,99999999999999999',
      ),
      { currency: 'GBP', mapping: MINIMAL },
    );
    expect(parsed.lines).toEqual([]);
    expect(parsed.refused).toEqual([
      {
        line: 2,
        reason: 'amount `1.250,00` has a thousands separator: remove it (1250.00, not 1,250.00 or 1.250,00)',
      },
      {
        line: 3,
        reason:
          'amount `12,50` has a comma: write decimals after a point and no thousands separator (12.50, 1250.00)',
      },
      {
        line: 4,
        reason: 'amount `1 250.00` has a thousands separator: remove it (1250.00, not 1,250.00 or 1.250,00)',
      },
      { line: 5, reason: 'amount `(12.50)` is in parentheses: write money out with a minus sign (-12.50)' },
      {
        line: 6,
        reason:
          'amount `£12.50` is not a number: write only digits, a minus sign and a decimal point (-12.50)',
      },
      { line: 7, reason: 'amount `1.2.3` is not a number: write digits with one decimal point (-12.50)' },
      {
        line: 8,
        reason:
          'amount `99999999999999999` exceeds the largest amount the service holds (9999999999999.99 GBP)',
      },
    ]);
  });

  it('keeps physical line numbers across quoted multi-line cells, blank lines and CRLF', () => {
    const text = [
      'Date,Description,Amount',
      '2026-11-01,"first',
      'second',
      'third",1.00',
      '',
      '',
      '2026-11-02,"one ""quoted"" word",2.00',
      '2026-11-03,"a\r\nb",x',
      ',,',
      '2026-11-04,last,4.00',
    ].join('\r\n');
    const parsed = parseStatement(text, { currency: 'EUR', mapping: MINIMAL });
    expect(parsed.lines).toEqual([
      { line: 2, date: '2026-11-01', description: 'first second third', amountMinor: 100, reference: null },
      { line: 7, date: '2026-11-02', description: 'one "quoted" word', amountMinor: 200, reference: null },
      { line: 11, date: '2026-11-04', description: 'last', amountMinor: 400, reference: null },
    ]);
    expect(parsed.refused).toEqual([
      {
        line: 8,
        reason: 'amount `x` is not a number: write only digits, a minus sign and a decimal point (-12.50)',
      },
    ]);
  });

  it('refuses a row whose cells do not match the header', () => {
    const parsed = parseStatement(csvOf('2026-11-03,a,1.00,extra', '2026-11-04,b,2.00'), {
      currency: 'EUR',
      mapping: MINIMAL,
    });
    expect(parsed.lines.map((l) => l.line)).toEqual([3]);
    expect(parsed.refused).toEqual([
      { line: 2, reason: 'the row has 4 cells and the header 3: quote a cell that holds the delimiter' },
    ]);
  });

  it('finds mapped columns regardless of case and reads a tab-delimited file', () => {
    const text = 'DATE\tDESCRIPTION\tAMOUNT\n2026-11-03\tTabbed\t-1.50';
    const parsed = parseStatement(text, { currency: 'EUR', mapping: MINIMAL });
    expect(parsed.lines).toEqual([
      { line: 2, date: '2026-11-03', description: 'Tabbed', amountMinor: -150, reference: null },
    ]);
  });

  it('refuses a mapping that names a column the header does not have, listing the columns', () => {
    const err = fileError(() =>
      parseStatement(fixture('single-amount.csv'), {
        currency: 'GBP',
        mapping: { ...SINGLE, amount: 'Value' },
      }),
    );
    expect(err.line).toBe(1);
    expect(err.message).toBe(
      'Line 1: the mapping names the column "Value" for amount, which the header row does not have; its columns are ' +
        '"Date", "Description", "Amount", "Reference"',
    );
  });

  it('refuses a CSV without a mapping, or with amount and debit/credit both or neither', () => {
    expect(fileError(() => parseStatement(csvOf(), { currency: 'EUR' })).message).toBe(
      'A CSV statement needs a mapping naming its columns for date, description and amount (or debit and credit); ' +
        'the header row (line 1) has "Date", "Description", "Amount"',
    );
    const text = 'Date,Description,Amount,Out,In\n';
    expect(
      fileError(() =>
        parseStatement(text, { currency: 'EUR', mapping: { ...MINIMAL, debit: 'Out', credit: 'In' } }),
      ).message,
    ).toBe('The mapping names amount and debit or credit: name either amount (signed), or debit and credit');
    expect(
      fileError(() =>
        parseStatement(text, {
          currency: 'EUR',
          mapping: { date: 'Date', description: 'Description', debit: 'Out' },
        }),
      ).message,
    ).toBe('The mapping needs the column of amount (signed), or the columns of both debit and credit');
  });

  it('refuses a file whose quote is never closed, naming the line its row starts on', () => {
    const err = fileError(() =>
      parseStatement(csvOf('2026-11-03,fine,1.00', '2026-11-04,"never closed,2.00', '2026-11-05,x,3.00'), {
        currency: 'EUR',
        mapping: MINIMAL,
      }),
    );
    expect(err.line).toBe(3);
    expect(err.message).toBe('Line 3: the file is not valid CSV: a quoted cell is never closed');
  });
});

describe('OFX and QFX statements', () => {
  it('reads OFX 1 SGML with unclosed tags: FITID, NAME and MEMO, CURDEF, LEDGERBAL', () => {
    expect(parseStatement(fixture('statement-v1.ofx'), { currency: 'GBP' })).toEqual({
      format: 'ofx',
      currency: 'GBP',
      closingBalanceMinor: 362620,
      lines: [
        {
          line: 1,
          date: '2026-11-02',
          description: 'Opening deposit',
          amountMinor: 250000,
          reference: '202611020001',
        },
        // The time and zone of DTPOSTED are left aside; MEMO joins NAME.
        {
          line: 2,
          date: '2026-11-03',
          description: 'Coffee Corner / Card 7781 High Street',
          amountMinor: -380,
          reference: '202611030002',
        },
        // A bare `&` and OFX's decimal comma; a MEMO equal to NAME is not repeated.
        {
          line: 3,
          date: '2026-11-04',
          description: 'Babbage & Co',
          amountMinor: 125000,
          reference: '202611040003',
        },
        // No FITID: CHECKNUM is the reference; the name comes from PAYEE; an empty MEMO adds nothing.
        {
          line: 4,
          date: '2026-11-05',
          description: 'Landlord Properties',
          amountMinor: -12000,
          reference: '000104',
        },
      ],
      refused: [],
    });
  });

  it('reads OFX 2 XML, entities decoded', () => {
    expect(parseStatement(fixture('statement-v2.ofx'), { currency: 'EUR' })).toEqual({
      format: 'ofx',
      currency: 'EUR',
      closingBalanceMinor: -15790,
      lines: [
        {
          line: 1,
          date: '2026-11-10',
          description: 'Boulangerie & Café Ménard',
          amountMinor: -4210,
          reference: 'FR-0001',
        },
        {
          line: 2,
          date: '2026-11-12',
          description: 'Virement client / Facture 2026-118',
          amountMinor: 100000,
          reference: 'FR-0002',
        },
      ],
      refused: [],
    });
  });

  it('reads a QFX credit card statement (CCSTMTRS, INTU.BID)', () => {
    expect(parseStatement(fixture('statement.qfx'), { currency: 'USD' })).toEqual({
      format: 'ofx',
      currency: 'USD',
      closingBalanceMinor: -13501,
      lines: [
        {
          line: 1,
          date: '2026-11-15',
          description: 'Example Hardware Store',
          amountMinor: -6499,
          reference: 'QFX-77001',
        },
        {
          line: 2,
          date: '2026-11-20',
          description: 'Payment - thank you',
          amountMinor: 20000,
          reference: 'QFX-77002',
        },
      ],
      refused: [],
    });
  });

  it('refuses a transaction with a malformed amount or a missing date by its position, keeping the others', () => {
    const parsed = parseStatement(fixture('malformed-amount.ofx'), { currency: 'GBP' });
    expect(parsed.closingBalanceMinor).toBeNull();
    expect(parsed.lines).toEqual([
      { line: 4, date: '2026-11-04', description: 'Fine', amountMinor: 1500, reference: 'GOOD-4' },
    ]);
    expect(parsed.refused).toEqual([
      {
        line: 1,
        reason: 'TRNAMT `1,250.00` has a thousands separator: remove it (1250.00, not 1,250.00 or 1.250,00)',
      },
      { line: 2, reason: 'DTPOSTED is missing: each STMTTRN needs the date it was posted' },
      {
        line: 3,
        reason:
          'DTPOSTED `20261131` is not a calendar date; TRNAMT `twelve` is not a number: write only digits, a minus ' +
          'sign and a decimal point (-12.50)',
      },
    ]);
  });

  /** An OFX 1 file of one statement in `currency` holding `transactions` (SGML). */
  const sgml = (currency: string, transactions: string, account = '12345678') =>
    [
      'OFXHEADER:100',
      'DATA:OFXSGML',
      '',
      '<OFX>',
      '<BANKMSGSRSV1><STMTTRNRS><STMTRS>',
      `<CURDEF>${currency}`,
      `<BANKACCTFROM><BANKID>1<ACCTID>${account}<ACCTTYPE>CHECKING</BANKACCTFROM>`,
      '<BANKTRANLIST>',
      transactions,
      '</BANKTRANLIST>',
      '</STMTRS></STMTTRNRS></BANKMSGSRSV1>',
      '</OFX>',
    ].join('\n');

  it('reads SGML with closed value elements, character references, comments and lower-case tags', () => {
    const text = sgml(
      'GBP',
      [
        '<!-- exported 2026-11-30 -->',
        '<STMTTRN><DTPOSTED>20261103</DTPOSTED><TRNAMT>-9.99</TRNAMT><FITID>C1</FITID>',
        '<NAME>Fish &amp; Chips &#8211; Caf&#xE9;</NAME></STMTTRN>',
        '<stmttrn><dtposted>20261104<trnamt>5<fitid>C2<name>lower</stmttrn>',
        '<STMTTRN><DTPOSTED>20261105<TRNAMT>-1.00<FITID>C3<CURRENCY><CURRATE>1.1<CURSYM>EUR</CURRENCY></STMTTRN>',
      ].join('\n'),
    );
    const parsed = parseStatement(text, { currency: 'GBP' });
    expect(parsed.lines).toEqual([
      { line: 1, date: '2026-11-03', description: 'Fish & Chips – Café', amountMinor: -999, reference: 'C1' },
      { line: 2, date: '2026-11-04', description: 'lower', amountMinor: 500, reference: 'C2' },
    ]);
    expect(parsed.refused).toEqual([{ line: 3, reason: 'the transaction is in EUR, the statement in GBP' }]);
  });

  it('refuses an OFX 1 header line that is not KEY:VALUE, and text outside elements', () => {
    const header = sgml('GBP', '').replace('DATA:OFXSGML', 'this is not a header');
    expect(fileError(() => parseStatement(header, { currency: 'GBP' })).message).toBe(
      'Line 2: the OFX header has a line that is not KEY:VALUE',
    );
    const stray = sgml('GBP', '').replace('</BANKTRANLIST>', '</BANKTRANLIST>stray words');
    expect(fileError(() => parseStatement(stray, { currency: 'GBP' })).message).toBe(
      'Line 10: text `stray words` outside any OFX element',
    );
  });

  it('reads JPY amounts written with zero decimals', () => {
    const text = sgml('JPY', '<STMTTRN><DTPOSTED>20261103<TRNAMT>-1500.00<FITID>J1</STMTTRN>');
    expect(parseStatement(text, { currency: 'JPY' }).lines).toEqual([
      { line: 1, date: '2026-11-03', description: '', amountMinor: -1500, reference: 'J1' },
    ]);
  });

  it('refuses a file in another currency than the bank account', () => {
    expect(fileError(() => parseStatement(fixture('statement-v1.ofx'), { currency: 'EUR' })).message).toBe(
      'The file is in GBP, the bank account in EUR: import it into a bank account in GBP',
    );
  });

  it('refuses a file cut short, naming its last line', () => {
    const text = fixture('statement-v1.ofx');
    const cut = text.slice(0, text.indexOf('</BANKTRANLIST>'));
    const err = fileError(() => parseStatement(cut, { currency: 'GBP' }));
    expect(err.message).toBe(`Line ${err.line}: the file ends inside <BANKTRANLIST>: it is cut short`);
    expect(err.line).toBe(cut.split('\n').length);
  });

  it('refuses an end tag that closes nothing, with its line', () => {
    const text = sgml('GBP', '<STMTTRN><DTPOSTED>20261103<TRNAMT>1.00<FITID>A</STMTTRN>\n</NOTOPEN>');
    const err = fileError(() => parseStatement(text, { currency: 'GBP' }));
    expect(err.line).toBe(10);
    expect(err.message).toBe('Line 10: </NOTOPEN> closes no open element');
  });

  it('refuses OFX 2 that is not well-formed XML, with its line', () => {
    const text = fixture('statement-v2.ofx').replace('<TRNAMT>-42.10</TRNAMT>', '<TRNAMT>-42.10</TRNAMTX>');
    const err = fileError(() => parseStatement(text, { currency: 'EUR' }));
    expect(err.line).toBe(28);
    expect(err.message).toMatch(/^Line 28: the file is not well-formed XML: /);
  });

  it('refuses a file holding statements of two accounts', () => {
    const one = sgml('GBP', '');
    const two = one.replace(
      '</STMTTRNRS>',
      '</STMTTRNRS><STMTTRNRS><STMTRS><CURDEF>GBP<BANKACCTFROM><BANKID>1<ACCTID>99999999</BANKACCTFROM></STMTRS></STMTTRNRS>',
    );
    const err = fileError(() => parseStatement(two, { currency: 'GBP' }));
    expect(err.message).toBe(
      `Line ${err.line}: the file holds statements of several accounts (1 12345678, 1 99999999): send one account per file`,
    );
  });

  it('refuses an OFX file with no bank or card statement', () => {
    const text = 'OFXHEADER:100\n\n<OFX><SIGNONMSGSRSV1><SONRS><CODE>0</SONRS></SIGNONMSGSRSV1></OFX>';
    expect(fileError(() => parseStatement(text, { currency: 'GBP' })).message).toMatch(
      /^The OFX file holds no bank or credit card statement/,
    );
  });

  it('refuses a DOCTYPE in OFX, SGML or XML', () => {
    const xml = fixture('statement-v2.ofx').replace(
      '<OFX>',
      '<!DOCTYPE OFX [<!ENTITY x SYSTEM "file:///etc/hostname">]>\n<OFX>',
    );
    expect(fileError(() => parseStatement(xml, { currency: 'EUR' })).message).toBe(
      'Line 3: XML with a DOCTYPE is not accepted: external entities are never resolved',
    );
    const sgmlText = sgml('GBP', '').replace(
      '<OFX>',
      '<!DOCTYPE OFX SYSTEM "http://127.0.0.1/ofx.dtd">\n<OFX>',
    );
    expect(fileError(() => parseStatement(sgmlText, { currency: 'GBP' })).message).toBe(
      'Line 4: XML with a DOCTYPE is not accepted: external entities are never resolved',
    );
  });
});

/** A CAMT.053 document of `version` around `statements` (each a <Stmt>'s content). */
const camt = (version: string, statements: string[], prefix = '') =>
  [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<${prefix}Document xmlns${prefix ? `:${prefix.slice(0, -1)}` : ''}="urn:iso:std:iso:20022:tech:xsd:camt.053.001.${version}">`,
    `<${prefix}BkToCstmrStmt>`,
    ...statements.map((s) => `<${prefix}Stmt>${s}</${prefix}Stmt>`),
    `</${prefix}BkToCstmrStmt>`,
    `</${prefix}Document>`,
  ].join('\n');

const account = (iban: string, currency: string) =>
  `<Acct><Id><IBAN>${iban}</IBAN></Id><Ccy>${currency}</Ccy></Acct>`;

/** A booked entry (08 and earlier: the status is a code). */
const entry = (amount: string, indicator: string, date: string, more = '') =>
  `<Ntry><Amt Ccy="EUR">${amount}</Amt><CdtDbtInd>${indicator}</CdtDbtInd><Sts>BOOK</Sts>` +
  `<BookgDt><Dt>${date}</Dt></BookgDt>${more}</Ntry>`;

describe('CAMT.053 statements', () => {
  it('reads entries: signed by CdtDbtInd, dated, described and referenced; pending skipped; CLBD', () => {
    expect(parseStatement(fixture('camt053.xml'), { currency: 'EUR' })).toEqual({
      format: 'camt053',
      currency: 'EUR',
      closingBalanceMinor: 167500,
      lines: [
        // AcctSvcrRef before NtryRef and EndToEndId; Ustrd before the debtor's name.
        {
          line: 1,
          date: '2026-11-03',
          description: 'INV-0042 Ada Lovelace',
          amountMinor: 125000,
          reference: 'ASR-1001',
        },
        // BookgDt/DtTm's date part; several Ustrd joined; NtryRef.
        {
          line: 2,
          date: '2026-11-04',
          description: 'Rent November Unit 4 Example Park',
          amountMinor: -95000,
          reference: 'NR-2',
        },
        // ValDt when there is no BookgDt; AddtlNtryInf; EndToEndId NOTPROVIDED is no reference.
        {
          line: 3,
          date: '2026-11-05',
          description: 'Account fee November',
          amountMinor: -500,
          reference: null,
        },
        // Money in: the debtor's name; EndToEndId as the last reference.
        { line: 4, date: '2026-11-06', description: 'Grace Hopper', amountMinor: 8000, reference: 'E2E-77' },
        // Entry 5 is pending: neither a line nor refused. A batch's remittance lines are joined.
        {
          line: 7,
          date: '2026-11-08',
          description: 'Batch part A Batch part B',
          amountMinor: 30000,
          reference: 'ASR-1007',
        },
      ],
      refused: [
        {
          line: 6,
          reason:
            'Amt `12.345` has 3 decimals and EUR takes at most 2 decimals: send the amount in EUR as the bank booked it',
        },
      ],
    });
  });

  it('reads version 13 with a namespace prefix, Sts/Cd and parties under Pty', () => {
    const text = camt(
      '13',
      [
        account('XX00EXAMPLE1', 'EUR') +
          '<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">20.50</Amt><CdtDbtInd>DBIT</CdtDbtInd>' +
          '<Dt><Dt>2026-11-30</Dt></Dt></Bal>' +
          '<Ntry><Amt Ccy="EUR">20.50</Amt><CdtDbtInd>DBIT</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>' +
          '<BookgDt><Dt>2026-11-09</Dt></BookgDt><NtryDtls><TxDtls><RltdPties><Cdtr><Pty><Nm>Office Supplies SA</Nm>' +
          '</Pty></Cdtr></RltdPties></TxDtls></NtryDtls></Ntry>' +
          '<Ntry><Amt Ccy="EUR">9.00</Amt><CdtDbtInd>CRDT</CdtDbtInd><Sts><Cd>PDNG</Cd></Sts>' +
          '<BookgDt><Dt>2026-11-10</Dt></BookgDt></Ntry>',
      ].map((s) => s.replace(/<(\/?)([A-Z])/g, '<$1c:$2')),
      'c:',
    );
    expect(parseStatement(text, { currency: 'EUR' })).toEqual({
      format: 'camt053',
      currency: 'EUR',
      closingBalanceMinor: -2050,
      lines: [
        {
          line: 1,
          date: '2026-11-09',
          description: 'Office Supplies SA',
          amountMinor: -2050,
          reference: null,
        },
      ],
      refused: [],
    });
  });

  it('reads several statements of one account as one, positions running on', () => {
    const text = camt('08', [
      account('XX00EXAMPLE1', 'EUR') + entry('1.00', 'CRDT', '2026-11-01'),
      account('XX00EXAMPLE1', 'EUR') +
        entry('2.00', 'DBIT', '2026-11-02') +
        entry('3.00', 'CRDT', '2026-11-02'),
    ]);
    const parsed = parseStatement(text, { currency: 'EUR' });
    expect(parsed.lines.map((l) => [l.line, l.amountMinor])).toEqual([
      [1, 100],
      [2, -200],
      [3, 300],
    ]);
  });

  it('refuses a file of statements of several accounts or currencies', () => {
    const accounts = camt('08', [account('XX00EXAMPLE1', 'EUR'), account('XX00EXAMPLE2', 'EUR')]);
    expect(fileError(() => parseStatement(accounts, { currency: 'EUR' })).message).toBe(
      'Line 5: the file holds statements of several accounts (XX00EXAMPLE1, XX00EXAMPLE2): send one account per file',
    );
    const currencies = camt('08', [account('XX00EXAMPLE1', 'EUR'), account('XX00EXAMPLE1', 'USD')]);
    expect(fileError(() => parseStatement(currencies, { currency: 'EUR' })).message).toBe(
      'Line 5: the file holds statements of several currencies (EUR, USD): send one account per file',
    );
  });

  it('refuses an entry in another currency, a signed amount and a missing indicator', () => {
    const text = camt('02', [
      account('XX00EXAMPLE1', 'EUR') +
        entry('1.00', 'CRDT', '2026-11-01').replace('Ccy="EUR"', 'Ccy="USD"') +
        entry('-2.00', 'DBIT', '2026-11-01') +
        entry('3.00', 'BOTH', '2026-11-01') +
        '<Ntry><Amt Ccy="EUR">4.00</Amt><CdtDbtInd>CRDT</CdtDbtInd></Ntry>',
    ]);
    expect(parseStatement(text, { currency: 'EUR' }).refused).toEqual([
      { line: 1, reason: 'Amt is in USD, the statement in EUR' },
      {
        line: 2,
        reason: 'Amt `-2.00` has a sign: CAMT amounts are unsigned, and CdtDbtInd gives the direction',
      },
      { line: 3, reason: 'CdtDbtInd `BOTH` is neither CRDT nor DBIT' },
      { line: 4, reason: 'the entry has no date: BookgDt (or ValDt) with Dt or DtTm is needed' },
    ]);
  });

  it('refuses a file in another currency than the bank account', () => {
    const err = fileError(() => parseStatement(fixture('camt053.xml'), { currency: 'GBP' }));
    expect(err.message).toBe(
      'The file is in EUR, the bank account in GBP: import it into a bank account in EUR',
    );
  });

  it('refuses XML that is not well-formed, naming the line', () => {
    const err = fileError(() => parseStatement(fixture('broken.xml'), { currency: 'EUR' }));
    expect(err).toBeInstanceOf(StatementFileError);
    expect(err.line).toBe(10);
    expect(err.message).toBe('Line 10: the file is not well-formed XML: unexpected close tag');
  });

  it('refuses camt.052 and camt.054 messages and files that are not XML', () => {
    const text = camt('08', [])
      .replace(/camt\.053/, 'camt.054')
      .replace(/BkToCstmrStmt/g, 'BkToCstmrDbtCdtNtfctn');
    expect(fileError(() => parseStatement(text, { currency: 'EUR', format: 'camt053' })).message).toBe(
      "Line 2: the file is a camt.054 message, not a camt.053 statement: export the account's camt.053 statement",
    );
    expect(fileError(() => parseStatement('a,b\n1,2', { currency: 'EUR', format: 'camt053' })).message).toBe(
      'The file is not XML: a CAMT.053 statement is an XML document (Document)',
    );
    const bare = '<Document><Other/></Document>';
    expect(fileError(() => parseStatement(bare, { currency: 'EUR', format: 'camt053' })).message).toMatch(
      /^The file holds no BkToCstmrStmt element/,
    );
  });
});

describe('a DOCTYPE declaring an external entity', () => {
  const server = createServer((_req, res) => {
    hits++;
    res.end('<!ENTITY leak "leaked">');
  });
  let hits = 0;
  const dir = mkdtempSync(join(tmpdir(), 'statement-'));
  afterEach(() => vi.restoreAllMocks());

  it('is refused before anything is fetched or read', async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const secret = join(dir, 'secret.txt');
    writeFileSync(secret, 'SECRET-MARKER-7731');
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    try {
      expect(
        fileError(() => parseStatement(fixture('doctype-entity.xml'), { currency: 'EUR' })).message,
      ).toBe('Line 2: XML with a DOCTYPE is not accepted: external entities are never resolved');
      const text = fixture('doctype-entity.xml')
        .replace('file:///etc/passwd', `file://${secret}`)
        .replace(']>', `<!ENTITY % remote SYSTEM "http://127.0.0.1:${port}/x.dtd"> %remote;\n]>`);
      const err = fileError(() => parseStatement(text, { currency: 'EUR' }));
      expect(err.line).toBe(2);
      expect(err.message).not.toContain('SECRET-MARKER');
      // Without a format, the file is still told to be CAMT and refused the same way.
      expect(detectFormat(text)).toBe('camt053');
      // Anything asked of the network would have arrived by now.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(hits).toBe(0);
      expect(fetchSpy).not.toHaveBeenCalled();
      // And the XML parser has no way to: it loads no file, network or process module at all.
      const saxes = readFileSync(createRequire(import.meta.url).resolve('saxes'), 'utf8');
      expect([...saxes.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1])).toEqual([
        'xmlchars/xml/1.0/ed5',
        'xmlchars/xml/1.1/ed2',
        'xmlchars/xmlns/1.0/ed3',
      ]);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('detectFormat and whole-file refusals', () => {
  it('tells each fixture by its content', () => {
    expect(detectFormat(fixture('single-amount.csv'))).toBe('csv');
    expect(detectFormat(fixture('debit-credit.csv'))).toBe('csv');
    expect(detectFormat(fixture('statement-v1.ofx'))).toBe('ofx');
    expect(detectFormat(fixture('statement-v2.ofx'))).toBe('ofx');
    expect(detectFormat(fixture('statement.qfx'))).toBe('ofx');
    expect(detectFormat(fixture('camt053.xml'))).toBe('camt053');
    expect(detectFormat('<OFX><BANKMSGSRSV1></BANKMSGSRSV1></OFX>')).toBe('ofx');
    expect(detectFormat('just one column\n1\n2')).toBeNull();
    expect(detectFormat('<html><body>a web page</body></html>')).toBeNull();
  });

  it('reads a file in the format it is told, and without one in the format detected', () => {
    expect(parseStatement(fixture('camt053.xml'), { currency: 'EUR', format: 'camt053' }).lines).toHaveLength(
      5,
    );
    expect(parseStatement(fixture('statement.qfx'), { currency: 'USD' }).format).toBe('ofx');
  });

  it('refuses a file whose format cannot be told, asking for one', () => {
    expect(fileError(() => parseStatement('%PDF-1.7 a statement', { currency: 'EUR' })).message).toBe(
      'The format of the file could not be told from its content (not OFX, CAMT.053, nor CSV with a header row): ' +
        'send format=csv|ofx|camt053',
    );
  });

  it('refuses an empty file, a binary one and an unknown account currency', () => {
    expect(fileError(() => parseStatement('\uFEFF \n', { currency: 'EUR' })).message).toBe(
      'The file is empty',
    );
    const binary = fileError(() => parseStatement('a,b\nc\0d', { currency: 'EUR' }));
    expect(binary.line).toBe(2);
    expect(binary.message).toBe('Line 2: the file holds a NUL character: is it a binary file?');
    expect(fileError(() => parseStatement('a,b', { currency: 'ABC' })).message).toBe(
      "Unknown currency ABC: a bank account's currency is an ISO 4217 code",
    );
  });
});

describe('a statement of 10,000 transactions', () => {
  const N = 10_000;
  const day = (i: number) => `2026-11-${String((i % 28) + 1).padStart(2, '0')}`;

  it('reads a CAMT.053 file of 10,000 entries', () => {
    const entries = Array.from(
      { length: N },
      (_, i) =>
        entry(`${i + 1}.${String(i % 100).padStart(2, '0')}`, i % 2 ? 'DBIT' : 'CRDT', day(i)).replace(
          '</Ntry>',
          `<AcctSvcrRef>R${i}</AcctSvcrRef><NtryDtls><TxDtls><RmtInf><Ustrd>Invoice ${i}</Ustrd></RmtInf></TxDtls></NtryDtls></Ntry>`,
        ) + '\n',
    );
    const parsed = parseStatement(camt('08', [account('XX00EXAMPLE1', 'EUR') + entries.join('')]), {
      currency: 'EUR',
    });
    expect(parsed.lines).toHaveLength(N);
    expect(parsed.refused).toHaveLength(0);
    expect(parsed.lines[N - 1]).toEqual({
      line: N,
      date: day(N - 1),
      description: `Invoice ${N - 1}`,
      amountMinor: -(N * 100 + 99),
      reference: `R${N - 1}`,
    });
  });

  it('reads a CSV file of 10,000 rows', () => {
    const rows = Array.from({ length: N }, (_, i) => `${day(i)},"Payee ${i}, Ltd",-${i}.50`);
    const parsed = parseStatement(csvOf(...rows), { currency: 'EUR', mapping: MINIMAL });
    expect(parsed.lines).toHaveLength(N);
    expect(parsed.lines[N - 1]).toEqual({
      line: N + 1,
      date: day(N - 1),
      description: `Payee ${N - 1}, Ltd`,
      amountMinor: -((N - 1) * 100 + 50),
      reference: null,
    });
  });
});
