import { afterAll, beforeAll, expect } from 'vitest';
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
