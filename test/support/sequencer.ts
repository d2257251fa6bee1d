import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The longest files other than the browser's, longest first (measured on both databases): started
 * first, so that the two workers finish together rather than one running the fuzz alone at the end
 * of a run. A clean clone has no durations from an earlier run for vitest to sort by.
 */
const LONGEST = [
  'test/platform/fuzz.test.ts',
  'test/platform/route-auth.test.ts',
  'test/auth/permissions.test.ts',
  'test/platform/cli.test.ts',
  'test/loyalty/security.test.ts',
  'test/marketing/security.test.ts',
  'test/platform/csv-export.test.ts',
  'test/platform/process.test.ts',
  'test/sandbox/environment.test.ts',
  'test/marketing/campaign-workers.test.ts',
  'test/general/security.test.ts',
];

const isBrowserTest = (path: string) => path.startsWith('test/web/');

/**
 * The longest files first, and the browser's files (each drives Chromium against its own server,
 * more than a core's work) alternating with the others, so that the two workers rarely run two
 * browsers at once.
 */
export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const path = (spec: TestSpecification) => relative(spec.project.config.root, spec.moduleId);
    const rank = (spec: TestSpecification) => {
      const i = LONGEST.indexOf(path(spec));
      return i === -1 ? LONGEST.length : i;
    };
    // Array.prototype.sort is stable: the rest keep vitest's order (larger files first).
    const others = sorted.filter((spec) => !isBrowserTest(path(spec))).sort((a, b) => rank(a) - rank(b));
    const browser = sorted.filter((spec) => isBrowserTest(path(spec)));
    const order: TestSpecification[] = [];
    while (browser.length || others.length) {
      const next = browser.shift();
      if (next) order.push(next);
      const other = others.shift();
      if (other) order.push(other);
    }
    return order;
  }
}
