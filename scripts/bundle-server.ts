import { readFile, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

/*
 * Bundles the service's entry (server/main.ts) into dist/server/main.bundle.js, after `tsc` has
 * compiled every module beside it, and writes dist/server/main.js, the file `npm start` runs: it
 * turns on Node's module compile cache, then loads the bundle, so later starts reuse the code V8
 * compiled for it (docs/decisions.md D41, D63). Loading one file instead of some thousand ES
 * modules (the service's own and kysely's) halves the time from start to the first answer. The
 * other compiled files stay: the thread-pool tasks, the CLI and the migration runner load them.
 *
 * Each bundled module keeps its own location: `import.meta.url` becomes the URL its compiled file
 * has under dist/, so paths it resolves from there (the worker tasks, openapi.json, the dashboard,
 * fonts, packages loaded on first use) are the ones the unbundled build resolves.
 */

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outfile = join(root, 'dist', 'server', 'main.bundle.js');
const launcher = join(root, 'dist', 'server', 'main.js');
const require = createRequire(import.meta.url);

/**
 * Packages left to Node: ones that read files beside their own code (PGlite's WebAssembly, fonts,
 * the API reference's assets), start threads from their own files (piscina, pino), or are loaded
 * on first use only (the PDF, mail and HTML tools).
 */
const EXTERNAL = [
  '@electric-sql/pglite',
  '@electric-sql/pglite/*',
  'piscina',
  'pino',
  'pdfkit',
  'fontkit',
  'dejavu-fonts-ttf/*',
  'swagger-ui-dist/*',
  'juice',
  'nodemailer',
  'nodemailer/*',
  'html-to-text',
  'pg-native',
];

const sourceDirs = ['server', 'contract', 'migrations'].map((d) => join(root, d));

/** `import.meta.url` of a source file, as the URL of its compiled file, relative to the bundle. */
const ownLocation: esbuild.Plugin = {
  name: 'own-location',
  setup(build) {
    build.onLoad({ filter: /\.ts$/ }, async (args) => {
      if (!sourceDirs.some((d) => args.path.startsWith(d + '/'))) return undefined;
      let contents = await readFile(args.path, 'utf8');
      if (contents.includes('import.meta.url')) {
        const compiled = join(root, 'dist', relative(root, args.path)).replace(/\.ts$/, '.js');
        const path = `./${relative(dirname(outfile), compiled)}`;
        contents = contents.replaceAll(
          'import.meta.url',
          `new URL(${JSON.stringify(path)}, import.meta.url).href`,
        );
      }
      return { contents, loader: 'ts' };
    });
  },
};

/** One zod: a CommonJS dependency would otherwise bring the CommonJS copy beside the ES module. */
const oneZod: esbuild.Plugin = {
  name: 'one-zod',
  setup(build) {
    const esm = join(dirname(require.resolve('zod/package.json')), 'index.js');
    build.onResolve({ filter: /^zod$/ }, () => ({ path: esm }));
  },
};

const started = performance.now();
await esbuild.build({
  entryPoints: [join(root, 'server', 'main.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node24',
  external: EXTERNAL,
  // Bundled CommonJS packages require Node's own modules.
  banner: {
    js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);",
  },
  plugins: [ownLocation, oneZod],
  logLevel: 'warning',
});
// The cache lives in the system's temporary folder unless NODE_COMPILE_CACHE names another;
// NODE_DISABLE_COMPILE_CACHE=1 turns it off.
await writeFile(
  launcher,
  [
    "import { enableCompileCache } from 'node:module';",
    'enableCompileCache();',
    "await import('./main.bundle.js');",
    '',
  ].join('\n'),
);
console.log(
  `service bundled into ${relative(root, outfile)} in ${(performance.now() - started).toFixed(0)} ms`,
);
