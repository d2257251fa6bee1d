import { describe, expect, it } from 'vitest';
import { unwrap, type Client } from '../../client/index.js';
import { updateBusiness } from '../support/auth.js';
import { raw, registerBusiness, uniqueEmail, type TestBusiness } from '../support/business.js';
import { createCreditNote, createCustomer, getInvoice, issuedInvoice } from '../support/general.js';
import {
  campaignReaches,
  createCampaign,
  createSegment,
  createTemplate,
  MARKETING_ENV,
} from '../support/marketing.js';
import { useTestServer } from '../support/setup.js';

/**
 * The pages reached without sign-in (hosted documents, unsubscribe and tracking links, invitations):
 * the signed token in the path is the only capability, it names one business's record and cannot be
 * pointed at another's, and whatever a business or its customers typed is shown as text, never markup.
 */

// No SMTP_URL: mail (live too) is captured and listed at /v1/sandbox/messages.
const server = useTestServer({
  env: { ...MARKETING_ENV, MARKETING_POLL_MS: '40', MAIL_RATE_PER_SECOND: '0' },
});

const HOSTILE = `<script>alert(1)</script><img src=x onerror=alert(2)>"'><svg onload=alert(3)>`;

const pathOf = (url: string) => new URL(url).pathname;
/** A token's payload (base64url of `kind:business:id`) and signature. */
const partsOf = (token: string) => token.split('.') as [string, string];
const decode = (payload: string) => Buffer.from(payload, 'base64url').toString('utf8');
const encode = (text: string) => Buffer.from(text).toString('base64url');

/** No markup of HOSTILE survives: every tag it tried arrives escaped. */
function expectNoInjectedMarkup(html: string) {
  expect(html).not.toContain('<script>alert(1)');
  expect(html).not.toMatch(/<img src=x/i);
  expect(html).not.toMatch(/<svg onload/i);
  expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
}

async function invoiceOf(biz: TestBusiness, name = 'Page Reader') {
  const customer = await createCustomer(biz.client, { name, email: uniqueEmail('reader') });
  return issuedInvoice(biz.client, { customer_id: customer.id });
}

describe('hosted document tokens', () => {
  it('carry a signature of at least 128 bits, and differ for every document', async () => {
    const biz = await registerBusiness(server());
    const [a, b] = [await invoiceOf(biz), await invoiceOf(biz)];
    const tokens = [a, b].map((invoice) => pathOf(invoice.hosted_url!).slice('/i/'.length));
    for (const token of tokens) {
      const [, signature] = partsOf(token);
      expect(Buffer.from(signature, 'base64url').length).toBeGreaterThanOrEqual(16);
    }
    expect(tokens[0]).not.toBe(tokens[1]);
    expect(partsOf(tokens[0]!)[1]).not.toBe(partsOf(tokens[1]!)[1]);
  });

  it("cannot be pointed at another business's invoice: 404, and that invoice is not marked viewed", async () => {
    const mine = await registerBusiness(server());
    const theirs = await registerBusiness(server());
    const own = await invoiceOf(mine);
    const target = await invoiceOf(theirs);
    const [payload, signature] = partsOf(pathOf(own.hosted_url!).slice('/i/'.length));
    expect(decode(payload)).toBe(`i:${mine.businessId}:${own.id}`);
    for (const forged of [
      `i:${theirs.businessId}:${target.id}`,
      `i:${mine.businessId}:${target.id}`,
      `i:${theirs.businessId}:${own.id}`,
    ]) {
      for (const path of [`/i/${encode(forged)}.${signature}`, `/i/${encode(forged)}.${signature}/pdf`]) {
        const res = await raw(server(), 'GET', path);
        expect(res.status, forged).toBe(404);
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      }
    }
    expect((await getInvoice(theirs.client, target.id)).viewed_at).toBeNull();
    // The genuine token still works.
    expect((await raw(server(), 'GET', pathOf(own.hosted_url!))).status).toBe(200);
  });

  it('is refused where another kind of token is expected (unsubscribe, tracking, invitation)', async () => {
    const biz = await registerBusiness(server());
    const token = pathOf((await invoiceOf(biz)).hosted_url!).slice('/i/'.length);
    for (const [method, path] of [
      ['GET', `/u/${token}`],
      ['POST', `/u/${token}`],
      ['GET', `/t/o/${token}`],
    ] as const) {
      expect((await raw(server(), method, path)).status, path).toBe(404);
    }
    // The invitation's link hands any token to the dashboard, which asks the API: refused there.
    const asInvitation = await raw(server(), 'POST', '/v1/auth/invitations/describe', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token }),
    });
    expect(asInvitation.status).toBe(422);
  });
});

describe('the hosted invoice page shows what a business typed as text', () => {
  it('escapes a hostile business name, address, payment instructions, customer name and notes', async () => {
    const biz = await registerBusiness(server());
    await updateBusiness(biz.client, {
      name: `Shop ${HOSTILE}`,
      address: { line1: HOSTILE, city: HOSTILE, country: 'GB' },
      payment_instructions: HOSTILE,
      tax_number: 'GB123456789',
    });
    const customer = await createCustomer(biz.client, { name: HOSTILE, email: uniqueEmail('xss') });
    const invoice = await issuedInvoice(biz.client, { customer_id: customer.id, notes: HOSTILE });
    const page = await raw(server(), 'GET', pathOf(invoice.hosted_url!));
    expect(page.status).toBe(200);
    const html = String(page.body);
    expectNoInjectedMarkup(html);
    // Every hostile field is on the page (escaped), so the assertion above saw each of them.
    expect(html.split('&lt;script&gt;alert(1)&lt;/script&gt;').length - 1).toBeGreaterThanOrEqual(5);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
  });
});

describe('the hosted credit note page shows what a business typed as text', () => {
  it('escapes a hostile business name, customer name, line description and reason', async () => {
    const biz = await registerBusiness(server());
    await updateBusiness(biz.client, { name: `Shop ${HOSTILE}` });
    const customer = await createCustomer(biz.client, { name: HOSTILE, email: uniqueEmail('xss') });
    const invoice = await issuedInvoice(biz.client, { customer_id: customer.id });
    const note = await createCreditNote(biz.client, {
      invoice_id: invoice.id,
      items: [{ description: HOSTILE, quantity: 1, unit_price: 1, tax_rate: 0 }],
      credit_amount: 1,
      reason: HOSTILE,
    });
    const page = await raw(server(), 'GET', pathOf(note.hosted_url));
    expect(page.status).toBe(200);
    const html = String(page.body);
    expectNoInjectedMarkup(html);
    expect(html.split('&lt;script&gt;alert(1)&lt;/script&gt;').length - 1).toBeGreaterThanOrEqual(4);
    expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
  });
});

describe('pages whose address is a capability', () => {
  it('are neither cached, indexed nor leaked through Referer', async () => {
    const biz = await registerBusiness(server());
    const invoice = await invoiceOf(biz);
    const note = await createCreditNote(biz.client, { invoice_id: invoice.id, amount: 1 });
    for (const path of [
      pathOf(invoice.hosted_url!),
      `${pathOf(invoice.hosted_url!)}/pdf`,
      pathOf(note.hosted_url),
      `${pathOf(note.hosted_url)}/pdf`,
      '/u/not-a-token',
    ]) {
      const res = await raw(server(), 'GET', path);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
      expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
    }
    const page = await raw(server(), 'GET', pathOf(invoice.hosted_url!));
    expect(page.headers.get('x-robots-tag')).toBe('noindex');
    expect(String(page.body)).toContain('<meta name="robots" content="noindex">');
  });
});

describe('unsubscribe and tracking tokens', () => {
  /** A business with one contact who got a campaign (captured): the contact and the message's links. */
  async function mailed(tag: string) {
    const biz = await registerBusiness(server());
    const contact = await createCustomer(biz.client, { name: `${tag} Contact`, email: uniqueEmail(tag) });
    const campaign = await createCampaign(biz.client, {
      template_id: (
        await createTemplate(biz.client, { html_body: '<p><a href="https://shop.example/x">Shop</a></p>' })
      ).id,
      segment_id: (await createSegment(biz.client)).id,
    });
    await unwrap(biz.client.marketing.campaigns.sendCampaign({ params: { id: campaign.id } }));
    await campaignReaches(biz.client, campaign.id, 'sent');
    const [message] = (await unwrap(biz.client.sandbox.messages.listMessages({ query: { limit: 10 } })))
      .messages;
    const html = String(message?.html ?? '');
    const unsubscribe = /https?:\/\/[^"'\s<>]+(\/u\/[^"'\s<>]+)/.exec(html)?.[1];
    const pixel = /https?:\/\/[^"'\s<>]+(\/t\/o\/[^"'\s<>]+)/.exec(html)?.[1];
    expect(unsubscribe).toBeDefined();
    expect(pixel).toBeDefined();
    return { biz, contact, campaign, unsubscribe: unsubscribe!, pixel: pixel! };
  }

  const unsubscribed = async (client: Client, id: string) =>
    (await unwrap(client.general.customers.getCustomer({ params: { id } }))).data.unsubscribed;

  it("cannot be pointed at another business's contact: 404, and that contact stays subscribed", async () => {
    const a = await mailed('first');
    const b = await mailed('second');
    const [payload, signature] = partsOf(a.unsubscribe.slice('/u/'.length));
    expect(decode(payload)).toBe(`${a.biz.businessId}:${a.campaign.id}:${a.contact.id}`);
    for (const forged of [
      `${b.biz.businessId}:${b.campaign.id}:${b.contact.id}`,
      `${a.biz.businessId}:${a.campaign.id}:${b.contact.id}`,
      `${b.biz.businessId}:${a.campaign.id}:${a.contact.id}`,
    ]) {
      const token = `${encode(forged)}.${signature}`;
      expect((await raw(server(), 'GET', `/u/${token}`)).status, forged).toBe(404);
      expect((await raw(server(), 'POST', `/u/${token}`)).status, forged).toBe(404);
      expect((await raw(server(), 'GET', `/t/o/${token}`)).status, forged).toBe(404);
    }
    // B's own token is valid, and A's token, used, unsubscribes A's contact only.
    expect((await raw(server(), 'GET', b.unsubscribe)).status).toBe(200);
    expect((await raw(server(), 'POST', a.unsubscribe)).status).toBe(200);
    expect(await unsubscribed(a.biz.client, a.contact.id)).toBe(true);
    expect(await unsubscribed(b.biz.client, b.contact.id)).toBe(false);
  });

  it('are refused as hosted document tokens', async () => {
    const a = await mailed('kind');
    const token = a.pixel.slice('/t/o/'.length);
    expect((await raw(server(), 'GET', `/i/${token}`)).status).toBe(404);
    expect((await raw(server(), 'GET', `/q/${token}`)).status).toBe(404);
    expect((await raw(server(), 'GET', `/c/${token}`)).status).toBe(404);
  });
});

describe('the invitation mail shows what a business typed as text', () => {
  it('escapes a hostile business name in its HTML part', async () => {
    const owner = await registerBusiness(server(), `Team ${HOSTILE}`);
    const email = uniqueEmail('invitee');
    await unwrap(owner.client.team.inviteMember({ body: { email, role: 'viewer' } }));
    const message = await server()
      .deps.db.selectFrom('mail_messages')
      .select(['body', 'html'])
      .where('to_address', '=', email)
      .executeTakeFirstOrThrow();
    expect(message.body).toContain(`Team ${HOSTILE}`);
    expectNoInjectedMarkup(String(message.html));
  });
});
