import type {
  CreateTemplateBody,
  ListTemplatesQuery,
  Preview,
  PreviewBody,
  Template,
  TemplateSummary,
  UpdateTemplateBody,
} from '../../../contract/marketing/index.js';
import { type Ctx, type TxCtx, inTransaction } from '../../platform/context.js';
import { ApiError, invalid, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { usedByActiveCampaign } from '../campaigns/queries.js';
import { findContact } from '../segments/contacts.queries.js';
import { isVerifiedSender } from '../domains/service.js';
import { toTemplate, toTemplateSummary } from './mappers.js';
import { checkTemplate, compileTemplate, SAMPLE_FIELDS, textOf, type MergeFields } from './render.js';
import * as queries from './queries.js';

async function templateOrFail(ctx: Ctx, id: string, forUpdate = false) {
  const row = await queries.findTemplate(ctx.db, ctx.businessId, id, forUpdate ? 'update' : undefined);
  if (!row) throw notFound('Template');
  return row;
}

/** A from address must be at a verified sender domain of the business. */
async function requireSender(ctx: TxCtx, email: string | null | undefined): Promise<void> {
  if (email == null) return;
  if (!(await isVerifiedSender(ctx, email))) {
    throw invalid(
      'from_email',
      'Not at a verified sender domain of this business (see /v1/marketing/domains)',
    );
  }
}

export async function listTemplates(
  ctx: Ctx,
  query: ListTemplatesQuery,
): Promise<{ templates: TemplateSummary[]; total_count: number }> {
  const { rows, total } = await queries.listTemplates(ctx.db, ctx.businessId, query);
  return { templates: rows.map(toTemplateSummary), total_count: total };
}

export async function getTemplate(ctx: Ctx, id: string): Promise<Template> {
  return toTemplate(await templateOrFail(ctx, id), textOf);
}

export async function createTemplate(ctx: Ctx, input: CreateTemplateBody): Promise<Template> {
  checkTemplate(input);
  return inTransaction(ctx, async (ctx) => {
    await requireSender(ctx, input.from_email);
    const now = ctx.clock.now();
    const id = newId('tpl');
    await queries.insertTemplate(ctx.db, {
      business_id: ctx.businessId,
      id,
      name: input.name,
      subject: input.subject,
      html_body: input.html_body,
      text_body: input.text_body ?? null,
      from_name: input.from_name ?? null,
      from_email: input.from_email ?? null,
      status: input.status ?? 'draft',
      created_at: now,
      updated_at: now,
    });
    return toTemplate(await templateOrFail(ctx, id), textOf);
  });
}

/** Partial update; `text_body: null` derives the text part from the HTML from now on. */
export async function updateTemplate(ctx: Ctx, id: string, input: UpdateTemplateBody): Promise<Template> {
  checkTemplate(input);
  return inTransaction(ctx, async (ctx) => {
    await templateOrFail(ctx, id, true);
    await requireSender(ctx, input.from_email);
    await queries.updateTemplate(ctx.db, ctx.businessId, id, {
      ...(input.name !== undefined && { name: input.name }),
      ...(input.subject !== undefined && { subject: input.subject }),
      ...(input.html_body !== undefined && { html_body: input.html_body }),
      ...(input.text_body !== undefined && { text_body: input.text_body }),
      ...(input.from_name !== undefined && { from_name: input.from_name }),
      ...(input.from_email !== undefined && { from_email: input.from_email }),
      ...(input.status !== undefined && { status: input.status }),
      updated_at: ctx.clock.now(),
    });
    return toTemplate(await templateOrFail(ctx, id), textOf);
  });
}

/** Soft delete (sent campaigns keep naming it); refused while an active campaign uses it. */
export async function deleteTemplate(ctx: Ctx, id: string): Promise<void> {
  await inTransaction(ctx, async (ctx) => {
    // The row lock first, then the look for active campaigns: a campaign starting to send holds
    // the row FOR SHARE (campaigns.lockParts), so one waits for the other and sees what it did.
    await templateOrFail(ctx, id, true);
    if (await usedByActiveCampaign(ctx.db, ctx.businessId, { templateId: id })) {
      throw new ApiError(
        'RESOURCE_IN_USE',
        'A scheduled, sending or paused campaign uses this template; cancel it or let it finish first',
      );
    }
    const now = ctx.clock.now();
    await queries.updateTemplate(ctx.db, ctx.businessId, id, { deleted_at: now, updated_at: now });
  });
}

/** The merge fields of a contact. */
export function mergeFieldsOf(contact: NonNullable<Awaited<ReturnType<typeof findContact>>>): MergeFields {
  return {
    first_name: contact.first_name,
    last_name: contact.last_name,
    name: contact.name,
    email: contact.email,
    company: contact.company,
    attributes: contact.attributes,
  };
}

export async function previewTemplate(ctx: Ctx, id: string, input: PreviewBody): Promise<Preview> {
  const template = await templateOrFail(ctx, id);
  let fields = SAMPLE_FIELDS;
  if (input.customer_id !== undefined) {
    const contact = await findContact(ctx.db, ctx.businessId, input.customer_id);
    if (!contact) throw invalid('customer_id', 'No customer with this id');
    fields = mergeFieldsOf(contact);
  }
  return (await compileTemplate(template))(fields);
}
