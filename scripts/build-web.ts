import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import * as esbuild from 'esbuild';

/*
 * Bundles the dashboard (web/) into dist/web: one entry, a chunk per screen (loaded when first
 * opened), one stylesheet, hashed names, and index.html naming them. `npm install` runs it through
 * `npm run build`. `--watch` rebuilds on change; the sizes of the first load are printed.
 */

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist', 'web');
const require = createRequire(import.meta.url);

/**
 * One zod: the contract imports its ES module, and a CommonJS dependency would otherwise bring
 * the CommonJS copy too (twice the size, and schemas that fail `instanceof`).
 */
const oneZod: esbuild.Plugin = {
  name: 'one-zod',
  setup(build) {
    const esm = join(dirname(require.resolve('zod/package.json')), 'index.js');
    build.onResolve({ filter: /^zod$/ }, () => ({ path: esm }));
    build.onResolve({ filter: /^@anatine\/zod-openapi$/ }, () => ({
      path: join(root, 'web', 'shims', 'zod-openapi.ts'),
    }));
  },
};

/** A string literal in single quotes, and a concatenation of them (`'a' +\n 'b'`). */
const STRING = String.raw`'(?:[^'\\\n]|\\.)*'`;
const STRINGS = String.raw`${STRING}(?:\s*\+\s*${STRING})*`;
const PROSE_PROPERTY = new RegExp(String.raw`(\b(?:description|summary):\s*)${STRINGS}(?=\s*[,}])`, 'g');
const PROSE_CALL = new RegExp(String.raw`(\.describe\(\s*)${STRINGS}(?=\s*,?\s*\))`, 'g');

/**
 * The contract's prose (route summaries and descriptions, `.describe()` texts) is for openapi.json
 * and the reference; the dashboard shows none of it, so its bundle carries empty strings instead.
 */
function withoutProse(source: string): string {
  return source.replace(PROSE_PROPERTY, "$1''").replace(PROSE_CALL, "$1''");
}

const contractProse: esbuild.Plugin = {
  name: 'contract-prose',
  setup(build) {
    build.onLoad({ filter: /[\\/]contract[\\/].*\.ts$/ }, (args) => ({
      contents: withoutProse(readFileSync(args.path, 'utf8')),
      loader: 'ts',
    }));
  },
};

const options: esbuild.BuildOptions = {
  entryPoints: { app: join(root, 'web', 'main.tsx') },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  minify: true,
  sourcemap: 'linked',
  jsx: 'automatic',
  jsxImportSource: 'preact',
  outdir: join(out, 'assets'),
  entryNames: '[name]-[hash]',
  chunkNames: 'chunks/[name]-[hash]',
  assetNames: '[name]-[hash]',
  metafile: true,
  legalComments: 'none',
  define: { 'process.env.NODE_ENV': '"production"' },
  logLevel: 'warning',
  plugins: [oneZod, contractProse],
};

/** index.html: the entry script and stylesheet, no inline script or style (CSP `default-src 'self'`). */
function writeIndex(metafile: esbuild.Metafile): { entry: string; css?: string } {
  const [entry, output] = Object.entries(metafile.outputs).find(([, o]) => o.entryPoint === 'web/main.tsx')!;
  const css = output.cssBundle;
  const url = (file: string) => `/app/assets/${relative(join(out, 'assets'), join(root, file))}`;
  const html = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Business Management</title>
  <link rel="icon" href="/app/favicon.svg" type="image/svg+xml">
  ${css ? `<link rel="stylesheet" href="${url(css)}">` : ''}
  <script type="module" src="${url(entry)}"></script>
</head>
<body>
  <div id="app"><noscript>The dashboard needs JavaScript. The API reference is at <a href="/docs">/docs</a>.</noscript></div>
</body>
</html>
`;
  writeFileSync(join(out, 'index.html'), html);
  writeFileSync(
    join(out, 'favicon.svg'),
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect width="16" height="16" rx="3" fill="#1f4e79"/><path d="M4 4h5a2.5 2.5 0 0 1 0 5H4zm0 5h5.5a2.5 2.5 0 0 1 0 5H4z" fill="#fff"/></svg>\n',
  );
  return { entry, css };
}

/**
 * Removes what an earlier build left in dist/web/assets. Done after the new files are written, so
 * a page being served while the dashboard is rebuilt still finds the files it names.
 */
function removeStale(metafile: esbuild.Metafile): void {
  const current = new Set(Object.keys(metafile.outputs).map((file) => join(root, file)));
  const assets = join(out, 'assets');
  for (const entry of readdirSync(assets, { recursive: true, withFileTypes: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile() && !current.has(path)) rmSync(path);
  }
}

/** The JavaScript and CSS the sign-in page loads before any screen: the entry and its static imports. */
export function firstLoad(metafile: esbuild.Metafile): { files: string[]; bytes: number; gzip: number } {
  const files = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const imported of metafile.outputs[file]?.imports ?? []) {
      if (imported.kind === 'import-statement') visit(imported.path);
    }
  };
  const [entry, output] = Object.entries(metafile.outputs).find(([, o]) => o.entryPoint === 'web/main.tsx')!;
  visit(entry);
  if (output.cssBundle) files.add(output.cssBundle);
  let bytes = 0;
  let gzip = 0;
  for (const file of files) {
    const content = readFileSync(join(root, file));
    bytes += content.length;
    gzip += gzipSync(content).length;
  }
  return { files: [...files].map((f) => basename(f)), bytes, gzip };
}

async function main() {
  const watch = process.argv.includes('--watch');
  mkdirSync(out, { recursive: true });
  const withIndex: esbuild.Plugin = {
    name: 'index-html',
    setup(build) {
      build.onEnd((result) => {
        if (!result.metafile) return;
        writeIndex(result.metafile);
        removeStale(result.metafile);
        writeFileSync(join(out, 'meta.json'), JSON.stringify(result.metafile));
        const first = firstLoad(result.metafile);
        console.log(
          `dashboard built: first load ${(first.bytes / 1024).toFixed(1)} KB (${(first.gzip / 1024).toFixed(1)} KB gzip), ` +
            `${Object.keys(result.metafile.outputs).filter((f) => f.endsWith('.js')).length} scripts`,
        );
      });
    },
  };
  const build = { ...options, absWorkingDir: root, plugins: [...options.plugins!, withIndex] };
  if (watch) {
    const context = await esbuild.context(build);
    await context.watch();
  } else {
    await esbuild.build(build);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
