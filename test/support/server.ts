import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../server/app.js';
import { loadConfig } from '../../server/config.js';
import { domains } from '../../server/domains.js';
import { createHttpServer } from '../../server/platform/http.js';
import type { Deps } from '../../server/platform/deps.js';
import { closeHttp, startRuntime, startWorker, type Runtime } from '../../server/platform/runtime.js';
import { createLogger, type Logger } from '../../server/platform/logger.js';
import { TestClock } from './clock.js';
import { undocumentedHeaders } from './documented-headers.js';
import { createScratchDatabase, onPostgres } from './database.js';
import { responseValidator } from './response-validator.js';
import { pgliteSeed, seedDatabase } from './seed.js';
import { TEST_ENV } from './test-env.js';
import { StubDns } from './dns.js';

export interface TestServer {
  baseUrl: string;
  deps: Deps;
  clock: TestClock;
  /** The DNS the service resolves through: publish records here. */
  dns: StubDns;
  /** Responses that did not match openapi.json; checked after every test file. */
  violations: string[];
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Environment overrides, as the service would read them. */
  env?: Record<string, string>;
  /** Start the job worker (default true). */
  worker?: boolean;
  /** Use an existing database instead of a fresh one (PostgreSQL URL). */
  databaseUrl?: string;
  /** The service's logger (default: one at LOG_LEVEL, silent unless TEST_LOG_LEVEL says). */
  log?: Logger;
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  let dropDatabase: (() => Promise<void>) | undefined;
  let databaseUrl = options.databaseUrl;
  if (!databaseUrl && onPostgres) {
    const scratch = await createScratchDatabase(seedDatabase());
    databaseUrl = scratch.url;
    dropDatabase = scratch.drop;
  }
  const config = loadConfig({
    ...TEST_ENV,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...options.env,
  });
  const clock = new TestClock();
  const dns = new StubDns();
  const runtime: Runtime = await startRuntime(config, domains, {
    pgliteSeed: !databaseUrl && config.DATA_DIR === 'memory://' ? await pgliteSeed() : undefined,
    clock,
    dns,
    log: options.log ?? createLogger(config.LOG_LEVEL),
  });
  if (options.worker ?? true) await startWorker(runtime.deps);
  const violations: string[] = [];
  const app = createApp(runtime.deps, { beforeRoutes: [responseValidator(violations)] });
  const server: Server = createHttpServer((req, res) => {
    // Every header a response carries is in openapi.json for its operation and status.
    res.on('finish', () => {
      const problem = undocumentedHeaders(req, res);
      if (problem) violations.push(problem);
    });
    app(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    deps: runtime.deps,
    clock,
    dns,
    violations,
    async close() {
      await closeHttp(server, 1000);
      await runtime.close();
      await dropDatabase?.();
    },
  };
}
