import type {
  Contact,
  Domain,
  Segment,
  SegmentFilters,
  Template,
  TemplateSummary,
} from '../../contract/marketing/index.js';
import type { Selectable } from 'kysely';
import type { MarketingDomainsTable, MarketingTemplatesTable } from '../platform/db/types.js';
import type { ContactRow } from './contacts.queries.js';
import type { SegmentRow } from './segments.queries.js';

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

export function toSegment(row: SegmentRow, contactCount: number): Segment {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    status: row.status,
    filters: (row.filters as SegmentFilters | null) ?? null,
    contact_count: contactCount,
    listed_contacts: Number(row.listed_contacts ?? 0),
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

export function toContact(row: ContactRow): Contact {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    company: row.company,
    attributes: row.attributes,
    unsubscribed: row.unsubscribed,
    created_at: row.created_at.toISOString(),
  };
}

type TemplateRow = Selectable<MarketingTemplatesTable>;

export function toTemplateSummary(
  row: Pick<
    TemplateRow,
    'id' | 'name' | 'subject' | 'from_name' | 'from_email' | 'status' | 'created_at' | 'updated_at'
  >,
): TemplateSummary {
  return {
    id: row.id,
    name: row.name,
    subject: row.subject,
    from_name: row.from_name,
    from_email: row.from_email,
    status: row.status,
    created_at: row.created_at.toISOString(),
    updated_at: row.updated_at.toISOString(),
  };
}

/** The detail, with the text part derived (`derivedText`) when none was saved. */
export function toTemplate(row: TemplateRow, derivedText: (html: string) => string): Template {
  return {
    ...toTemplateSummary(row),
    html_body: row.html_body,
    text_body: row.text_body ?? derivedText(row.html_body),
    text_body_derived: row.text_body === null,
  };
}
