import { defineConfig } from 'vitest/config';
import { onPostgres } from './test/support/database.js';
import LongestFirst from './test/support/sequencer.js';

/** Files that replace modules with vi.mock: they need modules of their own, loaded afresh. */
const ISOLATED = ['test/webhooks/address-guard.test.ts'];

/**
 * The dashboard's browser tests run on the embedded database only (`npm test`): the screens are one
 * static bundle over the API, whose tests run on both databases, and on PostgreSQL they would add a
 * third to the run's time while testing the same pages against the same answers.
 */
const BROWSER_TESTS = 'test/web/**';

export default defineConfig({
  test: {
    // One migrated database per run, which every test server starts from (test/support/seed.ts).
    globalSetup: ['test/support/seed.ts'],
    testTimeout: 30_000,
    // expect.poll (the browser tests' way to wait for a screen): a page under load may take seconds.
    expect: { poll: { timeout: 10_000 } },
    hookTimeout: 120_000,
    pool: 'forks',
    maxWorkers: 2,
    sequence: { sequencer: LongestFirst },
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: ['test/**/*.test.ts'],
          exclude: onPostgres ? [...ISOLATED, BROWSER_TESTS] : ISOLATED,
          // A worker process runs file after file with the modules it has loaded (the server, the
          // contract, the seed): each file still starts its own server on its own database. Loading
          // them anew for every file took about 8 s of each file's time.
          isolate: false,
        },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED, isolate: true } },
    ],
  },
});
