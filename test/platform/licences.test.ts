import { describe, expect, it } from 'vitest';
import {
  declaredLicence,
  judgeIdentifier,
  judgeLicence,
  parseExpression,
} from '../../scripts/licence-policy.js';

const ok = (declared: string | null) => judgeLicence(declared).ok;

describe('licence policy (scripts/licence-policy.ts)', () => {
  it('accepts the permissive licences and MPL-2.0, case-insensitively', () => {
    for (const id of [
      'MIT',
      'MIT-0',
      'ISC',
      'BSD-2-Clause',
      'BSD-3-Clause',
      'Apache-2.0',
      '0BSD',
      'BlueOak-1.0.0',
      'CC0-1.0',
      'Unlicense',
      'Python-2.0',
      'CC-BY-3.0',
      'CC-BY-4.0',
      'MPL-2.0',
      'mit',
      'apache-2.0',
    ]) {
      expect(ok(id), id).toBe(true);
    }
    expect(judgeIdentifier('MPL-2.0').reasons[0]).toMatch(/file level/);
  });

  it('fails copyleft licences, whatever their version suffix', () => {
    for (const id of [
      'GPL-2.0',
      'GPL-3.0-only',
      'GPL-3.0-or-later',
      'GPL-2.0+',
      'AGPL-3.0-only',
      'LGPL-2.1-or-later',
      'LGPL-3.0',
      'SSPL-1.0',
      'EUPL-1.2',
      'OSL-3.0',
      'CC-BY-SA-4.0',
    ]) {
      const verdict = judgeLicence(id);
      expect(verdict.ok, id).toBe(false);
      expect(verdict.reasons.join(), id).toMatch(/copyleft/);
    }
  });

  it('fails missing, proprietary and unknown licences', () => {
    expect(judgeLicence(null)).toEqual({ ok: false, reasons: ['no licence declared'] });
    expect(judgeLicence('UNLICENSED').ok).toBe(false);
    expect(judgeLicence('WTFPL').reasons.join()).toMatch(/unknown licence, not assessed/);
    expect(judgeLicence('LicenseRef-Proprietary').ok).toBe(false);
    expect(judgeLicence('EPL-2.0').reasons.join()).toMatch(/unknown/);
    const sentence = judgeLicence('SEE LICENSE IN README.md AND LICENSE');
    expect(sentence.ok).toBe(false);
    expect(sentence.reasons.join()).toMatch(/not an SPDX expression/);
  });

  it('OR passes when any branch passes, AND only when every part does', () => {
    expect(ok('MIT OR GPL-3.0-only')).toBe(true);
    expect(ok('GPL-3.0-only OR MIT')).toBe(true);
    expect(ok('(MIT OR CC0-1.0)')).toBe(true);
    expect(ok('GPL-2.0-only OR AGPL-3.0-only')).toBe(false);
    expect(ok('MIT AND BSD-3-Clause')).toBe(true);
    expect(ok('MIT AND GPL-3.0-only')).toBe(false);
    expect(ok('MIT AND Unknown-1.0')).toBe(false);
    expect(ok('MIT or Apache-2.0')).toBe(true);
    const mixed = judgeLicence('MIT AND (LGPL-2.1-only OR SSPL-1.0)');
    expect(mixed.ok).toBe(false);
    expect(mixed.reasons).toHaveLength(2);
  });

  it('AND binds tighter than OR; parentheses group', () => {
    expect(parseExpression('MIT OR GPL-3.0-only AND BSD-3-Clause')).toEqual({
      kind: 'or',
      left: { kind: 'licence', id: 'MIT' },
      right: {
        kind: 'and',
        left: { kind: 'licence', id: 'GPL-3.0-only' },
        right: { kind: 'licence', id: 'BSD-3-Clause' },
      },
    });
    // MIT alone is a way out of the first; the second needs GPL and so fails.
    expect(ok('MIT OR GPL-3.0-only AND BSD-3-Clause')).toBe(true);
    expect(ok('(MIT OR GPL-3.0-only) AND BSD-3-Clause')).toBe(true);
    expect(ok('(MIT OR ISC) AND (GPL-3.0-only OR GPL-2.0-only)')).toBe(false);
    expect(ok('((Apache-2.0))')).toBe(true);
  });

  it('WITH keeps the base licence verdict', () => {
    expect(parseExpression('Apache-2.0 WITH LLVM-exception')).toEqual({
      kind: 'licence',
      id: 'Apache-2.0',
      exception: 'LLVM-exception',
    });
    expect(ok('Apache-2.0 WITH LLVM-exception')).toBe(true);
    expect(ok('GPL-2.0-only WITH Classpath-exception-2.0')).toBe(false);
  });

  it('rejects what is not an expression', () => {
    for (const bad of ['', '(MIT', 'MIT)', 'MIT AND', 'OR MIT', 'MIT BSD-3-Clause', 'MIT WITH', 'MIT/X11']) {
      expect(() => parseExpression(bad), bad).toThrow(SyntaxError);
      expect(ok(bad), bad).toBe(false);
    }
  });

  it('reads license, the legacy license object and the legacy licenses array', () => {
    expect(declaredLicence({ license: 'MIT' })).toBe('MIT');
    expect(declaredLicence({ license: { type: 'ISC', url: 'https://example.com' } })).toBe('ISC');
    expect(declaredLicence({ licenses: [{ type: 'MIT', url: 'https://example.com' }] })).toBe('MIT');
    expect(declaredLicence({ licenses: [{ type: 'MIT' }, { type: 'Apache-2.0' }] })).toBe(
      'MIT OR Apache-2.0',
    );
    expect(declaredLicence({ licenses: ['GPL-2.0-only', { type: 'MIT AND ISC' }] })).toBe(
      'GPL-2.0-only OR (MIT AND ISC)',
    );
    expect(declaredLicence({})).toBeNull();
    expect(declaredLicence({ license: '  ' })).toBeNull();
    expect(ok(declaredLicence({ licenses: [{ type: 'GPL-2.0-only' }, { type: 'MIT' }] }))).toBe(true);
  });
});
