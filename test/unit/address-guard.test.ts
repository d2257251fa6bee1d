import net from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkWebhookUrl, isPublicAddress } from '../../server/webhooks/address-guard.js';
import { postWebhook } from '../../server/webhooks/sender.js';

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

  it.each(['::ffff:127.0.0.1', '::ffff:8.8.8.8', '::ffff:7f00:1', '::ffff:a00:5'])(
    'refuses the IPv4-mapped IPv6 address %s, whatever it maps to',
    (address) => {
      expect(isPublicAddress(address)).toBe(false);
    },
  );

  it.each([
    ['NAT64 (64:ff9b::/96)', '64:ff9b::7f00:1'],
    ['NAT64 of a public address', '64:ff9b::808:808'],
    ['local-use NAT64 (64:ff9b:1::/48)', '64:ff9b:1::a00:1'],
    ['6to4 (2002::/16)', '2002:7f00:1::1'],
    ['6to4 of a public address', '2002:808:808::1'],
    ['Teredo (2001::/32)', '2001:0:4136:e378:8000:63bf:3fff:fdd2'],
  ])('refuses the IPv4-embedding %s form %s', (_name, address) => {
    expect(isPublicAddress(address)).toBe(false);
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
    ['bracketed loopback IPv6', 'https://[::1]/x'],
    ['dotted loopback with a port', 'https://127.0.0.1:8443/x'],
    ['cloud metadata', 'https://169.254.169.254/latest/meta-data'],
    ['private', 'https://10.0.0.5/x'],
  ])('refuses a %s notation of a private address (%s)', async (_name, url) => {
    expect(await checkWebhookUrl(url, false)).toEqual(refusedPrivate);
  });

  it.each([
    'https://localhost/x',
    'https://LOCALHOST:8443/x',
    'https://api.localhost/x',
    'https://a.b.localhost/',
  ])('refuses %s without asking DNS', async (url) => {
    expect(await checkWebhookUrl(url, false)).toEqual(refusedPrivate);
  });

  it('refuses http:// when private targets are not allowed', async () => {
    expect(await checkWebhookUrl('http://8.8.8.8/x', false)).toEqual({
      ok: false,
      reason: expect.stringMatching(/HTTPS/),
    });
  });

  it.each(['ftp://8.8.8.8/x', 'file:///etc/passwd', 'javascript:alert(1)'])(
    'refuses the non-HTTP scheme %s even when private targets are allowed',
    async (url) => {
      expect(await checkWebhookUrl(url, true)).toEqual({ ok: false, reason: expect.stringMatching(/HTTPS/) });
    },
  );

  it.each(['not a url', '', 'https://', '//8.8.8.8/x'])('refuses the unparsable %j', async (url) => {
    expect(await checkWebhookUrl(url, false)).toEqual({ ok: false, reason: 'Not a valid URL' });
  });

  it.each(['https://user:pass@8.8.8.8/x', 'https://user@8.8.8.8/x', 'https://:pass@8.8.8.8/x'])(
    'refuses credentials in the URL (%s)',
    async (url) => {
      const credentials = { ok: false, reason: expect.stringMatching(/Credentials/) };
      expect(await checkWebhookUrl(url, false)).toEqual(credentials);
      expect(await checkWebhookUrl(url.replace('https:', 'http:'), true)).toEqual(credentials);
    },
  );

  it('accepts http:// to a private address when private targets are allowed', async () => {
    expect(await checkWebhookUrl('http://127.0.0.1:9/x', true)).toEqual({ ok: true });
    expect(await checkWebhookUrl('https://localhost/x', true)).toEqual({ ok: true });
  });

  it.each(['https://8.8.8.8/x', 'https://1.1.1.1:8443/hooks?a=1', 'https://[2606:4700:4700::1111]/x'])(
    'accepts the public IP literal %s',
    async (url) => {
      expect(await checkWebhookUrl(url, false)).toEqual({ ok: true });
    },
  );
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

  it('answers invalid_url for something that is not a URL', async () => {
    expect(await send('not a url')).toMatchObject({ statusCode: null, errorClass: 'invalid_url' });
    expect(await send('ftp://8.8.8.8/x', true)).toMatchObject({
      statusCode: null,
      errorClass: 'invalid_url',
    });
  });
});
