import type { NextFunction, Request, Response } from 'express';

/**
 * The small HTML pages behind links in emails (unsubscribe, accepting an invitation): no script, no
 * outside resource, forms posting to the page itself.
 */

export const escapeHtml = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** Answers a page: `title` as its heading, `body` HTML the caller has escaped. */
export function page(res: Response, status: number, title: string, body: string): void {
  res
    .status(status)
    .set('Cache-Control', 'no-store')
    .set('Referrer-Policy', 'no-referrer')
    .set(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    )
    .type('html')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex">` +
        `<meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title>` +
        `<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem}` +
        `label{display:block;margin:1rem 0 .25rem}input{font:inherit;padding:.4rem;width:100%;box-sizing:border-box}` +
        `button{font:inherit;margin-top:1rem;padding:.5rem 1rem}.error{color:#b00020}</style>` +
        `</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
    );
}

/** An async page handler whose failures reach the error handler. */
export const handle =
  (run: (req: Request, res: Response) => Promise<void>) =>
  (req: Request, res: Response, next: NextFunction): void => {
    run(req, res).catch(next);
  };
