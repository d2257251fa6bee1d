/**
 * Licences of the runtime dependencies: every package `npm ls --omit=dev --all` finds installed
 * (transitive ones included, dev dependencies left out), each with the licence its package.json
 * declares (`license`, or the legacy `licenses`), judged by `scripts/licence-policy.ts` against the
 * project's Apache-2.0.
 *
 *   npx tsx scripts/licences.ts           write docs/licences.md
 *   npx tsx scripts/licences.ts --check   exit 1 when docs/licences.md is stale, or when a runtime
 *                                         dependency's licence is copyleft, unknown or missing and
 *                                         not in ASSESSED below (CI)
 *
 * The tree is the installed one, so it holds the optional packages of this platform (esbuild's
 * `@esbuild/linux-x64`); CI and the developers' machines are linux-x64.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PROJECT_LICENCE, declaredLicence, judgeLicence } from './licence-policy.js';

const root = resolve(import.meta.dirname, '..');
const output = join(root, 'docs', 'licences.md');

/**
 * Packages whose declared licence the policy cannot judge, read by hand. An entry applies only while
 * the package still declares exactly `declared` (null: declares nothing), so a new declaration is
 * judged afresh; `licence` is what the table shows for it.
 */
const ASSESSED: Record<string, { declared: string | null; licence: string; reason: string }> = {
  'dejavu-fonts-ttf': {
    declared: 'SEE LICENSE IN README.md AND LICENSE',
    licence: 'Bitstream Vera and Arev font licences (DejaVu)',
    reason:
      "The fonts' LICENSE: Bitstream Vera and Arev font licences (DejaVu's own changes are public domain; " +
      'the math font adds the AMSFonts permission), the packaging files are Unlicense (README). ' +
      'Permissive, not copyleft: use, copy, embed and redistribute freely, keep the notices with the ' +
      'fonts, rename a modified font, do not sell the fonts on their own. The service ships them ' +
      'unmodified inside its package and embeds them in the PDFs it renders, all of which the licence ' +
      'allows; compatible with shipping under Apache-2.0.',
  },
  'png-js': {
    declared: null,
    licence: 'MIT',
    reason:
      'Its package.json declares no licence; the LICENSE file it ships is the MIT licence (Devon Govett).',
  },
};

type Dependency = {
  name: string;
  version: string;
  declared: string | null;
  licence: string;
  ok: boolean;
  note: string;
};

/** The runtime dependencies installed, one per name and version, sorted. */
function runtimeDependencies(): Dependency[] {
  let listing: string;
  try {
    listing = execFileSync('npm', ['ls', '--omit=dev', '--all', '--parseable'], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`npm ls --omit=dev failed (run npm ci first): ${err.stderr || err.message}`);
  }
  const byId = new Map<string, Dependency>();
  for (const path of listing.split('\n').filter((p) => p.trim() !== '')) {
    if (resolve(path) === root) continue;
    const pkg = JSON.parse(readFileSync(join(path, 'package.json'), 'utf8'));
    const declared = declaredLicence(pkg);
    const assessed = ASSESSED[pkg.name];
    let dependency: Dependency;
    if (assessed !== undefined && assessed.declared === declared) {
      dependency = {
        name: pkg.name,
        version: pkg.version,
        declared,
        licence: assessed.licence,
        ok: true,
        note: 'assessed',
      };
    } else {
      const verdict = judgeLicence(declared);
      dependency = {
        name: pkg.name,
        version: pkg.version,
        declared,
        licence: declared ?? '(none)',
        ok: verdict.ok,
        note: verdict.reasons.join('; '),
      };
    }
    byId.set(`${pkg.name}@${pkg.version}`, dependency);
  }
  return [...byId.values()].sort(
    (a, b) => a.name.localeCompare(b.name) || a.version.localeCompare(b.version),
  );
}

const cell = (s: string) => s.replace(/\|/g, '\\|');

function render(deps: Dependency[]): string {
  const byLicence = new Map<string, Dependency[]>();
  for (const d of deps) byLicence.set(d.licence, [...(byLicence.get(d.licence) ?? []), d]);
  const groups = [...byLicence.entries()].sort(
    (a, b) => b[1].length - a[1].length || a[0].localeCompare(b[0]),
  );
  const assessed = deps.filter((d) => d.note === 'assessed');
  const failing = deps.filter((d) => !d.ok);

  const lines = [
    '# Licences of the runtime dependencies',
    '',
    'Written by `npx tsx scripts/licences.ts` from the installed tree (`npm ls --omit=dev --all`): every',
    'package the service needs at run time, transitive ones included, dev dependencies left out. Do not',
    'edit by hand; CI runs `npx tsx scripts/licences.ts --check`, which fails when this file is stale or',
    `a licence is copyleft, unknown or missing. The project is licensed ${PROJECT_LICENCE}; the policy is`,
    'in `scripts/licence-policy.ts`, the packages read by hand in `ASSESSED` of `scripts/licences.ts`.',
    '',
    `${deps.length} packages.`,
    '',
    '## By licence',
    '',
    '| licence | packages |',
    '|---|---:|',
    ...groups.map(([licence, list]) => `| ${cell(licence)} | ${list.length} |`),
    '',
  ];
  if (assessed.length > 0) {
    lines.push(
      '## Assessed by hand',
      '',
      '| package | declares | licence | why it is acceptable |',
      '|---|---|---|---|',
    );
    for (const d of assessed) {
      const reason = ASSESSED[d.name]!.reason;
      lines.push(`| ${d.name} | ${cell(d.declared ?? '(nothing)')} | ${cell(d.licence)} | ${cell(reason)} |`);
    }
    lines.push('');
  }
  if (failing.length > 0) {
    lines.push('## Not acceptable', '', '| package | version | licence | why |', '|---|---|---|---|');
    for (const d of failing)
      lines.push(`| ${d.name} | ${d.version} | ${cell(d.licence)} | ${cell(d.note)} |`);
    lines.push('');
  }
  lines.push('## Packages', '', '| package | version | licence |', '|---|---|---|');
  for (const [, list] of groups) {
    for (const d of list) lines.push(`| ${d.name} | ${d.version} | ${cell(d.licence)} |`);
  }
  lines.push('');
  return lines.join('\n');
}

const check = process.argv.includes('--check');
const deps = runtimeDependencies();
const text = render(deps);
const failing = deps.filter((d) => !d.ok);
const unusedAssessments = Object.entries(ASSESSED).filter(
  ([name, a]) => !deps.some((d) => d.name === name && d.declared === a.declared),
);

const counts = new Map<string, number>();
for (const d of deps) counts.set(d.licence, (counts.get(d.licence) ?? 0) + 1);
console.log(
  `${deps.length} runtime packages: ` +
    [...counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([l, n]) => `${l} ${n}`)
      .join(', '),
);
for (const [name, a] of unusedAssessments) {
  console.log(
    `note: ASSESSED lists ${name} declaring ${JSON.stringify(a.declared)}, which no runtime package does now; remove or update the entry`,
  );
}
for (const d of failing) {
  console.error(`NOT ACCEPTABLE: ${d.name}@${d.version} declares ${JSON.stringify(d.declared)}: ${d.note}`);
}

if (check) {
  let failed = failing.length > 0;
  const committed = existsSync(output) ? readFileSync(output, 'utf8') : null;
  if (committed !== text) {
    console.error('docs/licences.md is stale: run `npx tsx scripts/licences.ts` and commit it');
    failed = true;
  }
  if (failed) {
    if (failing.length > 0) {
      console.error(
        `${failing.length} runtime dependencies have a licence the ${PROJECT_LICENCE} project cannot ship ` +
          'or that nobody assessed: replace the package, or read its licence and add it to ASSESSED in scripts/licences.ts with the reason',
      );
    }
    process.exit(1);
  }
  console.log('docs/licences.md is up to date; every runtime licence is acceptable');
} else {
  writeFileSync(output, text);
  console.log(`wrote ${output}`);
  if (failing.length > 0) process.exit(1);
}
