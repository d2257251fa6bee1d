import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

const STATEMENTS = [
  // Sender domains: an ownership token and a DKIM key pair each (the private key sealed at rest).
  `CREATE TABLE marketing_domains (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    domain text NOT NULL CHECK (domain = lower(domain)),
    status text NOT NULL CHECK (status IN ('pending', 'verified')),
    verification_token text NOT NULL,
    dkim_selector text NOT NULL,
    dkim_public_key text NOT NULL,
    dkim_private_key text NOT NULL,
    verified_at timestamptz,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, id),
    CONSTRAINT marketing_domains_domain_key UNIQUE (business_id, domain)
  )`,

  // Segments: filter conditions (compiled to SQL when read) and/or an explicit list of contacts.
  `CREATE TABLE marketing_segments (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    name text NOT NULL,
    description text,
    status text NOT NULL CHECK (status IN ('active', 'archived')),
    filters jsonb,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    deleted_at timestamptz,
    PRIMARY KEY (business_id, id)
  )`,
  `CREATE INDEX marketing_segments_list_idx ON marketing_segments (business_id, created_at DESC, id DESC) WHERE deleted_at IS NULL`,
  // Deleting a contact takes it out of every segment; deleting a segment leaves the contacts.
  `CREATE TABLE marketing_segment_contacts (
    business_id text NOT NULL,
    segment_id text NOT NULL,
    customer_id text NOT NULL,
    PRIMARY KEY (business_id, segment_id, customer_id),
    FOREIGN KEY (business_id, segment_id) REFERENCES marketing_segments (business_id, id) ON DELETE CASCADE,
    FOREIGN KEY (business_id, customer_id) REFERENCES customers (business_id, id) ON DELETE CASCADE
  )`,
  `CREATE INDEX marketing_segment_contacts_customer_idx ON marketing_segment_contacts (business_id, customer_id)`,
  // Segment conditions: contacts paged in creation order, attribute equality through containment,
  // contains / starts_with on the common text fields through trigrams; the planner combines them.
  `CREATE INDEX customers_created_asc_idx ON customers (business_id, created_at, id)`,
  `CREATE INDEX customers_attributes_idx ON customers USING gin (attributes jsonb_path_ops)`,
  `CREATE INDEX customers_email_trgm_idx ON customers USING gin (email gin_trgm_ops)`,
  `CREATE INDEX customers_name_trgm_idx ON customers USING gin (name gin_trgm_ops)`,
  `CREATE INDEX customers_company_trgm_idx ON customers USING gin (company gin_trgm_ops)`,

  `CREATE TABLE marketing_templates (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    name text NOT NULL,
    subject text NOT NULL,
    html_body text NOT NULL,
    -- null: derived from html_body whenever it is read or rendered.
    text_body text,
    from_name text,
    from_email text,
    status text NOT NULL CHECK (status IN ('draft', 'published', 'archived')),
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    deleted_at timestamptz,
    PRIMARY KEY (business_id, id)
  )`,
  `CREATE INDEX marketing_templates_list_idx ON marketing_templates (business_id, created_at DESC, id DESC) WHERE deleted_at IS NULL`,
  `CREATE INDEX marketing_templates_from_idx ON marketing_templates (business_id, lower(split_part(from_email, '@', 2))) WHERE deleted_at IS NULL`,

  // Campaigns: a template sent to a segment. Sending state lives in later tables.
  `CREATE TABLE marketing_campaigns (
    business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
    id text NOT NULL,
    name text NOT NULL,
    template_id text NOT NULL,
    segment_id text NOT NULL,
    status text NOT NULL CHECK (status IN ('draft', 'scheduled', 'sending', 'sent', 'paused', 'cancelled')),
    subject_override text,
    from_name_override text,
    from_email_override text,
    reply_to text,
    scheduled_at timestamptz,
    sent_at timestamptz,
    created_at timestamptz NOT NULL,
    updated_at timestamptz NOT NULL,
    PRIMARY KEY (business_id, id),
    FOREIGN KEY (business_id, template_id) REFERENCES marketing_templates (business_id, id),
    FOREIGN KEY (business_id, segment_id) REFERENCES marketing_segments (business_id, id)
  )`,
  `CREATE INDEX marketing_campaigns_template_idx ON marketing_campaigns (business_id, template_id) WHERE status IN ('scheduled', 'sending', 'paused')`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
