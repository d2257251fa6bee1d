import type { Express, Request, Response } from 'express';
import { unsubscribeCustomer } from '../../general/index.js';
import { businessClock } from '../../platform/clock.js';
import { inTransaction, jobCtx } from '../../platform/context.js';
import { withTransaction } from '../../platform/db/database.js';
import type { Deps } from '../../platform/deps.js';
import { escapeHtml, handle, page } from '../../platform/pages.js';
import * as queries from './queries.js';
import { isPrefetch, isSignedLink, readToken, type RecipientKey } from './service.js';

/**
 * The public pages behind the links of campaign emails: the open pixel, click redirects and the
 * unsubscribe page. No credential; the signed token names business, campaign and contact, and
 * anything forged, altered or unknown answers 404 (rate limited per IP like every anonymous call).
 */

/** A transparent 1x1 GIF. */
const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');

const notFound = (res: Response) => page(res, 404, 'Link not found', '<p>This link is not valid.</p>');

/** The recipient a token names, or null (after answering 404) when the token or recipient is not. */
async function recipientOf(deps: Deps, req: Request, res: Response) {
  const key = readToken(deps.secrets, String(req.params.token ?? ''));
  const row = key && (await queries.findRecipient(deps.db, key));
  if (!key || !row || !row.sent_at) {
    notFound(res);
    return null;
  }
  return { key, row };
}

/** An open or a click: recorded always, counted unless a scanner's prefetch. */
async function track(
  deps: Deps,
  req: Request,
  key: RecipientKey,
  sentAt: Date,
  kind: 'open' | 'click',
  url: string | null,
) {
  // The business's clock, which dated the sending (`sentAt`): a sandbox's test clock.
  const at = (await businessClock(deps, key.businessId)).now();
  const userAgent = req.get('user-agent')?.slice(0, 500) ?? null;
  const counted = !isPrefetch(userAgent ?? undefined, sentAt, at);
  await withTransaction(deps.db, async (trx) => {
    await queries.insertEvent(trx, key, { kind, counted, url, userAgent, at });
    if (counted) await queries.markTracked(trx, key, kind, at);
  });
}

export function mountPages(app: Express, deps: Deps): void {
  app.get(
    '/t/o/:token',
    handle(async (req, res) => {
      const found = await recipientOf(deps, req, res);
      if (!found) return;
      await track(deps, req, found.key, found.row.sent_at!, 'open', null);
      res.status(200).set('Cache-Control', 'no-store, private').type('gif').send(PIXEL);
    }),
  );

  app.get(
    '/t/c/:token',
    handle(async (req, res) => {
      const url = typeof req.query.u === 'string' ? req.query.u : '';
      const signature = typeof req.query.s === 'string' ? req.query.s : '';
      const token = String(req.params.token ?? '');
      // Only where the campaign's email pointed: the target is signed with the recipient's token.
      if (!/^https?:\/\//i.test(url) || !isSignedLink(deps.secrets, token, url, signature)) {
        notFound(res);
        return;
      }
      const found = await recipientOf(deps, req, res);
      if (!found) return;
      await track(deps, req, found.key, found.row.sent_at!, 'click', url);
      res.set('Cache-Control', 'no-store, private').redirect(302, url);
    }),
  );

  // The link in the body opens a confirmation page whose button posts: scanners that fetch every
  // link never unsubscribe anyone. List-Unsubscribe points at the POST (RFC 8058 one-click).
  app.get(
    '/u/:token',
    handle(async (req, res) => {
      const found = await recipientOf(deps, req, res);
      if (!found) return;
      const action = `/u/${encodeURIComponent(String(req.params.token))}`;
      page(
        res,
        200,
        'Unsubscribe',
        `<p>Stop receiving these emails?</p><form method="post" action="${escapeHtml(action)}">` +
          `<button type="submit">Unsubscribe</button></form>`,
      );
    }),
  );

  app.post(
    '/u/:token',
    handle(async (req, res) => {
      const found = await recipientOf(deps, req, res);
      if (!found) return;
      const { key } = found;
      const clock = await businessClock(deps, key.businessId);
      await inTransaction({ ...jobCtx(deps, key.businessId, 'unsubscribe'), clock }, async (ctx) => {
        await queries.markUnsubscribed(ctx.db, key, ctx.clock.now());
        await unsubscribeCustomer(ctx, key.customerId);
      });
      page(res, 200, 'Unsubscribed', '<p>You will not receive these emails any more.</p>');
    }),
  );
}
