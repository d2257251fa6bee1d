import type { Domain } from '../../../contract/marketing/index.js';
import type { Selectable } from 'kysely';
import type { MarketingDomainsTable } from '../../platform/db/types.js';

/** Rows to the API's shapes. */

/** The TXT records a domain publishes: ownership, then DKIM. */
export function dnsRecords(row: Selectable<MarketingDomainsTable>) {
  return {
    ownership: {
      name: `_bms-verification.${row.domain}`,
      value: `bms-verification=${row.verification_token}`,
    },
    dkim: {
      name: `${row.dkim_selector}._domainkey.${row.domain}`,
      value: `v=DKIM1; k=rsa; p=${row.dkim_public_key}`,
    },
  };
}

export function toDomain(
  row: Selectable<MarketingDomainsTable>,
  found: { ownership: boolean; dkim: boolean } | null = null,
): Domain {
  const records = dnsRecords(row);
  const verified = row.status === 'verified';
  return {
    id: row.id,
    domain: row.domain,
    status: row.status,
    verification: [
      { purpose: 'ownership', type: 'TXT', ...records.ownership, verified: found?.ownership ?? verified },
      { purpose: 'dkim', type: 'TXT', ...records.dkim, verified: found?.dkim ?? verified },
    ],
    dkim_selector: row.dkim_selector,
    verified_at: row.verified_at?.toISOString() ?? null,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}
