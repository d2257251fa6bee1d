import { DnsTimeoutError, type DnsResolver } from '../../server/platform/dns.js';

/** The host of the URLs tests register webhooks at without ever expecting a delivery. */
export const QUIET_HOST = 'receiver.example.test';
/** A public address it resolves to in tests (never dialled: deliveries look up through the system). */
const QUIET_ADDRESS = '93.184.215.14';

/**
 * The DNS the test server resolves through: TXT records and addresses a test publishes, nothing
 * else (the quiet webhook host resolves from the start).
 */
export class StubDns implements DnsResolver {
  private readonly records = new Map<string, string[][]>();
  private readonly addresses = new Map<string, string[]>([[QUIET_HOST, [QUIET_ADDRESS]]]);
  private readonly silent = new Set<string>();

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

  /** Makes `host` resolve to these addresses. */
  publishAddresses(host: string, ...addresses: string[]): void {
    this.addresses.set(host.toLowerCase(), addresses);
  }

  /** Makes lookups of `host` go unanswered (as the bounded system lookup reports a timeout). */
  silence(host: string): void {
    this.silent.add(host.toLowerCase());
  }

  async resolveTxt(name: string): Promise<string[][]> {
    return this.records.get(name.toLowerCase()) ?? [];
  }

  async lookup(host: string): Promise<string[]> {
    if (this.silent.has(host.toLowerCase())) throw new DnsTimeoutError(host);
    return this.addresses.get(host.toLowerCase()) ?? [];
  }
}
