import { DOCTYPE_REFUSED, type XmlVisitor } from './xml.js';
import { lineOf, StatementFileError } from './types.js';

/*
 * OFX 1 is SGML whose value elements have no end tag (`<TRNAMT>-12.50`). This tokenizer reads it
 * into the same element events as the XML reader gives for OFX 2, so that both versions share one
 * extraction (docs/decisions.md D272), in one pass and with the file's line numbers.
 */

/** A tag: an element name (QFX's `INTU.BID` included), or its end tag. */
const TAG = /^(\/?)([A-Za-z][A-Za-z0-9._]*)$/;

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Character references decoded; a bare `&` (SGML banks write `AT&T` as it is) stays as it is. */
const decode = (value: string) =>
  value.includes('&')
    ? value.replace(/&(?:(amp|lt|gt|quot|apos)|#(\d{1,7})|#x([0-9a-fA-F]{1,6}));/g, (all, name, dec, hex) => {
        if (name) return NAMED[name as string]!;
        const code = dec ? Number(dec) : parseInt(hex as string, 16);
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
      })
    : value;

const NO_ATTRIBUTES: Readonly<Record<string, string>> = Object.freeze({});

/** Whether text[from, to) is only spaces, tabs and line breaks (looked at without copying it). */
function blank(text: string, from: number, to: number): boolean {
  for (let k = from; k < to; k++) {
    const c = text.charCodeAt(k);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) return false;
  }
  return true;
}

/** The line of increasing offsets, counted once over the text rather than from the start each time. */
function lineCounter(text: string): (offset: number) => number {
  let at = 0;
  let line = 1;
  return (offset) => {
    for (let i = text.indexOf('\n', at); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
    at = Math.max(at, offset);
    return line;
  };
}

/**
 * Walks OFX 1 SGML. An element followed by text is a value element, closed where its text ends (an
 * end tag present in the file is then skipped); any other is an aggregate, and an end tag closes it
 * together with the empty value elements left open inside it. A file that ends inside an aggregate
 * has been cut short. The header before the first tag must be `KEY:VALUE` lines.
 */
export function walkSgml(text: string, visitor: XmlVisitor): void {
  const fail = (offset: number, message: string): never => {
    const line = lineOf(text, offset);
    throw new StatementFileError(`Line ${line}: ${message}`, line);
  };
  if (!/<OFX>/i.test(text)) fail(0, 'the file has no <OFX> element: it is not an OFX statement');
  const start = text.indexOf('<');
  const odd = /^(?![ \t]*$)(?![ \t]*[A-Za-z0-9_]+[ \t]*:)/m.exec(text.slice(0, start));
  if (odd) fail(odd.index, 'the OFX header has a line that is not KEY:VALUE');
  const lineAt = lineCounter(text);
  const path: string[] = [];
  let i = start;
  while (i < text.length) {
    const lt = text.indexOf('<', i);
    const stop = lt === -1 ? text.length : lt;
    if (!blank(text, i, stop)) {
      fail(i, `text \`${text.slice(i, stop).trim().slice(0, 40)}\` outside any OFX element`);
    }
    if (lt === -1) break;
    if (text.charCodeAt(lt + 1) === 0x21 /* ! */) {
      if (text.startsWith('<!--', lt)) {
        const end = text.indexOf('-->', lt);
        if (end === -1) fail(lt, 'a comment is never closed');
        i = end + 3;
        continue;
      }
      if (/^<!(DOCTYPE|ENTITY)/i.test(text.slice(lt, lt + 9))) fail(lt, DOCTYPE_REFUSED);
    }
    const gt = text.indexOf('>', lt);
    if (gt === -1) fail(lt, 'a tag is never closed with `>`');
    const tag = TAG.exec(text.slice(lt + 1, gt));
    if (!tag) fail(lt, `\`${text.slice(lt, Math.min(gt + 1, lt + 40))}\` is not an OFX tag`);
    const [, slash, tagName] = tag!;
    // OFX names are upper case; a file that is not still reads.
    const name = /[a-z]/.test(tagName!) ? tagName!.toUpperCase() : tagName!;
    i = gt + 1;
    if (slash) {
      const at = path.lastIndexOf(name);
      if (at === -1) fail(lt, `</${tagName}> closes no open element`);
      while (path.length > at) {
        visitor.close?.(path, '');
        path.pop();
      }
      continue;
    }
    path.push(name);
    visitor.open?.(path, NO_ATTRIBUTES, lineAt(lt));
    const next = text.indexOf('<', i);
    const end = next === -1 ? text.length : next;
    const value = text.slice(i, end).trim();
    if (value === '') continue;
    visitor.close?.(path, decode(value));
    path.pop();
    i = end;
    if (text.startsWith(`</${tagName}>`, i)) i += tagName!.length + 3;
  }
  if (path.length > 0) fail(text.length, `the file ends inside <${path.at(-1)}>: it is cut short`);
}
