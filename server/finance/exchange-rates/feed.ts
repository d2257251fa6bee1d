import { SaxesParser, type SaxesTagNS } from 'saxes';
import { CURRENCY_EXPONENTS } from '../../../contract/common/currencies.js';
import { normaliseRate, rateProblem } from '../../../contract/common/exchange.js';

/*
 * The European Central Bank's euro foreign exchange reference rates, published each working day as
 * XML: a gesmes Envelope holding one Cube of days, each day a Cube with a `time` attribute whose
 * children are Cubes with a `currency` and a `rate`, the units of that currency one euro buys. The
 * daily file holds one day, the 90-day history about sixty. The XML is read by saxes, a streaming
 * parser that never loads a DTD nor resolves an entity of its own; a DOCTYPE is refused outright all
 * the same, so that no declaration in a file can ask for anything.
 */

/** The day's rates, published around 16:00 CET on working days. */
export const ECB_DAILY_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-daily.xml';
/** The rates of the last 90 days, the same format with one Cube per day. */
export const ECB_HISTORY_URL = 'https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml';

/**
 * One day of the feed: `perEuro` is how many units of `currency` one euro buys, the file's figure
 * written plainly (normaliseRate: "1.0550" is "1.055"), never turned into a float.
 */
export interface EcbDay {
  /** YYYY-MM-DD */
  date: string;
  rates: { currency: string; perEuro: string }[];
}

/**
 * A feed read whole, its days by date ascending, or refused whole: `problem` says what is wrong,
 * `line` is the XML line it is on when there is one.
 */
export type EcbParse = { ok: true; days: EcbDay[] } | { ok: false; problem: string; line: number | null };

const GESMES_NS = 'http://www.gesmes.org/xml/2002-08-01';

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_BYTES = 2 * 1024 * 1024;

/** Why a file is refused; thrown inside the parser's handlers to stop it, caught by parseEcbRates. */
class Refusal extends Error {
  constructor(
    readonly problem: string,
    readonly line: number | null,
  ) {
    super(problem);
  }
}

function refuse(problem: string, line: number | null): never {
  throw new Refusal(line === null ? problem : `Line ${line}: ${problem}`, line);
}

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function isCalendarDate(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/** What an open element is: the root, something outside the rates, the Cube of days, a day, a rate. */
type Kind = 'root' | 'other' | 'days' | 'day' | 'rate';

const attribute = (tag: SaxesTagNS, name: string): string | undefined => tag.attributes[name]?.value;

/**
 * Reads an ECB reference-rate file (`eurofxref-daily.xml` or `eurofxref-hist-90d.xml`): a gesmes
 * Envelope whose Cube holds one `<Cube time="YYYY-MM-DD">` per day, each listing
 * `<Cube currency="USD" rate="1.0550"/>` per currency, in units of that currency per euro.
 */
export function parseEcbRates(xml: string): EcbParse {
  try {
    return { ok: true, days: readDays(xml) };
  } catch (err) {
    if (err instanceof Refusal) return { ok: false, problem: err.problem, line: err.line };
    throw err;
  }
}

function readDays(xml: string): EcbDay[] {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const kinds: Kind[] = [];
  const days = new Map<string, EcbDay>();
  let day: { value: EcbDay; line: number } | null = null;

  parser.on('error', (err) => {
    const reason = err.message.replace(/^\d+:\d+: /, '').replace(/\.$/, '');
    refuse(`the file is not well-formed XML: ${reason}`, parser.line);
  });
  parser.on('doctype', () => {
    // saxes reports the end of the declaration; its start is the line a reader looks for.
    const start = xml.indexOf('<!DOCTYPE');
    const line = start === -1 ? parser.line : lineOf(xml, start);
    refuse('XML with a DOCTYPE is not accepted: external entities are never resolved', line);
  });
  parser.on('opentag', (tag) => {
    const line = parser.line;
    const parent = kinds[kinds.length - 1];
    const isCube = tag.local === 'Cube';
    let kind: Kind;
    if (parent === undefined) {
      if (tag.local !== 'Envelope' || tag.uri !== GESMES_NS) {
        refuse(`the file is not an ECB rates file: its root is <${tag.name}>, not a gesmes Envelope`, line);
      }
      kind = 'root';
    } else if (parent === 'root') {
      kind = isCube ? 'days' : 'other';
    } else if (parent === 'other') {
      kind = 'other';
    } else if (parent === 'days') {
      const date = attribute(tag, 'time');
      if (!isCube || date === undefined) {
        refuse(`expected a day's <Cube time="YYYY-MM-DD">, found <${tag.name}>`, line);
      }
      if (!isCalendarDate(date)) refuse(`the day "${date}" is not a calendar date YYYY-MM-DD`, line);
      if (days.has(date)) refuse(`the day ${date} is listed twice`, line);
      day = { value: { date, rates: [] }, line };
      days.set(date, day.value);
      kind = 'day';
    } else if (parent === 'day') {
      const currency = attribute(tag, 'currency');
      const rate = attribute(tag, 'rate');
      if (!isCube || currency === undefined || rate === undefined) {
        refuse(`expected a <Cube currency="..." rate="..."/>, found <${tag.name}> without both`, line);
      }
      const { date, rates } = day!.value;
      if (currency === 'EUR') refuse(`${date}: EUR is listed, but every rate is per euro`, line);
      if (!Object.hasOwn(CURRENCY_EXPONENTS, currency)) {
        refuse(`${date}: "${currency}" is not an ISO 4217 currency code`, line);
      }
      if (rates.some((r) => r.currency === currency)) refuse(`${date}: ${currency} is listed twice`, line);
      const problem = rateProblem(rate);
      if (problem !== null) refuse(`${date}: the ${currency} rate "${rate}" is not a rate: ${problem}`, line);
      rates.push({ currency, perEuro: normaliseRate(rate) });
      kind = 'rate';
    } else {
      refuse(`a rate's Cube holds no element, found <${tag.name}>`, line);
    }
    kinds.push(kind);
  });
  parser.on('closetag', () => {
    if (kinds.pop() === 'day') {
      if (day!.value.rates.length === 0) refuse(`the day ${day!.value.date} lists no rate`, day!.line);
      day = null;
    }
  });

  parser.write(xml).close();
  if (days.size === 0) refuse('the file lists no day of rates', null);
  return [...days.values()].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
}

/** Rejects with the signal's reason once it aborts, even where a `fetch` given in its place ignores it. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason as Error);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    void promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** The body's bytes, or null once they grow beyond `maxBytes` (the rest is left unread). */
async function readLimited(
  response: Response,
  maxBytes: number,
  signal: AbortSignal,
): Promise<Uint8Array | null> {
  if (!response.body) return new Uint8Array(0);
  // The global Response types its body's chunks loosely; fetch's are always bytes.
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await abortable(reader.read(), signal);
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) return null;
      chunks.push(value);
    }
  } finally {
    reader.cancel().catch(() => {});
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/** An error and its cause: fetch's own message ("fetch failed") says nothing of what went wrong. */
function describeFailure(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return err.cause instanceof Error ? `${err.message}: ${err.cause.message}` : err.message;
}

/**
 * GETs an ECB reference-rate file at `url` and reads it with parseEcbRates. Never throws: a network
 * error, a timeout (15 s by default, reading the body included), an answer other than 2xx, a body
 * beyond `maxBytes` (2 MiB by default) or one that is not UTF-8 is a refusal with no line.
 */
export async function fetchEcbRates(
  url: string,
  options: { fetch?: typeof fetch; timeoutMs?: number; maxBytes?: number } = {},
): Promise<EcbParse> {
  const get = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const signal = AbortSignal.timeout(timeoutMs);
  const failed = (problem: string): EcbParse => ({ ok: false, problem, line: null });
  let body: Uint8Array | null;
  try {
    const response = await abortable(
      get(url, {
        method: 'GET',
        signal,
        headers: { accept: 'application/xml, text/xml' },
        redirect: 'follow',
      }),
      signal,
    );
    if (!response.ok) {
      response.body?.cancel().catch(() => {});
      const status = `${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
      return failed(`${url} answered HTTP ${status}`);
    }
    const length = Number(response.headers.get('content-length'));
    if (Number.isFinite(length) && length > maxBytes) {
      response.body?.cancel().catch(() => {});
      return failed(`${url} sent ${length} bytes, more than the ${maxBytes} accepted`);
    }
    body = await readLimited(response, maxBytes, signal);
  } catch (err) {
    if (signal.aborted) return failed(`${url} did not answer within the timeout of ${timeoutMs} ms`);
    return failed(`Could not fetch ${url}: ${describeFailure(err)}`);
  }
  if (body === null) return failed(`${url} sent more than the ${maxBytes} bytes accepted`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return failed(`${url} sent a body that is not UTF-8 text`);
  }
  return parseEcbRates(text);
}
