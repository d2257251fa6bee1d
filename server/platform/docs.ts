import { fileURLToPath } from 'node:url';
import express, { type Router } from 'express';
// The assets' folder only: the package's main module loads the whole browser bundle into the process.
import getAbsoluteFSPath from 'swagger-ui-dist/absolute-path.js';

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Business Management Service API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
  <p style="margin:0;padding:.5rem 1rem;font-family:system-ui,sans-serif;background:#1f4e79"><a href="/app" style="color:#fff">Open the dashboard</a></p>
  <div id="reference"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  tryItOutEnabled: true,
  persistAuthorization: true,
  validatorUrl: null,
});
`;

/**
 * The files of swagger-ui-dist the page loads (and their source maps). The package's other files
 * (its package.json, README, a demo index.html pointing at a third-party document) are not served.
 */
const ASSETS = new Set([
  'swagger-ui.css',
  'swagger-ui.css.map',
  'swagger-ui-bundle.js',
  'swagger-ui-bundle.js.map',
]);

/** `GET /openapi.json` and an interactive reference at `GET /docs`, all assets served from here. */
export function docsRouter(openApiPath: URL): Router {
  // Read from its file at each request, not held: 3.6 MB the idle service need not keep
  // (docs/decisions.md D274). It is asked for when a client or the reference at /docs is set up.
  const document = fileURLToPath(openApiPath);
  const router = express.Router();
  router.get('/openapi.json', (_req, res, next) => {
    res.type('application/json');
    res.sendFile(document, { etag: false, lastModified: false, cacheControl: false }, (err) => {
      if (err) next(err);
    });
  });
  router.get(['/docs', '/docs/'], (_req, res) => {
    res.type('html').send(PAGE);
  });
  router.get('/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(INIT);
  });
  router.use(
    '/docs/assets',
    // Anything else leaves this router for the service's 404.
    (req, _res, next) => next(ASSETS.has(req.path.slice(1)) ? undefined : 'router'),
    express.static(getAbsoluteFSPath(), { index: false, maxAge: '1h' }),
  );
  return router;
}
