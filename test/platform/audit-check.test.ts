import { describe, expect, it } from 'vitest';
import { advisoriesOf, evaluate, parseAssessments, parseAuditOutput } from '../../scripts/audit-policy.js';

// The shape `npm audit --omit=dev --json` (npm 11) prints, cut down from a run against a stand-in
// advisory endpoint: advisories sit in `via` as objects on the vulnerable package; a string in `via`
// names a vulnerable dependency instead.
const report = {
  auditReportVersion: 2,
  vulnerabilities: {
    cookie: {
      name: 'cookie',
      severity: 'high',
      isDirect: false,
      via: [
        {
          source: 1103907,
          name: 'cookie',
          dependency: 'cookie',
          title: 'cookie accepts cookie name, path, and domain with out of bounds characters',
          url: 'https://github.com/advisories/GHSA-pxg6-pf52-xh8x',
          severity: 'high',
          cwe: ['CWE-74'],
          cvss: { score: 7.5, vectorString: null },
          range: '<=0.7.2',
        },
      ],
      effects: [],
      range: '0.7.2',
      nodes: ['node_modules/cookie'],
      fixAvailable: true,
    },
    express: {
      name: 'express',
      severity: 'critical',
      isDirect: true,
      via: ['body-parser', 'qs'],
      effects: ['@ts-rest/express'],
      range: '',
      nodes: ['node_modules/express'],
      fixAvailable: false,
    },
    ms: {
      name: 'ms',
      severity: 'moderate',
      isDirect: false,
      via: [
        {
          source: 1200003,
          name: 'ms',
          dependency: 'ms',
          title: 'ms redos',
          url: 'https://github.com/advisories/GHSA-4gmj-3p3h-gm8h',
          severity: 'moderate',
          range: '<99',
        },
      ],
      effects: ['debug'],
      range: '*',
      nodes: ['node_modules/ms', 'node_modules/send/node_modules/ms'],
      fixAvailable: false,
    },
    qs: {
      name: 'qs',
      severity: 'critical',
      isDirect: false,
      via: [
        {
          source: 1200001,
          name: 'qs',
          dependency: 'qs',
          title: 'qs prototype pollution',
          url: 'https://github.com/advisories/GHSA-hrpp-h998-j3pp',
          severity: 'critical',
          range: '<7.0.0',
        },
      ],
      effects: ['body-parser', 'express'],
      range: '*',
      nodes: ['node_modules/qs'],
      fixAvailable: false,
    },
  },
  metadata: {
    vulnerabilities: { info: 0, low: 0, moderate: 1, high: 1, critical: 2, total: 4 },
    dependencies: { prod: 254, dev: 394, optional: 104, peer: 1, peerOptional: 0, total: 693 },
  },
};

const why = 'the service never passes user input to this function';

describe('npm audit check (scripts/audit-policy.ts)', () => {
  it('reads each advisory once, with its GHSA id, from the packages that carry it', () => {
    const parsed = parseAuditOutput(JSON.stringify(report));
    if (parsed instanceof Error) throw parsed;
    const advisories = advisoriesOf(parsed);
    expect(advisories.map((a) => [a.severity, a.package, a.id])).toEqual([
      ['critical', 'qs', 'GHSA-hrpp-h998-j3pp'],
      ['high', 'cookie', 'GHSA-pxg6-pf52-xh8x'],
      ['moderate', 'ms', 'GHSA-4gmj-3p3h-gm8h'],
    ]);
    expect(advisories[2]!.nodes).toEqual(['node_modules/ms', 'node_modules/send/node_modules/ms']);
  });

  it('blocks high and critical advisories unless assessed for that package; reports the rest', () => {
    const advisories = advisoriesOf(report);
    const none = evaluate(advisories, []);
    expect(none.blocking.map((a) => a.id)).toEqual(['GHSA-hrpp-h998-j3pp', 'GHSA-pxg6-pf52-xh8x']);
    expect(none.other.map((a) => a.id)).toEqual(['GHSA-4gmj-3p3h-gm8h']);

    const assessed = parseAssessments({
      advisories: [
        { id: 'GHSA-hrpp-h998-j3pp', package: 'qs', why },
        // The right id for another package does not cover this one.
        { id: 'GHSA-pxg6-pf52-xh8x', package: 'cookie-parser', why },
        { id: 'GHSA-xxxx-xxxx-xxxx', package: 'left-pad', why },
      ],
    });
    const some = evaluate(advisories, assessed);
    expect(some.accepted.map((a) => a.advisory.id)).toEqual(['GHSA-hrpp-h998-j3pp']);
    expect(some.blocking.map((a) => a.id)).toEqual(['GHSA-pxg6-pf52-xh8x']);
    expect(some.unused.map((a) => a.package)).toEqual(['cookie-parser', 'left-pad']);
  });

  it('an advisory of unnamed severity blocks; one with no GHSA URL is named by its npm source', () => {
    const odd = {
      auditReportVersion: 2,
      vulnerabilities: {
        x: { name: 'x', via: [{ source: 42, name: 'x', title: 't' }], nodes: ['node_modules/x'] },
      },
    };
    const [advisory] = advisoriesOf(odd);
    expect(advisory).toMatchObject({ id: 'npm:42', severity: 'unknown' });
    expect(evaluate([advisory!], []).blocking).toHaveLength(1);
  });

  it('a registry that refuses or cannot be reached is an error, not an empty report', () => {
    const refused = parseAuditOutput(
      JSON.stringify({
        message: '405 Method Not Allowed - POST https://registry.example/-/npm/v1/security/advisories/bulk',
        statusCode: 405,
        error: { summary: '', detail: '' },
      }),
    );
    expect(refused).toBeInstanceOf(Error);
    expect((refused as Error).message).toMatch(/no advisories from the registry: 405 Method Not Allowed/);
    expect(parseAuditOutput('')).toBeInstanceOf(Error);
    expect(parseAuditOutput('npm error something')).toBeInstanceOf(Error);
    const clean = parseAuditOutput(JSON.stringify({ auditReportVersion: 2, vulnerabilities: {} }));
    expect(clean).not.toBeInstanceOf(Error);
    expect(evaluate(advisoriesOf(clean as never), []).blocking).toEqual([]);
  });

  it('refuses an assessed list whose entries lack an id, a package or a reason', () => {
    expect(() => parseAssessments([])).toThrow(/expected \{"advisories"/);
    expect(() => parseAssessments({ advisories: [{ id: 'CVE-2024-1', package: 'qs', why }] })).toThrow(
      /GHSA/,
    );
    expect(() => parseAssessments({ advisories: [{ id: 'GHSA-hrpp-h998-j3pp', why }] })).toThrow(/package/);
    expect(() => parseAssessments({ advisories: [{ id: 'GHSA-hrpp-h998-j3pp', package: 'qs' }] })).toThrow(
      /why/,
    );
    expect(parseAssessments({ advisories: [] })).toEqual([]);
  });
});
