import { describe, expect, it } from 'vitest';
import { apiSort, oneOf, pageOf, pageQuery, pagesOf, sortOf } from '../../web/lib/lists.js';
import { addressOf, pick } from '../../web/lib/address.js';
import { decimalOf, integerOf } from '../../web/lib/numbers.js';

/** A list's view in the URL query, its paging, and numbers typed in a field. */

const query = (text: string) => new URLSearchParams(text);

describe('paging', () => {
  it('reads the page from the query, 1 when absent or not a page number', () => {
    expect(pageOf(query('page=3'))).toBe(3);
    expect(pageOf(query(''))).toBe(1);
    expect(pageOf(query('page=0'))).toBe(1);
    expect(pageOf(query('page=2.5'))).toBe(1);
    expect(pageOf(query('page=x'))).toBe(1);
  });

  it("gives a page as the API's limit and offset", () => {
    expect(pageQuery(1, 25)).toEqual({ limit: 25, offset: 0 });
    expect(pageQuery(3, 25)).toEqual({ limit: 25, offset: 50 });
  });

  it('counts the pages of a total, one for an empty list', () => {
    expect(pagesOf(0, 25)).toBe(1);
    expect(pagesOf(25, 25)).toBe(1);
    expect(pagesOf(26, 25)).toBe(2);
  });
});

describe('sorting and filters', () => {
  it('keeps a sort only when it names a sortable field', () => {
    expect(sortOf(query('sort=-total'), ['total', 'name'])).toBe('-total');
    expect(sortOf(query('sort=name'), ['total', 'name'])).toBe('name');
    expect(sortOf(query('sort=secret'), ['total'])).toBeUndefined();
  });

  it("writes the header's sort as the API's", () => {
    expect(apiSort('-total')).toBe('total:desc');
    expect(apiSort('name')).toBe('name:asc');
    expect(apiSort(undefined)).toBeUndefined();
  });

  it('keeps a filter only when it is one of its values', () => {
    expect(oneOf(query('status=paid'), 'status', ['paid', 'void'])).toBe('paid');
    expect(oneOf(query('status=other'), 'status', ['paid', 'void'])).toBeUndefined();
    expect(oneOf(query(''), 'status', ['paid'])).toBeUndefined();
  });
});

describe('numbers typed in a field', () => {
  it('reads an integer, leaves other text for the schema to refuse, nothing when empty', () => {
    expect(integerOf(' 42 ')).toBe(42);
    expect(integerOf('-3')).toBe(-3);
    expect(integerOf('4.5')).toBe('4.5');
    expect(integerOf('')).toBeUndefined();
  });

  it('reads a decimal the same way', () => {
    expect(decimalOf('4.5')).toBe(4.5);
    expect(decimalOf('4.')).toBe('4.');
    expect(decimalOf('  ')).toBeUndefined();
  });
});

describe('an address as typed', () => {
  it('keeps the fields filled in, trimmed, the country in capitals', () => {
    expect(addressOf({ line1: ' 1 High St ', line2: '', city: 'Leeds', country: ' gb ' })).toEqual({
      line1: '1 High St',
      city: 'Leeds',
      country: 'GB',
    });
    expect(addressOf({ line1: '  ', country: '' })).toEqual({});
  });

  it("picks a form's address fields from its draft", () => {
    const draft = { name: 'Acme', line1: 'a', city: 'b', postal_code: 'c', country: 'd' };
    expect(pick(draft, ['line1', 'country'])).toEqual({ line1: 'a', country: 'd' });
  });
});
