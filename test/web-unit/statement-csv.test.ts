import { describe, expect, it } from 'vitest';
import {
  guessDateFormat,
  guessMapping,
  mappingJson,
  readCsvHead,
} from '../../web/screens/finance/banking/statement-csv.js';

/** The import screen's preview of a CSV statement: its header, first rows and first guesses. */

describe('the preview of a CSV statement', () => {
  it('reads the header and the first rows by the delimiter the header uses, quotes and all', () => {
    const text =
      '\uFEFFDate;Description;Amount\r\n03.11.2026;"Rent; November";-950,00\r\n\r\n04.11.2026;"He said ""hi""";12,00\n';
    expect(readCsvHead(text)).toEqual({
      header: ['Date', 'Description', 'Amount'],
      rows: [
        ['03.11.2026', 'Rent; November', '-950,00'],
        ['04.11.2026', 'He said "hi"', '12,00'],
      ],
    });
    expect(readCsvHead('')).toEqual({ header: [], rows: [] });
  });

  it('guesses each column from the words banks use, debit and credit only without an amount', () => {
    expect(guessMapping(['Transaction Date', 'Details', 'Paid out', 'Paid in', 'Ref'])).toEqual({
      date: 'Transaction Date',
      description: 'Details',
      amount: '',
      debit: 'Paid out',
      credit: 'Paid in',
      reference: 'Ref',
    });
    expect(guessMapping(['Date', 'Memo', 'Amount', 'Balance'])).toMatchObject({
      date: 'Date',
      description: 'Memo',
      amount: 'Amount',
      debit: '',
      credit: '',
    });
  });

  it('guesses the date format, day first unless only a month-first date is seen', () => {
    expect(guessDateFormat(['2026-11-03'])).toBe('YYYY-MM-DD');
    expect(guessDateFormat(['03.11.2026'])).toBe('DD.MM.YYYY');
    expect(guessDateFormat(['03/11/2026', '04/11/2026'])).toBe('DD/MM/YYYY');
    expect(guessDateFormat(['11/30/2026'])).toBe('MM/DD/YYYY');
    expect(guessDateFormat(['26/11/2026', '31/13/2026'])).toBe('DD/MM/YYYY');
  });

  it('sends only the columns chosen', () => {
    const mapping = {
      date: 'Date',
      description: 'Details',
      amount: 'Amount',
      debit: '',
      credit: '',
      reference: '',
    };
    expect(JSON.parse(mappingJson(mapping))).toEqual({
      date: 'Date',
      description: 'Details',
      amount: 'Amount',
    });
  });
});
