import { createRequire } from 'node:module';
import type { dkimVerify as DkimVerify } from 'mailauth';
import type { StubDns } from './dns.js';

// mailauth's entry point also loads its BIMI support, whose bundled undici needs a newer Node than
// the service's; its DKIM verifier alone does not, so it is loaded by itself.
const require = createRequire(import.meta.url);
const { dkimVerify } = require('mailauth/lib/dkim/verify') as { dkimVerify: typeof DkimVerify };

/** Verifies a raw message's DKIM signatures against the records published in the stub DNS. */
export function verifyDkim(raw: Buffer, dns: StubDns) {
  return dkimVerify(raw, {
    resolver: async (name: string) => {
      const records = await dns.resolveTxt(name);
      if (records.length === 0) throw Object.assign(new Error(`${name}: no record`), { code: 'ENOTFOUND' });
      return records;
    },
  });
}
