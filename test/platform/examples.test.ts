import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { registerBusiness } from '../support/business.js';
import { useTestServer } from '../support/setup.js';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../..', import.meta.url));
const server = useTestServer();

/** Runs examples/sdk-usage.ts as the README says (tsx), with only the given BMS_* variables set. */
async function sdkUsage(env: Record<string, string>) {
  const inherited = { ...process.env };
  delete inherited.BMS_API_KEY;
  delete inherited.BMS_BASE_URL;
  try {
    const { stdout, stderr } = await run(join(repo, 'node_modules/.bin/tsx'), ['examples/sdk-usage.ts'], {
      cwd: repo,
      env: { ...inherited, ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const failed = err as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

beforeAll(async () => {
  // The example imports the SDK by package name (@bms/client), which resolves to its build.
  if (!existsSync(join(repo, 'client/dist/client/index.js')))
    await run('npm', ['run', 'build'], { cwd: repo, timeout: 120_000 });
});

describe('examples/sdk-usage.ts', () => {
  it('registers a new business each time it runs without BMS_API_KEY, and says what it did', async () => {
    for (let i = 0; i < 2; i++) {
      const { code, stdout } = await sdkUsage({ BMS_BASE_URL: server().baseUrl });
      expect(code, stdout).toBe(0);
      expect(stdout).toMatch(/^Registered business biz_\w+ as example-[\w-]+@example\.test at http:/m);
      expect(stdout).toMatch(/^Created customer cus_\w+ \(Ada Lovelace\)$/m);
      expect(stdout).toMatch(/^Created draft invoice INV-000001 \(inv_\w+\), total 300 USD$/m);
      expect(stdout).toMatch(
        /^Retried with the same Idempotency-Key: got INV-000001 again \(same invoice\)$/m,
      );
      expect(stdout).toMatch(/^Issued INV-000001: unpaid, 300 USD due$/m);
      expect(stdout).toMatch(/^Recorded a payment of 300 USD: INV-000001 is paid$/m);
      expect(stdout).toMatch(/^Done: invoice INV-000001 created, issued and paid\.$/m);
    }
  }, 120_000);

  it('runs again and again with one BMS_API_KEY, creating a new paid invoice each time', async () => {
    const business = await registerBusiness(server());
    const { data: key } = await unwrap(
      business.client.auth.createApiKey({ body: { name: 'Example', scope: 'full' } }),
    );
    for (const number of ['INV-000001', 'INV-000002']) {
      const { code, stdout } = await sdkUsage({ BMS_BASE_URL: server().baseUrl, BMS_API_KEY: key.key });
      expect(code, stdout).toBe(0);
      expect(stdout).toMatch(/^Using BMS_API_KEY against http:/m);
      expect(stdout).not.toMatch(/Registered business/);
      expect(stdout).toMatch(new RegExp(`^Done: invoice ${number} created, issued and paid\\.$`, 'm'));
    }
    const { data: invoices } = await unwrap(business.client.general.invoices.listInvoices({ query: {} }));
    expect(invoices.map((i) => [i.number, i.status, i.amount_paid]).sort()).toEqual([
      ['INV-000001', 'paid', 300],
      ['INV-000002', 'paid', 300],
    ]);
  }, 120_000);

  it('exits 1 and says why when a call is refused', async () => {
    const { code, stdout, stderr } = await sdkUsage({
      BMS_BASE_URL: server().baseUrl,
      BMS_API_KEY: 'bms_sk_not-a-key',
    });
    expect(code).toBe(1);
    expect(stdout).toMatch(/^Using BMS_API_KEY against http:/m);
    expect(stdout).not.toMatch(/Created customer/);
    expect(stderr).toMatch(/^Failed: 401 UNAUTHORIZED: /m);
  }, 60_000);
});
