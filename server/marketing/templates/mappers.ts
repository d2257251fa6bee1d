import type { Template, TemplateSummary } from '../../../contract/marketing/index.js';
import type { Selectable } from 'kysely';
import type { MarketingTemplatesTable } from '../../platform/db/types.js';

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
