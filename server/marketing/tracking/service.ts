import type { SecretBox } from '../../platform/secret-box.js';

/**
 * Signed tokens of the links in campaign emails: they name the business, the campaign and the
 * contact, and a forged or altered one is refused (404). Click links also sign their target, so the
 * redirect goes only where the campaign's email pointed.
 */

export interface RecipientKey {
  businessId: string;
  campaignId: string;
  customerId: string;
}

export function tokenOf(secrets: SecretBox, key: RecipientKey): string {
  const payload = Buffer.from(`${key.businessId}:${key.campaignId}:${key.customerId}`).toString('base64url');
  return `${payload}.${secrets.sign(`recipient:${payload}`)}`;
}

export function readToken(secrets: SecretBox, token: string): RecipientKey | null {
  const [payload = '', signature = '', extra] = token.split('.');
  if (extra !== undefined || !payload || !secrets.verify(`recipient:${payload}`, signature)) return null;
  const [businessId, campaignId, customerId, rest] = Buffer.from(payload, 'base64url')
    .toString('utf8')
    .split(':');
  if (!businessId || !campaignId || !customerId || rest !== undefined) return null;
  return { businessId, campaignId, customerId };
}

/** The signature of a click's target for a recipient's token. */
const linkSignature = (secrets: SecretBox, token: string, url: string) =>
  secrets.sign(`link:${token}:${url}`);

/** Whether `signature` signs `url` for the token: a link the campaign's email really held. */
export const isSignedLink = (secrets: SecretBox, token: string, url: string, signature: string) =>
  secrets.verify(`link:${token}:${url}`, signature);

export interface Links {
  open: string;
  click: (url: string) => string;
  unsubscribe: string;
}

export function linksOf(secrets: SecretBox, baseUrl: string, key: RecipientKey): Links {
  const token = tokenOf(secrets, key);
  return {
    open: `${baseUrl}/t/o/${token}`,
    click: (url) =>
      `${baseUrl}/t/c/${token}?u=${encodeURIComponent(url)}&s=${linkSignature(secrets, token, url)}`,
    unsubscribe: `${baseUrl}/u/${token}`,
  };
}

const HREF = /(<a\b[^>]*?\shref\s*=\s*)(["'])(https?:\/\/[^"']+)\2/gi;

/** The HTML with each http(s) link sent through its tracked click URL. */
export function trackLinks(html: string, click: (url: string) => string): string {
  return html.replace(HREF, (_all, head: string, quote: string, url: string) => {
    const tracked = click(decodeEntities(url)).replace(/&/g, '&amp;');
    return `${head}${quote}${tracked}${quote}`;
  });
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&#x3D;': '=',
  '&#x2F;': '/',
  '&quot;': '"',
  '&#39;': "'",
};
const decodeEntities = (s: string) => s.replace(/&amp;|&#x3D;|&#x2F;|&quot;|&#39;/g, (e) => ENTITIES[e] ?? e);

/** User agents of known security scanners that fetch the links and images of every email they pass. */
const PREFETCHERS =
  /(barracuda|proofpoint|mimecast|safelinks|microsoft office protection|symantec|trendmicro)/i;

/** Whether an open is a scanner's prefetch: within 2 s of delivery, or from a known prefetcher. */
export function isPrefetch(userAgent: string | undefined, sentAt: Date | null, now: Date): boolean {
  if (userAgent && PREFETCHERS.test(userAgent)) return true;
  return sentAt !== null && now.getTime() - sentAt.getTime() < 2000;
}
