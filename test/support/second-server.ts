import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../../server/app.js';
import { ServiceState } from '../../server/platform/state.js';
import { onPostgres } from './database.js';
import { startTestServer, type TestServer } from './server.js';

/**
 * A second service over the first one's database, as a second API process would be: on PostgreSQL a
 * service of its own on the same database (no worker); on PGlite, which one process holds, a second
 * HTTP front end over the same database handle with memory of its own (its own credential cache,
 * settings cache and the rest of `state`). Either way, what one learns of the other's changes comes
 * through the database only. Close it before the first.
 */
export async function startSecondServer(
  first: TestServer,
  env: Record<string, string> = {},
): Promise<TestServer> {
  if (onPostgres) {
    return startTestServer({ databaseUrl: first.deps.config.DATABASE_URL, worker: false, env });
  }
  const deps = { ...first.deps, state: new ServiceState(first.deps.config) };
  const http = createServer(createApp(deps));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return {
    ...first,
    deps,
    baseUrl: `http://127.0.0.1:${port}`,
    violations: [],
    close: () => new Promise<void>((resolve) => http.close(() => resolve())),
  };
}
