/**
 * What `scripts/audit-check.ts` makes of `npm audit --json`: the advisories it reports, which of them
 * block (high or critical, not assessed in docs/security-advisories.json), and whether the output is
 * a report at all. Pure functions, unit-tested by `test/platform/audit-check.test.ts`.
 */

/** Reported and not failing; high, critical (and any severity npm did not name) fail. */
const BELOW_HIGH = ['moderate', 'low', 'info'];

export type Advisory = {
  /** The GHSA id from the advisory's URL, or `npm:<source>` when the URL names none. */
  id: string;
  package: string;
  severity: string;
  title: string;
  url: string;
  /** The vulnerable versions. */
  range: string;
  /** Where the vulnerable package is installed (node_modules paths). */
  nodes: string[];
  /** npm's `fixAvailable` for the package: true, false, or the upgrade it would make. */
  fix: unknown;
};

export type Assessment = { id: string; package: string; why: string };

type Via = {
  source?: number | string;
  name?: string;
  title?: string;
  url?: string;
  severity?: string;
  range?: string;
};
type Vulnerability = { name: string; via: (string | Via)[]; nodes?: string[]; fixAvailable?: unknown };
export type AuditReport = {
  auditReportVersion: number;
  vulnerabilities: Record<string, Vulnerability>;
  metadata?: { vulnerabilities?: Record<string, number>; dependencies?: Record<string, number> };
};

/**
 * The report in npm audit's JSON output, or an Error that says why there is none: npm prints
 * `{"message", "error", ...}` when the advisory endpoint refuses or cannot be reached, and may print
 * nothing at all.
 */
export function parseAuditOutput(stdout: string): AuditReport | Error {
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    return new Error(
      `npm audit printed no JSON report${stdout.trim() ? `: ${stdout.trim().slice(0, 300)}` : ''}`,
    );
  }
  const r = json as Partial<AuditReport> & {
    message?: string;
    error?: { summary?: string; detail?: string };
  };
  if (r && typeof r === 'object' && typeof r.vulnerabilities === 'object' && r.vulnerabilities !== null) {
    return r as AuditReport;
  }
  const why = [r?.message, r?.error?.summary, r?.error?.detail].filter((s) => s).join(' ');
  return new Error(`npm audit got no advisories from the registry${why ? `: ${why}` : ''}`);
}

/** Every advisory in the report, once per advisory and package, sorted by severity then id. */
export function advisoriesOf(report: AuditReport): Advisory[] {
  const found = new Map<string, Advisory>();
  for (const vuln of Object.values(report.vulnerabilities)) {
    for (const via of vuln.via) {
      // A string names another vulnerable package this one depends on: its advisories are listed there.
      if (typeof via === 'string') continue;
      const url = via.url ?? '';
      const id = /GHSA(-[0-9a-z]{4}){3}/i.exec(url)?.[0] ?? `npm:${via.source ?? '?'}`;
      const pkg = via.name ?? vuln.name;
      const key = `${id} ${pkg}`;
      if (found.has(key)) continue;
      found.set(key, {
        id,
        package: pkg,
        severity: via.severity ?? 'unknown',
        title: via.title ?? '',
        url,
        range: via.range ?? '',
        nodes: vuln.nodes ?? [],
        fix: vuln.fixAvailable,
      });
    }
  }
  const rank = (s: string) => ['critical', 'high', 'moderate', 'low', 'info'].indexOf(s);
  return [...found.values()].sort(
    (a, b) =>
      rank(a.severity) - rank(b.severity) || a.package.localeCompare(b.package) || a.id.localeCompare(b.id),
  );
}

/** The assessed list of docs/security-advisories.json; throws when an entry lacks its id, package or why. */
export function parseAssessments(json: unknown): Assessment[] {
  const list = (json as { advisories?: unknown })?.advisories;
  if (!Array.isArray(list)) throw new Error('docs/security-advisories.json: expected {"advisories": [...]}');
  return list.map((entry, i) => {
    const e = entry as Partial<Assessment>;
    if (typeof e.id !== 'string' || !/^GHSA(-[0-9a-z]{4}){3}$/i.test(e.id)) {
      throw new Error(`docs/security-advisories.json: entry ${i} needs "id": a GHSA id`);
    }
    if (typeof e.package !== 'string' || e.package.trim() === '') {
      throw new Error(`docs/security-advisories.json: entry ${i} (${e.id}) needs "package"`);
    }
    if (typeof e.why !== 'string' || e.why.trim().length < 20) {
      throw new Error(
        `docs/security-advisories.json: entry ${i} (${e.id}) needs "why": why it does not apply`,
      );
    }
    return { id: e.id, package: e.package, why: e.why };
  });
}

export type Evaluation = {
  /** High or critical and not assessed: the check fails. */
  blocking: Advisory[];
  /** High or critical, assessed as not applying. */
  accepted: { advisory: Advisory; assessment: Assessment }[];
  /** Below high: reported, not failing. */
  other: Advisory[];
  /** Assessments no reported advisory matches any more (fixed upstream, or the package left). */
  unused: Assessment[];
};

export function evaluate(advisories: Advisory[], assessments: Assessment[]): Evaluation {
  const result: Evaluation = { blocking: [], accepted: [], other: [], unused: [] };
  const used = new Set<Assessment>();
  for (const advisory of advisories) {
    const assessment = assessments.find(
      (a) => a.id.toLowerCase() === advisory.id.toLowerCase() && a.package === advisory.package,
    );
    if (assessment) used.add(assessment);
    // A severity npm did not name counts as blocking.
    if (BELOW_HIGH.includes(advisory.severity)) {
      result.other.push(advisory);
    } else if (assessment) {
      result.accepted.push({ advisory, assessment });
    } else {
      result.blocking.push(advisory);
    }
  }
  result.unused = assessments.filter((a) => !used.has(a));
  return result;
}
