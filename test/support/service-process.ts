import { spawn, type ChildProcess } from 'node:child_process';

const ROOT = new URL('../../', import.meta.url).pathname;

/** The compiled service as a process of its own, started as `npm start` starts it. */
export interface ServiceProcess {
  child: ChildProcess;
  /** Settles with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** The last lines the process wrote to stderr, for a failure's message. */
  stderr(): string;
}

export function startServiceProcess(env: Record<string, string>): ServiceProcess {
  const child = spawn(process.execPath, ['--liftoff-only', 'dist/server/main.js'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let tail = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => {
    tail = (tail + chunk).slice(-4000);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, stderr: () => tail };
}

/**
 * Resolves once `base`/readyz answers 200. Fails at once when the process ends first (with its exit
 * code and stderr), and after `timeoutMs` (a first start on a new embedded database migrates it, which
 * takes long on a loaded machine).
 */
export async function serviceReady(
  base: string,
  service: ServiceProcess,
  timeoutMs = 180_000,
): Promise<void> {
  let ended: number | null | undefined;
  void service.exited.then((code) => (ended = code));
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(`${base}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    if (ended !== undefined) {
      throw new Error(`the service exited with code ${ended} before it was ready:\n${service.stderr()}`);
    }
    if (Date.now() > deadline) {
      throw new Error(`the service was not ready after ${timeoutMs} ms:\n${service.stderr()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
