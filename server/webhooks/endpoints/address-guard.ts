import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { DnsTimeoutError, type DnsResolver } from '../../platform/dns.js';

type Cidr = [ipaddr.IPv6, number];
const cidr = (text: string): Cidr => ipaddr.IPv6.parseCIDR(text);
/** The IPv4 address in two 16-bit groups (an IPv6 address always has all eight). */
const ipv4 = (high = 0, low = 0) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/**
 * IPv6 forms that embed an IPv4 address, and the IPv4 addresses a connection to one of them ends
 * up reaching: the address is public only when all of those are. `null`: the form is refused
 * whatever it embeds. `parts` are the address's eight 16-bit groups.
 */
const IPV4_EMBEDDING: { prefix: Cidr; reaches: (parts: readonly number[]) => ipaddr.IPv4[] | null }[] = [
  // IPv4-mapped (::ffff:0:0/96): a dual-stack socket dials the embedded address itself.
  { prefix: cidr('::ffff:0:0/96'), reaches: (p) => [ipv4(p[6], p[7])] },
  // IPv4-compatible (::/96, which also holds :: and ::1): deprecated by RFC 4291, so no receiver
  // has one, and stacks that still know it tunnel it to the embedded address over IPv4.
  { prefix: cidr('::/96'), reaches: () => null },
  // IPv4-translated (::ffff:0:0:0/96, SIIT): only meaningful inside a translator's own network.
  { prefix: cidr('::ffff:0:0:0/96'), reaches: () => null },
  // NAT64 well-known prefix (64:ff9b::/96, RFC 6052): the translator dials the last 32 bits.
  // DNS64 answers with these for IPv4-only hosts, so a public one must pass on IPv6-only networks.
  { prefix: cidr('64:ff9b::/96'), reaches: (p) => [ipv4(p[6], p[7])] },
  // Local-use NAT64 (64:ff9b:1::/48, RFC 8215): its operator picks the prefix length, so where the
  // IPv4 address sits is unknown, and it is meant to translate into that operator's own network.
  { prefix: cidr('64:ff9b:1::/48'), reaches: () => null },
  // 6to4 (2002::/16): packets are tunnelled to the site's router, the IPv4 address in bits 16-47.
  { prefix: cidr('2002::/16'), reaches: (p) => [ipv4(p[1], p[2])] },
  // Teredo (2001::/32): packets travel over IPv4 UDP to the Teredo server (bits 32-63) and to the
  // client's NAT address (the last 32 bits, inverted), so both must be public.
  {
    prefix: cidr('2001::/32'),
    reaches: (p) => [ipv4(p[2], p[3]), ipv4((p[6] ?? 0) ^ 0xffff, (p[7] ?? 0) ^ 0xffff)],
  },
];

/**
 * IPv6 text with its dotted-quad tail written as two hex groups. ipaddr.js reads `::a.b.c.d` as
 * `::ffff:a.b.c.d`, while it means the IPv4-compatible `::a.b.c.d`, which is also how resolvers
 * print such an address.
 */
function hexTail(ipv6: string): string {
  const [address = '', ...zone] = ipv6.split('%');
  const hex = address.replace(
    /(\d+)\.(\d+)\.(\d+)\.(\d+)$/,
    (_quad, a: string, b: string, c: string, d: string) =>
      [(Number(a) << 8) | Number(b), (Number(c) << 8) | Number(d)]
        .map((group) => group.toString(16))
        .join(':'),
  );
  return [hex, ...zone].join('%');
}

/**
 * Server-side request forgery guard: webhook URLs may only reach public unicast addresses.
 * Loopback, private, link-local, CGNAT, unique-local, multicast, reserved and unspecified addresses
 * are refused, whatever notation they are written in, and so are IPv6 forms embedding an IPv4
 * address unless what they reach over IPv4 is public (IPV4_EMBEDDING).
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 0) return false;
  const parsed = ipaddr.parse(family === 6 ? hexTail(bare) : bare);
  if (parsed instanceof ipaddr.IPv6) {
    const form = IPV4_EMBEDDING.find(({ prefix }) => parsed.match(prefix));
    if (form) return form.reaches(parsed.parts)?.every((v4) => v4.range() === 'unicast') ?? false;
  }
  // ipaddr.js names every special range (loopback, private, linkLocal, carrierGradeNat, uniqueLocal,
  // reserved, multicast, ...); only plain unicast is public.
  return parsed.range() === 'unicast';
}

/** Port 0 is nobody's listening port, and Node would quietly dial the scheme's default instead. */
export const hasRefusedPort = (url: URL): boolean => url.port === '0';

export type UrlCheck = { ok: true } | { ok: false; reason: string };

/**
 * Said after the refusals that WEBHOOK_ALLOW_PRIVATE lifts, outside production only: there the
 * setting is refused (server/config.ts), so naming it would only point at what cannot be done.
 */
export const PRIVATE_RECEIVER_HINT =
  'For a receiver on this machine or a private network during development, start the service with ' +
  'WEBHOOK_ALLOW_PRIVATE=true.';

/**
 * Checks a webhook URL at registration: HTTPS (unless private targets are allowed), and a host that
 * is not, and does not resolve to, a private address. A host that does not resolve (or whose DNS
 * does not answer within the bound) is refused: nothing could be delivered to it. The same guard
 * runs again on the address actually dialled at delivery. With `development`, the refusals of plain
 * HTTP and of private hosts say which setting allows private receivers.
 */
export async function checkWebhookUrl(
  raw: string,
  allowPrivate: boolean,
  dns: Pick<DnsResolver, 'lookup'>,
  options: { development?: boolean } = {},
): Promise<UrlCheck> {
  const privateRefusal = (reason: string): UrlCheck => ({
    ok: false,
    reason: options.development ? `${reason}. ${PRIVATE_RECEIVER_HINT}` : reason,
  });
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'Not a valid URL' };
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return url.protocol === 'http:'
      ? privateRefusal('Webhook URLs must use HTTPS')
      : { ok: false, reason: 'Webhook URLs must use HTTPS' };
  }
  if (url.username || url.password) return { ok: false, reason: 'Credentials in the URL are not allowed' };
  if (hasRefusedPort(url)) return { ok: false, reason: 'Port 0 is not allowed' };
  if (allowPrivate) return { ok: true };
  // WHATWG parsing already turned decimal, hex and octal IPv4 notations into dotted form.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    return isPublicAddress(host)
      ? { ok: true }
      : privateRefusal('The URL points at a private or reserved address');
  }
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return privateRefusal('The URL points at a private or reserved address');
  }
  let addresses: string[];
  try {
    addresses = await dns.lookup(host);
  } catch (err) {
    if (err instanceof DnsTimeoutError) {
      return {
        ok: false,
        reason: `The URL's host could not be resolved: ${err.message}; check the name and retry`,
      };
    }
    addresses = [];
  }
  if (addresses.length === 0) {
    return {
      ok: false,
      reason: "The URL's host could not be resolved: check the name, or publish its DNS record first",
    };
  }
  return addresses.every((a) => isPublicAddress(a))
    ? { ok: true }
    : privateRefusal("The URL's host resolves to a private or reserved address");
}
