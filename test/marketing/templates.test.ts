import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { unwrap, type marketing } from '../../client/index.js';
import { registerBusiness, type TestBusiness } from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import { createCustomer } from '../support/general.js';
import {
  createDomain,
  createSegment,
  createTemplate,
  MARKETING_ENV,
  TRUSTED_DOMAIN,
  verifiedDomain,
} from '../support/marketing.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ env: MARKETING_ENV, worker: false });

afterEach(() => server().clock.reset());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const tenant = () => registerBusiness(server());
const templatesOf = (t: TestBusiness) => t.client.marketing.templates;

/** 512 KiB: the most HTML a template holds, in UTF-8 bytes. */
const MAX_HTML_BYTES = 512 * 1024;

const WELCOME_HTML = '<p>Hello {{first_name}},</p><p>Welcome to Acme.</p>';
/** html-to-text: one paragraph a block, a blank line between blocks; merge tags pass through. */
const WELCOME_TEXT = 'Hello {{first_name}},\n\nWelcome to Acme.';

const body = (overrides: Partial<marketing.CreateTemplateBody> = {}): marketing.CreateTemplateBody => ({
  name: 'Welcome',
  subject: 'Welcome, {{first_name}}',
  html_body: WELCOME_HTML,
  ...overrides,
});

const getTemplate = async (t: TestBusiness, id: string) =>
  (await unwrap(templatesOf(t).getTemplate({ params: { id } }))).template;

const updateTemplate = async (t: TestBusiness, id: string, changes: marketing.UpdateTemplateBody) =>
  (await unwrap(templatesOf(t).updateTemplate({ params: { id }, body: changes }))).template;

const listTemplates = async (t: TestBusiness, query: Partial<marketing.ListTemplatesQuery> = {}) =>
  unwrap(templatesOf(t).listTemplates({ query }));

const preview = async (t: TestBusiness, id: string, customer_id?: string) =>
  (
    await unwrap(
      templatesOf(t).previewTemplate({
        params: { id },
        body: customer_id === undefined ? {} : { customer_id },
      }),
    )
  ).preview;

/** Moves the clock on by a second, so that the next record is strictly newer. */
const tick = () => server().clock.advance(1000);

/** The values a preview uses when no contact is named. */
const SAMPLE = {
  first_name: 'Ada',
  last_name: 'Lovelace',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  company: 'Analytical Engines Ltd',
};

/** What mustache's `{{tag}}` writes for each character it escapes. */
const MUSTACHE_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '/': '&#x2F;',
  '`': '&#x60;',
  '=': '&#x3D;',
};
const escaped = (value: string) => [...value].map((ch) => MUSTACHE_ESCAPES[ch] ?? ch).join('');

/** A campaign row of `template`, in `status`, straight into the table. */
async function insertCampaign(
  t: TestBusiness,
  templateId: string,
  status: 'draft' | 'scheduled' | 'sending' | 'sent' | 'paused' | 'cancelled',
): Promise<string> {
  const segment = await createSegment(t.client);
  const id = `cmp_${randomBytes(8).toString('hex')}`;
  const now = server().clock.now();
  await server()
    .deps.db.insertInto('marketing_campaigns')
    .values({
      business_id: t.businessId,
      id,
      name: 'Autumn',
      template_id: templateId,
      segment_id: segment.id,
      status,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

describe('creating a template', () => {
  it('answers 201 with the id, a message and the template: a draft, its text part derived from the HTML', async () => {
    const t = await tenant();
    const res = await templatesOf(t).createTemplate({
      body: body({ from_name: 'Acme', from_email: `news@${TRUSTED_DOMAIN}` }),
    });
    expect(res.status).toBe(201);
    const answered = res.body as { template_id: string; template: marketing.Template };
    expect(res.body).toEqual({
      result: 'success',
      template_id: expect.stringMatching(/^tpl_/),
      message: expect.any(String),
      template: {
        id: answered.template_id,
        name: 'Welcome',
        subject: 'Welcome, {{first_name}}',
        html_body: WELCOME_HTML,
        text_body: WELCOME_TEXT,
        text_body_derived: true,
        from_name: 'Acme',
        from_email: `news@${TRUSTED_DOMAIN}`,
        status: 'draft',
        created_at: expect.stringMatching(ISO),
        updated_at: answered.template.created_at,
      },
    });
  });

  it('derives the text part when text_body is null', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client, { html_body: WELCOME_HTML, text_body: null });
    expect(template).toMatchObject({ text_body: WELCOME_TEXT, text_body_derived: true });
  });

  it('keeps a given text part as given, not derived', async () => {
    const t = await tenant();
    const text_body = 'Hi {{first_name}},\nplain words here.';
    const template = await createTemplate(t.client, { text_body });
    expect(template).toMatchObject({ text_body, text_body_derived: false });
    expect(await getTemplate(t, template.id)).toMatchObject({ text_body, text_body_derived: false });
  });

  it('creates a template in any status it is told', async () => {
    const t = await tenant();
    for (const status of ['draft', 'published', 'archived'] as const) {
      expect((await createTemplate(t.client, { status })).status).toBe(status);
    }
  });

  it('takes a template with no sender at all', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client, { from_email: undefined, from_name: undefined });
    expect(template).toMatchObject({ from_email: null, from_name: null });
  });

  it('refuses an unknown status: 422 on status', async () => {
    const t = await tenant();
    const res = await templatesOf(t).createTemplate({
      body: { ...body(), status: 'live' } as unknown as marketing.CreateTemplateBody,
    });
    expectResultError(res, 422, 'VALIDATION_ERROR', 'status');
  });
});

describe('the sender of a template', () => {
  it('may be at a verified domain of the business', async () => {
    const t = await tenant();
    const domain = await verifiedDomain(t.client, server().dns);
    const template = await createTemplate(t.client, { from_email: `news@${domain.domain}` });
    expect(template.from_email).toBe(`news@${domain.domain}`);
  });

  it('matches the domain whatever its case, and keeps the address as given', async () => {
    const t = await tenant();
    const domain = await verifiedDomain(t.client, server().dns);
    const from_email = `News@${domain.domain.toUpperCase()}`;
    expect((await createTemplate(t.client, { from_email })).from_email).toBe(from_email);
  });

  it('may be at a domain of MAIL_TRUSTED_DOMAINS, whatever its case, with no domain record', async () => {
    const t = await tenant();
    expect((await createTemplate(t.client, { from_email: `a@${TRUSTED_DOMAIN}` })).from_email).toBe(
      `a@${TRUSTED_DOMAIN}`,
    );
    const upper = `B@${TRUSTED_DOMAIN.toUpperCase()}`;
    expect((await createTemplate(t.client, { from_email: upper })).from_email).toBe(upper);
  });

  it('is refused at a pending domain of the business: 422 on from_email, nothing saved', async () => {
    const t = await tenant();
    const pending = await createDomain(t.client);
    const res = await templatesOf(t).createTemplate({ body: body({ from_email: `news@${pending.domain}` }) });
    expectResultError(res, 422, 'VALIDATION_ERROR', 'from_email');
    expect((await listTemplates(t)).total_count).toBe(0);
  });

  it("is refused at another business's verified domain: 422 on from_email", async () => {
    const [t, other] = [await tenant(), await tenant()];
    const theirs = await verifiedDomain(other.client, server().dns);
    const res = await templatesOf(t).createTemplate({ body: body({ from_email: `news@${theirs.domain}` }) });
    expectResultError(res, 422, 'VALIDATION_ERROR', 'from_email');
  });

  it('is refused at a domain nobody added, or a subdomain of a trusted one: 422 on from_email', async () => {
    const t = await tenant();
    for (const from_email of ['news@nowhere.example.com', `news@sub.${TRUSTED_DOMAIN}`]) {
      expectResultError(
        await templatesOf(t).createTemplate({ body: body({ from_email }) }),
        422,
        'VALIDATION_ERROR',
        'from_email',
      );
    }
  });

  it('is checked on update too: a pending domain is 422 and the template keeps its sender', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client);
    const pending = await createDomain(t.client);
    expectResultError(
      await templatesOf(t).updateTemplate({
        params: { id: template.id },
        body: { name: 'Moved', from_email: `news@${pending.domain}` },
      }),
      422,
      'VALIDATION_ERROR',
      'from_email',
    );
    expect(await getTemplate(t, template.id)).toEqual(template);
  });

  it('moves to a newly verified domain on update, and can be cleared with null', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client);
    const domain = await verifiedDomain(t.client, server().dns);
    const moved = await updateTemplate(t, template.id, { from_email: `hello@${domain.domain}` });
    expect(moved.from_email).toBe(`hello@${domain.domain}`);
    const cleared = await updateTemplate(t, template.id, { from_email: null, from_name: null });
    expect(cleared).toMatchObject({ from_email: null, from_name: null });
  });
});

/** Merge tags a template may not hold: they escape HTML escaping, add logic, or do not parse. */
const REFUSED_TAGS = [
  'Hi {{{first_name}}}',
  'Hi {{&first_name}}',
  'Hi {{& first_name}}',
  '{{#vip}}Gold{{/vip}} member',
  '{{^vip}}Plain{{/vip}} member',
  'Hi {{>footer}}',
  '{{=<% %>=}}Hi <% first_name %>',
  'Hi {{first_name',
  'Hi {{#vip}} member',
  'Hi {{/vip}} member',
];
const TEMPLATE_PARTS = ['subject', 'html_body', 'text_body'] as const;

describe('merge tags refused at save', () => {
  it.each(REFUSED_TAGS)(
    'refuses %j in the subject, the HTML or the text: 422 naming the part, at creation and on update',
    async (source) => {
      const t = await tenant();
      const template = await createTemplate(t.client);
      for (const part of TEMPLATE_PARTS) {
        expectResultError(
          await templatesOf(t).createTemplate({ body: body({ [part]: source }) }),
          422,
          'VALIDATION_ERROR',
          part,
        );
        expectResultError(
          await templatesOf(t).updateTemplate({
            params: { id: template.id },
            body: { name: 'Changed', [part]: source },
          }),
          422,
          'VALIDATION_ERROR',
          part,
        );
      }
      expect((await listTemplates(t)).total_count).toBe(1);
      expect(await getTemplate(t, template.id)).toEqual(template);
    },
  );

  it('accepts comments in every part; they render as nothing', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client, {
      subject: 'Hi{{! greeting }} {{first_name}}',
      html_body: '<p>{{! a note for editors }}Hello {{first_name}}</p>',
      text_body: 'Hello{{!x}} {{first_name}}',
    });
    expect(await preview(t, template.id)).toEqual({
      subject: `Hi ${SAMPLE.first_name}`,
      html: `<p>Hello ${SAMPLE.first_name}</p>`,
      text: `Hello ${SAMPLE.first_name}`,
    });
    const updated = await updateTemplate(t, template.id, { html_body: '<p>{{!-- still a comment --}}</p>' });
    expect(updated.html_body).toBe('<p>{{!-- still a comment --}}</p>');
  });
});

describe('size limits', () => {
  it('takes a subject of 255 characters and refuses one of 256: 422 on subject', async () => {
    const t = await tenant();
    const subject = 's'.repeat(255);
    expect((await createTemplate(t.client, { subject })).subject).toBe(subject);
    expectResultError(
      await templatesOf(t).createTemplate({ body: body({ subject: `${subject}s` }) }),
      422,
      'VALIDATION_ERROR',
      'subject',
    );
  });

  it('refuses a subject of 256 characters on update', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client);
    expectResultError(
      await templatesOf(t).updateTemplate({
        params: { id: template.id },
        body: { subject: 'x'.repeat(256) },
      }),
      422,
      'VALIDATION_ERROR',
      'subject',
    );
  });

  it('takes HTML of exactly 512 KiB', async () => {
    const t = await tenant();
    const html_body = `<p>${'a'.repeat(MAX_HTML_BYTES - '<p></p>'.length)}</p>`;
    expect(Buffer.byteLength(html_body)).toBe(MAX_HTML_BYTES);
    const template = await createTemplate(t.client, { html_body });
    expect((await getTemplate(t, template.id)).html_body).toBe(html_body);
  });

  it('refuses HTML one byte over 512 KiB: 422 on html_body', async () => {
    const t = await tenant();
    const res = await templatesOf(t).createTemplate({
      body: body({ html_body: 'a'.repeat(MAX_HTML_BYTES + 1) }),
    });
    expectResultError(res, 422, 'VALIDATION_ERROR', 'html_body');
  });

  it('counts UTF-8 bytes: 200,000 three-byte characters are over the limit', async () => {
    const t = await tenant();
    const html_body = '€'.repeat(200_000);
    expect(html_body.length).toBeLessThan(MAX_HTML_BYTES);
    expect(Buffer.byteLength(html_body)).toBeGreaterThan(MAX_HTML_BYTES);
    const res = await templatesOf(t).createTemplate({ body: body({ html_body }) });
    expectResultError(res, 422, 'VALIDATION_ERROR', 'html_body');
  });

  it('counts four-byte characters as four bytes: 512 KiB of them fits, one more does not', async () => {
    const t = await tenant();
    const atLimit = '😀'.repeat(MAX_HTML_BYTES / 4);
    expect(Buffer.byteLength(atLimit)).toBe(MAX_HTML_BYTES);
    expect((await createTemplate(t.client, { html_body: atLimit })).html_body).toBe(atLimit);
    expectResultError(
      await templatesOf(t).createTemplate({ body: body({ html_body: `${atLimit}😀` }) }),
      422,
      'VALIDATION_ERROR',
      'html_body',
    );
  });

  it('refuses HTML over the limit on update, keeping the old HTML', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client);
    expectResultError(
      await templatesOf(t).updateTemplate({
        params: { id: template.id },
        body: { html_body: 'é'.repeat(MAX_HTML_BYTES / 2 + 1) },
      }),
      422,
      'VALIDATION_ERROR',
      'html_body',
    );
    expect((await getTemplate(t, template.id)).html_body).toBe(template.html_body);
  });
});

describe('listing templates', () => {
  it('lists summaries without bodies', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client, { from_name: 'Acme', status: 'published' });
    const { templates, total_count } = await listTemplates(t);
    expect(total_count).toBe(1);
    expect(templates).toEqual([
      {
        id: template.id,
        name: template.name,
        subject: template.subject,
        from_name: 'Acme',
        from_email: template.from_email,
        status: 'published',
        created_at: template.created_at,
        updated_at: template.updated_at,
      },
    ]);
  });

  it("lists newest first and never another business's templates", async () => {
    const [t, other] = [await tenant(), await tenant()];
    const made: marketing.Template[] = [];
    for (const name of ['First', 'Second', 'Third']) {
      made.push(await createTemplate(t.client, { name }));
      await createTemplate(other.client, { name: `Their ${name}` });
      tick();
    }
    const { templates, total_count } = await listTemplates(t);
    expect(total_count).toBe(3);
    expect(templates.map((x) => x.id)).toEqual(made.map((x) => x.id).reverse());
    expect(templates.map((x) => x.name)).toEqual(['Third', 'Second', 'First']);
  });

  it('filters by status; total_count counts the filtered ones', async () => {
    const t = await tenant();
    const statuses = ['draft', 'published', 'published', 'archived', 'draft', 'published'] as const;
    const made: marketing.Template[] = [];
    for (const status of statuses) {
      made.push(await createTemplate(t.client, { status }));
      tick();
    }
    for (const status of ['draft', 'published', 'archived'] as const) {
      const expected = made
        .filter((x) => x.status === status)
        .map((x) => x.id)
        .reverse();
      const page = await listTemplates(t, { status });
      expect(page.total_count).toBe(expected.length);
      expect(page.templates.map((x) => x.id)).toEqual(expected);
      expect(page.templates.every((x) => x.status === status)).toBe(true);
    }
  });

  it('pages with limit and offset, total_count counting them all', async () => {
    const t = await tenant();
    const made: marketing.Template[] = [];
    for (let i = 0; i < 5; i++) {
      made.push(await createTemplate(t.client, { name: `T${i}` }));
      tick();
    }
    const newestFirst = made.map((x) => x.id).reverse();
    const page = await listTemplates(t, { limit: 2, offset: 1 });
    expect(page.total_count).toBe(5);
    expect(page.templates.map((x) => x.id)).toEqual(newestFirst.slice(1, 3));
    const last = await listTemplates(t, { limit: 2, offset: 4 });
    expect(last.templates.map((x) => x.id)).toEqual(newestFirst.slice(4));
    const beyond = await listTemplates(t, { offset: 5 });
    expect(beyond).toMatchObject({ templates: [], total_count: 5 });
  });

  it('answers 50 templates unless told, the rest with an offset', async () => {
    const t = await tenant();
    const count = 53;
    const start = Date.parse('2026-03-01T00:00:00.000Z');
    const rows = Array.from({ length: count }, (_, i) => ({
      business_id: t.businessId,
      id: `tpl_bulk${String(i).padStart(3, '0')}_${randomBytes(4).toString('hex')}`,
      name: `Bulk ${i}`,
      subject: 'Hello',
      html_body: '<p>Hello</p>',
      text_body: null,
      from_name: null,
      from_email: null,
      status: 'draft' as const,
      created_at: new Date(start + i * 60_000),
      updated_at: new Date(start + i * 60_000),
    }));
    await server().deps.db.insertInto('marketing_templates').values(rows).execute();
    const newestFirst = rows.map((r) => r.id).reverse();
    const first = await listTemplates(t);
    expect(first.total_count).toBe(count);
    expect(first.templates.map((x) => x.id)).toEqual(newestFirst.slice(0, 50));
    const rest = await listTemplates(t, { offset: 50 });
    expect(rest.templates.map((x) => x.id)).toEqual(newestFirst.slice(50));
  });

  it('leaves deleted templates out', async () => {
    const t = await tenant();
    const [kept, gone] = [await createTemplate(t.client), await createTemplate(t.client)];
    await unwrap(templatesOf(t).deleteTemplate({ params: { id: gone.id } }));
    const { templates, total_count } = await listTemplates(t);
    expect(total_count).toBe(1);
    expect(templates.map((x) => x.id)).toEqual([kept.id]);
  });
});

describe('reading a template', () => {
  it('answers the template with both bodies', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client, { text_body: 'Plain {{first_name}}' });
    const got = await getTemplate(t, template.id);
    expect(got).toEqual(template);
    expect(got).toMatchObject({ html_body: WELCOME_HTML, text_body: 'Plain {{first_name}}' });
  });

  it('answers 404 for an unknown id', async () => {
    const t = await tenant();
    expectResultError(await templatesOf(t).getTemplate({ params: { id: 'tpl_unknown' } }), 404, 'NOT_FOUND');
  });

  it("answers 404 for another business's template", async () => {
    const [t, other] = [await tenant(), await tenant()];
    const template = await createTemplate(other.client);
    expectResultError(await templatesOf(t).getTemplate({ params: { id: template.id } }), 404, 'NOT_FOUND');
  });
});

describe('updating a template', () => {
  it('changes only what it is given, and moves updated_at', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client, { from_name: 'Acme', text_body: 'Own text' });
    tick();
    const res = await templatesOf(t).updateTemplate({
      params: { id: template.id },
      body: { name: 'Renamed' },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: 'success',
      message: expect.any(String),
      template: { ...template, name: 'Renamed', updated_at: expect.stringMatching(ISO) },
    });
    const updated = (res.body as { template: marketing.Template }).template;
    expect(Date.parse(updated.updated_at)).toBeGreaterThan(Date.parse(template.updated_at));
    expect(await getTemplate(t, template.id)).toEqual(updated);
  });

  it.each([
    ['draft', 'published'],
    ['published', 'archived'],
    ['archived', 'draft'],
    ['published', 'draft'],
  ] as const)('moves a %s template to %s', async (from, to) => {
    const t = await tenant();
    const template = await createTemplate(t.client, { status: from });
    expect((await updateTemplate(t, template.id, { status: to })).status).toBe(to);
    expect((await getTemplate(t, template.id)).status).toBe(to);
  });

  it('changes the subject and both bodies', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client);
    const changes = {
      subject: 'News for {{first_name}}',
      html_body: '<p>News for {{name}}</p>',
      text_body: 'News for {{name}}!',
    };
    expect(await updateTemplate(t, template.id, changes)).toMatchObject({
      ...changes,
      text_body_derived: false,
    });
  });

  it('re-derives the text part from the new HTML when the text was derived', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client);
    expect(template.text_body).toBe(WELCOME_TEXT);
    const updated = await updateTemplate(t, template.id, {
      html_body: '<p>Dear {{last_name}},</p><p>Our <a href="https://acme.example/sale">sale</a> is on.</p>',
    });
    expect(updated).toMatchObject({
      text_body: 'Dear {{last_name}},\n\nOur sale [https://acme.example/sale] is on.',
      text_body_derived: true,
    });
  });

  it('keeps a given text part when the HTML changes', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client, { text_body: 'My own words' });
    const updated = await updateTemplate(t, template.id, { html_body: '<p>Something else</p>' });
    expect(updated).toMatchObject({
      html_body: '<p>Something else</p>',
      text_body: 'My own words',
      text_body_derived: false,
    });
  });

  it('derives the text part again from text_body null', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client, { text_body: 'My own words' });
    const updated = await updateTemplate(t, template.id, { text_body: null });
    expect(updated).toMatchObject({
      html_body: WELCOME_HTML,
      text_body: WELCOME_TEXT,
      text_body_derived: true,
    });
    // And it keeps following the HTML from then on.
    const later = await updateTemplate(t, template.id, { html_body: '<p>Bye {{first_name}}</p>' });
    expect(later).toMatchObject({ text_body: 'Bye {{first_name}}', text_body_derived: true });
  });

  it('answers 404 for an unknown id', async () => {
    const t = await tenant();
    expectResultError(
      await templatesOf(t).updateTemplate({ params: { id: 'tpl_unknown' }, body: { name: 'X' } }),
      404,
      'NOT_FOUND',
    );
  });

  it("answers 404 for another business's template, and leaves it as it was", async () => {
    const [t, other] = [await tenant(), await tenant()];
    const template = await createTemplate(other.client);
    expectResultError(
      await templatesOf(t).updateTemplate({ params: { id: template.id }, body: { name: 'Taken' } }),
      404,
      'NOT_FOUND',
    );
    expect(await getTemplate(other, template.id)).toEqual(template);
  });
});

describe('deleting a template', () => {
  it('answers 200, then the template is 404 everywhere', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client);
    const res = await templatesOf(t).deleteTemplate({ params: { id: template.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', message: expect.any(String) });
    const params = { id: template.id };
    expectResultError(await templatesOf(t).getTemplate({ params }), 404, 'NOT_FOUND');
    expectResultError(await templatesOf(t).updateTemplate({ params, body: { name: 'X' } }), 404, 'NOT_FOUND');
    expectResultError(await templatesOf(t).previewTemplate({ params, body: {} }), 404, 'NOT_FOUND');
    expectResultError(await templatesOf(t).deleteTemplate({ params }), 404, 'NOT_FOUND');
  });

  it('answers 404 for an unknown id', async () => {
    const t = await tenant();
    expectResultError(
      await templatesOf(t).deleteTemplate({ params: { id: 'tpl_unknown' } }),
      404,
      'NOT_FOUND',
    );
  });

  it("answers 404 for another business's template, and does not delete it", async () => {
    const [t, other] = [await tenant(), await tenant()];
    const template = await createTemplate(other.client);
    expectResultError(await templatesOf(t).deleteTemplate({ params: { id: template.id } }), 404, 'NOT_FOUND');
    expect(await getTemplate(other, template.id)).toEqual(template);
  });

  it.each(['scheduled', 'sending', 'paused'] as const)(
    'is refused while a %s campaign uses it: 409 RESOURCE_IN_USE, the template kept',
    async (status) => {
      const t = await tenant();
      const template = await createTemplate(t.client);
      await insertCampaign(t, template.id, status);
      expectResultError(
        await templatesOf(t).deleteTemplate({ params: { id: template.id } }),
        409,
        'RESOURCE_IN_USE',
      );
      expect(await getTemplate(t, template.id)).toEqual(template);
    },
  );

  it.each(['draft', 'sent', 'cancelled'] as const)(
    'is allowed while only a %s campaign uses it',
    async (status) => {
      const t = await tenant();
      const template = await createTemplate(t.client);
      await insertCampaign(t, template.id, status);
      expect((await templatesOf(t).deleteTemplate({ params: { id: template.id } })).status).toBe(200);
      expectResultError(await templatesOf(t).getTemplate({ params: { id: template.id } }), 404, 'NOT_FOUND');
    },
  );

  it('is allowed once the campaign that held it is cancelled', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client);
    const campaign = await insertCampaign(t, template.id, 'scheduled');
    expectResultError(
      await templatesOf(t).deleteTemplate({ params: { id: template.id } }),
      409,
      'RESOURCE_IN_USE',
    );
    await server()
      .deps.db.updateTable('marketing_campaigns')
      .set({ status: 'cancelled' })
      .where('business_id', '=', t.businessId)
      .where('id', '=', campaign)
      .execute();
    expect((await templatesOf(t).deleteTemplate({ params: { id: template.id } })).status).toBe(200);
  });

  it('is not held by an active campaign of another template', async () => {
    const t = await tenant();
    const [busy, free] = [await createTemplate(t.client), await createTemplate(t.client)];
    await insertCampaign(t, busy.id, 'sending');
    expect((await templatesOf(t).deleteTemplate({ params: { id: free.id } })).status).toBe(200);
  });
});

describe('previewing a template', () => {
  it('renders sample values when no contact is named', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client, {
      subject: 'Hi {{first_name}} {{last_name}}',
      html_body: '<p>{{name}}|{{email}}|{{company}}|{{attributes.plan}}</p>',
      text_body: '{{first_name}} {{last_name}} of {{company}}',
    });
    const res = await templatesOf(t).previewTemplate({ params: { id: template.id }, body: {} });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      result: 'success',
      preview: {
        subject: `Hi ${SAMPLE.first_name} ${SAMPLE.last_name}`,
        html: `<p>${SAMPLE.name}|${SAMPLE.email}|${SAMPLE.company}|</p>`,
        text: `${SAMPLE.first_name} ${SAMPLE.last_name} of ${SAMPLE.company}`,
      },
    });
  });

  it('renders every tag from a contact of the business, attributes by key', async () => {
    const t = await tenant();
    const customer = await createCustomer(t.client, {
      name: 'Grace Brewster Hopper',
      first_name: 'Grace',
      last_name: 'Hopper',
      email: 'grace@navy.example',
      company: 'US Navy',
      attributes: { plan: 'pro', city: 'Arlington' },
    });
    const tags =
      '{{first_name}}|{{last_name}}|{{name}}|{{email}}|{{company}}|{{attributes.plan}}|{{ attributes.city }}';
    const values = 'Grace|Hopper|Grace Brewster Hopper|grace@navy.example|US Navy|pro|Arlington';
    const template = await createTemplate(t.client, {
      subject: tags,
      html_body: `<p>${tags}</p>`,
      text_body: tags,
    });
    expect(await preview(t, template.id, customer.id)).toEqual({
      subject: values,
      html: `<p>${values}</p>`,
      text: values,
    });
  });

  it('renders a contact with only a name: first name from it, missing fields empty', async () => {
    const t = await tenant();
    const customer = await createCustomer(t.client, { name: 'Alan Turing' });
    const template = await createTemplate(t.client, {
      subject: '{{first_name}}/{{last_name}}/{{email}}/{{company}}',
      html_body: '<p>{{first_name}}|{{last_name}}|{{email}}|{{company}}|{{attributes.plan}}</p>',
    });
    const rendered = await preview(t, template.id, customer.id);
    expect(rendered.subject).toBe('Alan/Turing//');
    expect(rendered.html).toBe('<p>Alan|Turing|||</p>');
  });

  it('renders unknown tags, unknown attribute keys and object-property names as nothing', async () => {
    const t = await tenant();
    const customer = await createCustomer(t.client, { name: 'Grace Hopper', attributes: { plan: 'pro' } });
    const names = [
      'nickname',
      'attributes.missing',
      'attributes',
      'constructor',
      '__proto__',
      'toString',
      'hasOwnProperty',
      '.',
      'attributes.constructor',
      'attributes.__proto__',
      'attributes.toString',
    ];
    const tags = names.map((name) => `[{{${name}}}]`).join('');
    const nothing = names.map(() => '[]').join('');
    const template = await createTemplate(t.client, {
      subject: tags,
      html_body: `<p>${tags}</p>`,
      text_body: tags,
    });
    for (const rendered of [await preview(t, template.id, customer.id), await preview(t, template.id)]) {
      expect(rendered).toEqual({ subject: nothing, html: `<p>${nothing}</p>`, text: nothing });
    }
  });

  it('refuses a customer of another business: 422 on customer_id', async () => {
    const [t, other] = [await tenant(), await tenant()];
    const template = await createTemplate(t.client);
    const foreign = await createCustomer(other.client, { name: 'Not Yours' });
    expectResultError(
      await templatesOf(t).previewTemplate({
        params: { id: template.id },
        body: { customer_id: foreign.id },
      }),
      422,
      'VALIDATION_ERROR',
      'customer_id',
    );
  });

  it('refuses an unknown customer: 422 on customer_id', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client);
    expectResultError(
      await templatesOf(t).previewTemplate({
        params: { id: template.id },
        body: { customer_id: 'cus_unknown' },
      }),
      422,
      'VALIDATION_ERROR',
      'customer_id',
    );
  });

  it("answers 404 for an unknown template or another business's", async () => {
    const [t, other] = [await tenant(), await tenant()];
    const theirs = await createTemplate(other.client);
    for (const id of ['tpl_unknown', theirs.id]) {
      expectResultError(await templatesOf(t).previewTemplate({ params: { id }, body: {} }), 404, 'NOT_FOUND');
    }
  });

  it('escapes contact values in the HTML, and only there', async () => {
    const t = await tenant();
    const name = `<script>alert(1)</script> "Tom" & 'Jerry' \`x\` a=b`;
    const first_name = `O'Brien & <b>Co</b>`;
    const note = '<img src=x onerror="alert(1)">';
    const customer = await createCustomer(t.client, { name, first_name, attributes: { note } });
    const template = await createTemplate(t.client, {
      subject: 'Hi {{first_name}}: {{name}}',
      html_body: '<p title="{{name}}">{{name}}</p><p>{{first_name}} {{attributes.note}}</p>',
      text_body: '{{name}} | {{first_name}} | {{attributes.note}}',
    });
    const rendered = await preview(t, template.id, customer.id);
    expect(rendered.html).toBe(
      `<p title="${escaped(name)}">${escaped(name)}</p><p>${escaped(first_name)} ${escaped(note)}</p>`,
    );
    expect(rendered.html).not.toContain('<script>');
    expect(rendered.html).toContain('&lt;script&gt;alert(1)&lt;&#x2F;script&gt;');
    expect(rendered.text).toBe(`${name} | ${first_name} | ${note}`);
    expect(rendered.subject).toBe(`Hi ${first_name}: ${name}`);
  });

  it('does not escape contact values in a text part derived from the HTML', async () => {
    const t = await tenant();
    const name = `<script>alert(1)</script> & 'co'`;
    const customer = await createCustomer(t.client, { name });
    const template = await createTemplate(t.client, { html_body: '<p>Dear {{name}}</p>' });
    const rendered = await preview(t, template.id, customer.id);
    expect(rendered.text).toBe(`Dear ${name}`);
    expect(rendered.html).toBe(`<p>Dear ${escaped(name)}</p>`);
  });

  it('flattens line breaks a contact value brings into the subject', async () => {
    const t = await tenant();
    const customer = await createCustomer(t.client, {
      name: 'Eve Example',
      first_name: 'Eve\r\nBcc: all@example.com',
      last_name: 'Example\n\nX-Extra: 1\rEnd',
    });
    const template = await createTemplate(t.client, { subject: 'Hello {{first_name}} {{last_name}}' });
    const { subject } = await preview(t, template.id, customer.id);
    expect(subject).not.toMatch(/[\r\n]/);
    expect(subject).toBe('Hello Eve Bcc: all@example.com Example X-Extra: 1 End');
  });

  it('inlines the CSS of a style block into style attributes of the HTML', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client, {
      html_body:
        '<style>p { color: red } .cta { font-weight: bold }</style>' +
        '<p>Hi {{first_name}}</p><a class="cta" href="https://acme.example/go">Go</a>',
    });
    const { html } = await preview(t, template.id);
    expect(html).toContain(`<p style="color: red;">Hi ${SAMPLE.first_name}</p>`);
    expect(html).toMatch(
      /<a class="cta" href="https:\/\/acme\.example\/go" style="font-weight: bold;">Go<\/a>/,
    );
    expect(html).not.toContain('<style');
  });

  it('derives the text of a preview from the HTML when there is no text part, links as "text [url]"', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client, {
      html_body:
        '<p>Hi {{first_name}},</p><p>Read <a href="https://acme.example/news">the news</a> today.</p>',
    });
    expect((await preview(t, template.id)).text).toBe(
      `Hi ${SAMPLE.first_name},\n\nRead the news [https://acme.example/news] today.`,
    );
  });

  it('uses the saved text part rather than the HTML when there is one', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client, {
      html_body: '<p>From the HTML</p>',
      text_body: 'From the text part, {{first_name}}',
    });
    expect((await preview(t, template.id)).text).toBe(`From the text part, ${SAMPLE.first_name}`);
  });

  it('previews a template whose HTML shows braces written as entities, the text showing them too', async () => {
    const t = await tenant();
    // Readers see "{{{first_name}}}" literally: the braces are character references, not merge tags.
    const html_body = '<p>Write &#123;&#123;&#123;first_name&#125;&#125;&#125; in your own templates.</p>';
    const template = await createTemplate(t.client, { html_body });
    const res = await templatesOf(t).previewTemplate({ params: { id: template.id }, body: {} });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const { preview: rendered } = res.body as { preview: marketing.Preview };
    expect(rendered.html).toBe(html_body);
    expect(rendered.text).toBe('Write {{{first_name}}} in your own templates.');
  });

  it('does not merge a contact value into the text where the HTML shows braces as entities', async () => {
    const t = await tenant();
    // The HTML shows the words "{{name}}" to readers; the derived text must say the same.
    const html_body = '<p>Type &#123;&#123;name&#125;&#125; for the name.</p>';
    const template = await createTemplate(t.client, { html_body });
    const rendered = await preview(t, template.id);
    expect(rendered.html).toBe(html_body);
    expect(rendered.text).toBe('Type {{name}} for the name.');
  });
});
