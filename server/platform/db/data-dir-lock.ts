import { closeSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

/** The embedded database is single-process: the process that opens a data directory holds this. */
export const LOCK_FILE = 'bms.lock';

interface Holder {
  pid: number;
  hostname: string;
  startedAt: string;
}

export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: Holder,
  ) {
    super(
      `The data directory ${dataDir} is in use by process ${holder.pid}` +
        `${holder.hostname === hostname() ? '' : ` on ${holder.hostname}`} (since ${holder.startedAt}). ` +
        'The embedded database serves one process at a time: stop that process first, or use PostgreSQL ' +
        '(DATABASE_URL) to run several. If that process is gone, delete ' +
        `${join(dataDir, LOCK_FILE)}.`,
    );
    this.name = 'DataDirLockedError';
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(path: string): Holder | undefined {
  try {
    const holder = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
    if (typeof holder.pid !== 'number' || typeof holder.hostname !== 'string') return undefined;
    return { pid: holder.pid, hostname: holder.hostname, startedAt: String(holder.startedAt ?? '?') };
  } catch {
    return undefined;
  }
}

/**
 * Takes the exclusive lock on `dataDir` for this process (a lock file made with O_EXCL that names
 * the holder's pid), or throws DataDirLockedError naming the holder. A lock left by a dead process
 * on this host (killed, crashed) is taken over. Returns the release function; the lock also goes
 * when the process exits normally.
 */
export function lockDataDir(dataDir: string): () => void {
  const path = join(dataDir, LOCK_FILE);
  const me: Holder = { pid: process.pid, hostname: hostname(), startedAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 3; attempt++) {
    let fd: number;
    try {
      fd = openSync(path, 'wx', 0o644);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = readHolder(path);
      // A holder on another host (a shared volume) cannot be checked: it is taken as alive.
      if (holder && holder.pid !== process.pid && (holder.hostname !== me.hostname || alive(holder.pid))) {
        throw new DataDirLockedError(dataDir, holder);
      }
      // A dead holder's lock, or one half-written by a process that died as it wrote it.
      try {
        unlinkSync(path);
      } catch {
        // another process took it over first; the next attempt decides
      }
      continue;
    }
    writeSync(fd, JSON.stringify(me));
    closeSync(fd);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      process.off('exit', release);
      // Only our own lock: never remove one another process took over.
      if (readHolder(path)?.pid === process.pid) unlinkSync(path);
    };
    process.on('exit', release);
    return release;
  }
  const holder = readHolder(path);
  throw new DataDirLockedError(dataDir, holder ?? { pid: 0, hostname: '?', startedAt: '?' });
}
