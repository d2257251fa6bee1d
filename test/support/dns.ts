import type { DnsResolver } from '../../server/platform/dns.js';

/** The DNS the test server resolves through: TXT records a test publishes, nothing else. */
export class StubDns implements DnsResolver {
  private readonly records = new Map<string, string[][]>();

  /** Publishes TXT records at `name` (replacing what was there); each record is one string or its chunks. */
  publish(name: string, ...records: (string | string[])[]): void {
    this.records.set(
      name.toLowerCase(),
      records.map((r) => (typeof r === 'string' ? [r] : r)),
    );
  }

  unpublish(name: string): void {
    this.records.delete(name.toLowerCase());
  }

  async resolveTxt(name: string): Promise<string[][]> {
    return this.records.get(name.toLowerCase()) ?? [];
  }
}
