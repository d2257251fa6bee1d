/**
 * Licence policy of the runtime dependencies: which SPDX licence expressions the project, licensed
 * Apache-2.0, can ship. Pure functions (no file system, no network), used by `scripts/licences.ts`
 * and unit-tested by `test/platform/licences.test.ts`.
 *
 * - Permissive licences are accepted (ACCEPTED below), and MPL-2.0: its copyleft is file-level (weak),
 *   it binds only changes to the MPL-covered files themselves, so using an unmodified MPL-2.0 package
 *   beside Apache-2.0 code is fine (Apache's own policy lists it in category B).
 * - Strong and library copyleft (GPL, AGPL, LGPL, SSPL, EUPL, OSL, ...) fails: it would impose its
 *   terms on the whole program or on the way it is linked and distributed.
 * - Anything else (no licence, `SEE LICENSE IN ...`, `UNLICENSED`, an identifier not listed) is
 *   unknown and fails until someone reads the licence and lists the package with a reason in the
 *   assessed list of `scripts/licences.ts`.
 * - `A OR B` passes when any branch passes (the licensee chooses); `A AND B` only when all do. AND
 *   binds tighter than OR, as SPDX says; parentheses group. `A WITH exception` passes when `A` does
 *   (an exception only adds permissions); a `+` or `-or-later` suffix is judged by the base licence.
 */

/** The licence the project is distributed under (decided by the lead). */
export const PROJECT_LICENCE = 'Apache-2.0';

/** Licences the project can ship, by SPDX identifier, with why. Compared case-insensitively. */
export const ACCEPTED: Record<string, string> = {
  MIT: 'permissive',
  'MIT-0': 'permissive (MIT without the attribution condition)',
  ISC: 'permissive',
  'BSD-2-Clause': 'permissive',
  'BSD-3-Clause': 'permissive',
  'Apache-2.0': 'permissive, the project licence',
  '0BSD': 'permissive (public-domain equivalent)',
  'BlueOak-1.0.0': 'permissive',
  'CC0-1.0': 'public-domain dedication',
  Unlicense: 'public-domain dedication',
  'Python-2.0': 'permissive',
  'CC-BY-3.0': 'permissive (attribution only)',
  'CC-BY-4.0': 'permissive (attribution only)',
  'MPL-2.0': 'weak copyleft at file level: acceptable for unmodified use beside Apache-2.0 code',
};

/** Identifiers (matched by prefix, case-insensitively) whose copyleft the project cannot take on. */
export const COPYLEFT_PREFIXES = [
  'AGPL',
  'GPL',
  'LGPL',
  'SSPL',
  'EUPL',
  'OSL',
  'RPL',
  'CPAL',
  'CC-BY-SA',
  'CC-BY-NC',
  'Sleepycat',
  'QPL',
];

export type LicenceNode =
  | { kind: 'licence'; id: string; exception?: string }
  | { kind: 'and' | 'or'; left: LicenceNode; right: LicenceNode };

export type Verdict = { ok: boolean; reasons: string[] };

/** Splits an SPDX expression into identifiers, operators and parentheses. */
function tokenize(expression: string): string[] {
  return expression
    .replace(/([()])/g, ' $1 ')
    .split(/\s+/)
    .filter((t) => t !== '');
}

/**
 * Parses an SPDX licence expression; throws a SyntaxError when it is not one (a sentence such as
 * `SEE LICENSE IN LICENSE`, unbalanced parentheses, a dangling operator).
 */
export function parseExpression(expression: string): LicenceNode {
  const tokens = tokenize(expression);
  let at = 0;
  const peek = () => tokens[at]?.toUpperCase();
  const fail = (what: string): never => {
    throw new SyntaxError(`not an SPDX expression (${what}): ${JSON.stringify(expression)}`);
  };

  const atom = (): LicenceNode => {
    const token = tokens[at];
    if (token === undefined) return fail('ends early');
    if (token === '(') {
      at += 1;
      const inner = or();
      if (tokens[at] !== ')') fail('unclosed parenthesis');
      at += 1;
      return inner;
    }
    if (token === ')' || ['AND', 'OR', 'WITH'].includes(token.toUpperCase())) fail(`unexpected ${token}`);
    // LicenseRef-... and DocumentRef-... are valid SPDX, and judged unknown like any other unlisted id.
    if (!/^[A-Za-z0-9.:-]+\+?$/.test(token)) fail(`bad identifier ${token}`);
    at += 1;
    if (peek() === 'WITH') {
      at += 1;
      const exception = tokens[at];
      if (exception === undefined || !/^[A-Za-z0-9.-]+$/.test(exception)) fail('WITH without an exception');
      at += 1;
      return { kind: 'licence', id: token, exception };
    }
    return { kind: 'licence', id: token };
  };
  const and = (): LicenceNode => {
    let left = atom();
    while (peek() === 'AND') {
      at += 1;
      left = { kind: 'and', left, right: atom() };
    }
    return left;
  };
  const or = (): LicenceNode => {
    let left = and();
    while (peek() === 'OR') {
      at += 1;
      left = { kind: 'or', left, right: and() };
    }
    return left;
  };

  if (tokens.length === 0) fail('empty');
  const node = or();
  if (at !== tokens.length) fail(`unexpected ${tokens[at]}`);
  return node;
}

/** The verdict on one identifier (with a `WITH` exception, the base licence's verdict). */
export function judgeIdentifier(id: string): Verdict {
  const base = id.replace(/\+$/, '').replace(/-(or-later|only)$/i, '');
  const accepted = Object.keys(ACCEPTED).find((k) => k.toLowerCase() === base.toLowerCase());
  if (accepted !== undefined) return { ok: true, reasons: [`${accepted}: ${ACCEPTED[accepted]}`] };
  const copyleft = COPYLEFT_PREFIXES.find((p) => base.toUpperCase().startsWith(p.toUpperCase()));
  if (copyleft !== undefined) {
    return { ok: false, reasons: [`${id}: copyleft, incompatible with shipping under ${PROJECT_LICENCE}`] };
  }
  return { ok: false, reasons: [`${id}: unknown licence, not assessed`] };
}

export function judgeNode(node: LicenceNode): Verdict {
  if (node.kind === 'licence') return judgeIdentifier(node.id);
  const left = judgeNode(node.left);
  const right = judgeNode(node.right);
  if (node.kind === 'and') {
    const ok = left.ok && right.ok;
    // Failing: the failing parts. Passing: all parts.
    const reasons = ok
      ? [...left.reasons, ...right.reasons]
      : [...(left.ok ? [] : left.reasons), ...(right.ok ? [] : right.reasons)];
    return { ok, reasons };
  }
  if (left.ok || right.ok) return { ok: true, reasons: left.ok ? left.reasons : right.reasons };
  return { ok: false, reasons: [...left.reasons, ...right.reasons] };
}

/**
 * What a package.json declares, as one SPDX expression, or null when it declares nothing: `license`
 * as a string, the legacy `license: {type}` object, or the legacy `licenses: [{type}, ...]` array,
 * whose entries are alternatives (joined with OR).
 */
export function declaredLicence(pkg: { license?: unknown; licenses?: unknown }): string | null {
  const typeOf = (v: unknown): string | null => {
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
    if (v && typeof v === 'object' && typeof (v as { type?: unknown }).type === 'string') {
      return typeOf((v as { type: string }).type);
    }
    return null;
  };
  const single = typeOf(pkg.license);
  if (single !== null) return single;
  const list = (Array.isArray(pkg.licenses) ? pkg.licenses : []).map(typeOf).filter((t) => t !== null);
  if (list.length === 0) return null;
  return list.length === 1 ? list[0]! : list.map((t) => (/\s/.test(t) ? `(${t})` : t)).join(' OR ');
}

/** The verdict on a declared licence: missing and non-SPDX declarations are unknown. */
export function judgeLicence(declared: string | null): Verdict {
  if (declared === null) return { ok: false, reasons: ['no licence declared'] };
  if (declared.toUpperCase() === 'UNLICENSED') {
    return { ok: false, reasons: ['UNLICENSED: proprietary, no permission to use'] };
  }
  let node: LicenceNode;
  try {
    node = parseExpression(declared);
  } catch (e) {
    return { ok: false, reasons: [`unknown licence: ${(e as Error).message}`] };
  }
  return judgeNode(node);
}
