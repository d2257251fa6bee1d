import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const root = join(import.meta.dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
  engines: { node: string };
  dependencies: Record<string, string>;
  allowScripts: Record<string, boolean>;
};

describe('the runtime and install scripts', () => {
  it('runs on the Node.js that package.json pins, which its engines accept', () => {
    const pinned = manifest.dependencies.node!;
    expect(pinned).toMatch(/^24\.\d+\.\d+$/);
    expect(process.versions.node).toBe(pinned);
    const [major, minor] = /^>=(\d+)\.(\d+)$/.exec(manifest.engines.node)!.slice(1).map(Number);
    const [pMajor, pMinor] = pinned.split('.').map(Number);
    expect(pMajor! > major! || (pMajor === major && pMinor! >= minor!)).toBe(true);
  });

  it('decides every install script by name: what must run is allowed, telemetry denied', async () => {
    expect(manifest.allowScripts).toEqual({
      node: true,
      esbuild: true,
      'unrs-resolver': true,
      '@scarf/scarf': false,
    });
    const { stdout } = await run('npm', ['install-scripts', 'ls', '--json'], { cwd: root });
    // Packages whose install scripts no entry covers: none.
    expect(JSON.parse(stdout)).toEqual({ allowScripts: [] });
  }, 60_000);
});
