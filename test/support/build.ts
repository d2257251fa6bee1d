import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const ROOT = new URL('../../', import.meta.url).pathname;

function newestSource(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })) {
    // client/dist/ is the SDK package's build: its declarations end in .ts too.
    const built = /(^|\/)dist(\/|$)/.test(relative(ROOT, entry.parentPath));
    if (entry.isFile() && /\.(ts|tsx|css)$/.test(entry.name) && !built) {
      newest = Math.max(newest, statSync(join(entry.parentPath, entry.name)).mtimeMs);
    }
  }
  return newest;
}

/**
 * The compiled service that `npm start` runs and its dashboard (built by `npm install`): rebuilt here only when a
 * source file is newer than the build, as after editing without `npm run build`.
 */
export function ensureBuilt(): void {
  const outputs = ['dist/server/main.js', 'client/dist/client/index.js', 'dist/web/index.html'].map((f) =>
    join(ROOT, f),
  );
  const built = Math.min(...outputs.map((f) => (existsSync(f) ? statSync(f).mtimeMs : 0)));
  const sources = Math.max(...['server', 'contract', 'migrations', 'client', 'web'].map(newestSource));
  if (sources > built) execFileSync('npm', ['run', '-s', 'build'], { cwd: ROOT, stdio: 'ignore' });
}
