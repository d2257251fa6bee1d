import { promises as dns } from 'node:dns';

/** The DNS lookups the service makes; a stub stands in for it in tests. */
export interface DnsResolver {
  /** TXT records at `name`, each as its character strings; none (not an error) when there are none. */
  resolveTxt(name: string): Promise<string[][]>;
  /**
   * The addresses `host` resolves to for connecting (as a dial would find them); none when the name
   * does not exist. Throws when no answer came within the bound (`DnsTimeoutError`) or DNS failed.
   */
  lookup(host: string): Promise<string[]>;
}

const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME', 'NXDOMAIN']);

/** How long a lookup may take before it counts as unanswered: a request waits on it. */
export const LOOKUP_TIMEOUT_MS = 3_000;

export class DnsTimeoutError extends Error {
  constructor(host: string) {
    super(`No DNS answer for ${host} within ${LOOKUP_TIMEOUT_MS / 1000} s`);
  }
}

/** `work`, or a DnsTimeoutError when it takes longer than the bound (the lookup itself cannot be cancelled). */
function bounded<T>(host: string, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new DnsTimeoutError(host)), LOOKUP_TIMEOUT_MS);
    timer.unref();
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The system resolver (node:dns); a name without records answers an empty list. */
export const systemDns: DnsResolver = {
  async resolveTxt(name) {
    try {
      return await bounded(name, dns.resolveTxt(name));
    } catch (err) {
      if (ABSENT.has((err as NodeJS.ErrnoException).code ?? '')) return [];
      throw err;
    }
  },
  async lookup(host) {
    try {
      const found = await bounded(host, dns.lookup(host, { all: true, verbatim: true }));
      return found.map((a) => a.address);
    } catch (err) {
      if (ABSENT.has((err as NodeJS.ErrnoException).code ?? '')) return [];
      throw err;
    }
  },
};
