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
  // Without whitespace and comments (its dependencies' JSDoc among them): V8 keeps a module's whole
  // source in memory, and one character past Latin-1 in any comment made it keep all of it at two
  // bytes a character. 12 MB of the idle service's heap became 4 MB (docs/decisions.md D274). Names
  // stay as written; the map beside the bundle turns a stack's positions back into source lines
  // (`node --enable-source-maps`).
  minifyWhitespace: true,
  charset: 'ascii',
  sourcemap: 'linked',
  logLevel: 'warning',
});
// One character past ASCII (esbuild escapes them in strings, but not in a tagged template, where an
// escape would change the text) and V8 would keep the whole bundle at two bytes a character.
const bundled = await readFile(outfile, 'utf8');
const wide = /[^\x00-\x7f]/.exec(bundled);
if (wide) {
  const around = bundled.slice(Math.max(0, wide.index - 60), wide.index + 20);
  throw new Error(
    `The bundle must be ASCII: write ${JSON.stringify(wide[0])} as an escape, in ${JSON.stringify(around)}`,
  );
}
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
