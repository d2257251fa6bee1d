import type { Contact, Segment, SegmentFilters } from '../../../contract/marketing/index.js';
import type { ContactRow } from './contacts.queries.js';
import type { SegmentRow } from './queries.js';

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
