import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer } from '../support/setup.js';
import { atLeast } from '../support/expect.js';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../..', import.meta.url));
const server = useTestServer();

// npm run from a package script exports the repository as the local prefix; the scratch app's npm
// must see only its own folder.
const npmEnv = Object.fromEntries(
  Object.entries(process.env).filter(
    ([k]) => !/^(npm_config_local_prefix|npm_package_|npm_lifecycle_)/i.test(k),
  ),
);
const npm = (args: string[], cwd: string) =>
  run('npm', args, { cwd, env: npmEnv, maxBuffer: 16 * 1024 * 1024, timeout: 150_000 });

/** The exact version the repository resolved, so the scratch install is served by the npm cache. */
const versionOf = async (name: string) =>
  (
    JSON.parse(await readFile(join(repo, 'node_modules', name, 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

beforeAll(async () => {
  if (!existsSync(join(repo, 'dist/client/index.js'))) await npm(['run', 'build'], repo);
});

describe('the SDK as a package', () => {
  it('is importable by package name through package.json exports, in plain Node', async () => {
    const script = `
      const { createClient, unwrap, BmsApiError, contract } = await import('business-management-service/client');
      const client = createClient({ baseUrl: 'http://127.0.0.1:1', accessToken: 'x' });
      console.log(JSON.stringify({
        createInvoice: typeof client.general.invoices.createInvoice,
        unwrap: typeof unwrap,
        error: new BmsApiError(404, { error: { code: 'NOT_FOUND', message: 'gone', status: 404 } }).code,
        routes: Object.keys(contract.general.invoices).length,
      }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script]);
    expect(JSON.parse(stdout)).toEqual({
      createInvoice: 'function',
      unwrap: 'function',
      error: 'NOT_FOUND',
      routes: 8,
    });
  });

  it('installs from its npm pack tarball into a new app, type-checks there and calls the service', async () => {
    const work = await mkdtemp(join(tmpdir(), 'bms-sdk-package-'));
    try {
      const { stdout: packed } = await npm(
        ['pack', '--json', '--ignore-scripts', '--pack-destination', work],
        repo,
      );
      const [pack] = atLeast(JSON.parse(packed) as { filename: string; files: { path: string }[] }[], 1);
      const shipped = pack.files.map((f) => f.path);
      expect(shipped).toEqual(
        expect.arrayContaining([
          'package.json',
          'README.md',
          'dist/client/index.js',
          'dist/client/index.d.ts',
          'dist/contract/index.js',
          'dist/contract/index.d.ts',
        ]),
      );
      expect(
        shipped.filter((p) => !/^(dist\/(client|contract)\/|package\.json$|README\.md$)/.test(p)),
      ).toEqual([]);

      const app = join(work, 'app');
      await mkdir(app);
      await writeFile(
        join(app, 'package.json'),
        JSON.stringify({ name: 'sdk-consumer', private: true, type: 'module' }),
      );
      await npm(
        [
          'install',
          join(work, pack.filename),
          `typescript@${await versionOf('typescript')}`,
          `@types/node@${await versionOf('@types/node')}`,
          '--no-audit',
          '--no-fund',
          '--prefer-offline',
          '--ignore-scripts',
        ],
        app,
      );
      expect(existsSync(join(app, 'node_modules/business-management-service/dist/client/index.js'))).toBe(
        true,
      );

      await writeFile(
        join(app, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            types: ['node'],
          },
          include: ['main.ts'],
        }),
      );
      await writeFile(
        join(app, 'main.ts'),
        `import { createClient, unwrap } from 'business-management-service/client';

const baseUrl = process.argv[2];
if (!baseUrl) throw new Error('usage: tsx main.ts BASE_URL');
const email = \`sdk-\${Date.now()}@example.test\`;
const { data: session } = await unwrap(
  createClient({ baseUrl }).auth.register({
    body: { businessName: 'Tarball Ltd', email, password: 'correct horse battery staple' },
  }),
);
const bms = createClient({ baseUrl, accessToken: session.accessToken });
const { data: customer } = await unwrap(bms.general.customers.createCustomer({ body: { name: 'Grace Hopper' } }));
const name: string = customer.name;
console.log(JSON.stringify({ businessId: session.businessId, customerId: customer.id, name }));

// The declarations are shipped and typed: a misspelt field does not compile.
export function misspelt() {
  // @ts-expect-error 'nme' is not a field of CreateCustomerBody
  return bms.general.customers.createCustomer({ body: { nme: 'Grace Hopper' } });
}
`,
      );
      // Without skipLibCheck, so the shipped declarations are checked as well as the use of them.
      const tsc = join(app, 'node_modules/typescript/bin/tsc');
      await run(process.execPath, [tsc, '--noEmit', '-p', app]).catch((err: { stdout: string }) => {
        throw new Error(`tsc --noEmit failed in the scratch app:\n${err.stdout}`);
      });

      const tsx = join(repo, 'node_modules/.bin/tsx');
      const { stdout } = await run(tsx, [join(app, 'main.ts'), server().baseUrl], { cwd: app });
      const printed = JSON.parse(stdout) as { businessId: string; customerId: string; name: string };
      expect(printed).toMatchObject({ businessId: expect.stringMatching(/^biz_/), name: 'Grace Hopper' });
      const row = await server()
        .deps.db.selectFrom('customers')
        .select(['business_id', 'name'])
        .where('id', '=', printed.customerId)
        .executeTakeFirst();
      expect(row).toEqual({ business_id: printed.businessId, name: 'Grace Hopper' });
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }, 240_000);
});
