/**
 * Software bill of materials of what the service runs (CI): `npm sbom --sbom-format cyclonedx
 * --omit dev`, checked and written to `${ARTIFACTS_DIR:-artifacts}/sbom.cdx.json`.
 *
 *   npx tsx scripts/sbom.ts
 *
 * npm 11's `--omit dev` also drops every runtime package that a dev dependency reaches too (npm/cli
 * issue 7909: here Express, busboy, zod and about half the runtime tree, through the SDK and the test
 * tools). So the components are compared with `npm ls --omit=dev --all`, the installed runtime tree,
 * and when some are missing, components and dependency graph are taken from the full SBOM (`npm sbom`
 * without `--omit`), kept to that runtime tree. The check fails when the output is not CycloneDX JSON
 * with components, or still lacks a runtime package.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const outDir = resolve(root, process.env.ARTIFACTS_DIR || 'artifacts');
const outFile = join(outDir, 'sbom.cdx.json');

type Component = { 'bom-ref': string; name: string; version: string };
type Bom = {
  bomFormat?: unknown;
  specVersion?: unknown;
  metadata?: { component?: { 'bom-ref'?: string } };
  components?: Component[];
  dependencies?: { ref: string; dependsOn?: string[] }[];
};

function npm(args: string[]): string {
  try {
    return execFileSync('npm', args, {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`npm ${args.join(' ')} failed: ${(err.stderr || err.message).trim()}`);
  }
}

function sbom(omitDev: boolean): Bom {
  const text = npm(['sbom', '--sbom-format', 'cyclonedx', ...(omitDev ? ['--omit', 'dev'] : [])]);
  try {
    return JSON.parse(text) as Bom;
  } catch {
    throw new Error(`npm sbom printed no JSON: ${text.slice(0, 300)}`);
  }
}

/** `name@version` of every installed runtime package: npm's CycloneDX `bom-ref`. */
function runtimeRefs(): Set<string> {
  const refs = new Set<string>();
  for (const path of npm(['ls', '--omit=dev', '--all', '--parseable']).split('\n')) {
    if (path.trim() === '' || resolve(path) === root) continue;
    const pkg = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8'));
    refs.add(`${pkg.name}@${pkg.version}`);
  }
  return refs;
}

function main(): number {
  const bom = sbom(true);
  if (bom.bomFormat !== 'CycloneDX' || !Array.isArray(bom.components) || bom.components.length === 0) {
    console.error(
      `SBOM INVALID: expected CycloneDX JSON with components, got bomFormat ${JSON.stringify(bom.bomFormat)} ` +
        `and ${Array.isArray(bom.components) ? bom.components.length : 'no'} components`,
    );
    return 1;
  }
  const runtime = runtimeRefs();
  const listed = new Set(bom.components.map((c) => c['bom-ref']));
  const missing = [...runtime].filter((r) => !listed.has(r));
  if (missing.length > 0) {
    console.log(
      `npm sbom --omit dev listed ${listed.size} of the ${runtime.size} runtime packages (npm/cli#7909); ` +
        `the other ${missing.length} taken from the full SBOM`,
    );
    const full = sbom(false);
    const rootRef = bom.metadata?.component?.['bom-ref'];
    const seen = new Set<string>();
    bom.components = (full.components ?? []).filter((c) => {
      if (!runtime.has(c['bom-ref']) || seen.has(c['bom-ref'])) return false;
      seen.add(c['bom-ref']);
      return true;
    });
    const keep = (ref: string) => runtime.has(ref) || ref === rootRef;
    bom.dependencies = (full.dependencies ?? [])
      .filter((d) => keep(d.ref))
      .map((d) => ({ ...d, dependsOn: (d.dependsOn ?? []).filter(keep) }));
  }
  const still = [...runtime].filter((r) => !bom.components!.some((c) => c['bom-ref'] === r));
  if (still.length > 0) {
    console.error(`SBOM INCOMPLETE: no component for ${still.join(', ')}`);
    return 1;
  }
  const extra = bom.components.filter((c) => !runtime.has(c['bom-ref']));
  if (extra.length > 0) {
    console.log(
      `note: ${extra.length} components outside npm ls --omit=dev: ${extra.map((c) => c['bom-ref']).join(', ')}`,
    );
  }
  mkdirSync(outDir, { recursive: true });
  writeFileSync(outFile, JSON.stringify(bom, null, 2) + '\n');
  const shown = relative(root, outFile).startsWith('..') ? outFile : relative(root, outFile);
  console.log(`SBOM (CycloneDX ${String(bom.specVersion)}): ${shown}, ${bom.components.length} components`);
  return 0;
}

try {
  process.exit(main());
} catch (e) {
  console.error(`SBOM NOT WRITTEN: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
