import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DataDirLockedError, LOCK_FILE, lockDataDir } from '../../server/platform/db/data-dir-lock.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'bms-lock-unit-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lockPath = () => join(dir, LOCK_FILE);
const writeHolder = (holder: object | string) =>
  writeFileSync(lockPath(), typeof holder === 'string' ? holder : JSON.stringify(holder));

/** The pid of a process that has already exited. */
function deadPid(): number {
  const done = spawnSync(process.execPath, ['-e', 'console.log(process.pid)'], { encoding: 'utf8' });
  return Number(done.stdout.trim());
}

describe('the data directory lock', () => {
  it('writes this process as the holder and removes the file on release', () => {
    const release = lockDataDir(dir);
    expect(JSON.parse(readFileSync(lockPath(), 'utf8'))).toMatchObject({
      pid: process.pid,
      hostname: hostname(),
    });
    release();
    expect(existsSync(lockPath())).toBe(false);
  });

  it('refuses while a live process holds it, naming the directory and the pid', () => {
    // The parent of this process is alive for as long as the test runs.
    writeHolder({ pid: process.ppid, hostname: hostname(), startedAt: '2026-11-23T10:00:00.000Z' });
    let refusal: unknown;
    try {
      lockDataDir(dir);
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(DataDirLockedError);
    expect((refusal as Error).message).toContain(
      `The data directory ${dir} is in use by process ${process.ppid}`,
    );
    // The holder's lock is left as it was.
    expect(JSON.parse(readFileSync(lockPath(), 'utf8'))).toMatchObject({ pid: process.ppid });
  });

  it('takes over the lock of a process that died', () => {
    writeHolder({ pid: deadPid(), hostname: hostname(), startedAt: '2026-11-23T10:00:00.000Z' });
    const release = lockDataDir(dir);
    expect(JSON.parse(readFileSync(lockPath(), 'utf8'))).toMatchObject({ pid: process.pid });
    release();
  });

  it('takes over a lock file left half-written', () => {
    writeHolder('{"pid": 12');
    const release = lockDataDir(dir);
    expect(JSON.parse(readFileSync(lockPath(), 'utf8'))).toMatchObject({ pid: process.pid });
    release();
  });

  it('treats a holder on another host as alive (it cannot be checked from here)', () => {
    writeHolder({ pid: deadPid(), hostname: 'another-host', startedAt: '2026-11-23T10:00:00.000Z' });
    expect(() => lockDataDir(dir)).toThrow(/in use by process \d+ on another-host/);
  });

  it('does not remove a lock another process took over after this one', () => {
    const release = lockDataDir(dir);
    writeHolder({ pid: process.ppid, hostname: hostname(), startedAt: '2026-11-23T10:00:00.000Z' });
    release();
    expect(existsSync(lockPath())).toBe(true);
  });
});
