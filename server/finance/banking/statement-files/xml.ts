import { SaxesParser } from 'saxes';
import { lineOf, StatementFileError } from './types.js';

/*
 * XML statements (CAMT.053, OFX 2) read by saxes, a streaming parser that never loads a DTD nor
 * resolves an entity of its own; a DOCTYPE is refused outright all the same, so that no declaration
 * in a file can ask for anything (docs/decisions.md D272). OFX 1's SGML tokenizer (sgml.ts) gives
 * the same element events, so the readers of records below serve both.
 */

export const DOCTYPE_REFUSED = 'XML with a DOCTYPE is not accepted: external entities are never resolved';

/** What a reader does with the elements of a file, XML or OFX 1 SGML. */
export interface XmlVisitor {
  /** `path` is the element names from the root down to this element; it is reused, so copy what is kept. */
  open?(path: readonly string[], attributes: Readonly<Record<string, string>>, line: number): void;
  /** `text` is the element's own text (its children's left out), untrimmed. */
  close?(path: readonly string[], text: string): void;
}

/**
 * An XML declaration after leading blank lines is not well-formed, but says nothing the reader needs
 * (the text is decoded already): blanked out, with its line breaks kept so that lines stay the file's.
 */
function blankLateDeclaration(xml: string): string {
  const match = /^\s+(<\?xml[\s\S]*?\?>)/.exec(xml);
  if (!match) return xml;
  const start = match[0].length - match[1]!.length;
  return xml.slice(0, start) + match[1]!.replace(/[^\n]/g, ' ') + xml.slice(match[0].length);
}

/**
 * Walks `xml`, calling the visitor with element names as `name` maps them (CAMT drops namespace
 * prefixes, OFX upper-cases). A file that is not well-formed is a StatementFileError naming its line.
 */
export function walkXml(xml: string, name: (raw: string) => string, visitor: XmlVisitor): void {
  const parser = new SaxesParser({ xmlns: false, position: true });
  const path: string[] = [];
  const texts: string[] = [];
  let sawRoot = false;
  parser.on('error', (err) => {
    const reason = err.message.replace(/^\d+:\d+: /, '').replace(/\.$/, '');
    throw new StatementFileError(
      `Line ${parser.line}: the file is not well-formed XML: ${reason}`,
      parser.line,
    );
  });
  parser.on('doctype', () => {
    // saxes reports the end of the declaration; its start is the line a reader looks for.
    const start = xml.indexOf('<!DOCTYPE');
    const line = start === -1 ? parser.line : lineOf(xml, start);
    throw new StatementFileError(`Line ${line}: ${DOCTYPE_REFUSED}`, line);
  });
  parser.on('opentag', (tag) => {
    sawRoot = true;
    path.push(name(tag.name));
    texts.push('');
    visitor.open?.(path, tag.attributes, parser.line);
  });
  const onText = (text: string) => {
    if (texts.length > 0) texts[texts.length - 1] += text;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => {
    visitor.close?.(path, texts.pop() ?? '');
    path.pop();
  });
  parser.write(blankLateDeclaration(xml)).close();
  if (!sawRoot) throw new StatementFileError('The file holds no XML element');
}

/**
 * The elements inside one record element (an OFX STMTTRN, a CAMT Ntry or Bal), by their path below
 * it. Only the paths its collector was told to keep are kept: a 20 MB file has hundreds of thousands
 * of elements, and most are never read.
 */
export class XmlRecord {
  private readonly values = new Map<string, string[]>();
  private readonly attributes = new Map<string, Readonly<Record<string, string>>>();

  constructor(
    private readonly kept: ReadonlySet<string>,
    /** The record's 1-based position among its kind in the file. */
    readonly position: number,
    readonly line: number,
  ) {}

  addText(path: string, text: string): void {
    const trimmed = text.trim();
    const list = this.values.get(path);
    if (list) list.push(trimmed);
    else this.values.set(path, [trimmed]);
  }

  addAttributes(path: string, attributes: Readonly<Record<string, string>>): void {
    if (!this.attributes.has(path)) this.attributes.set(path, attributes);
  }

  /** A path that is not kept would always read as absent: a reader's mistake, told at once. */
  private checked(path: string): string {
    if (!this.kept.has(path)) throw new Error(`The record path ${path} is not among those kept`);
    return path;
  }

  /** The first of `paths` present (absent: undefined; present but empty: ''). */
  first(...paths: string[]): string | undefined {
    for (const path of paths) {
      const value = this.values.get(this.checked(path))?.[0];
      if (value !== undefined) return value;
    }
    return undefined;
  }

  /** Every non-empty element at `path`, in file order. */
  all(path: string): string[] {
    return (this.values.get(this.checked(path)) ?? []).filter((v) => v !== '');
  }

  attribute(path: string, attribute: string): string | undefined {
    return this.attributes.get(this.checked(path))?.[attribute];
  }
}

/** Whether an element has attributes, without listing them (most have none). */
function hasAny(attributes: Readonly<Record<string, string>>): boolean {
  for (const name in attributes) if (Object.hasOwn(attributes, name)) return true;
  return false;
}

/**
 * Collects records of one element kind: `starts(path)` tells whether an element opening at `path`
 * is a record; the elements at the `kept` paths below it are kept, and each record closes into
 * `done`. Paths inside a record are a stack of joined strings, built only on the way to a kept path.
 */
export class RecordCollector {
  private record: XmlRecord | null = null;
  /** The path below the record of each open element; null below a path that leads to none kept. */
  private readonly inner: (string | null)[] = [];
  private readonly kept: ReadonlySet<string>;
  /** Every kept path and the paths leading to one (`NtryDtls`, `NtryDtls/TxDtls`, ...). */
  private readonly leading = new Set<string>();
  private count = 0;

  constructor(
    kept: readonly string[],
    private readonly starts: (path: readonly string[]) => boolean,
    private readonly done: (record: XmlRecord) => void,
  ) {
    this.kept = new Set(kept);
    for (const path of kept) {
      const parts = path.split('/');
      parts.forEach((_, i) => this.leading.add(parts.slice(0, i + 1).join('/')));
    }
  }

  open(path: readonly string[], attributes: Readonly<Record<string, string>>, line: number): void {
    if (this.record) {
      const parent = this.inner.length === 0 ? '' : this.inner[this.inner.length - 1]!;
      const name = path[path.length - 1]!;
      const here = parent === null ? null : parent === '' ? name : `${parent}/${name}`;
      const wanted = here !== null && this.leading.has(here);
      this.inner.push(wanted ? here : null);
      if (wanted && this.kept.has(here) && hasAny(attributes)) this.record.addAttributes(here, attributes);
    } else if (this.starts(path)) {
      this.count++;
      this.record = new XmlRecord(this.kept, this.count, line);
    }
  }

  close(_path: readonly string[], text: string): void {
    if (!this.record) return;
    if (this.inner.length === 0) {
      this.done(this.record);
      this.record = null;
      return;
    }
    const here = this.inner.pop();
    if (here && this.kept.has(here)) this.record.addText(here, text);
  }
}
