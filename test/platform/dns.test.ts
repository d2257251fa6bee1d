import { describe, expect, it } from 'vitest';
import { systemDns } from '../../server/platform/dns.js';

describe('the system resolver', () => {
  it('answers a name that cannot exist with no addresses, not an error', async () => {
    expect(await systemDns.lookup('no-such-host.invalid')).toEqual([]);
  });

  it('answers an IP literal with itself', async () => {
    expect(await systemDns.lookup('127.0.0.1')).toEqual(['127.0.0.1']);
  });
});
