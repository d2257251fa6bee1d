import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { isAppRoute, type AppRouter } from '@ts-rest/core';
import { beforeAll, describe, expect, it } from 'vitest';
import { contract } from '../../contract/index.js';
import { atLeast } from '../support/expect.js';
import { useTestServer } from '../support/setup.js';

const run = promisify(execFile);
const repo = fileURLToPath(new URL('../..', import.meta.url));
const clientDir = join(repo, 'client');
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

/**
 * Installed size of a node_modules folder: the bytes of its files (symbolic links not followed) and the
 * packages in it.
 */
async function installedSize(dir: string): Promise<{ bytes: number; packages: string[] }> {
  let bytes = 0;
  const packages: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    if (entry.isFile()) bytes += (await lstat(path)).size;
    if (entry.name === 'package.json' && /node_modules\/(@[^/]+\/)?[^/@]+$/.test(entry.parentPath)) {
      packages.push(entry.parentPath.slice(entry.parentPath.lastIndexOf('node_modules/') + 13));
    }
  }
  return { bytes, packages: packages.sort() };
}

beforeAll(async () => {
  if (!existsSync(join(clientDir, 'dist/client/index.js'))) await npm(['run', 'build'], repo);
});

describe('the SDK package (client/, @bms/client)', () => {
  it('is importable by package name through its exports, in plain Node', async () => {
    const script = `
      const { createClient, unwrap, BmsApiError, contract, toMinor, toMajor, WebhookMessageSchema } =
        await import('@bms/client');
      const { verifyWebhook, WebhookVerificationError } = await import('@bms/client/webhooks');
      const contractEntry = await import('@bms/client/contract');
      const client = createClient({ baseUrl: 'http://127.0.0.1:1', accessToken: 'x' });
      let refusal;
      try { verifyWebhook('{}', {}, 'whsec_AAAA'); } catch (err) { refusal = err instanceof WebhookVerificationError && err.code; }
      console.log(JSON.stringify({
        createInvoice: typeof client.general.invoices.createInvoice,
        unwrap: typeof unwrap,
        error: new BmsApiError(404, { error: { code: 'NOT_FOUND', message: 'gone', status: 404 } }).code,
        routes: Object.keys(contract.general.invoices).length,
        sameContract: contractEntry.contract === contract,
        money: [toMinor(19.99, 'USD'), toMajor(1999, 'USD')],
        schema: typeof WebhookMessageSchema.parse,
        refusal,
      }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: repo });
    expect(JSON.parse(stdout)).toEqual({
      createInvoice: 'function',
      unwrap: 'function',
      error: 'NOT_FOUND',
      routes: Object.keys(contract.general.invoices).length,
      sameContract: true,
      money: [1999, 19.99],
      schema: 'function',
      refusal: 'MISSING_HEADER',
    });
  });

  it('installs from its npm pack tarball with a client-sized footprint, type-checks strictly in a new app and calls the service', async () => {
    const work = await mkdtemp(join(tmpdir(), 'bms-sdk-package-'));
    try {
      const { stdout: packed } = await npm(
        ['pack', '--json', '--ignore-scripts', '--pack-destination', work],
        clientDir,
      );
      const [pack] = atLeast(JSON.parse(packed) as { filename: string; files: { path: string }[] }[], 1);
      const shipped = pack.files.map((f) => f.path);
      expect(shipped).toEqual(
        expect.arrayContaining([
          'package.json',
          'README.md',
          'dist/client/index.js',
          'dist/client/index.d.ts',
          'dist/client/webhooks.js',
          'dist/client/money.js',
          'dist/contract/index.js',
          'dist/contract/index.d.ts',
          'dist/contract/webhooks/events.js',
        ]),
      );
      // Only the compiled client and contract: no sources, no server, no OpenAPI generator.
      expect(
        shipped.filter(
          (p) => !/^(dist\/(client|contract)\/.+\.(js|d\.ts)$|package\.json$|README\.md$)/.test(p),
        ),
      ).toEqual([]);
      expect(shipped.filter((p) => /openapi|server/.test(p))).toEqual([]);

      const app = join(work, 'app');
      await mkdir(app);
      await writeFile(
        join(app, 'package.json'),
        JSON.stringify({ name: 'sdk-consumer', private: true, type: 'module' }),
      );
      // The dependencies' versions are those the repository's lock file resolved, so the npm cache
      // serves them.
      await npm(
        [
          'install',
          join(work, pack.filename),
          '--no-audit',
          '--no-fund',
          '--prefer-offline',
          '--ignore-scripts',
        ],
        app,
      );

      const { bytes, packages } = await installedSize(join(app, 'node_modules'));
      console.log(
        `@bms/client installed: ${(bytes / 1e6).toFixed(2)} MB in node_modules, ${packages.length} packages ` +
          `(${packages.join(', ')}); the whole service's package installed 102 MB in 187 packages before the split`,
      );
      // Measured at 6.1 MB (zod alone is 5.2 MB), where the service's package brought 102 MB.
      expect(bytes).toBeLessThan(15e6);
      // The SDK, what its contract runs on (ts-rest, zod, the OpenAPI annotations and their peer), and
      // nothing of the server's.
      expect(packages).toEqual([
        '@anatine/zod-openapi',
        '@bms/client',
        '@ts-rest/core',
        'openapi3-ts',
        'ts-deepmerge',
        'yaml',
        'zod',
      ]);

      await writeFile(
        join(app, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            strict: true,
            // Node's types from the repository: the app's node_modules holds the SDK alone.
            types: ['node'],
            typeRoots: [join(repo, 'node_modules/@types')],
            outDir: 'out',
          },
          include: ['main.ts'],
        }),
      );
      await writeFile(
        join(app, 'main.ts'),
        `import { createClient, toMinor, unwrap, type WebhookMessage } from '@bms/client';
import { verifyWebhook } from '@bms/client/webhooks';

const baseUrl = process.argv[2];
if (!baseUrl) throw new Error('usage: node out/main.js BASE_URL');
const email = \`sdk-\${Date.now()}@example.test\`;
const { data: session } = await unwrap(
  createClient({ baseUrl }).auth.register({
    body: { businessName: 'Tarball Ltd', email, password: 'correct horse battery staple' },
  }),
);
const bms = createClient({ baseUrl, accessToken: session.accessToken });
const { data: customer } = await unwrap(bms.general.customers.createCustomer({ body: { name: 'Grace Hopper' } }));
const { data: created } = await unwrap(
  bms.general.invoices.createInvoice({
    body: {
      customer_id: customer.id,
      due_date: '2030-12-31',
      currency: 'USD',
      items: [{ description: 'Consulting (hours)', quantity: 3, unit_price: 19.99, tax_rate: 20 }],
    },
  }),
);
const { data: invoice } = await unwrap(bms.general.invoices.getInvoice({ params: { id: created.id } }));
const missing = await bms.general.invoices.getInvoice({ params: { id: 'inv_missing' } });
const total: number = invoice.total;
console.log(
  JSON.stringify({
    businessId: session.businessId,
    customerId: customer.id,
    invoiceId: invoice.id,
    number: invoice.number,
    status: invoice.status,
    customerName: invoice.customer.name,
    totalMinor: toMinor(total, invoice.currency),
    missing: missing.status === 404 ? missing.body.error.code : missing.status,
  }),
);

// The declarations are shipped and typed: a misspelt field does not compile, and a webhook's data
// is narrowed by its event.
export function misspelt() {
  // @ts-expect-error 'nme' is not a field of CreateCustomerBody
  return bms.general.customers.createCustomer({ body: { nme: 'Grace Hopper' } });
}
export function paidTotal(body: string, headers: Record<string, string>): number | null {
  const message: WebhookMessage = verifyWebhook(body, headers, 'whsec_c2VjcmV0');
  return message.event === 'invoice.paid' ? message.data.total : null;
}
`,
      );
      // strict, without skipLibCheck: the shipped declarations are checked as well as the use of
      // them, with the repository's TypeScript.
      const tsc = join(repo, 'node_modules/typescript/bin/tsc');
      await run(process.execPath, [tsc, '-p', app], { cwd: app }).catch((err: { stdout: string }) => {
        throw new Error(`tsc failed in the scratch app:\n${err.stdout}`);
      });

      // The compiled app in plain Node, against the live service.
      const { stdout } = await run(process.execPath, [join(app, 'out/main.js'), server().baseUrl], {
        cwd: app,
      });
      const printed = JSON.parse(stdout) as Record<string, string | number>;
      expect(printed).toMatchObject({
        businessId: expect.stringMatching(/^biz_/),
        number: 'INV-000001',
        status: 'draft',
        customerName: 'Grace Hopper',
        totalMinor: 7196, // 3 x 19.99 = 59.97, + 20% tax 11.99 (half up) = 71.96
        missing: 'NOT_FOUND',
      });
      const row = await server()
        .deps.db.selectFrom('invoices')
        .select(['business_id', 'customer_id'])
        .where('id', '=', String(printed.invoiceId))
        .executeTakeFirst();
      expect(row).toEqual({ business_id: printed.businessId, customer_id: printed.customerId });
    } finally {
      await rm(work, { recursive: true, force: true });
    }
  }, 240_000);

  it("lists every namespace and method of the SDK in README's table", async () => {
    const methods = new Map<string, string[]>();
    const walk = (router: AppRouter, path: string[]) => {
      for (const [key, value] of Object.entries(router)) {
        if (!isAppRoute(value)) walk(value, [...path, key]);
        else methods.set(path.join('.'), [...(methods.get(path.join('.')) ?? []), key]);
      }
    };
    walk(contract, []);
    const readme = await readFile(join(repo, 'README.md'), 'utf8');
    const rows = [...readme.matchAll(/^\| `([\w.]+)` \| ((?:`\w+`(?:, )?)+) \|$/gm)].map(
      (m) => [m[1], [...m[2]!.matchAll(/`(\w+)`/g)].map((n) => n[1])] as const,
    );
    const table = [...methods].map(
      ([ns, names]) => `| \`${ns}\` | ${names.map((n) => `\`${n}\``).join(', ')} |`,
    );
    expect(new Map(rows), `README's SDK table should read:\n${table.join('\n')}`).toEqual(methods);
  });

  it('ships dependencies a client needs and no more: the client package.json names three', async () => {
    const pkg = JSON.parse(await readFile(join(clientDir, 'package.json'), 'utf8')) as {
      name: string;
      dependencies: Record<string, string>;
      exports: Record<string, unknown>;
    };
    expect(pkg.name).toBe('@bms/client');
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['@anatine/zod-openapi', '@ts-rest/core', 'zod']);
    expect(Object.keys(pkg.exports).sort()).toEqual(['.', './contract', './package.json', './webhooks']);
  });
});
