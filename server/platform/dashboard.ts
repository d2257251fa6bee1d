import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import express, { type Response, type Router } from 'express';

/**
 * The dashboard (docs/decisions.md D192) at /app: the bundle `npm run build` writes to dist/web, served
 * from this origin with CSP `default-src 'self'` (no inline script, no other origin). Every path
 * under /app answers the same page, which routes in the browser, so a bookmarked view reloads.
 */

/** dist/web, whether this module runs from server/ or from the build in dist/server/. */
const BUILT = [new URL('../../dist/web/', import.meta.url), new URL('../../web/', import.meta.url)]
  .map((url) => fileURLToPath(url))
  .find((dir) => existsSync(`${dir}index.html`));

const CSP =
  "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; " +
  "form-action 'self'; frame-ancestors 'none'";

const secure = (res: Response) =>
  res.set('Content-Security-Policy', CSP).set('X-Content-Type-Options', 'nosniff');

export function dashboardRouter(dir: string | undefined = BUILT): Router {
  const router = express.Router();
  if (!dir) {
    router.get(['/app', '/app/*'], (_req, res) => {
      secure(res)
        .status(503)
        .type('text')
        .send('The dashboard is not built: run `npm run build` (npm install runs it).');
    });
    return router;
  }
  // Read per request (a small file): a rebuilt dashboard names new files, and the old ones go.
  const index = () => readFileSync(`${dir}index.html`, 'utf8');
  router.use(
    '/app/assets',
    express.static(`${dir}assets`, { index: false, immutable: true, maxAge: '365d' }),
    (_req, res) => void res.status(404).end(),
  );
  router.get('/app/favicon.svg', (_req, res) => {
    secure(res).set('Cache-Control', 'public, max-age=86400').sendFile(`${dir}favicon.svg`);
  });
  router.get(['/app', '/app/*'], (_req, res) => {
    secure(res).set('Cache-Control', 'no-cache').type('html').send(index());
  });
  return router;
}
