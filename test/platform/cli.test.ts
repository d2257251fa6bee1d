import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, unwrap, sessionOf } from '../../client/index.js';
import { ensureBuilt } from '../support/build.js';
import { createScratchDatabase, onPostgres } from '../support/database.js';
import { startTestServer, type TestServer } from '../support/server.js';

const run = promisify(execFile);

let env: Record<string, string> = {};
let cleanup: () => Promise<void> = async () => {};

beforeAll(async () => {
  // The compiled CLI, as `npm run cli` runs it.
  ensureBuilt();
  if (onPostgres) {
    const scratch = await createScratchDatabase();
    env = { DATABASE_URL: scratch.url };
    cleanup = scratch.drop;
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'bms-cli-'));
    env = { DATA_DIR: dir };
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
});

afterAll(() => cleanup());

const cli = (args: string[], extra: Record<string, string> = {}) =>
  run(process.execPath, ['dist/server/cli.js', ...args], {
    env: { ...process.env, ...env, SIGNUP_ENABLED: 'false', ...extra },
  });

interface Created {
  businessId: string;
  accessToken: string;
  apiKey: string;
  password: string;
  plan: string;
}

/** Provisions a business on the enterprise plan through the CLI and returns what it printed. */
async function createBusiness(name: string, email: string): Promise<Created> {
  const { stdout } = await cli([
    'business',
    'create',
    '--name',
    name,
    '--email',
    email,
    '--plan',
    'enterprise',
    '--json',
  ]);
  return JSON.parse(stdout) as Created;
}

describe('npm run cli -- business create', { timeout: 120_000 }, () => {
  it('provisions a business while sign-up is disabled and prints its id, a token and a full API key', async () => {
    const created = await createBusiness('Cli Ltd', 'Owner@Cli.test');
    expect(created.businessId).toMatch(/^biz_[0-9A-Z]{26}$/);
    expect(created.accessToken).toMatch(/^bms_at_/);
    expect(created.apiKey).toMatch(/^bms_sk_/);
    expect(created.plan).toBe('enterprise');
    expect(created.password.length).toBeGreaterThanOrEqual(12);
  });

  it('prints a readable table without --json', async () => {
    const { stdout } = await cli([
      'business',
      'create',
      '--name',
      'Table Ltd',
      '--email',
      'table@cli.test',
      '--password',
      'a long enough password',
    ]);
    expect(stdout).toMatch(/^businessId\s+biz_/m);
    expect(stdout).toMatch(/^apiKey\s+bms_sk_/m);
    expect(stdout).not.toMatch(/^password/m);
  });

  it('refuses a taken email, a missing argument and an unknown plan with exit code 1', async () => {
    await createBusiness('Taken Ltd', 'Taken@Cli.test');
    await expect(
      cli(['business', 'create', '--name', 'Again', '--email', 'taken@cli.test']),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('already exists'),
    });
    await expect(cli(['business', 'create', '--name', 'No Email'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('--email'),
    });
    await expect(
      cli(['business', 'create', '--name', 'P', '--email', 'p@cli.test', '--plan', 'gold']),
    ).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Unknown plan'),
    });
    await expect(cli(['nonsense'])).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('Usage'),
    });
  });

  it('prints its usage on --help, -h and help, exiting 0', async () => {
    for (const args of [['--help'], ['-h'], ['help'], ['business', 'create', '--help']]) {
      const { stdout, stderr } = await cli(args);
      expect(stdout).toContain('npm run cli -- business create --name NAME --email EMAIL');
      expect(stderr).toBe('');
    }
  });

  it('refuses under --json with one JSON object on stdout naming the code, exiting 1', async () => {
    await createBusiness('Json Taken Ltd', 'json-taken@cli.test');
    const refusals: [string[], string, RegExp][] = [
      [['--name', 'Again', '--email', 'json-taken@cli.test'], 'CONFLICT', /already exists/],
      [['--name', 'No Email'], 'USAGE', /--email/],
      [['--name', 'P', '--email', 'p2@cli.test', '--plan', 'gold'], 'USAGE', /Unknown plan "gold"/],
      [['--name', 'P', '--email', 'p3@cli.test', '--colour', 'red'], 'USAGE', /--colour/],
    ];
    for (const [args, code, message] of refusals) {
      const failed = await cli(['business', 'create', ...args, '--json']).then(
        () => undefined,
        (err: { code: number; stdout: string; stderr: string }) => err,
      );
      expect(failed?.code, args.join(' ')).toBe(1);
      expect(JSON.parse(failed?.stdout ?? '')).toEqual({
        error: { code, message: expect.stringMatching(message) },
      });
    }
  });

  describe('the credentials it printed', () => {
    let created: Created;
    let sandboxed: Created & { sandboxBusinessId: string; sandboxAccessToken: string; sandboxApiKey: string };
    let server: TestServer;
    beforeAll(async () => {
      // The CLI opens the database itself, so it runs before the server holds it.
      created = await createBusiness('Signin Ltd', 'Signin@Cli.test');
      const { stdout } = await cli([
        'business',
        'create',
        '--name',
        'Sandboxed Ltd',
        '--email',
        'sandboxed@cli.test',
        '--password',
        'correct horse battery staple',
        '--sandbox',
        '--json',
      ]);
      sandboxed = JSON.parse(stdout) as typeof sandboxed;
      server = await startTestServer({
        databaseUrl: env.DATABASE_URL,
        env: {
          RATE_LIMITS: 'free:100,standard:1000,enterprise:10000',
          ...(env.DATA_DIR ? { DATA_DIR: env.DATA_DIR } : {}),
        },
      });
    });
    afterAll(async () => {
      await server.close();
      expect(server.violations).toEqual([]);
    });

    it('work against the API: the token, the key, and sign-in with the printed password', async () => {
      const byToken = createClient({
        baseUrl: server.baseUrl,
        accessToken: created.accessToken,
        maxRetries: 0,
      });
      const byKey = createClient({ baseUrl: server.baseUrl, apiKey: created.apiKey, maxRetries: 0 });
      const { data: customer } = await unwrap(
        byKey.general.customers.createCustomer({ body: { name: 'Grace Hopper' } }),
      );
      const { data: seen } = await unwrap(
        byToken.general.customers.getCustomer({ params: { id: customer.id } }),
      );
      expect(seen.name).toBe('Grace Hopper');
      const signIn = await createClient({ baseUrl: server.baseUrl }).auth.signIn({
        body: { email: 'signin@cli.test', password: created.password },
      });
      expect(signIn.status).toBe(200);
      const limit = await byKey.general.customers.listCustomers({ query: {} });
      expect(limit.headers.get('x-ratelimit-limit')).toBe('10000');
    });

    it('with --sandbox, also a sandbox token and a test key that reach the sandbox only', async () => {
      expect(sandboxed.sandboxBusinessId).toMatch(/^biz_/);
      expect(sandboxed.sandboxBusinessId).not.toBe(sandboxed.businessId);
      expect(sandboxed.sandboxAccessToken).toMatch(/^bms_at_/);
      expect(sandboxed.sandboxApiKey).toMatch(/^bms_sk_test_/);
      for (const credentials of [
        { accessToken: sandboxed.sandboxAccessToken },
        { apiKey: sandboxed.sandboxApiKey },
      ]) {
        const client = createClient({ baseUrl: server.baseUrl, maxRetries: 0, ...credentials });
        const business = await client.auth.getBusiness();
        expect(business.headers.get('bms-environment')).toBe('sandbox');
        expect(business.status === 200 && business.body.data.id).toBe(sandboxed.sandboxBusinessId);
      }
      const signIn = await unwrap(
        createClient({ baseUrl: server.baseUrl }).auth.signIn({
          body: {
            email: 'sandboxed@cli.test',
            password: 'correct horse battery staple',
            environment: 'sandbox',
          },
        }),
      );
      expect(sessionOf(signIn.data).businessId).toBe(sandboxed.sandboxBusinessId);
    });
  });
});
