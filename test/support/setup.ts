import { afterAll, beforeAll, expect } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBuilt } from './build.js';
import { createScratchDatabase, onPostgres } from './database.js';
import { startTestServer, type TestServer, type TestServerOptions } from './server.js';

/**
 * One live server per test file (its own database), closed after the file; fails the file when any
 * response it served did not match openapi.json.
 */
export function useTestServer(options: TestServerOptions = {}): () => TestServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(options);
  });
  afterAll(async () => {
    const violations = server?.violations ?? [];
    await server?.close();
    expect(violations, 'responses that do not match openapi.json').toEqual([]);
  });
  return () => {
    if (!server) throw new Error('test server not started');
    return server;
  };
}

/**
 * The database of a service started as its own process (as `npm start` runs it), for one test file:
 * a scratch PostgreSQL database when DATABASE_URL is set, otherwise a new PGlite data directory;
 * the compiled service is built first when a source is newer. Returns the environment naming it.
 */
export function useServiceDatabase(tag: string): () => Record<string, string> {
  let env: Record<string, string> | undefined;
  let cleanup: () => Promise<void> = async () => {};
  beforeAll(async () => {
    ensureBuilt();
    if (onPostgres) {
      const scratch = await createScratchDatabase();
      env = { DATABASE_URL: scratch.url };
      cleanup = scratch.drop;
    } else {
      const dir = mkdtempSync(join(tmpdir(), `bms-${tag}-`));
      env = { DATA_DIR: dir };
      cleanup = async () => rmSync(dir, { recursive: true, force: true });
    }
  });
  afterAll(() => cleanup());
  return () => {
    if (!env) throw new Error('service database not ready');
    return env;
  };
}
