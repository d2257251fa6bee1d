import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient, unwrap } from '../../client/index.js';
import { hostedPath, hostedPrefix, type DocumentKind } from '../../server/general/documents/hosted.js';
import { linksOf, type RecipientKey } from '../../server/marketing/tracking/service.js';
import { raw, registerBusiness, sandboxOf, uniqueEmail, type TestBusiness } from '../support/business.js';
import {
  createCreditNote,
  createCustomer,
  createInvoice,
  createQuote,
  issuedInvoice,
} from '../support/general.js';
import { createCampaign, createSegment, createTemplate, MARKETING_ENV } from '../support/marketing.js';
import { expectNothingChanged } from '../support/security.js';
import { useTestServer } from '../support/setup.js';

/**
 * The public pages whose path carries a capability instead of a credential: hosted documents
 * (`/i/`, `/q/`, `/c/`, their PDFs, Accept and Decline), campaign links (`/t/o/`, `/t/c/`, `/u/`) and
 * invitations (`/invitations/`). A token that is unknown, forged, altered, of another kind, or validly
 * signed but naming another business's document or recipient (or the business's sandbox twin's)
 * answers 404, never 500 and never the other document; and nothing changes for any business.
 */

const server = useTestServer({
  worker: false,
  env: { ...MARKETING_ENV, SIGNIN_MAX_FAILURES: '100000', ANONYMOUS_RATE_LIMIT: '1000000' },
});

/**
 * A business with an issued invoice, a draft invoice, a sent quote, a credit note and a campaign sent to
 * one contact.
 */
interface Holder {
  business: TestBusiness;
  invoiceId: string;
  draftInvoiceId: string;
  quoteId: string;
  draftQuoteId: string;
  creditNoteId: string;
  recipient: RecipientKey;
}

async function holderOf(business: TestBusiness, withCampaign = true): Promise<Holder> {
  const customer = await createCustomer(business.client, { name: 'Ada Lovelace', email: uniqueEmail('ada') });
  const invoiceId = (await issuedInvoice(business.client, { customer_id: customer.id })).id;
  const draftInvoiceId = (await createInvoice(business.client, { customer_id: customer.id })).id;
  const quoteId = (await createQuote(business.client, customer.id, 'sent')).id;
  const draftQuoteId = (await createQuote(business.client, customer.id)).id;
  const creditNoteId = (await createCreditNote(business.client, { invoice_id: invoiceId, amount: 1 })).id;
  let campaignId = `cmp_${randomBytes(8).toString('hex')}`;
  if (withCampaign) {
    const campaign = await createCampaign(business.client, {
      template_id: (await createTemplate(business.client)).id,
      segment_id: (await createSegment(business.client)).id,
    });
    await unwrap(business.client.marketing.campaigns.sendCampaign({ params: { id: campaign.id } }));
    // No worker runs here: mark the campaign's messages sent, as the worker does once it has sent them.
    await server()
      .deps.db.updateTable('marketing_recipients')
      .set({ sent_at: new Date(), status: 'sent' })
      .where('business_id', '=', business.businessId)
      .where('campaign_id', '=', campaign.id)
      .execute();
    campaignId = campaign.id;
  }
  return {
    business,
    invoiceId,
    draftInvoiceId,
    quoteId,
    draftQuoteId,
    creditNoteId,
    recipient: { businessId: business.businessId, campaignId, customerId: customer.id },
  };
}

let owner: Holder;
let stranger: Holder;
let twin: Holder;
const everyone = () => [owner, stranger, twin].map((h) => h.business.businessId);

beforeAll(async () => {
  const live = await registerBusiness(server());
  owner = await holderOf(live);
  stranger = await holderOf(await registerBusiness(server()));
  twin = await holderOf(await sandboxOf(server(), live), false);
});

const random = (bytes = 24) => randomBytes(bytes).toString('base64url');

/** Flips the last character of a signature. */
const flipped = (text: string) => text.slice(0, -1) + (text.endsWith('A') ? 'B' : 'A');

/** The path a genuine link of the service has for the document. */
const signedPath = (kind: DocumentKind, businessId: string, id: string) =>
  hostedPath(server().deps.secrets, { kind, businessId, id });

const tokenIn = (path: string) => path.split('/').pop() ?? '';

interface Attempt {
  name: string;
  /** The token in the path (already encoded). */
  token: () => string;
}

const KINDS: DocumentKind[] = ['invoice', 'quote', 'credit_note'];

const documentOf = (h: Holder, kind: DocumentKind) =>
  ({ invoice: h.invoiceId, quote: h.quoteId, credit_note: h.creditNoteId })[kind];

/** Every wrong token for a document of `kind`. */
function documentAttempts(kind: DocumentKind): Attempt[] {
  const idOf = (h: Holder, k: DocumentKind = kind) => documentOf(h, k);
  const genuine = () => tokenIn(signedPath(kind, owner.business.businessId, idOf(owner)));
  const [payload, signature] = [() => genuine().split('.')[0]!, () => genuine().split('.')[1]!];
  return [
    { name: 'an unknown token', token: () => `${random()}.${random(32)}` },
    { name: 'a forged signature', token: () => `${payload()}.${flipped(signature())}` },
    { name: 'no signature', token: () => payload() },
    { name: 'a third part', token: () => `${genuine()}.x` },
    {
      name: "another document's signature",
      token: () =>
        `${payload()}.${tokenIn(signedPath(kind, stranger.business.businessId, idOf(stranger))).split('.')[1]}`,
    },
    ...KINDS.filter((other) => other !== kind).map((other) => ({
      name: `a genuine ${other} token`,
      token: () => tokenIn(signedPath(other, owner.business.businessId, idOf(owner, other))),
    })),
    {
      name: "a validly signed token naming the business and another business's document",
      token: () => tokenIn(signedPath(kind, owner.business.businessId, idOf(stranger))),
    },
    {
      name: "a validly signed token naming the sandbox twin and the live business's document",
      token: () => tokenIn(signedPath(kind, twin.business.businessId, idOf(owner))),
    },
    // A credit note is never a draft.
    ...(kind === 'credit_note'
      ? []
      : [
          {
            name: 'a validly signed token of a draft',
            token: () =>
              tokenIn(
                signedPath(
                  kind,
                  owner.business.businessId,
                  kind === 'invoice' ? owner.draftInvoiceId : owner.draftQuoteId,
                ),
              ),
          },
        ]),
    {
      name: 'a validly signed token of a document that does not exist',
      token: () => tokenIn(signedPath(kind, owner.business.businessId, `${kind.slice(0, 3)}_${random(12)}`)),
    },
    { name: 'an overlong token', token: () => `${'a'.repeat(600)}.${signature()}` },
  ];
}

const DOCUMENT_PAGES: { kind: DocumentKind; method: 'GET' | 'POST'; suffix: string }[] = [
  { kind: 'invoice', method: 'GET', suffix: '' },
  { kind: 'invoice', method: 'GET', suffix: '/pdf' },
  { kind: 'quote', method: 'GET', suffix: '' },
  { kind: 'quote', method: 'GET', suffix: '/pdf' },
  { kind: 'quote', method: 'POST', suffix: '/accept' },
  { kind: 'quote', method: 'POST', suffix: '/decline' },
  { kind: 'credit_note', method: 'GET', suffix: '' },
  { kind: 'credit_note', method: 'GET', suffix: '/pdf' },
];

const prefixOf = (kind: DocumentKind) => `/${hostedPrefix(kind)}/`;

describe('hosted document pages', () => {
  it('answer the genuine links (the control: the tokens below differ from these in one way)', async () => {
    for (const kind of KINDS) {
      const path = signedPath(kind, owner.business.businessId, documentOf(owner, kind));
      const page = await raw(server(), 'GET', path);
      expect(page.status, path).toBe(200);
      const pdf = await fetch(`${server().baseUrl}${path}/pdf`);
      expect(pdf.status, `${path}/pdf`).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
    }
  });

  describe.each(DOCUMENT_PAGES.map((p) => [`${p.method} ${prefixOf(p.kind)}:token${p.suffix}`, p] as const))(
    '%s',
    (_name, { kind, method, suffix }) => {
      it.each(documentAttempts(kind).map((a) => [a.name, a] as const))(
        'answers 404 Document not found to %s; nothing changes for any business',
        async (_attempt, { token }) => {
          await expectNothingChanged(server(), everyone(), async () => {
            const path = `${prefixOf(kind)}${token()}${suffix}`;
            const answer = await raw(server(), method, path);
            expect(answer.status, path).toBe(404);
            expect(answer.headers.get('content-type'), path).toMatch(/^text\/html/);
            expect(answer.body, path).toContain('Document not found');
          });
        },
      );
    },
  );
});

// ---------------------------------------------------------------------------------------------
// Campaign links.

const links = (key: RecipientKey) => linksOf(server().deps.secrets, '', key);

/** A target the click link names. */
const TARGET = 'https://example.com/offer';

/** Every wrong recipient key, signed as the service signs genuine ones. */
const SIGNED_KEYS: [string, () => RecipientKey][] = [
  [
    "the business with another business's campaign and contact",
    () => ({ ...stranger.recipient, businessId: owner.recipient.businessId }),
  ],
  [
    "another business's campaign with the business's contact",
    () => ({ ...stranger.recipient, customerId: owner.recipient.customerId }),
  ],
  [
    "the sandbox twin with the live business's campaign and contact",
    () => ({ ...owner.recipient, businessId: twin.business.businessId }),
  ],
  ['a contact the campaign was not sent to', () => ({ ...owner.recipient, customerId: `cus_${random(12)}` })],
];

interface LinkAttempt {
  name: string;
  /** The path of the link (with its query for a click). */
  path: (page: 'open' | 'click' | 'unsubscribe') => string;
}

function linkAttempts(): LinkAttempt[] {
  const genuine = () => links(owner.recipient);
  const tokenOfLink = () => tokenIn(genuine().unsubscribe);
  const withToken = (token: string) => (page: 'open' | 'click' | 'unsubscribe') =>
    page === 'open'
      ? `/t/o/${token}`
      : page === 'unsubscribe'
        ? `/u/${token}`
        : `/t/c/${token}?${new URL(genuine().click(TARGET), 'http://x').searchParams.toString()}`;
  return [
    { name: 'an unknown token', path: (page) => withToken(`${random()}.${random(32)}`)(page) },
    {
      name: 'a forged signature',
      path: (page) => {
        const [payload, signature] = tokenOfLink().split('.') as [string, string];
        return withToken(`${payload}.${flipped(signature)}`)(page);
      },
    },
    {
      name: 'a hosted document token',
      path: (page) =>
        withToken(tokenIn(signedPath('invoice', owner.business.businessId, owner.invoiceId)))(page),
    },
    ...SIGNED_KEYS.map(([name, key]) => ({
      name: `a validly signed token naming ${name}`,
      path: (page: 'open' | 'click' | 'unsubscribe') =>
        page === 'click'
          ? links(key()).click(TARGET)
          : page === 'open'
            ? links(key()).open
            : links(key()).unsubscribe,
    })),
  ];
}

const LINK_PAGES: { method: 'GET' | 'POST'; page: 'open' | 'click' | 'unsubscribe'; label: string }[] = [
  { method: 'GET', page: 'open', label: 'GET /t/o/:token (open pixel)' },
  { method: 'GET', page: 'click', label: 'GET /t/c/:token (click redirect)' },
  { method: 'GET', page: 'unsubscribe', label: 'GET /u/:token (unsubscribe page)' },
  { method: 'POST', page: 'unsubscribe', label: 'POST /u/:token (unsubscribe)' },
];

describe('campaign links', () => {
  it('answer the genuine links (the control)', async () => {
    const genuine = links(owner.recipient);
    expect((await raw(server(), 'GET', genuine.unsubscribe)).status).toBe(200);
    const click = await fetch(`${server().baseUrl}${genuine.click(TARGET)}`, { redirect: 'manual' });
    expect(click.status).toBe(302);
    expect(click.headers.get('location')).toBe(TARGET);
  });

  describe.each(LINK_PAGES.map((p) => [p.label, p] as const))('%s', (_label, { method, page }) => {
    it.each(linkAttempts().map((a) => [a.name, a] as const))(
      'answers 404 to %s; nothing changes for any business',
      async (_attempt, { path }) => {
        await expectNothingChanged(server(), everyone(), async () => {
          const answer = await fetch(`${server().baseUrl}${path(page)}`, { method, redirect: 'manual' });
          expect(answer.status, path(page)).toBe(404);
          expect(answer.headers.get('location'), path(page)).toBeNull();
          expect(await answer.text()).toContain('This link is not valid');
        });
      },
    );
  });
});

describe('a token that is not UTF-8', () => {
  const paths = [
    ...DOCUMENT_PAGES.map((p) => ({ method: p.method, path: `${prefixOf(p.kind)}%FF%FE.%C0%AF${p.suffix}` })),
    ...LINK_PAGES.map((p) => ({
      method: p.method,
      path: { open: '/t/o/', click: '/t/c/', unsubscribe: '/u/' }[p.page] + '%FF%FE.%C0%AF',
    })),
    { method: 'GET', path: '/invitations/%FF%FE' },
  ];

  it('answers 400 (the path cannot be decoded) on every capability page, never 500; nothing changes', async () => {
    await expectNothingChanged(server(), everyone(), async () => {
      for (const { method, path } of paths) {
        const answer = await raw(server(), method, path);
        expect(answer.status, `${method} ${path}`).toBe(400);
      }
    });
  });
});

// ---------------------------------------------------------------------------------------------
// Invitations (an expired or used token: test/team/team.test.ts).

describe('invitation pages', () => {
  /** The token of the invitation mailed to `email`. */
  async function invitationToken(business: TestBusiness, email: string): Promise<string> {
    await unwrap(business.client.team.inviteMember({ body: { email, role: 'viewer' } }));
    const message = await server()
      .deps.db.selectFrom('mail_messages')
      .select('body')
      .where('to_address', '=', email)
      .executeTakeFirstOrThrow();
    const token = /bms_inv_[A-Za-z0-9_-]+/.exec(message.body)?.[0];
    if (!token) throw new Error(`no invitation token in ${message.body}`);
    return token;
  }

  it('refuse an unknown, altered or truncated token, or one that is no invitation token (422 on token); nothing changes', async () => {
    const token = await invitationToken(owner.business, uniqueEmail('invited'));
    const anonymous = createClient({ baseUrl: server().baseUrl, maxRetries: 0 });
    await unwrap(anonymous.auth.describeInvitation({ body: { token } }));
    const attempts = [
      `bms_inv_${random()}`,
      flipped(token),
      token.slice(0, -4),
      `${token}x`,
      tokenIn(signedPath('invoice', owner.business.businessId, owner.invoiceId)),
      'x'.repeat(600),
    ];
    await expectNothingChanged(server(), everyone(), async () => {
      for (const attempt of attempts) {
        // The link itself decides nothing: it hands the token to the dashboard in the fragment.
        const opened = await fetch(`${server().baseUrl}/invitations/${encodeURIComponent(attempt)}`, {
          redirect: 'manual',
        });
        expect(opened.status).toBe(303);
        const body = attempt.slice(0, 200);
        for (const answer of [
          await anonymous.auth.describeInvitation({ body: { token: body } }),
          await anonymous.auth.acceptInvitation({
            body: { token: body, password: 'correct horse battery staple' },
          }),
        ]) {
          expect(answer.status, attempt.slice(0, 40)).toBe(422);
        }
      }
    });
  });
});
