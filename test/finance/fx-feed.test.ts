import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { fetchEcbRates, parseEcbRates, type EcbParse } from '../../server/finance/exchange-rates/feed.js';

/* The ECB's daily reference-rate XML read into days of rates per euro: pure, no database. */

const fixture = (name: string) => readFileSync(new URL(`../fixtures/fx/${name}`, import.meta.url), 'utf8');

/** An ECB file around `days` (each a day Cube's XML). */
const ecb = (...days: string[]) =>
  [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">',
    '<gesmes:subject>Reference rates</gesmes:subject>',
    '<Cube>',
    ...days,
    '</Cube>',
    '</gesmes:Envelope>',
  ].join('\n');

const day = (date: string, ...rates: [string, string][]) =>
  [
    `<Cube time="${date}">`,
    ...rates.map(([currency, rate]) => `<Cube currency="${currency}" rate="${rate}"/>`),
    '</Cube>',
  ].join('\n');

function refusal(result: EcbParse): { problem: string; line: number | null } {
  if (result.ok) throw new Error(`expected a refusal, got ${JSON.stringify(result.days)}`);
  return { problem: result.problem, line: result.line };
}

describe('parseEcbRates', () => {
  it('reads the daily file', () => {
    expect(parseEcbRates(fixture('ecb-daily.xml'))).toEqual({
      ok: true,
      days: [
        {
          date: '2026-11-27',
          rates: [
            { currency: 'USD', perEuro: '1.055' },
            { currency: 'JPY', perEuro: '161.32' },
            { currency: 'CZK', perEuro: '24.915' },
            { currency: 'DKK', perEuro: '7.4582' },
            { currency: 'GBP', perEuro: '0.83415' },
            { currency: 'SEK', perEuro: '11.487' },
            { currency: 'CHF', perEuro: '0.9312' },
            { currency: 'NOK', perEuro: '11.7235' },
          ],
        },
      ],
    });
  });

  it('reads the history file, its days by date ascending', () => {
    expect(parseEcbRates(fixture('ecb-hist.xml'))).toEqual({
      ok: true,
      days: [
        {
          date: '2026-11-25',
          rates: [
            { currency: 'USD', perEuro: '1.0471' },
            { currency: 'JPY', perEuro: '161.05' },
            { currency: 'GBP', perEuro: '0.8336' },
            { currency: 'CHF', perEuro: '0.9299' },
          ],
        },
        {
          date: '2026-11-26',
          rates: [
            { currency: 'USD', perEuro: '1.0498' },
            { currency: 'JPY', perEuro: '160.87' },
            { currency: 'GBP', perEuro: '0.8329' },
            { currency: 'CHF', perEuro: '0.9305' },
          ],
        },
        {
          date: '2026-11-27',
          rates: [
            { currency: 'USD', perEuro: '1.055' },
            { currency: 'JPY', perEuro: '161.32' },
            { currency: 'GBP', perEuro: '0.83415' },
            { currency: 'CHF', perEuro: '0.9312' },
          ],
        },
      ],
    });
  });

  it('refuses a file cut off mid-element, naming the line', () => {
    expect(refusal(parseEcbRates(fixture('ecb-malformed.xml')))).toEqual({
      problem: 'Line 15: the file is not well-formed XML: unclosed tag: Cube',
      line: 15,
    });
  });

  it('refuses the whole file for one rate that is not a decimal with a point', () => {
    expect(refusal(parseEcbRates(fixture('ecb-bad-rate.xml')))).toEqual({
      problem:
        'Line 9: 2026-11-27: the USD rate "1,0550" is not a rate: Must be a positive decimal such as "1.0842" (digits, one optional point)',
      line: 9,
    });
  });

  it('refuses a zero rate', () => {
    expect(refusal(parseEcbRates(ecb(day('2026-11-27', ['USD', '0.0000'])))).problem).toBe(
      'Line 6: 2026-11-27: the USD rate "0.0000" is not a rate: Must be greater than 0',
    );
  });

  it('refuses a currency that is not an ISO 4217 code', () => {
    const xml = ecb(day('2026-11-27', ['USD', '1.0550'], ['XYZ', '2.5']));
    expect(refusal(parseEcbRates(xml))).toEqual({
      problem: 'Line 7: 2026-11-27: "XYZ" is not an ISO 4217 currency code',
      line: 7,
    });
    // A name every object has is not a currency.
    expect(refusal(parseEcbRates(ecb(day('2026-11-27', ['constructor', '1']))))).toEqual({
      problem: 'Line 6: 2026-11-27: "constructor" is not an ISO 4217 currency code',
      line: 6,
    });
  });

  it('refuses EUR among the rates', () => {
    const xml = ecb(day('2026-11-27', ['USD', '1.0550'], ['EUR', '1']));
    expect(refusal(parseEcbRates(xml))).toEqual({
      problem: 'Line 7: 2026-11-27: EUR is listed, but every rate is per euro',
      line: 7,
    });
  });

  it('refuses a day that is not a calendar date', () => {
    expect(refusal(parseEcbRates(ecb(day('2026-02-30', ['USD', '1.0550']))))).toEqual({
      problem: 'Line 5: the day "2026-02-30" is not a calendar date YYYY-MM-DD',
      line: 5,
    });
    expect(refusal(parseEcbRates(ecb(day('27/11/2026', ['USD', '1.0550'])))).line).toBe(5);
  });

  it('refuses a day listed twice and a currency listed twice in a day', () => {
    const twice = ecb(day('2026-11-27', ['USD', '1.0550']), day('2026-11-27', ['USD', '1.0551']));
    expect(refusal(parseEcbRates(twice))).toEqual({
      problem: 'Line 8: the day 2026-11-27 is listed twice',
      line: 8,
    });
    const currencyTwice = ecb(day('2026-11-27', ['USD', '1.0550'], ['GBP', '0.83'], ['USD', '1.0551']));
    expect(refusal(parseEcbRates(currencyTwice))).toEqual({
      problem: 'Line 8: 2026-11-27: USD is listed twice',
      line: 8,
    });
  });

  it('refuses a file with no day, and a day with no rate', () => {
    expect(refusal(parseEcbRates(ecb()))).toEqual({ problem: 'the file lists no day of rates', line: null });
    expect(refusal(parseEcbRates(ecb().replace('<Cube>\n</Cube>', '<Cube/>')))).toEqual({
      problem: 'the file lists no day of rates',
      line: null,
    });
    expect(refusal(parseEcbRates(ecb(day('2026-11-27'))))).toEqual({
      problem: 'Line 5: the day 2026-11-27 lists no rate',
      line: 5,
    });
  });

  it('refuses a file whose root is not the gesmes Envelope, or an empty one', () => {
    expect(refusal(parseEcbRates('<Cube><Cube time="2026-11-27"/></Cube>'))).toEqual({
      problem: 'Line 1: the file is not an ECB rates file: its root is <Cube>, not a gesmes Envelope',
      line: 1,
    });
    // The right name in another namespace is not the Envelope.
    const otherNamespace = fixture('ecb-daily.xml').replace('http://www.gesmes.org/', 'http://example.org/');
    expect(refusal(parseEcbRates(otherNamespace)).line).toBe(2);
    expect(refusal(parseEcbRates('')).problem).toBe(
      'Line 1: the file is not well-formed XML: document must contain a root element',
    );
  });

  it('refuses Cubes out of place', () => {
    const rateOutsideDay = ecb('<Cube currency="USD" rate="1.0550"/>');
    expect(refusal(parseEcbRates(rateOutsideDay))).toEqual({
      problem: `Line 5: expected a day's <Cube time="YYYY-MM-DD">, found <Cube>`,
      line: 5,
    });
    const nested = ecb('<Cube time="2026-11-27"><Cube currency="USD" rate="1"><Cube/></Cube></Cube>');
    expect(refusal(parseEcbRates(nested)).problem).toBe(
      "Line 5: a rate's Cube holds no element, found <Cube>",
    );
  });

  describe('a DOCTYPE declaring an external entity', () => {
    const dir = mkdtempSync(join(tmpdir(), 'fx-feed-'));
    let hits = 0;
    const server = createServer((_req, res) => {
      hits++;
      res.end('<!ENTITY leak "leaked">');
    });
    afterAll(async () => {
      rmSync(dir, { recursive: true, force: true });
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    it('is refused before anything is fetched or read', async () => {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as AddressInfo;
      const secret = join(dir, 'secret.txt');
      writeFileSync(secret, 'SECRET-MARKER-4471');
      const xml = fixture('ecb-daily.xml')
        .replace(
          '<gesmes:Envelope',
          [
            '<!DOCTYPE gesmes:Envelope [',
            `  <!ENTITY secret SYSTEM "file://${secret}">`,
            `  <!ENTITY % remote SYSTEM "http://127.0.0.1:${port}/x.dtd"> %remote;`,
            ']>',
            '<gesmes:Envelope',
          ].join('\n'),
        )
        .replace('Reference rates', '&secret;&leak;');
      const result = parseEcbRates(xml);
      expect(result).toEqual({
        ok: false,
        problem: 'Line 2: XML with a DOCTYPE is not accepted: external entities are never resolved',
        line: 2,
      });
      expect(JSON.stringify(result)).not.toContain('SECRET-MARKER');
      // Give a stray request time to arrive: none must.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(hits).toBe(0);
    });
  });
});

describe('fetchEcbRates', () => {
  const servers: Server[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  /** A local server answering with `handler`; its base URL. */
  async function serve(handler: RequestListener): Promise<string> {
    const server = createServer(handler);
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('reads the file a server sends', async () => {
    let asked = '';
    const base = await serve((req, res) => {
      asked = `${req.method} ${req.url}`;
      res.writeHead(200, { 'content-type': 'text/xml' }).end(fixture('ecb-daily.xml'));
    });
    const result = await fetchEcbRates(`${base}/stats/eurofxref/eurofxref-daily.xml`);
    expect(asked).toBe('GET /stats/eurofxref/eurofxref-daily.xml');
    expect(result).toEqual(parseEcbRates(fixture('ecb-daily.xml')));
    expect(result.ok).toBe(true);
  });

  it('passes a refusal of the file on', async () => {
    const base = await serve((_req, res) => res.end(fixture('ecb-bad-rate.xml')));
    expect((await fetchEcbRates(`${base}/daily.xml`)).ok).toBe(false);
    expect(await fetchEcbRates(`${base}/daily.xml`)).toEqual(parseEcbRates(fixture('ecb-bad-rate.xml')));
  });

  it('refuses an answer other than 2xx, naming the status', async () => {
    const base = await serve((_req, res) => res.writeHead(500).end('<html>down</html>'));
    expect(await fetchEcbRates(`${base}/daily.xml`)).toEqual({
      ok: false,
      problem: `${base}/daily.xml answered HTTP 500 Internal Server Error`,
      line: null,
    });
  });

  it('refuses a body beyond maxBytes, announced or not', async () => {
    const body = fixture('ecb-hist.xml');
    const announced = await serve((_req, res) => res.end(body));
    expect(await fetchEcbRates(`${announced}/hist.xml`, { maxBytes: 500 })).toEqual({
      ok: false,
      problem: `${announced}/hist.xml sent ${Buffer.byteLength(body)} bytes, more than the 500 accepted`,
      line: null,
    });
    // Chunked, with no length: read until it grows beyond the limit.
    const streamed = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/xml' });
      for (let i = 0; i < body.length; i += 200) res.write(body.slice(i, i + 200));
      res.end();
    });
    expect(await fetchEcbRates(`${streamed}/hist.xml`, { maxBytes: 500 })).toEqual({
      ok: false,
      problem: `${streamed}/hist.xml sent more than the 500 bytes accepted`,
      line: null,
    });
    expect((await fetchEcbRates(`${streamed}/hist.xml`, { maxBytes: Buffer.byteLength(body) })).ok).toBe(
      true,
    );
  });

  it('gives up on a server that never answers once the timeout passes', async () => {
    const base = await serve(() => {});
    const started = Date.now();
    expect(await fetchEcbRates(`${base}/daily.xml`, { timeoutMs: 200 })).toEqual({
      ok: false,
      problem: `${base}/daily.xml did not answer within the timeout of 200 ms`,
      line: null,
    });
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('gives up on a body that stops half-way once the timeout passes', async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/xml' });
      res.write(fixture('ecb-daily.xml').slice(0, 300));
    });
    expect(await fetchEcbRates(`${base}/daily.xml`, { timeoutMs: 200 })).toEqual({
      ok: false,
      problem: `${base}/daily.xml did not answer within the timeout of 200 ms`,
      line: null,
    });
  });

  it('reports a network error without throwing', async () => {
    const base = await serve(() => {});
    const server = servers.pop()!;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const result = refusal(await fetchEcbRates(`${base}/daily.xml`));
    expect(result.line).toBeNull();
    expect(result.problem).toMatch(
      new RegExp(`^Could not fetch ${base}/daily.xml: fetch failed: .*ECONNREFUSED`),
    );
  });

  it('uses the fetch it is given, and refuses a body that is not UTF-8', async () => {
    const given: typeof fetch = () => Promise.resolve(new Response(new Uint8Array([0x3c, 0xff, 0xfe, 0x3e])));
    expect(await fetchEcbRates('https://rates.example/daily.xml', { fetch: given })).toEqual({
      ok: false,
      problem: 'https://rates.example/daily.xml sent a body that is not UTF-8 text',
      line: null,
    });
    const throwing: typeof fetch = () => Promise.reject(new Error('no route'));
    expect(await fetchEcbRates('https://rates.example/daily.xml', { fetch: throwing })).toEqual({
      ok: false,
      problem: 'Could not fetch https://rates.example/daily.xml: no route',
      line: null,
    });
  });
});
