import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkWebhookUrl, isPublicAddress } from '../../server/webhooks/endpoints/address-guard.js';
import { postWebhook } from '../../server/webhooks/deliveries/sender.js';
import { StubDns } from '../support/dns.js';

/**
 * No test here may resolve a name or dial an address: both DNS entry points the guard and the sender
 * use are replaced by spies that fail, and every test asserts they were not called.
 */
const dns = vi.hoisted(() => {
  const refuse = () => {
    throw new Error('DNS must not be used in these tests');
  };
  return { promisesLookup: vi.fn(refuse), callbackLookup: vi.fn(refuse) };
});

vi.mock('node:dns/promises', () => ({
  lookup: dns.promisesLookup,
  default: { lookup: dns.promisesLookup },
}));
vi.mock('node:dns', () => ({
  lookup: dns.callbackLookup,
  promises: { lookup: dns.promisesLookup, resolveTxt: dns.promisesLookup },
  default: { lookup: dns.callbackLookup },
}));

let connect: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  dns.promisesLookup.mockClear();
  dns.callbackLookup.mockClear();
  connect = vi.spyOn(net.Socket.prototype, 'connect');
});

afterEach(() => {
  const dialled = connect.mock.calls.length;
  connect.mockRestore();
  expect(dns.promisesLookup, 'DNS lookups (promises)').not.toHaveBeenCalled();
  expect(dns.callbackLookup, 'DNS lookups (callback)').not.toHaveBeenCalled();
  expect(dialled, 'sockets dialled').toBe(0);
});

describe('isPublicAddress', () => {
  it.each(['127.0.0.1', '127.255.255.254', '::1'])('refuses loopback %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['10.0.0.1', '10.255.255.254', '172.16.0.1', '172.31.255.254', '192.168.0.1', '192.168.255.254'])(
    'refuses private %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(false);
    },
  );

  it.each(['169.254.169.254', '169.254.0.1', 'fe80::1'])('refuses link-local %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['100.64.0.1', '100.127.255.254'])('refuses carrier-grade NAT %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['fc00::1', 'fd12:3456::1'])('refuses unique-local %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  // IPv6 forms that embed an IPv4 address pass only when what they reach over IPv4 is public.
  // Teredo clients are written inverted: f7f7:f7f7 is 8.8.8.8, f5ff:fffe is 10.0.0.1, 3fff:fdd2 is
  // 192.0.2.45 (documentation), 80fe:fefe is 127.1.1.1.
  it.each([
    ['IPv4-mapped loopback', '::ffff:127.0.0.1'],
    ['IPv4-mapped loopback in hex', '::ffff:7f00:1'],
    ['IPv4-mapped private', '::ffff:a00:5'],
    ['IPv4-mapped cloud metadata', '::ffff:169.254.169.254'],
    ['IPv4-mapped unspecified', '::ffff:0.0.0.0'],
    ['IPv4-compatible loopback', '::127.0.0.1'],
    ['IPv4-compatible loopback in hex', '::7f00:1'],
    ['IPv4-compatible cloud metadata', '::169.254.169.254'],
    ['IPv4-compatible cloud metadata in hex', '::a9fe:a9fe'],
    ['IPv4-compatible private', '::a00:1'],
    ['NAT64 (64:ff9b::/96) of loopback', '64:ff9b::7f00:1'],
    ['NAT64 of a private address', '64:ff9b::10.0.0.1'],
    ['NAT64 of cloud metadata', '64:ff9b::a9fe:a9fe'],
    ['6to4 (2002::/16) of loopback', '2002:7f00:1::1'],
    ['6to4 of a private router', '2002:c0a8:101::1'],
    ['6to4 of the 6to4 relay anycast (reserved)', '2002:c058:6301::1'],
    ['Teredo (2001::/32) with a documentation client', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
    ['Teredo with a private client', '2001:0:4136:e378:8000:63bf:f5ff:fffe'],
    ['Teredo with a loopback client', '2001:0:4136:e378:8000:63bf:80fe:fefe'],
    ['Teredo with a private server', '2001:0:a00:1:8000:63bf:f7f7:f7f7'],
    ['Teredo with a zero server and client', '2001::ffff:ffff'],
  ])('refuses the %s form %s', (_name, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['IPv4-compatible (::/96, deprecated)', '::8.8.8.8'],
    ['IPv4-compatible in hex', '::808:808'],
    ['IPv4-translated (::ffff:0:0:0/96, SIIT)', '::ffff:0:8.8.8.8'],
    ['local-use NAT64 (64:ff9b:1::/48)', '64:ff9b:1::808:808'],
    ['local-use NAT64 with the address after a /48 prefix', '64:ff9b:1:808:8:800::'],
    ['local-use NAT64 of a private address', '64:ff9b:1::a00:1'],
  ])('refuses the %s form %s even when the address inside is public', (_name, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    ['IPv4-mapped', '::ffff:8.8.8.8'],
    ['IPv4-mapped in hex', '::ffff:808:808'],
    ['NAT64 (64:ff9b::/96)', '64:ff9b::808:808'],
    ['NAT64 in dotted notation', '64:ff9b::1.1.1.1'],
    ['6to4 (2002::/16)', '2002:808:808::1'],
    ['Teredo with a public server and client', '2001:0:4136:e378:8000:63bf:f7f7:f7f7'],
  ])('accepts the %s form %s of a public address', (_name, address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it.each(['0.0.0.0', '::'])('refuses the unspecified address %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it('refuses the limited broadcast address 255.255.255.255', () => {
    expect(isPublicAddress('255.255.255.255')).toBe(false);
  });

  it.each(['224.0.0.1', '239.255.255.250', 'ff02::1', 'ff05::2'])('refuses multicast %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['192.0.2.1', '198.51.100.7', '203.0.113.9', '198.18.0.1', '240.0.0.1', '2001:db8::1'])(
    'refuses documentation, benchmarking and reserved %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(false);
    },
  );

  it.each([
    '',
    'not-an-address',
    'localhost',
    'example.com',
    '999.1.1.1',
    '1.2.3',
    '1.2.3.4.5',
    '::g',
    '8.8.8.8 ',
    '8.8.8.8/32',
    'http://8.8.8.8',
    '[',
  ])('refuses the garbage string %j', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
  ])('accepts the public address %s', (address) => {
    expect(isPublicAddress(address)).toBe(true);
  });

  it('reads bracketed IPv6 the same as bare IPv6', () => {
    expect(isPublicAddress('[::1]')).toBe(false);
    expect(isPublicAddress('[2606:4700:4700::1111]')).toBe(true);
  });
});

/** A resolver for checks that must not ask DNS: asking fails the test. */
const noDns = {
  lookup: async (host: string): Promise<string[]> => {
    throw new Error(`DNS asked for ${host}`);
  },
};

describe('checkWebhookUrl', () => {
  const refusedPrivate = { ok: false, reason: expect.stringMatching(/private or reserved/) };

  it.each([
    ['decimal', 'https://2130706433/'],
    ['hex', 'https://0x7f000001/'],
    ['octal', 'https://0177.0.0.1/'],
    ['short', 'https://127.1/'],
    ['mixed hex and short', 'https://0x7f.1/'],
    ['hex first octet', 'https://0x7f.0.0.1/'],
    ['bracketed IPv4-mapped IPv6', 'https://[::ffff:127.0.0.1]/'],
    ['IPv4-compatible IPv6 of loopback', 'https://[::127.0.0.1]/'],
    ['IPv4-compatible IPv6 of cloud metadata', 'https://[::169.254.169.254]/latest/meta-data'],
    ['IPv4-compatible IPv6 of a public address', 'https://[::8.8.8.8]/'],
    ['IPv4-translated IPv6', 'https://[::ffff:0:8.8.8.8]/'],
    ['NAT64 IPv6 of loopback', 'https://[64:ff9b::127.0.0.1]/'],
    ['local-use NAT64 IPv6', 'https://[64:ff9b:1::808:808]/'],
    ['6to4 IPv6 of a private router', 'https://[2002:a00:1::1]/'],
    ['Teredo IPv6 with a private client', 'https://[2001:0:4136:e378:8000:63bf:f5ff:fffe]/'],
    ['bracketed loopback IPv6', 'https://[::1]/x'],
    ['dotted loopback with a port', 'https://127.0.0.1:8443/x'],
    ['cloud metadata', 'https://169.254.169.254/latest/meta-data'],
    ['private', 'https://10.0.0.5/x'],
  ])('refuses a %s notation of a private address (%s)', async (_name, url) => {
    expect(await checkWebhookUrl(url, false, noDns)).toEqual(refusedPrivate);
  });

  it.each([
    'https://localhost/x',
    'https://LOCALHOST:8443/x',
    'https://api.localhost/x',
    'https://a.b.localhost/',
  ])('refuses %s without asking DNS', async (url) => {
    expect(await checkWebhookUrl(url, false, noDns)).toEqual(refusedPrivate);
  });

  it('refuses http:// when private targets are not allowed', async () => {
    expect(await checkWebhookUrl('http://8.8.8.8/x', false, noDns)).toEqual({
      ok: false,
      reason: expect.stringMatching(/HTTPS/),
    });
  });

  it.each(['ftp://8.8.8.8/x', 'file:///etc/passwd', 'javascript:alert(1)'])(
    'refuses the non-HTTP scheme %s even when private targets are allowed',
    async (url) => {
      expect(await checkWebhookUrl(url, true, noDns)).toEqual({
        ok: false,
        reason: expect.stringMatching(/HTTPS/),
      });
    },
  );

  it.each(['not a url', '', 'https://', '//8.8.8.8/x'])('refuses the unparsable %j', async (url) => {
    expect(await checkWebhookUrl(url, false, noDns)).toEqual({ ok: false, reason: 'Not a valid URL' });
  });

  it.each(['https://user:pass@8.8.8.8/x', 'https://user@8.8.8.8/x', 'https://:pass@8.8.8.8/x'])(
    'refuses credentials in the URL (%s)',
    async (url) => {
      const credentials = { ok: false, reason: expect.stringMatching(/Credentials/) };
      expect(await checkWebhookUrl(url, false, noDns)).toEqual(credentials);
      expect(await checkWebhookUrl(url.replace('https:', 'http:'), true, noDns)).toEqual(credentials);
    },
  );

  it('accepts http:// to a private address when private targets are allowed', async () => {
    expect(await checkWebhookUrl('http://127.0.0.1:9/x', true, noDns)).toEqual({ ok: true });
    expect(await checkWebhookUrl('https://localhost/x', true, noDns)).toEqual({ ok: true });
  });

  it.each([
    'https://example.com:0/x',
    'https://8.8.8.8:0/x',
    'https://[2606:4700:4700::1111]:0/x',
    'https://example.com:000/x',
  ])('refuses port 0 (%s) without asking DNS', async (url) => {
    expect(await checkWebhookUrl(url, false, noDns)).toEqual({ ok: false, reason: 'Port 0 is not allowed' });
  });

  it('refuses port 0 even when private targets are allowed', async () => {
    const refused = { ok: false, reason: 'Port 0 is not allowed' };
    expect(await checkWebhookUrl('http://127.0.0.1:0/x', true, noDns)).toEqual(refused);
    expect(await checkWebhookUrl('https://localhost:0/x', true, noDns)).toEqual(refused);
  });

  it.each([
    'https://8.8.8.8/x',
    'https://1.1.1.1:8443/hooks?a=1',
    'https://[2606:4700:4700::1111]/x',
    'https://[::ffff:8.8.8.8]/x',
    'https://[64:ff9b::8.8.8.8]/x',
    'https://[2002:808:808::1]/x',
    'https://[2001:0:4136:e378:8000:63bf:f7f7:f7f7]/x',
  ])('accepts the public IP literal %s', async (url) => {
    expect(await checkWebhookUrl(url, false, noDns)).toEqual({ ok: true });
  });
});

describe('checkWebhookUrl on a host name', () => {
  const dns = new StubDns();
  dns.publishAddresses('hooks.example.com', '8.8.8.8', '2606:4700:4700::1111');
  dns.publishAddresses('mixed.example.com', '8.8.8.8', '10.0.0.5');
  dns.publishAddresses('metadata.example.com', '169.254.169.254');
  dns.silence('slow.example.com');

  it('accepts a name whose every address is public', async () => {
    expect(await checkWebhookUrl('https://hooks.example.com/x', false, dns)).toEqual({ ok: true });
  });

  it.each(['mixed.example.com', 'metadata.example.com'])(
    'refuses %s, which resolves to a private or reserved address',
    async (host) => {
      expect(await checkWebhookUrl(`https://${host}/x`, false, dns)).toEqual({
        ok: false,
        reason: "The URL's host resolves to a private or reserved address",
      });
    },
  );

  it('refuses a name that does not resolve, saying so', async () => {
    expect(await checkWebhookUrl('https://nowhere.example.com/x', false, dns)).toEqual({
      ok: false,
      reason: expect.stringMatching(/^The URL's host could not be resolved/),
    });
  });

  it('refuses a name whose DNS does not answer within the bound, naming the bound', async () => {
    expect(await checkWebhookUrl('https://slow.example.com/x', false, dns)).toEqual({
      ok: false,
      reason: expect.stringMatching(/could not be resolved: No DNS answer for slow\.example\.com within 3 s/),
    });
  });

  it('asks no DNS when private targets are allowed', async () => {
    expect(await checkWebhookUrl('https://nowhere.example.com/x', true, noDns)).toEqual({ ok: true });
  });
});

describe('postWebhook refuses to dial what the guard refuses', () => {
  const send = (url: string, allowPrivate = false) =>
    postWebhook(
      url,
      '{"event":"customer.created"}',
      { 'content-type': 'application/json' },
      {
        timeoutMs: 10_000,
        allowPrivate,
      },
    );

  it.each([
    'https://127.0.0.1:1/x',
    'https://[::1]:1/x',
    'https://[::ffff:127.0.0.1]:1/x',
    'https://2130706433:1/x',
    'https://10.0.0.5:1/x',
    'https://169.254.169.254/latest',
    'https://[::127.0.0.1]:1/x',
    'https://[::169.254.169.254]/latest',
    'https://[64:ff9b::10.0.0.5]:1/x',
    'https://[2002:7f00:1::1]:1/x',
    'https://[2001:0:4136:e378:8000:63bf:80fe:fefe]:1/x',
  ])('answers blocked_address for %s without opening a socket', async (url) => {
    const result = await send(url);
    expect(result).toEqual({
      statusCode: null,
      errorClass: 'blocked_address',
      retryAfterSeconds: null,
      durationMs: expect.any(Number),
    });
    expect(result.durationMs).toBeLessThan(1000);
  });

  it('answers invalid_url for http:// when private targets are not allowed', async () => {
    expect(await send('http://127.0.0.1:1/x')).toMatchObject({
      statusCode: null,
      errorClass: 'invalid_url',
      retryAfterSeconds: null,
    });
    expect(await send('http://8.8.8.8:1/x')).toMatchObject({ statusCode: null, errorClass: 'invalid_url' });
  });

  it('answers invalid_url for port 0 without resolving or dialling, even when private targets are allowed', async () => {
    const refused = { statusCode: null, errorClass: 'invalid_url', retryAfterSeconds: null };
    expect(await send('https://example.com:0/x')).toMatchObject(refused);
    expect(await send('https://8.8.8.8:0/x')).toMatchObject(refused);
    expect(await send('http://127.0.0.1:0/x', true)).toMatchObject(refused);
    expect(await send('https://localhost:0/x', true)).toMatchObject(refused);
  });

  it('answers invalid_url for something that is not a URL', async () => {
    expect(await send('not a url')).toMatchObject({ statusCode: null, errorClass: 'invalid_url' });
    expect(await send('ftp://8.8.8.8/x', true)).toMatchObject({
      statusCode: null,
      errorClass: 'invalid_url',
    });
  });
});
