/**
 * Audit of the runtime dependencies (CI): `npm audit --omit=dev --json`, failing on every high or
 * critical advisory unless docs/security-advisories.json lists its GHSA id for that package with why
 * it does not apply here. Fails too, saying so, when npm gets no answer from the registry's advisory
 * endpoint: an audit that did not happen is not a pass.
 *
 *   npx tsx scripts/audit-check.ts                      (CI)
 *   npx tsx scripts/audit-check.ts --allow-unavailable  the same, but an advisory endpoint that cannot
 *                                                       be reached is a loud warning and exit 0
 *
 * A reported advisory is fixed by upgrading (`npm audit fix` within the ranges package.json allows);
 * the list is for what cannot be upgraded yet and does not apply, each entry
 * `{ "id": "GHSA-...", "package": "name", "why": "..." }`.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { advisoriesOf, evaluate, parseAssessments, parseAuditOutput, type Advisory } from './audit-policy.js';

const root = resolve(import.meta.dirname, '..');
const listFile = join(root, 'docs', 'security-advisories.json');

/** Runs npm audit; npm exits non-zero when it finds advisories, so the exit code says nothing here. */
function npmAudit(): Promise<{ stdout: string; stderr: string; error: Error | null }> {
  return new Promise((done) => {
    execFile(
      'npm',
      [
        'audit',
        '--omit=dev',
        '--json',
        // One retry, soon: an unreachable registry fails the step in seconds rather than minutes.
        '--fetch-retries=1',
        '--fetch-retry-mintimeout=2000',
        '--fetch-retry-maxtimeout=5000',
        '--fetch-timeout=60000',
      ],
      { cwd: root, maxBuffer: 64 * 1024 * 1024, timeout: 180_000 },
      (error, stdout, stderr) => done({ stdout, stderr, error }),
    );
  });
}

const line = (a: Advisory) =>
  `${a.severity.padEnd(8)} ${a.package} ${a.range} ${a.id} ${a.title}${a.url ? ` <${a.url}>` : ''}` +
  `\n           installed at ${a.nodes.join(', ') || '?'}; fix: ${
    a.fix === true ? 'npm audit fix' : a.fix ? JSON.stringify(a.fix) : 'none within the allowed ranges'
  }`;

async function main(): Promise<number> {
  const assessments = parseAssessments(JSON.parse(readFileSync(listFile, 'utf8')));
  const started = Date.now();
  const { stdout, stderr, error } = await npmAudit();
  const report = parseAuditOutput(stdout);
  if (report instanceof Error) {
    console.error(`AUDIT NOT DONE: ${report.message}`);
    if (error && 'killed' in error && error.killed) console.error('npm audit was stopped after 180 s');
    const tail = stderr.trim().split('\n').slice(-5).join('\n');
    if (tail) console.error(tail);
    if (process.argv.includes('--allow-unavailable')) {
      console.error('WARNING: the runtime dependencies were NOT checked (--allow-unavailable: exit 0).');
      return 0;
    }
    console.error(
      'The runtime dependencies were not checked against the advisory database; this step fails ' +
        'until npm audit gets an answer from the registry.',
    );
    return 1;
  }

  const advisories = advisoriesOf(report);
  const { blocking, accepted, other, unused } = evaluate(advisories, assessments);
  const counts = report.metadata?.vulnerabilities ?? {};
  const deps = report.metadata?.dependencies ?? {};
  console.log(
    `npm audit --omit=dev (${((Date.now() - started) / 1000).toFixed(1)} s): ${deps.prod ?? '?'} runtime packages, ` +
      `vulnerable packages by severity: critical ${counts.critical ?? 0}, high ${counts.high ?? 0}, ` +
      `moderate ${counts.moderate ?? 0}, low ${counts.low ?? 0}; ${advisories.length} advisories`,
  );
  for (const a of other) console.log(`  reported  ${line(a)}`);
  for (const { advisory, assessment } of accepted) {
    console.log(`  assessed  ${line(advisory)}\n           does not apply: ${assessment.why}`);
    if (advisory.fix === true)
      console.log('           a compatible fix exists: upgrade rather than keep the entry');
  }
  for (const a of unused) {
    console.log(
      `  note: docs/security-advisories.json lists ${a.id} (${a.package}), which npm no longer reports`,
    );
  }
  for (const a of blocking) console.error(`  BLOCKING  ${line(a)}`);
  if (blocking.length > 0) {
    console.error(
      `${blocking.length} high or critical advisories in runtime dependencies: upgrade the package, or, ` +
        'when no compatible fix exists and the advisory does not apply, list it in docs/security-advisories.json with why',
    );
    return 1;
  }
  console.log('no unassessed high or critical advisory in the runtime dependencies');
  return 0;
}

process.exit(
  await main().catch((e: unknown) => {
    console.error(`AUDIT NOT DONE: ${e instanceof Error ? e.message : String(e)}`);
    return 1;
  }),
);
