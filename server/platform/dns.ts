import { promises as dns } from 'node:dns';

/** The DNS lookups the service makes (sender-domain verification); a stub stands in for it in tests. */
export interface DnsResolver {
  /** TXT records at `name`, each as its character strings; none (not an error) when there are none. */
  resolveTxt(name: string): Promise<string[][]>;
}

const ABSENT = new Set(['ENOTFOUND', 'ENODATA', 'ENONAME', 'NXDOMAIN']);

/** The system resolver (node:dns); a name without TXT records answers an empty list. */
export const systemDns: DnsResolver = {
  async resolveTxt(name) {
    try {
      return await dns.resolveTxt(name);
    } catch (err) {
      if (ABSENT.has((err as NodeJS.ErrnoException).code ?? '')) return [];
      throw err;
    }
  },
};
