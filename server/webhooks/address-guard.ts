import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Server-side request forgery guard: webhook URLs may only reach public unicast addresses.
 * Loopback, private, link-local, CGNAT, unique-local, multicast, reserved and IPv4-mapped (or
 * otherwise IPv4-embedding) IPv6 addresses are refused, whatever notation they are written in.
 */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  if (isIP(bare) === 0) return false;
  // ipaddr.js names every special range (loopback, private, linkLocal, carrierGradeNat, uniqueLocal,
  // ipv4Mapped, rfc6052, 6to4, teredo, reserved, multicast, ...); only plain unicast is public.
  return ipaddr.parse(bare).range() === 'unicast';
}

export type UrlCheck = { ok: true } | { ok: false; reason: string };

/**
 * Checks a webhook URL at registration: HTTPS (unless private targets are allowed), and a host that
 * is not, and does not resolve to, a private address. A host that does not resolve yet is accepted:
 * the same guard runs again on the address actually dialled at delivery.
 */
export async function checkWebhookUrl(raw: string, allowPrivate: boolean): Promise<UrlCheck> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'Not a valid URL' };
  }
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return { ok: false, reason: 'Webhook URLs must use HTTPS' };
  }
  if (url.username || url.password) return { ok: false, reason: 'Credentials in the URL are not allowed' };
  if (allowPrivate) return { ok: true };
  // WHATWG parsing already turned decimal, hex and octal IPv4 notations into dotted form.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    return isPublicAddress(host)
      ? { ok: true }
      : { ok: false, reason: 'The URL points at a private or reserved address' };
  }
  if (host === 'localhost' || host.endsWith('.localhost')) {
    return { ok: false, reason: 'The URL points at a private or reserved address' };
  }
  let addresses: { address: string }[];
  try {
    addresses = await lookup(host, { all: true, verbatim: true });
  } catch {
    return { ok: true };
  }
  return addresses.every((a) => isPublicAddress(a.address))
    ? { ok: true }
    : { ok: false, reason: "The URL's host resolves to a private or reserved address" };
}
