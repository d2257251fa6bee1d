import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScratchDatabase, onPostgres } from '../support/database.js';

/** The service as `npm start` runs it: a separate process, its own database. */
interface Spawned {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function spawnService(env: Record<string, string>, args: string[] = []): Spawned {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', ...args], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  child.stdout.on('data', (d: Buffer) => (text += d.toString()));
  child.stderr.on('data', (d: Buffer) => (text += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => text, exited };
}

async function waitFor(check: () => Promise<boolean> | boolean, what: string, ms = 60_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const healthy = (port: number) => async () => {
  try {
    return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
  } catch {
    return false;
  }
};

let databaseEnv: Record<string, string> = {};
let cleanup: () => Promise<void> = async () => {};

beforeAll(async () => {
  if (onPostgres) {
    const scratch = await createScratchDatabase();
    databaseEnv = { DATABASE_URL: scratch.url };
    cleanup = scratch.drop;
  } else {
    const dir = mkdtempSync(join(tmpdir(), 'bms-process-'));
    databaseEnv = { DATA_DIR: dir };
    cleanup = async () => rmSync(dir, { recursive: true, force: true });
  }
});

afterAll(() => cleanup());

// Each test starts real processes (migrations included): give them room on a busy machine.
describe('the service process', { timeout: 120_000 }, () => {
  it('refuses to start with a bad setting, naming the variable', async () => {
    const service = spawnService({ ...databaseEnv, PORT: 'not-a-port' });
    expect(await service.exited).toBe(1);
    expect(service.output()).toMatch(/PORT/);
  });

  it('migrates, serves, finishes an in-flight request on SIGTERM and exits cleanly', async () => {
    const port = 3900 + Math.floor(Math.random() * 90);
    const service = spawnService({ ...databaseEnv, PORT: String(port) });
    await waitFor(healthy(port), 'the service to answer /healthz');
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);

    // Registration hashes a password (tens of milliseconds): still running when the signal lands.
    const inFlight = fetch(`http://127.0.0.1:${port}/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        businessName: 'Shutdown Ltd',
        email: 'shutdown@example.test',
        password: 'a long enough password',
      }),
    });
    await new Promise((r) => setTimeout(r, 5));
    service.child.kill('SIGTERM');

    const response = await inFlight;
    expect(response.status).toBe(201);
    expect(await service.exited).toBe(0);
    const lines = service
      .output()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.some((l) => l.msg === 'worker started')).toBe(true);
    expect(lines.some((l) => l.msg === 'stopped')).toBe(true);
    // Every request log line carries its request id; no secret reaches the log.
    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests.length).toBeGreaterThan(0);
    for (const line of requests) expect(line.requestId).toEqual(expect.any(String));
    expect(service.output()).not.toContain('a long enough password');
    expect(service.output()).not.toMatch(/bms_at_/);
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });

  it('runs a worker without the API (`npm run worker`)', async () => {
    const port = 3990 + Math.floor(Math.random() * 9);
    const service = spawnService({ ...databaseEnv, PORT: String(port) }, ['--worker-only']);
    await waitFor(() => service.output().includes('worker started'), 'the worker to start');
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    service.child.kill('SIGINT');
    expect(await service.exited).toBe(0);
  });
});
