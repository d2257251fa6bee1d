import { createRequire } from 'node:module';
import Mustache from 'mustache';
import { invalid } from '../../platform/errors.js';

/**
 * Merge tags through mustache: `{{tag}}` only (HTML-escaped in the HTML part, as is in the subject
 * and text), comments allowed; triple braces, `{{&tag}}`, sections, partials and delimiter changes
 * are refused when a template is saved. Tags name a contact's field or `attributes.<key>`; any other
 * renders empty.
 */

/** A mustache token: its kind, its text or tag name, then positions. */
type Token = string[];

/** Token kinds that would escape HTML escaping or add logic. */
const REFUSED: Record<string, string> = {
  '&': 'is not supported: merge tags are always HTML-escaped (use {{tag}})',
  '#': 'sections are not supported: merge tags are logic-less',
  '^': 'inverted sections are not supported: merge tags are logic-less',
  '>': 'partials are not supported',
  '=': 'changing delimiters is not supported',
};

/** The tokens of a template part, or a 422 on `field` naming what is refused. */
export function parseMergeTags(source: string, field: string): Token[] {
  let tokens: Token[];
  try {
    tokens = Mustache.parse(source) as Token[];
  } catch (err) {
    throw invalid(field, `Malformed merge tag: ${(err as Error).message}`);
  }
  for (const [kind = '', name = ''] of tokens) {
    const reason = REFUSED[kind];
    if (reason) {
      const tag = kind === '&' ? `{{{${name}}}}` : `{{${kind}${name}}}`;
      throw invalid(field, `${tag}: ${reason}`);
    }
  }
  return tokens;
}

/** Checks every part of a template at save. */
export function checkTemplate(parts: {
  subject?: string;
  html_body?: string;
  text_body?: string | null;
}): void {
  if (parts.subject !== undefined) parseMergeTags(parts.subject, 'subject');
  if (parts.html_body !== undefined) parseMergeTags(parts.html_body, 'html_body');
  if (parts.text_body) parseMergeTags(parts.text_body, 'text_body');
}

/** Headings keep their case: upper-casing them would turn `{{first_name}}` into an unknown tag. */
const HEADINGS = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({
  selector,
  options: { uppercase: false },
}));

/**
 * Braces written as entities (`&#123;`, `&lbrace;`, ...) are literal text in the HTML; decoded into the
 * derived text they would become merge tags, so they travel as private-use characters until rendered.
 */
const BRACE_ENTITY =
  /&(?:#0*123|#x0*7b|lcub|lbrace)(?:;|(?![a-z0-9]))|&(?:#0*125|#x0*7d|rcub|rbrace)(?:;|(?![a-z0-9]))/gi;
const OPEN = '\uE000';
const CLOSE = '\uE001';
const hideBraces = (html: string) =>
  html.replace(BRACE_ENTITY, (entity) => (/123|7b|lcub|lbrace/i.test(entity) ? OPEN : CLOSE));
const showBraces = (text: string) => text.replaceAll(OPEN, '{').replaceAll(CLOSE, '}');

/**
 * The HTML tools, loaded on first use: with their parsers and CSS engines they are a large part of
 * what a process loads, and most processes (API-only ones, workers between campaigns) need none.
 */
let htmlToText: typeof import('html-to-text') | undefined;
const convert: (typeof import('html-to-text'))['convert'] = (html, options) =>
  (htmlToText ??= createRequire(import.meta.url)('html-to-text') as typeof import('html-to-text')).convert(
    html,
    options,
  );
let inliner: Promise<(typeof import('juice'))['default']> | undefined;
const loadJuice = () => (inliner ??= import('juice').then((m) => m.default));

/** The text of an HTML body with entity braces still hidden. */
const hiddenTextOf = (html: string): string =>
  convert(hideBraces(html), {
    wordwrap: 78,
    selectors: [
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
      { selector: 'img', format: 'skip' },
      { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
      ...HEADINGS,
    ],
  });

/** The plain-text part of an HTML body (merge tags pass through as text, case kept). */
export const textOf = (html: string): string => showBraces(hiddenTextOf(html));

/** What a contact contributes to a message. */
export interface MergeFields {
  first_name: string | null;
  last_name: string | null;
  name: string | null;
  email: string | null;
  company: string | null;
  attributes: Readonly<Record<string, string>>;
}

/** Resolves tag names against one contact's fields only (never the object's prototype). */
class FieldsContext extends Mustache.Context {
  constructor(private readonly fields: MergeFields) {
    super({});
  }

  override lookup(name: string): string {
    const f = this.fields;
    switch (name) {
      case 'first_name':
      case 'last_name':
      case 'name':
      case 'email':
      case 'company':
        return f[name] ?? '';
      default:
        if (name.startsWith('attributes.')) {
          const key = name.slice('attributes.'.length);
          return Object.prototype.hasOwnProperty.call(f.attributes, key) ? (f.attributes[key] ?? '') : '';
        }
        return '';
    }
  }
}

const AS_IS = { escape: (value: unknown) => String(value) };

export interface TemplateSource {
  subject: string;
  html_body: string;
  text_body: string | null;
}

export interface Rendered {
  subject: string;
  html: string;
  text: string;
}

/**
 * A template ready to render for many contacts: CSS inlined once, each part parsed once; the text
 * part derived from the HTML when it has none.
 */
export async function compileTemplate(template: TemplateSource): Promise<(fields: MergeFields) => Rendered> {
  const juice = await loadJuice();
  const writer = new Mustache.Writer();
  const subject = parseMergeTags(template.subject, 'subject');
  const html = parseMergeTags(juice(template.html_body), 'html_body');
  const derived = template.text_body === null;
  const text = parseMergeTags(template.text_body ?? hiddenTextOf(template.html_body), 'text_body');
  return (fields) => {
    const context = new FieldsContext(fields);
    return {
      // A subject is one line: merged values cannot add header lines.
      subject: writer.renderTokens(subject, context, undefined, undefined, AS_IS).replace(/[\r\n]+/g, ' '),
      html: writer.renderTokens(html, context),
      text: ((t) => (derived ? showBraces(t) : t))(
        writer.renderTokens(text, context, undefined, undefined, AS_IS),
      ),
    };
  };
}

/** Values a preview uses when no contact is named. */
export const SAMPLE_FIELDS: MergeFields = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  company: 'Analytical Engines Ltd',
  attributes: {},
};
