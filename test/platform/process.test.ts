import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createServer as createNetServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useServiceDatabase } from '../support/setup.js';
import { atLeast } from '../support/expect.js';

/** The service as `npm start` runs it: a separate process, its own database. */
interface Spawned {
  child: ChildProcess;
  /** stdout and stderr together. */
  output: () => string;
  /** The service's JSON log lines (stdout). */
  logLines: () => Record<string, unknown>[];
  exited: Promise<number | null>;
}

/** Runs `npm <args>` as README says; the pid is npm's, the one a shell or process manager signals. */
function spawnService(env: Record<string, string>, args: string[] = ['start']): Spawned {
  const child = spawn('npm', ['run', '-s', ...args], {
    env: { ...process.env, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let text = '';
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => {
    text += d.toString();
    stdout += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => (text += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const logLines = () =>
    stdout
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  return { child, output: () => text, logLines, exited };
}

/** The pids of a process's children (Linux). */
function childrenOf(pid: number): number[] {
  return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(' ').filter(Boolean).map(Number);
}

const commandOf = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);

/** The embedded database in `dataDir`, whichever database the suite runs on. */
function embeddedEnv(dataDir: string): Record<string, string> {
  return { DATA_DIR: dataDir, DATABASE_URL: '' };
}

/**
 * Waits for `check` to hold while `service` runs. A service that exits first fails the wait at once
 * with what it printed, and so does one still short after `ms` (a safety net far above a start's
 * time, so that a slow machine only makes the test slower).
 */
async function waitFor(
  service: Spawned,
  check: () => Promise<boolean> | boolean,
  what: string,
  ms = 90_000,
): Promise<void> {
  const deadline = Date.now() + ms;
  let exited: number | null | undefined;
  void service.exited.then((code) => (exited = code));
  while (!(await check())) {
    if (exited !== undefined)
      throw new Error(`exited (${exited}) before ${what}:\n${service.output().slice(-2000)}`);
    if (Date.now() > deadline)
      throw new Error(`timed out waiting for ${what}:\n${service.output().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A port no one listens on now: the system's choice for a listener opened and closed at once. */
async function freePort(): Promise<number> {
  const probe = createNetServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

const healthy = (port: number) => async () => {
  try {
    return (await fetch(`http://127.0.0.1:${port}/healthz`)).ok;
  } catch {
    return false;
  }
};

/**
 * A POST the service has received, its headers read and `100 Continue` answered, whose body goes out
 * only on `send()`: in flight on the server for as long as the test needs.
 */
async function heldRequest(
  port: number,
  path: string,
  body: unknown,
): Promise<{ send(): Promise<{ status: number | undefined; body: string }> }> {
  const text = JSON.stringify(body);
  const req = httpRequest({
    host: '127.0.0.1',
    port,
    path,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(text),
      expect: '100-continue',
    },
  });
  const response = new Promise<{ status: number | undefined; body: string }>((resolve, reject) => {
    req.once('error', reject);
    req.once('response', (res) => {
      let received = '';
      res.on('data', (chunk: Buffer) => (received += chunk.toString()));
      res.once('end', () => resolve({ status: res.statusCode, body: received }));
      res.once('error', reject);
    });
  });
  await Promise.race([new Promise<void>((resolve) => req.once('continue', resolve)), response]);
  return {
    send() {
      req.end(text);
      return response;
    },
  };
}

const databaseEnv = useServiceDatabase('process');

// Each test starts real processes (migrations included): give them room on a busy machine.
describe('the service process', { timeout: 120_000 }, () => {
  it('refuses to start with a bad setting, naming the variable', async () => {
    const service = spawnService({ ...databaseEnv(), PORT: 'not-a-port' });
    expect(await service.exited).toBe(1);
    expect(service.output()).toMatch(/PORT/);
  });

  it('migrates, serves, finishes an in-flight request on SIGTERM and exits cleanly', async () => {
    const port = await freePort();
    const service = spawnService({ ...databaseEnv(), PORT: String(port) });
    await waitFor(service, healthy(port), 'the service to answer /healthz');
    expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);

    // The service has the request (it answered 100 Continue) and waits for its body when the signal lands.
    const inFlight = await heldRequest(port, '/v1/auth/register', {
      businessName: 'Shutdown Ltd',
      email: 'shutdown@example.test',
      password: 'a long enough password',
    });
    service.child.kill('SIGTERM');
    // The body goes out once the service has begun to stop: the request is in flight through it.
    await waitFor(
      service,
      () => service.logLines().some((l) => l.msg === 'shutting down'),
      'the service to stop',
    );

    const response = await inFlight.send();
    expect(response.status).toBe(201);
    expect(await service.exited).toBe(0);
    const lines = service.logLines();
    expect(lines.some((l) => l.msg === 'worker started')).toBe(true);
    // Where mail goes is said at start: captured (and where to read it), since no SMTP_URL is set.
    expect(lines).toContainEqual(
      expect.objectContaining({
        smtp: false,
        msg: 'SMTP_URL is not set: mail is captured, not sent, and listed at GET /v1/sandbox/messages',
      }),
    );
    expect(
      lines.some(
        (l) =>
          l.msg === `listening on http://localhost:${port} (API reference at http://localhost:${port}/docs)`,
      ),
    ).toBe(true);
    // Probes are logged at debug: the info log holds no /healthz or /readyz line.
    expect(lines.filter((l) => l.msg === 'request' && /^\/(healthz|readyz)$/.test(String(l.path)))).toEqual(
      [],
    );
    expect(lines.some((l) => l.msg === 'stopped')).toBe(true);
    // Every request log line carries its request id; no secret reaches the log.
    const requests = lines.filter((l) => l.msg === 'request');
    expect(requests.length).toBeGreaterThan(0);
    for (const line of requests) expect(line.requestId).toEqual(expect.any(String));
    expect(service.output()).not.toContain('a long enough password');
    expect(service.output()).not.toMatch(/bms_at_/);
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
  });

  it('is one Node process under npm: SIGTERM to the pid npm start returned closes the port and exits 0', async () => {
    const port = await freePort();
    const service = spawnService({ ...databaseEnv(), PORT: String(port), SHUTDOWN_TIMEOUT_MS: '3000' });
    await waitFor(service, healthy(port), 'the service to answer /healthz');
    // npm's only child is node running the compiled service: no shell, no tsx wrapper between.
    const children = childrenOf(service.child.pid!);
    expect(children).toHaveLength(1);
    const [node] = atLeast(children, 1);
    expect(commandOf(node)).toEqual([
      expect.stringMatching(/node$/),
      '--liftoff-only',
      'dist/server/main.js',
    ]);
    expect(childrenOf(node)).toEqual([]);

    // Exit status 0: closed in order, not ended by the shutdown timeout.
    service.child.kill('SIGTERM');
    expect(await service.exited).toBe(0);
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    expect(existsSync(`/proc/${node}`)).toBe(false);
  });

  it('stops at once when the port is in use, naming the port, before touching the database', async () => {
    const busy = createNetServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    const { port } = busy.address() as AddressInfo;
    const dataDir = join(mkdtempSync(join(tmpdir(), 'bms-port-')), 'data');
    try {
      const service = spawnService({ ...embeddedEnv(dataDir), PORT: String(port), HOST: '127.0.0.1' });
      expect(await service.exited).toBe(1);
      expect(service.output()).toContain(`Port ${port} is already in use`);
      expect(service.output()).not.toMatch(/at .*\.js:\d+/);
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      busy.close();
    }
  });
});

describe('the embedded data directory is held by one process', { timeout: 180_000 }, () => {
  it('refuses a second server, the CLI and the migrator, naming the directory and the holder; takes over after a crash', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bms-lock-'));
    try {
      const port = await freePort();
      const first = spawnService({ ...embeddedEnv(dataDir), PORT: String(port) });
      await waitFor(first, healthy(port), 'the first service to answer /healthz');
      const [holder] = atLeast(childrenOf(first.child.pid!), 1);
      const refused = [
        spawnService({ ...embeddedEnv(dataDir), PORT: String(await freePort()) }),
        spawnService(embeddedEnv(dataDir), [
          'cli',
          '--',
          'business',
          'create',
          '--name',
          'Second',
          '--email',
          'second@example.test',
        ]),
        spawnService(embeddedEnv(dataDir), ['migrate']),
      ];
      for (const other of refused) {
        expect(await other.exited).toBe(1);
        expect(other.output()).toContain(`The data directory ${dataDir} is in use by process ${holder}`);
      }
      // The first is untouched and still serves.
      expect((await fetch(`http://127.0.0.1:${port}/readyz`)).status).toBe(200);

      // A crash leaves the lock behind; the next start takes it over.
      process.kill(holder, 'SIGKILL');
      await first.exited;
      expect(existsSync(join(dataDir, 'bms.lock'))).toBe(true);
      const next = spawnService({ ...embeddedEnv(dataDir), PORT: String(port) });
      await waitFor(next, healthy(port), 'the restarted service to answer /healthz');
      const [nextHolder] = childrenOf(next.child.pid!);
      expect(JSON.parse(readFileSync(join(dataDir, 'bms.lock'), 'utf8'))).toMatchObject({ pid: nextHolder });
      next.child.kill('SIGTERM');
      expect(await next.exited).toBe(0);
      // A clean stop releases it.
      expect(existsSync(join(dataDir, 'bms.lock'))).toBe(false);
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the worker process', { timeout: 120_000 }, () => {
  it('runs a worker without the API (`npm run worker`)', async () => {
    const port = await freePort();
    const service = spawnService({ ...databaseEnv(), PORT: String(port) }, ['worker']);
    await waitFor(service, () => service.output().includes('worker started'), 'the worker to start');
    await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow();
    service.child.kill('SIGINT');
    expect(await service.exited).toBe(0);
  });
});
