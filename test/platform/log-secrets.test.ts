import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { createClient, unwrap } from '../../client/index.js';
import { raw, uniqueEmail, type TestBusiness } from '../support/business.js';
import {
  createCreditNote,
  createCustomer,
  createInvoice,
  createQuote,
  issuedInvoice,
} from '../support/general.js';
import { checkoutCompleted, signedEvent, startStripeStandIn } from '../support/stripe-stand-in.js';
import { createLogger } from '../../server/platform/logger.js';
import { captureLog } from '../support/log.js';
import { atLeast } from '../support/expect.js';
import { createProgram } from '../support/loyalty.js';
import {
  campaignReaches,
  createCampaign,
  createDomain,
  createSegment,
  createTemplate,
  MARKETING_ENV,
  publishRecords,
} from '../support/marketing.js';
import { useReceivers } from '../support/receiver.js';
import { useTestServer } from '../support/setup.js';
import { useSmtpSink, type SinkMessage } from '../support/smtp.js';
import { totpCode } from '../support/two-factor.js';
import { waitFor } from '../support/wait.js';

/**
 * One realistic run through the API with the service's own logger at its most verbose level, then
 * every secret the run saw (passwords, tokens, keys, signing secrets, capability links, the
 * configured ones) looked for in everything that was logged (docs/decisions.md D213). Each step of the
 * run records what it met with `secret()`; the last test checks them all, so a new step (another
 * credential, another link sent by mail) only has to drive its routes and record its secrets.
 */

/** Random enough never to occur in a log by chance. */
const fresh = (tag: string) => `${tag}-${randomBytes(18).toString('base64url')}`;

const SMTP_PASSWORD = fresh('smtp-pass');
const METRICS_TOKEN = fresh('metrics');
const ENCRYPTION_KEY = randomBytes(32).toString('base64');

const { env, sink } = useSmtpSink({
  ...MARKETING_ENV,
  MARKETING_POLL_MS: '40',
  MAIL_RATE_PER_SECOND: '0',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  METRICS_TOKEN,
  ENCRYPTION_KEY,
});
/** The sink's URL with a user and password: the sink offers no AUTH, so they are configured but never sent. */
function withCredentials(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  url.username = 'mailer';
  url.password = SMTP_PASSWORD;
  return url.toString();
}
const captured = captureLog();
const stripe = await startStripeStandIn();
afterAll(() => stripe.close());
const server = useTestServer({
  // Read when the server starts, once the sink listens.
  get env() {
    return { ...env, SMTP_URL: withCredentials(env.SMTP_URL!), STRIPE_API_BASE: stripe.url };
  },
  log: captured.log,
});
const startReceiver = useReceivers();

/** A secret the run met, and where it came from. */
interface Secret {
  what: string;
  value: string;
}
const secrets: Secret[] = [];

/** Records a secret the run met (under `what`) and returns it. */
function secret(what: string, value: string): string {
  expect(value.length, `${what} is a real value`).toBeGreaterThanOrEqual(8);
  secrets.push({ what, value });
  return value;
}

/** Shorter fragments of a secret would match ordinary log text by chance (a whole secret is always looked for). */
const MIN_FRAGMENT = 12;
const PREFIX = /^(?:bms_[a-z]+_(?:test_)?|whsec_)/;

/**
 * The forms a secret could take in a log line: as is, URL-encoded, JSON-escaped, without its
 * recognisable prefix, the signature of a `payload.signature` token, and each base64 line of a PEM.
 */
function formsOf(value: string): string[] {
  const forms = [value, encodeURIComponent(value), JSON.stringify(value).slice(1, -1)];
  const bare = value.replace(PREFIX, '');
  if (bare !== value) forms.push(bare, encodeURIComponent(bare));
  const signature = /^[\w-]+\.([\w-]+)$/.exec(value)?.[1];
  if (signature) forms.push(signature);
  if (value.includes('-----BEGIN')) {
    forms.push(...value.split('\n').filter((line) => line && !line.startsWith('-----')));
  }
  return [...new Set(forms)].filter((form) => form === value || form.length >= MIN_FRAGMENT);
}

/**
 * Makes every insert into `table` fail as a broken database would (an error no rule of the service
 * expects: a 500), while `run` runs.
 */
async function withFailingInserts<T>(table: string, run: () => Promise<T>): Promise<T> {
  const { db } = server().deps;
  await sql`CREATE OR REPLACE FUNCTION refuse_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN RAISE EXCEPTION 'the storage refused the write'; END $$`.execute(db);
  await sql`CREATE TRIGGER refuse_write BEFORE INSERT ON ${sql.table(table)}
    FOR EACH ROW EXECUTE FUNCTION refuse_write()`.execute(db);
  try {
    return await run();
  } finally {
    await sql`DROP TRIGGER refuse_write ON ${sql.table(table)}`.execute(db);
  }
}

/** The access token of a session that asked for no second factor. */
function accessTokenOf(session: { accessToken: string } | { challengeToken: string }): string {
  if (!('accessToken' in session)) throw new Error('the session asked for a second factor');
  return session.accessToken;
}

const anonymous = () => createClient({ baseUrl: server().baseUrl, maxRetries: 0 });
const clientOf = (accessToken: string) =>
  createClient({ baseUrl: server().baseUrl, accessToken, maxRetries: 0 });
const pathOf = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search;
};
/** The path (and query) of the first link in `html` that starts with `prefix`. */
function linkPath(html: string, prefix: string): string {
  const match = new RegExp(`https?://[^/"]+(${prefix}[^"'\\s<>]*)`).exec(html);
  if (!match?.[1]) throw new Error(`no ${prefix} link in ${html.slice(0, 400)}`);
  return match[1].replace(/&amp;/g, '&');
}
/** The path of the one-click unsubscribe link a campaign message carries in its header. */
function unsubscribeLink(message: SinkMessage): string {
  const link = /<(https?:\/\/[^>]+)>/.exec(message.header('list-unsubscribe') ?? '')?.[1];
  if (!link) throw new Error(`no unsubscribe link in ${message.header('list-unsubscribe')}`);
  return pathOf(link);
}
/** The token segment of a capability path: `/t/o/<token>` gives `<token>`. */
const tokenIn = (path: string, prefix: string) => new URL(path, 'http://x').pathname.slice(prefix.length);

let owner: TestBusiness;
let fullKey = '';
let publicKey = '';

describe('a run through the API', () => {
  it('registers, signs in with the right and a wrong password, signs in again and signs out', async () => {
    const email = uniqueEmail('owner');
    const password = secret('owner password', fresh('pw'));
    const registered = await unwrap(
      anonymous().auth.register({ body: { businessName: 'Lantern Supplies', email, password } }),
    );
    const accessToken = secret('access token from register', registered.data.accessToken);
    owner = {
      businessId: registered.data.businessId,
      email,
      password,
      accessToken,
      client: clientOf(accessToken),
    };

    secret(
      'access token from sign-in',
      accessTokenOf((await unwrap(anonymous().auth.signIn({ body: { email, password } }))).data),
    );
    const wrong = await anonymous().auth.signIn({
      body: { email, password: secret('mistyped password', fresh('pw')) },
    });
    expect(wrong.status).toBe(401);
    const again = secret(
      'access token of a second sign-in',
      accessTokenOf((await unwrap(anonymous().auth.signIn({ body: { email, password } }))).data),
    );
    expect((await clientOf(again).auth.logout()).status).toBe(200);
    expect((await clientOf(again).auth.getSession()).status).toBe(401);
  });

  it('invites two people by mail: one accepts through the API, the other through the mailed link', async () => {
    const viaApi = uniqueEmail('accountant');
    const viaPage = uniqueEmail('staff');
    for (const email of [viaApi, viaPage]) {
      await unwrap(owner.client.team.inviteMember({ body: { email, role: 'accountant' } }));
    }
    const invitation = async (email: string) => {
      const mail = await waitFor(`the invitation to ${email}`, () => sink().to(email)[0]);
      const token = /bms_inv_[A-Za-z0-9_-]+/.exec(String(mail.mail.text))?.[0];
      if (!token) throw new Error(`no invitation token in ${String(mail.mail.text)}`);
      return secret(`invitation token of ${email}`, token);
    };

    const password = secret('invited member password', fresh('pw'));
    const accepted = await unwrap(
      anonymous().auth.acceptInvitation({ body: { token: await invitation(viaApi), password } }),
    );
    const memberToken = secret('access token of an invited member', accessTokenOf(accepted.data));
    await unwrap(clientOf(memberToken).team.getTeam());

    // The mailed link opens the dashboard's screen, which reads and accepts through the API.
    const pageToken = await invitation(viaPage);
    const opened = await fetch(`${server().baseUrl}/invitations/${pageToken}`, { redirect: 'manual' });
    expect(opened.status).toBe(303);
    await unwrap(anonymous().auth.describeInvitation({ body: { token: pageToken } }));
    const typed = secret('password typed into the invitation screen', fresh('pw'));
    await unwrap(anonymous().auth.acceptInvitation({ body: { token: pageToken, password: typed } }));
  });

  it('forgets a password: asks for a link by mail, sets a new password with it, then signs in', async () => {
    const email = uniqueEmail('forgetful');
    const registered = await unwrap(
      anonymous().auth.register({
        body: { businessName: 'Forgetful Ltd', email, password: secret('forgotten password', fresh('pw')) },
      }),
    );
    secret('access token ended by a password reset', registered.data.accessToken);
    expect((await anonymous().auth.forgotPassword({ body: { email } })).status).toBe(202);
    const mail = await waitFor(`the reset link to ${email}`, () => sink().to(email)[0]);
    const token = /#token=(bms_pwr_[A-Za-z0-9_-]+)/.exec(String(mail.mail.text))?.[1];
    if (!token) throw new Error(`no reset token in ${String(mail.mail.text)}`);
    secret('password reset token', token);
    // The page the link opens: a browser sends its path, never the fragment with the token.
    expect((await raw(server(), 'GET', '/app/reset-password')).status).toBe(200);
    const password = secret('password set with a reset link', fresh('pw'));
    expect((await anonymous().auth.resetPassword({ body: { token, password } })).status).toBe(200);
    const reused = await anonymous().auth.resetPassword({
      body: { token, password: secret('password sent with a used reset link', fresh('pw')) },
    });
    expect(reused.status).toBe(422);
    secret(
      'access token after a password reset',
      accessTokenOf((await unwrap(anonymous().auth.signIn({ body: { email, password } }))).data),
    );
  });

  it('creates API keys of both scopes and uses them: Bearer for the full key, X-Api-Key on the public loyalty routes', async () => {
    await createProgram(owner.client);
    fullKey = secret(
      'full API key',
      (await unwrap(owner.client.auth.createApiKey({ body: { name: 'Back office', scope: 'full' } }))).data
        .key,
    );
    publicKey = secret(
      'public loyalty API key',
      (await unwrap(owner.client.auth.createApiKey({ body: { name: 'Till', scope: 'public_loyalty' } }))).data
        .key,
    );
    expect((await raw(server(), 'GET', '/v1/customers', { token: fullKey })).status).toBe(200);
    const rewards = await raw(server(), 'GET', '/v1/public/loyalty/rewards', {
      headers: { 'x-api-key': publicKey },
    });
    expect(rewards.status).toBe(200);
    await unwrap(owner.client.auth.listApiKeys());
  });

  it('creates a webhook, rotates its secret and has an event delivered to a local receiver', async () => {
    const receiver = await startReceiver();
    const url = `${receiver.url}?auth=${secret('credential in the webhook URL', fresh('hook'))}`;
    const created = await unwrap(
      owner.client.webhooks.createWebhook({ body: { url, events: ['customer.created'] } }),
    );
    secret('webhook signing secret', created.secret);
    const rotated = await unwrap(owner.client.webhooks.rotateSecret({ params: { id: created.id } }));
    secret('rotated webhook signing secret', rotated.secret);
    await createCustomer(owner.client, { name: 'Webhook Trigger' });
    await waitFor('a delivery at the receiver', () => receiver.hits.length >= 1);
    await waitFor('the delivery to be recorded', async () => {
      const { deliveries } = await unwrap(
        owner.client.webhooks.listDeliveries({ params: { id: created.id }, query: { limit: 10 } }),
      );
      return deliveries.some((d) => d.status === 'succeeded');
    });
  });

  it('verifies a sending domain with its DKIM key and sends a campaign whose tracking and unsubscribe links are opened', async () => {
    const { deps, dns } = server();
    const domain = await createDomain(owner.client);
    const row = await deps.db
      .selectFrom('marketing_domains')
      .select('dkim_private_key')
      .where('id', '=', domain.id)
      .executeTakeFirstOrThrow();
    const privateKey = secret('DKIM private key', deps.secrets.open(row.dkim_private_key));
    expect(privateKey).toContain('BEGIN PRIVATE KEY');
    publishRecords(dns, domain);
    await unwrap(owner.client.marketing.domains.verifyDomain({ params: { id: domain.id } }));

    const emails = [1, 2, 3].map((i) => uniqueEmail(`contact${i}`));
    for (const [i, email] of emails.entries()) {
      await createCustomer(owner.client, { name: `Contact${i + 1} Reader`, email });
    }
    const template = await createTemplate(owner.client, {
      from_email: `news@${domain.domain}`,
      html_body: '<p>Hi {{first_name}}</p><p><a href="https://shop.example/offer?x=1">Offer</a></p>',
    });
    const segment = await createSegment(owner.client);
    const campaign = await createCampaign(owner.client, { template_id: template.id, segment_id: segment.id });
    await unwrap(owner.client.marketing.campaigns.sendCampaign({ params: { id: campaign.id } }));
    await campaignReaches(owner.client, campaign.id, 'sent');

    const messages = emails.map((email) => sink().to(email)[0]).filter((m): m is SinkMessage => !!m);
    expect(messages).toHaveLength(3);
    for (const message of messages) {
      expect(message.header('dkim-signature')).toContain(`d=${domain.domain}`);
      const html = String(message.mail.html);
      const pixel = linkPath(html, '/t/o/');
      const click = linkPath(html, '/t/c/');
      const unsubscribe = unsubscribeLink(message);
      secret('open-tracking token', tokenIn(pixel, '/t/o/'));
      secret('click-tracking token', tokenIn(click, '/t/c/'));
      secret('click-tracking signature', new URL(click, 'http://x').searchParams.get('s') ?? '');
      secret('unsubscribe token', tokenIn(unsubscribe, '/u/'));

      expect((await fetch(`${server().baseUrl}${pixel}`)).status).toBe(200);
      expect((await fetch(`${server().baseUrl}${click}`, { redirect: 'manual' })).status).toBe(302);
      expect((await raw(server(), 'GET', unsubscribe)).status).toBe(200);
    }
    const oneClick = await raw(server(), 'POST', unsubscribeLink(messages[0]!), {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
  }, 60_000);

  it('sends an invoice, a quote and a credit note, and opens their hosted pages and PDF links', async () => {
    const customer = await createCustomer(owner.client, {
      name: 'Grace Hopper',
      email: uniqueEmail('grace'),
    });
    const draft = await createInvoice(owner.client, { customer_id: customer.id });
    const invoice = (
      await unwrap(owner.client.general.invoices.sendInvoice({ params: { id: draft.id }, body: {} }))
    ).data;
    const invoicePage = pathOf(invoice.hosted_url!);
    secret('hosted invoice token', tokenIn(invoicePage, '/i/'));
    expect((await raw(server(), 'GET', invoicePage)).status).toBe(200);
    expect((await fetch(`${server().baseUrl}${invoicePage}/pdf`)).status).toBe(200);
    expect(
      (
        await fetch(`${server().baseUrl}/v1/invoices/${invoice.id}/pdf`, {
          headers: { authorization: `Bearer ${owner.accessToken}` },
        })
      ).status,
    ).toBe(200);
    await unwrap(owner.client.general.invoices.getInvoice({ params: { id: invoice.id } }));

    const quote = await createQuote(owner.client, customer.id, 'sent');
    const quotePage = pathOf(quote.hosted_url!);
    secret('hosted quote token', tokenIn(quotePage, '/q/'));
    expect((await raw(server(), 'GET', quotePage)).status).toBe(200);
    expect((await fetch(`${server().baseUrl}${quotePage}/pdf`)).status).toBe(200);

    const creditNote = await createCreditNote(owner.client, { invoice_id: invoice.id, amount: 1 });
    await unwrap(
      owner.client.general.creditNotes.sendCreditNote({ params: { id: creditNote.id }, body: {} }),
    );
    const creditNotePage = pathOf(creditNote.hosted_url);
    secret('hosted credit note token', tokenIn(creditNotePage, '/c/'));
    expect((await raw(server(), 'GET', creditNotePage)).status).toBe(200);
    expect((await fetch(`${server().baseUrl}${creditNotePage}/pdf`)).status).toBe(200);
  });

  it("connects Stripe, pays an invoice through its checkout and takes Stripe's signed webhook", async () => {
    const secretKey = secret('Stripe secret key', `sk_test_${randomBytes(18).toString('hex')}`);
    const webhookSecret = secret('Stripe webhook signing secret', `whsec_${randomBytes(18).toString('hex')}`);
    await unwrap(
      owner.client.auth.updatePaymentSettings({
        body: { provider: 'stripe', secret_key: secretKey, webhook_secret: webhookSecret },
      }),
    );
    const settings = await owner.client.auth.getPaymentSettings();
    expect(JSON.stringify(settings.body)).not.toContain(secretKey);
    const customer = await createCustomer(owner.client, { name: 'Card Payer' });
    const invoice = await issuedInvoice(owner.client, { customer_id: customer.id });
    const paid = await fetch(`${server().baseUrl}${pathOf(invoice.hosted_url!)}/pay`, {
      method: 'POST',
      redirect: 'manual',
    });
    expect(paid.status).toBe(303);
    const session = stripe.sessions.get(/(cs_test_\w+)$/.exec(paid.headers.get('location') ?? '')?.[1] ?? '');
    expect(session, 'a Checkout Session opened').toBeDefined();
    const event = signedEvent(webhookSecret, checkoutCompleted(session!, 'pi_test_logged'));
    secret('Stripe-Signature of a webhook', event.header);
    const delivered = await raw(server(), 'POST', `/v1/payments/webhooks/stripe/${owner.businessId}`, {
      headers: { 'content-type': 'application/json', 'stripe-signature': event.header },
      body: event.body,
    });
    expect(delivered.status).toBe(200);
  });

  it('scrapes the metrics with METRICS_TOKEN (the configured secrets join the list)', async () => {
    secret('METRICS_TOKEN', METRICS_TOKEN);
    secret('ENCRYPTION_KEY', ENCRYPTION_KEY);
    secret('SMTP password', SMTP_PASSWORD);
    const res = await raw(server(), 'GET', '/metrics', { token: METRICS_TOKEN });
    expect(res.status).toBe(200);
  });

  it('refuses a bogus token, a bogus key, a short password, unreadable JSON, and carries secrets in query strings', async () => {
    const bogusToken = secret('bogus access token', `bms_at_${randomBytes(24).toString('base64url')}`);
    expect((await raw(server(), 'GET', '/v1/customers', { token: bogusToken })).status).toBe(401);
    const bogusKey = secret('bogus public key', `bms_pk_${randomBytes(24).toString('base64url')}`);
    expect(
      (await raw(server(), 'GET', '/v1/public/loyalty/rewards', { headers: { 'x-api-key': bogusKey } }))
        .status,
    ).toBe(401);

    const short = secret('too-short password', randomBytes(8).toString('base64url').slice(0, 11));
    const tooShort = await anonymous().auth.register({
      body: { businessName: 'Short', email: uniqueEmail('short'), password: short },
    });
    expect(tooShort.status).toBe(422);
    const badEmail = await raw(server(), 'POST', '/v1/auth/register', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        businessName: 'x',
        email: 'not-an-email',
        password: secret('password of an invalid registration', fresh('pw')),
      }),
    });
    expect(badEmail.status).toBe(422);
    const unreadable = await raw(server(), 'POST', '/v1/auth/token', {
      headers: { 'content-type': 'application/json' },
      body: `{"email":"${owner.email}","password":"${secret('password in unreadable JSON', fresh('pw'))}"`,
    });
    expect(unreadable.status).toBe(400);

    const inQuery = [
      `/v1/customers?token=${secret('token in a query string', fresh('q'))}`,
      `/v1/customers?key=${encodeURIComponent(secret('key in a query string', `bms_sk_${randomBytes(18).toString('base64')}`))}`,
      `/v1/invoices?access_token=${secret('access_token in a query string', fresh('q'))}`,
    ];
    for (const path of inQuery) {
      expect((await raw(server(), 'GET', path, { token: owner.accessToken })).status, path).toBeLessThan(500);
    }
    expect(
      (await raw(server(), 'GET', `/v1/nowhere?api_key=${secret('api_key on an unknown route', fresh('q'))}`))
        .status,
    ).toBe(404);
    expect((await raw(server(), 'GET', `/t/o/${secret('forged tracking token', fresh('t'))}`)).status).toBe(
      404,
    );
  });

  it('logs unexpected failures with their error, never the body, headers or stored values of the request', async () => {
    const failing = (requestId: string, headers: Record<string, string> = {}) => ({
      headers: { 'content-type': 'application/json', 'x-request-id': requestId, ...headers },
    });
    const customer = await withFailingInserts('customers', () =>
      raw(server(), 'POST', '/v1/customers', {
        ...failing('req-failing-customer', {
          authorization: `Bearer ${fullKey}`,
          'x-api-key': publicKey,
          cookie: `session=${secret('cookie of a failing request', fresh('c'))}`,
        }),
        body: JSON.stringify({
          name: 'Failing Customer',
          email: uniqueEmail('failing'),
          attributes: { door_code: secret('secret in a stored field of a failing request', fresh('door')) },
        }),
      }),
    );
    expect(customer.status).toBe(500);
    const webhook = await withFailingInserts('webhooks', () =>
      raw(server(), 'POST', '/v1/webhooks', {
        ...failing('req-failing-webhook', { authorization: `Bearer ${owner.accessToken}` }),
        body: JSON.stringify({
          url: `https://hooks.example.com/in?auth=${secret('credential in a failing webhook URL', fresh('hook'))}`,
          events: ['customer.created'],
        }),
      }),
    );
    expect(webhook.status).toBe(500);
    const register = await withFailingInserts('users', () =>
      raw(server(), 'POST', '/v1/auth/register', {
        ...failing('req-failing-register'),
        body: JSON.stringify({
          businessName: 'Failing Ltd',
          email: uniqueEmail('failing'),
          password: secret('password of a failing registration', fresh('pw')),
        }),
      }),
    );
    expect(register.status).toBe(500);
    const signIn = await withFailingInserts('access_tokens', () =>
      raw(server(), 'POST', '/v1/auth/token', {
        ...failing('req-failing-sign-in'),
        body: JSON.stringify({ email: owner.email, password: owner.password }),
      }),
    );
    expect(signIn.status).toBe(500);

    const failures = captured.lines
      .map((line) => JSON.parse(line) as { msg?: string; requestId?: string; err?: Record<string, unknown> })
      .filter((l) => l.msg === 'request failed');
    for (const requestId of [
      'req-failing-customer',
      'req-failing-webhook',
      'req-failing-register',
      'req-failing-sign-in',
    ]) {
      const err = failures.find((l) => l.requestId === requestId)?.err;
      expect(err?.message, `the error of ${requestId}`).toBe('the storage refused the write');
      expect(err?.stack, `the stack of ${requestId}`).toEqual(expect.any(String));
    }
  });

  it('turns two-factor sign-in on, answers challenges with an app code and a recovery code, ends sessions, changes the password and uses a revoked token', async () => {
    const email = uniqueEmail('two-factor');
    const password = secret('two-factor person password', fresh('pw'));
    const registered = await unwrap(
      anonymous().auth.register({ body: { businessName: 'Beacon Tools', email, password } }),
    );
    const firstToken = secret('access token of the two-factor person', registered.data.accessToken);
    const person = clientOf(firstToken);

    const enrolment = (await unwrap(person.auth.startTwoFactorEnrolment({ body: { password } }))).data;
    const totpSecret = secret('two-factor secret', enrolment.secret);
    secret('two-factor otpauth URI', enrolment.otpauthUri);
    secret('two-factor QR code', enrolment.qrCode);
    const confirmed = await unwrap(
      person.auth.confirmTwoFactor({ body: { password, code: await totpCode(server(), totpSecret) } }),
    );
    const recoveryCodes = confirmed.data.recoveryCodes.map((code, i) =>
      secret(`recovery code ${i + 1}`, code),
    );
    const [recoveryCode] = atLeast(recoveryCodes, 1);

    const challenge = async () => {
      const answer = (await unwrap(anonymous().auth.signIn({ body: { email, password } }))).data;
      if (!('challengeToken' in answer)) throw new Error('no second step was asked for');
      return secret('sign-in challenge token', answer.challengeToken);
    };
    const answerWith = async (code: string) =>
      anonymous().auth.completeSignIn({ body: { challengeToken: await challenge(), code } });

    // An app code works once per 30-second step: the enrolment used this one.
    server().clock.advance(30_000);
    const appCode = await totpCode(server(), totpSecret);
    const byApp = secret(
      'access token from an app code',
      accessTokenOf((await unwrap(answerWith(appCode))).data),
    );
    const accepted = await Promise.all([-1, 0, 1].map((steps) => totpCode(server(), totpSecret, steps)));
    const wrongCode = ['000000', '111111', '222222', '333333'].find((code) => !accepted.includes(code))!;
    expect((await answerWith(wrongCode)).status).toBe(401);
    const byRecovery = secret(
      'access token from a recovery code',
      accessTokenOf((await unwrap(answerWith(recoveryCode))).data),
    );
    expect((await answerWith(recoveryCode)).status).toBe(401);

    const account = clientOf(byApp);
    expect((await unwrap(account.auth.listSessions())).data).toHaveLength(3);
    const recoverySession = (await unwrap(clientOf(byRecovery).auth.listSessions())).data.find(
      (s) => s.current,
    );
    await unwrap(account.auth.revokeSession({ params: { id: recoverySession?.id ?? 'tok_unknown' } }));
    expect((await clientOf(byRecovery).auth.getSession()).status).toBe(401);
    expect((await unwrap(account.auth.revokeOtherSessions())).data).toEqual({ revoked: 1 });

    server().clock.advance(30_000);
    const withCode = secret(
      'access token of a sign-in with the code beside the password',
      accessTokenOf(
        (
          await unwrap(
            anonymous().auth.signIn({
              body: { email, password, code: await totpCode(server(), totpSecret) },
            }),
          )
        ).data,
      ),
    );
    const mistyped = await account.auth.changePassword({
      body: {
        currentPassword: secret('mistyped current password', fresh('pw')),
        newPassword: secret('new password of a refused change', fresh('pw')),
      },
    });
    expect(mistyped.status).toBe(422);
    const changed = await unwrap(
      account.auth.changePassword({
        body: { currentPassword: password, newPassword: secret('changed password', fresh('pw')) },
      }),
    );
    expect(changed.data).toEqual({ revoked: 1 });

    for (const revoked of [withCode, firstToken, byRecovery]) {
      expect((await clientOf(revoked).auth.listSessions()).status).toBe(401);
    }
    expect((await account.auth.getSession()).status).toBe(200);
  });

  it('reads the stored password hashes, which the log must not carry either', async () => {
    const users = await server().deps.db.selectFrom('users').select(['email', 'password_hash']).execute();
    expect(users.length).toBeGreaterThanOrEqual(3);
    for (const user of users) secret(`password hash of ${user.email}`, user.password_hash);
  });
});

describe('the log of the run', () => {
  const parsed = () => captured.lines.map((line) => JSON.parse(line) as Record<string, unknown>);

  it('holds every request by its route template, with its status', () => {
    const requests = parsed().filter((l) => l.msg === 'request');
    const routes = new Set(requests.map((l) => `${String(l.method)} ${String(l.route)}`));
    for (const route of [
      'POST /v1/auth/register',
      'POST /v1/auth/token',
      'POST /v1/auth/logout',
      'POST /v1/auth/invitations/accept',
      'POST /v1/auth/two-factor/enrolment',
      'POST /v1/auth/two-factor/confirm',
      'POST /v1/auth/token/two-factor',
      'GET /v1/auth/sessions',
      'DELETE /v1/auth/sessions/:id',
      'DELETE /v1/auth/sessions',
      'POST /v1/auth/password',
      'GET /invitations/:token',
      'POST /v1/auth/invitations/describe',
      'POST /v1/api-keys',
      'GET /v1/public/loyalty/rewards',
      'POST /v1/webhooks/:id/rotate-secret',
      'POST /v1/marketing/domains/:id/verify',
      'POST /v1/marketing/campaigns/:id/send',
      'GET /t/o/:token',
      'GET /t/c/:token',
      'GET /u/:token',
      'POST /u/:token',
      'POST /v1/invoices/:id/send',
      'GET /v1/invoices/:id',
      'GET /v1/invoices/:id/pdf',
      'GET /i/:token',
      'GET /i/:token/pdf',
      'GET /q/:token',
      'GET /q/:token/pdf',
      'GET /c/:token',
      'GET /c/:token/pdf',
      'POST /v1/customers',
    ]) {
      expect(routes, route).toContain(route);
    }
    expect(requests.some((l) => l.path === '/metrics' && l.status === 200)).toBe(true);
    const statuses = new Set(requests.map((l) => l.status));
    for (const status of [200, 201, 302, 400, 401, 404, 422, 500])
      expect(statuses, String(status)).toContain(status);
    expect(requests.every((l) => typeof l.requestId === 'string' && typeof l.ms === 'number')).toBe(true);
    expect(requests.some((l) => l.businessId === owner.businessId)).toBe(true);
  });

  it('carries no secret the run met, in any form', async ({ annotate }) => {
    expect(secrets.length).toBeGreaterThanOrEqual(30);
    const text = captured.lines.join('');
    const checks = secrets.flatMap(({ what, value }) => formsOf(value).map((form) => ({ what, form })));
    const leaks = checks
      .filter(({ form }) => text.includes(form))
      .map(({ what, form }) => `${what}: ${form}`);
    const summary = `${secrets.length} secrets (${checks.length} forms) checked against ${captured.lines.length} log lines`;
    await annotate(summary);
    expect(leaks, summary).toEqual([]);
    expect(/scrypt\$/.test(text), 'a password hash in the log').toBe(false);
  });
});

describe('the logged error of a failed statement', () => {
  it("keeps the SQL but drops PGlite's parameter values, also of nested and aggregated errors", () => {
    const lines: string[] = [];
    const log = createLogger('error', { write: (line: string) => void lines.push(line) });
    const value = fresh('stored');
    const failed = () =>
      Object.assign(new Error('the storage refused the write'), {
        query: 'insert into "webhooks" ("url") values ($1)',
        params: [value],
      });
    log.error({ err: Object.assign(failed(), { original: failed() }) }, 'request failed');
    log.error({ err: new AggregateError([failed(), failed()], 'several failed') }, 'job failed');
    expect(lines).toHaveLength(2);
    expect(lines.join('')).not.toContain(value);
    const first = JSON.parse(lines[0]!) as { err: Record<string, { query?: string } | string> };
    expect(first.err.query).toBe('insert into "webhooks" ("url") values ($1)');
    expect(first.err.original).toMatchObject({ query: 'insert into "webhooks" ("url") values ($1)' });
  });
});
