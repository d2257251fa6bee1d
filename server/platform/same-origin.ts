import type { Request } from 'express';

/**
 * Whether a form post to a public page came from another site (docs/decisions.md D25, "Cross-site
 * form posts"): `Sec-Fetch-Site` other than `same-origin` (or `none`, a person's own action), or an
 * `Origin` that is neither this server's (as the request names it) nor `PUBLIC_BASE_URL`'s. A post
 * without either header (an old browser, a script) is taken, and so is `Origin: null`: the pages
 * send `Referrer-Policy: no-referrer`, under which a browser posts its own form with that origin.
 */
export function isCrossSitePost(req: Request, publicBaseUrl: string): boolean {
  const site = req.get('sec-fetch-site')?.trim().toLowerCase();
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return true;
  const origin = req.get('origin')?.trim();
  if (origin === undefined || origin === 'null') return false;
  const own = new Set([originOf(`${req.protocol}://${req.get('host') ?? ''}`), originOf(publicBaseUrl)]);
  return !own.has(originOf(origin));
}

/** An origin as a browser serialises it (lower case, no default port); the text itself if not a URL. */
function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}
