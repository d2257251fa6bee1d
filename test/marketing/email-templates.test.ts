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

const server = useTestServer({ env: { ...MARKETING_ENV, ACCESS_TOKEN_TTL: '3650d' }, worker: false });

afterEach(() => server().clock.reset());

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const tenant = () => registerBusiness(server());
const templatesOf = (t: TestBusiness) => t.client.marketing.templates;

const body = (overrides: Partial<marketing.CreateTemplateBody> = {}): marketing.CreateTemplateBody => ({
  name: 'Welcome',
  subject: 'Welcome, {{first_name}}',
  html_body: '<p>Hello {{first_name}},</p><p>Welcome to <a href="https://acme.example/start">Acme</a>.</p>',
  ...overrides,
});

const preview = async (t: TestBusiness, id: string, customer_id?: string) =>
  (await unwrap(templatesOf(t).previewTemplate({ params: { id }, body: customer_id ? { customer_id } : {} })))
    .preview;

describe('creating a template', () => {
  it('answers 201 with the template, a draft, its text part derived from the HTML', async () => {
    const t = await tenant();
    const res = await templatesOf(t).createTemplate({
      body: body({ from_name: 'Acme', from_email: `news@${TRUSTED_DOMAIN}` }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      result: 'success',
      template_id: expect.stringMatching(/^tpl_/),
      message: expect.any(String),
      template: {
        id: expect.stringMatching(/^tpl_/),
        name: 'Welcome',
        subject: 'Welcome, {{first_name}}',
        html_body: body().html_body,
        text_body: 'Hello {{first_name}},\n\nWelcome to Acme [https://acme.example/start].',
        text_body_derived: true,
        from_name: 'Acme',
        from_email: `news@${TRUSTED_DOMAIN}`,
        status: 'draft',
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      },
    });
  });

  it('keeps a given text part, and a given status', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client, { text_body: 'Hi {{first_name}}', status: 'published' });
    expect(template).toMatchObject({
      text_body: 'Hi {{first_name}}',
      text_body_derived: false,
      status: 'published',
    });
  });

  it('takes no sender at all (campaigns may give one)', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client, { from_email: undefined, from_name: undefined });
    expect(template).toMatchObject({ from_email: null, from_name: null });
  });

  it('sends from a verified domain of the business, whatever the case', async () => {
    const t = await tenant();
    const domain = await verifiedDomain(t.client, server().dns);
    const template = await createTemplate(t.client, { from_email: `News@${domain.domain.toUpperCase()}` });
    expect(template.from_email).toBe(`News@${domain.domain.toUpperCase()}`);
  });

  it('refuses a sender at a pending domain, an unknown one, or another business’s verified one: 422 on from_email', async () => {
    const [t, other] = [await tenant(), await tenant()];
    const pending = await createDomain(t.client);
    const theirs = await verifiedDomain(other.client, server().dns);
    for (const from_email of [
      `a@${pending.domain}`,
      'a@unknown.example.com',
      `a@${theirs.domain}`,
      `a@sub.${TRUSTED_DOMAIN}`,
    ]) {
      expectResultError(
        await templatesOf(t).createTemplate({ body: body({ from_email }) }),
        422,
        'VALIDATION_ERROR',
        'from_email',
      );
    }
    expect((await unwrap(templatesOf(t).listTemplates({ query: {} }))).total_count).toBe(0);
  });

  it.each([
    ['html_body', '<p>{{{first_name}}}</p>'],
    ['html_body', '<p>{{& first_name}}</p>'],
    ['html_body', '<p>{{#vip}}Gold{{/vip}}</p>'],
    ['html_body', '<p>{{^vip}}Plain{{/vip}}</p>'],
    ['html_body', '<p>{{> footer}}</p>'],
    ['html_body', '{{=<% %>=}}<p><% first_name %></p>'],
    ['html_body', '<p>{{first_name</p>'],
    ['subject', 'Hi {{{first_name}}}'],
    ['subject', 'Hi {{#a}}'],
    ['text_body', 'Hi {{& first_name}}'],
  ])('refuses merge tags that escape escaping or add logic in %s: %j', async (field, source) => {
    const t = await tenant();
    const res = await templatesOf(t).createTemplate({ body: body({ [field]: source }) });
    expectResultError(res, 422, 'VALIDATION_ERROR', field);
  });

  it('accepts comments and unknown tags', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client, { html_body: '<p>{{! a note }}Hi {{nickname}}</p>' });
    expect(await preview(t, template.id)).toMatchObject({ html: '<p>Hi </p>' });
  });

  it('bounds the subject at 255 characters and the HTML at 512 KiB of UTF-8', async () => {
    const t = await tenant();
    expect((await templatesOf(t).createTemplate({ body: body({ subject: 's'.repeat(255) }) })).status).toBe(
      201,
    );
    expectResultError(
      await templatesOf(t).createTemplate({ body: body({ subject: 's'.repeat(256) }) }),
      422,
      'VALIDATION_ERROR',
      'subject',
    );
    const limit = 512 * 1024;
    const atLimit = `<p>${'a'.repeat(limit - 7)}</p>`;
    expect((await templatesOf(t).createTemplate({ body: body({ html_body: atLimit }) })).status).toBe(201);
    expectResultError(
      await templatesOf(t).createTemplate({ body: body({ html_body: `${atLimit}x` }) }),
      422,
      'VALIDATION_ERROR',
      'html_body',
    );
    // 200,000 characters of three bytes each: 600,000 bytes.
    expectResultError(
      await templatesOf(t).createTemplate({ body: body({ html_body: '€'.repeat(200_000) }) }),
      422,
      'VALIDATION_ERROR',
      'html_body',
    );
  });

  it.each([
    [{ name: '' }, 'name'],
    [{ subject: '   ' }, 'subject'],
    [{ html_body: '' }, 'html_body'],
    [{ status: 'live' }, 'status'],
    [{ from_email: 'not-an-email' }, 'from_email'],
  ])('refuses %j: 422', async (overrides, field) => {
    const t = await tenant();
    const res = await templatesOf(t).createTemplate({
      body: body(overrides as Partial<marketing.CreateTemplateBody>),
    });
    expectResultError(res, 422, 'VALIDATION_ERROR', field);
  });
});

describe('listing, reading, updating and deleting templates', () => {
  it('lists summaries newest first, with status filter, paging and total_count', async () => {
    const [t, other] = [await tenant(), await tenant()];
    const made: marketing.Template[] = [];
    for (let i = 0; i < 3; i++) {
      server().clock.set(new Date(Date.UTC(2026, 10, 1, 9, i)).toISOString());
      made.push(await createTemplate(t.client, { name: `T${i}`, status: i === 1 ? 'published' : 'draft' }));
    }
    await createTemplate(other.client);
    const all = await unwrap(templatesOf(t).listTemplates({ query: {} }));
    expect(all.total_count).toBe(3);
    expect(all.templates.map((x) => x.id)).toEqual(made.map((x) => x.id).reverse());
    expect(all.templates[0]).not.toHaveProperty('html_body');
    expect(all.templates[0]).toEqual({
      id: made[2]?.id,
      name: 'T2',
      subject: made[2]?.subject,
      from_name: 'Acme',
      from_email: `news@${TRUSTED_DOMAIN}`,
      status: 'draft',
      created_at: made[2]?.created_at,
      updated_at: made[2]?.updated_at,
    });
    const published = await unwrap(templatesOf(t).listTemplates({ query: { status: 'published' } }));
    expect(published).toMatchObject({ total_count: 1, templates: [{ id: made[1]?.id }] });
    const page = await unwrap(templatesOf(t).listTemplates({ query: { limit: 1, offset: 1 } }));
    expect(page.templates.map((x) => x.id)).toEqual([made[1]?.id]);
  });

  it('reads one with its bodies; unknown and foreign ids are 404', async () => {
    const [t, other] = [await tenant(), await tenant()];
    const template = await createTemplate(t.client);
    expect((await unwrap(templatesOf(t).getTemplate({ params: { id: template.id } }))).template).toEqual(
      template,
    );
    expectResultError(await templatesOf(t).getTemplate({ params: { id: 'tpl_missing' } }), 404, 'NOT_FOUND');
    expectResultError(
      await templatesOf(other).getTemplate({ params: { id: template.id } }),
      404,
      'NOT_FOUND',
    );
    expectResultError(
      await templatesOf(other).previewTemplate({ params: { id: template.id }, body: {} }),
      404,
      'NOT_FOUND',
    );
  });

  it('updates partly; a new HTML re-derives the text; text_body null derives it again', async () => {
    const t = await tenant();
    server().clock.set('2026-11-01T09:00:00.000Z');
    const template = await createTemplate(t.client, { text_body: 'Own text' });
    server().clock.set('2026-11-02T09:00:00.000Z');
    const renamed = await unwrap(
      templatesOf(t).updateTemplate({
        params: { id: template.id },
        body: { name: 'Renamed', status: 'archived' },
      }),
    );
    expect(renamed.template).toEqual({
      ...template,
      name: 'Renamed',
      status: 'archived',
      updated_at: '2026-11-02T09:00:00.000Z',
    });
    const derived = await unwrap(
      templatesOf(t).updateTemplate({
        params: { id: template.id },
        body: { text_body: null, html_body: '<h1>New {{first_name}}</h1>' },
      }),
    );
    // Headings keep their case in the text part, so their merge tags still render.
    expect(derived.template).toMatchObject({ text_body: 'New {{first_name}}', text_body_derived: true });
    expect((await preview(t, template.id)).text).toBe('New Ada');
  });

  it('refuses an update to an unverified sender or a refused tag, changing nothing', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client);
    expectResultError(
      await templatesOf(t).updateTemplate({
        params: { id: template.id },
        body: { name: 'X', from_email: 'a@elsewhere.example' },
      }),
      422,
      'VALIDATION_ERROR',
      'from_email',
    );
    expectResultError(
      await templatesOf(t).updateTemplate({
        params: { id: template.id },
        body: { name: 'X', html_body: '{{{x}}}' },
      }),
      422,
      'VALIDATION_ERROR',
      'html_body',
    );
    expect((await unwrap(templatesOf(t).getTemplate({ params: { id: template.id } }))).template).toEqual(
      template,
    );
  });

  it('deletes a template; it is gone after', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client);
    const res = await templatesOf(t).deleteTemplate({ params: { id: template.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', message: expect.any(String) });
    expectResultError(await templatesOf(t).getTemplate({ params: { id: template.id } }), 404, 'NOT_FOUND');
    expect((await unwrap(templatesOf(t).listTemplates({ query: {} }))).total_count).toBe(0);
  });

  it.each([
    ['scheduled', 409],
    ['sending', 409],
    ['paused', 409],
    ['draft', 200],
    ['sent', 200],
    ['cancelled', 200],
  ])('deleting a template a %s campaign uses answers %i', async (status, expected) => {
    const t = await tenant();
    const template = await createTemplate(t.client);
    const segment = await createSegment(t.client);
    const now = new Date();
    await server()
      .deps.db.insertInto('marketing_campaigns')
      .values({
        business_id: t.businessId,
        id: `cmp_${status}`,
        name: 'Autumn',
        template_id: template.id,
        segment_id: segment.id,
        status: status as 'draft',
        created_at: now,
        updated_at: now,
      })
      .execute();
    const res = await templatesOf(t).deleteTemplate({ params: { id: template.id } });
    if (expected === 409) expectResultError(res, 409, 'RESOURCE_IN_USE');
    else expect(res.status).toBe(200);
  });
});

describe('previews', () => {
  it('renders sample values without a contact', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client, {
      subject: 'Hi {{first_name}} {{last_name}}',
      html_body: '<p>{{name}} &lt;{{email}}&gt; at {{company}}</p>',
    });
    expect(await preview(t, template.id)).toEqual({
      subject: 'Hi Ada Lovelace',
      html: '<p>Ada Lovelace &lt;ada@example.com&gt; at Analytical Engines Ltd</p>',
      text: 'Ada Lovelace <ada@example.com> at Analytical Engines Ltd',
    });
  });

  it("renders a contact's fields and attributes; unknown tags and keys render empty", async () => {
    const t = await tenant();
    const customer = await createCustomer(t.client, {
      name: 'Grace Hopper',
      email: 'grace@navy.example',
      company: 'US Navy',
      attributes: { plan: 'pro' },
    });
    const template = await createTemplate(t.client, {
      subject: '{{first_name}}, your {{attributes.plan}} plan',
      html_body:
        '<p>{{first_name}}|{{last_name}}|{{name}}|{{email}}|{{company}}|{{attributes.plan}}|{{attributes.none}}|{{unknown}}|{{constructor}}|{{__proto__}}|{{toString}}|{{.}}|{{attributes.constructor}}</p>',
    });
    expect(await preview(t, template.id, customer.id)).toEqual({
      subject: 'Grace, your pro plan',
      html: '<p>Grace|Hopper|Grace Hopper|grace@navy.example|US Navy|pro|||||||</p>',
      text: 'Grace|Hopper|Grace Hopper|grace@navy.example|US Navy|pro|||||||',
    });
  });

  it('escapes hostile contact fields in the HTML, not in the text or subject; the subject stays one line', async () => {
    const t = await tenant();
    const customer = await createCustomer(t.client, {
      name: `<script>alert("x")</script> & 'co'`,
      first_name: 'Eve\r\nBcc: all@example.com',
      attributes: { note: '<img src=x onerror=alert(1)>' },
    });
    const template = await createTemplate(t.client, {
      subject: 'Hello {{first_name}}',
      html_body: '<p title="{{name}}">{{name}} {{attributes.note}}</p>',
      text_body: '{{name}} {{attributes.note}}',
    });
    const rendered = await preview(t, template.id, customer.id);
    expect(rendered.html).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;&#x2F;script&gt; &amp; &#39;co&#39;">' +
        '&lt;script&gt;alert(&quot;x&quot;)&lt;&#x2F;script&gt; &amp; &#39;co&#39; &lt;img src&#x3D;x onerror&#x3D;alert(1)&gt;</p>',
    );
    expect(rendered.text).toBe(`<script>alert("x")</script> & 'co' <img src=x onerror=alert(1)>`);
    expect(rendered.subject).toBe('Hello Eve Bcc: all@example.com');
  });

  it('inlines the CSS of style blocks for mail clients', async () => {
    const t = await tenant();
    const template = await createTemplate(t.client, {
      html_body:
        '<style>p { color: red } .cta { font-weight: bold }</style><p>Hi</p><a class="cta" href="https://x.example">Go</a>',
    });
    const { html } = await preview(t, template.id);
    expect(html).toContain('<p style="color: red;">Hi</p>');
    expect(html).toContain('style="font-weight: bold;"');
    expect(html).not.toContain('<style>');
  });

  it('refuses a customer of another business, or an unknown one: 422 on customer_id', async () => {
    const [t, other] = [await tenant(), await tenant()];
    const template = await createTemplate(t.client);
    const foreign = await createCustomer(other.client);
    for (const customer_id of [foreign.id, 'cus_missing']) {
      expectResultError(
        await templatesOf(t).previewTemplate({ params: { id: template.id }, body: { customer_id } }),
        422,
        'VALIDATION_ERROR',
        'customer_id',
      );
    }
  });
});
