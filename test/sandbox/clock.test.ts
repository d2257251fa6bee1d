import { afterEach, describe, expect, it } from 'vitest';
import { unwrap, type Client, type sandbox as sb } from '../../client/index.js';
import { sandboxModule } from '../../server/sandbox/index.js';
import { raw, registerBusiness, sandboxOf, type TestBusiness } from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import { createCustomer, issuedInvoice } from '../support/general.js';
import {
  adjustPoints,
  createProgram,
  createRedemption,
  createReminder,
  enrollMember,
  member,
  newReward,
} from '../support/loyalty.js';
import {
  campaignReaches,
  createCampaign,
  createSegment,
  createTemplate,
  MARKETING_ENV,
} from '../support/marketing.js';
import { useTestServer } from '../support/setup.js';
import { waitFor } from '../support/wait.js';

// No SMTP_URL: mail is captured. Tokens outlive the clock moves below.
const server = useTestServer({
  env: { ...MARKETING_ENV, MARKETING_POLL_MS: '40', MAIL_RATE_PER_SECOND: '0', ACCESS_TOKEN_TTL: '3650d' },
});

afterEach(() => server().clock.reset());

const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();

const clockOf = async (client: Client) => (await unwrap(client.sandbox.clock.getClock())).data;
const advance = (client: Client, to: number | string) =>
  client.sandbox.clock.advanceClock({ body: { advance_to: typeof to === 'number' ? iso(to) : to } });
const advanced = async (client: Client, to: number) => (await unwrap(advance(client, to))).data;
const captured = async (client: Client) =>
  (await unwrap(client.sandbox.messages.listMessages({ query: { limit: 200 } }))).messages;

/** A new sandbox (of a new live business) whose clock stands at real time. */
async function newSandbox(): Promise<{ live: TestBusiness; sandbox: TestBusiness; start: number }> {
  const live = await registerBusiness(server());
  const sandbox = await sandboxOf(server(), live);
  return { live, sandbox, start: Date.parse((await clockOf(sandbox.client)).now) };
}

describe('GET and POST /v1/sandbox/clock', () => {
  it('reads real time until advanced, then runs ahead by as much and keeps running', async () => {
    const before = Date.now();
    const { sandbox, start } = await newSandbox();
    expect(start).toBeGreaterThanOrEqual(before);
    expect(start).toBeLessThanOrEqual(Date.now());
    expect((await clockOf(sandbox.client)).advanced_by_seconds).toBe(0);

    const target = start + 10 * DAY;
    const advancedAt = Date.now();
    const moved = await advanced(sandbox.client, target);
    expect(moved.now).toBe(iso(target));
    expect(moved.ran).toEqual({
      points_expired: 0,
      vouchers_expired: 0,
      invoices_recurred: 0,
      bills_recurred: 0,
      reminders_sent: 0,
      invoice_reminders_sent: 0,
      campaigns_started: 0,
      vat_alerts_sent: 0,
      revaluations_posted: 0,
    });
    const read = await clockOf(sandbox.client);
    expect(Date.parse(read.now)).toBeGreaterThanOrEqual(target);
    // Past the target by no more than the real time since the advance began.
    expect(Date.parse(read.now) - target).toBeLessThanOrEqual(Date.now() - advancedAt);
    expect(read.advanced_by_seconds).toBeGreaterThanOrEqual(10 * 86_400 - 5);
    // Real time passing moves the sandbox's time with it.
    server().clock.advance(DAY);
    expect(Date.parse((await clockOf(sandbox.client)).now) - target).toBeGreaterThanOrEqual(DAY);
  });

  it('dates what the sandbox writes by its own clock; its live business stays on real time', async () => {
    const { live, sandbox, start } = await newSandbox();
    const advancedAt = Date.now();
    await advanced(sandbox.client, start + 40 * DAY);
    const customer = await createCustomer(sandbox.client, { name: 'Later Ltd' });
    const createdBy = Date.now();
    const invoice = await issuedInvoice(sandbox.client, {
      customer_id: customer.id,
      items: [{ description: 'Work', quantity: 1, unit_price: 10 }],
    });
    expect(invoice.issue_date).toBe(iso(start + 40 * DAY).slice(0, 10));
    const sinceTarget = Date.parse(customer.created_at) - (start + 40 * DAY);
    expect(sinceTarget).toBeGreaterThanOrEqual(0);
    expect(sinceTarget).toBeLessThanOrEqual(createdBy - advancedAt);
    const liveBefore = Date.now();
    const liveCustomer = await createCustomer(live.client, { name: 'Now Ltd' });
    expect(Date.parse(liveCustomer.created_at)).toBeGreaterThanOrEqual(liveBefore);
    expect(Date.parse(liveCustomer.created_at)).toBeLessThanOrEqual(Date.now());
  });

  it('never goes back: an earlier or equal time is 422 naming advance_to, and the clock stays', async () => {
    const { sandbox, start } = await newSandbox();
    const advancedAt = Date.now();
    await advanced(sandbox.client, start + 3 * DAY);
    for (const to of [start + 2 * DAY, start - DAY, start + 3 * DAY]) {
      expectResultError(await advance(sandbox.client, to), 422, 'VALIDATION_ERROR', 'advance_to');
    }
    const now = Date.parse((await clockOf(sandbox.client)).now);
    expect(now - (start + 3 * DAY)).toBeLessThanOrEqual(Date.now() - advancedAt);
    expect(now).toBeGreaterThanOrEqual(start + 3 * DAY);
  });

  it('moves at most 5 years a call, and refuses what is not a date-time (422)', async () => {
    const { sandbox, start } = await newSandbox();
    expectResultError(
      await advance(sandbox.client, start + 1827 * DAY),
      422,
      'VALIDATION_ERROR',
      'advance_to',
    );
    for (const body of [
      { advance_to: 'next tuesday' },
      { advance_to: '2030-01-01' },
      {},
      { advance_to: 5 },
    ]) {
      const res = await raw(server(), 'POST', '/v1/sandbox/clock', {
        token: sandbox.accessToken,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.details, JSON.stringify(body)).toEqual([
        expect.objectContaining({ field: 'advance_to' }),
      ]);
    }
    expect((await clockOf(sandbox.client)).advanced_by_seconds).toBe(0);
    expect((await advanced(sandbox.client, start + 1826 * DAY - 60_000)).now).toBe(
      iso(start + 1826 * DAY - 60_000),
    );
  });
});

describe('what the test clock makes due on its way', () => {
  it('expires points on their day, not before', async () => {
    const { sandbox, start } = await newSandbox();
    await createProgram(sandbox.client, { pointsExpiryDays: 30 });
    const m = await enrollMember(sandbox.client);
    await adjustPoints(sandbox.client, m.publicId, 500, 'Welcome bonus');
    expect((await advanced(sandbox.client, start + 29 * DAY)).ran.points_expired).toBe(0);
    expect((await member(sandbox, m.publicId)).pointsBalance).toBe(500);
    expect((await advanced(sandbox.client, start + 31 * DAY)).ran.points_expired).toBe(1);
    expect((await member(sandbox, m.publicId)).pointsBalance).toBe(0);
  });

  it('expires a pending voucher once its validity ends', async () => {
    const { sandbox, start } = await newSandbox();
    await createProgram(sandbox.client);
    const m = await enrollMember(sandbox.client);
    await adjustPoints(sandbox.client, m.publicId, 500);
    const reward = await newReward(sandbox, { voucherValidityDays: 14 });
    const redemption = await createRedemption(sandbox.client, {
      memberId: m.publicId,
      rewardId: reward.publicId,
    });
    expect((await advanced(sandbox.client, start + 13 * DAY)).ran.vouchers_expired).toBe(0);
    expect((await advanced(sandbox.client, start + 15 * DAY)).ran.vouchers_expired).toBe(1);
    const { data } = await unwrap(sandbox.client.loyalty.redemptions.listRedemptions({ query: {} }));
    expect(data.find((r) => r.publicId === redemption.publicId)?.status).toBe('expired');
  });

  it('mails a service reminder on its due date (captured)', async () => {
    const { sandbox, start } = await newSandbox();
    await createProgram(sandbox.client);
    const m = await enrollMember(sandbox.client, { customer: { email: 'rider@contacts.example.test' } });
    const reminder = await createReminder(sandbox.client, { name: 'Bike service', intervalDays: 30 });
    const done = await unwrap(
      sandbox.client.loyalty.reminders.completeReminder({
        params: { publicId: reminder.publicId },
        body: { memberId: m.publicId },
      }),
    );
    expect(done.data.nextDueDate).toBe(iso(start + 30 * DAY).slice(0, 10));
    expect((await advanced(sandbox.client, start + 29 * DAY)).ran.reminders_sent).toBe(0);
    expect((await advanced(sandbox.client, start + 30 * DAY + 60_000)).ran.reminders_sent).toBe(1);
    const mail = await waitFor('the reminder to be captured', async () => {
      const found = (await captured(sandbox.client)).filter((x) => x.to === 'rider@contacts.example.test');
      return found.length > 0 && found;
    });
    expect(mail.map((x) => x.subject)).toEqual(['Bike service is due']);
    expect((await advanced(sandbox.client, start + 31 * DAY)).ran.reminders_sent).toBe(0);
  });

  it('starts a scheduled campaign when its time comes; the worker then sends it, captured', async () => {
    const { sandbox, start } = await newSandbox();
    await createCustomer(sandbox.client, { name: 'Ada Example', email: 'ada@contacts.example.test' });
    const campaign = await createCampaign(sandbox.client, {
      template_id: (await createTemplate(sandbox.client)).id,
      segment_id: (await createSegment(sandbox.client)).id,
    });
    await unwrap(
      sandbox.client.marketing.campaigns.scheduleCampaign({
        params: { id: campaign.id },
        body: { scheduled_at: iso(start + 3 * DAY) },
      }),
    );
    expect((await advanced(sandbox.client, start + 2 * DAY)).ran.campaigns_started).toBe(0);
    expect(
      (await unwrap(sandbox.client.marketing.campaigns.getCampaign({ params: { id: campaign.id } }))).campaign
        .status,
    ).toBe('scheduled');
    expect((await advanced(sandbox.client, start + 4 * DAY)).ran.campaigns_started).toBe(1);
    await campaignReaches(sandbox.client, campaign.id, 'sent');
    expect((await captured(sandbox.client)).map((x) => x.to)).toEqual(['ada@contacts.example.test']);
  });

  it('sends a VAT alert when an invoice dated ahead enters the window, on its day and once', async () => {
    const { sandbox, start } = await newSandbox();
    const customer = await createCustomer(sandbox.client, { name: 'Big Buyer' });
    await unwrap(
      sandbox.client.finance.vat.createVatThreshold({
        body: {
          country: 'GB',
          thresholdAmount: 10_000,
          currency: 'USD',
          periodType: 'rolling_12_months',
          alertAtPercentage: 80,
          alertEmail: 'accounts@acme.example',
        },
      }),
    );
    const dated = iso(start + 7 * DAY).slice(0, 10);
    await issuedInvoice(sandbox.client, {
      customer_id: customer.id,
      issue_date: dated,
      due_date: iso(start + 60 * DAY).slice(0, 10),
      items: [{ description: 'Order', quantity: 1, unit_price: 85 }],
    });
    expect((await advanced(sandbox.client, start + 5 * DAY)).ran.vat_alerts_sent).toBe(0);
    expect((await advanced(sandbox.client, start + 8 * DAY)).ran.vat_alerts_sent).toBe(1);
    const alerts = await waitFor('the alert to be captured', async () => {
      const found = (await captured(sandbox.client)).filter((x) => x.to === 'accounts@acme.example');
      return found.length > 0 && found;
    });
    expect(alerts.map((x) => x.subject)).toEqual(['VAT registration threshold: 80% reached (GB)']);
    expect(alerts[0]?.text).toContain(dated);
    expect((await advanced(sandbox.client, start + 9 * DAY)).ran.vat_alerts_sent).toBe(0);
  });

  it('reports an unpaid invoice overdue once the clock passes its due date', async () => {
    const { sandbox, start } = await newSandbox();
    const customer = await createCustomer(sandbox.client, { name: 'Late Payer' });
    const invoice = await issuedInvoice(sandbox.client, {
      customer_id: customer.id,
      due_date: iso(start + 14 * DAY).slice(0, 10),
      items: [{ description: 'Work', quantity: 1, unit_price: 10 }],
    });
    const status = async () =>
      (await unwrap(sandbox.client.general.invoices.getInvoice({ params: { id: invoice.id } }))).data.status;
    expect(await status()).toBe('unpaid');
    await advanced(sandbox.client, start + 16 * DAY);
    expect(await status()).toBe('overdue');
  });

  it("runs what a moved clock makes due later from the workers' periodic pass, at the sandbox's own time", async () => {
    const { sandbox, start } = await newSandbox();
    await createProgram(sandbox.client, { pointsExpiryDays: 30 });
    await advanced(sandbox.client, start + 10 * DAY);
    const m = await enrollMember(sandbox.client);
    await adjustPoints(sandbox.client, m.publicId, 200);
    // 31 days of real time: the credit (sandbox day 10 + 30) is due by the sandbox's clock (day 41)
    // but not by real time (day 31), which the workers' own sweeps go by.
    server().clock.advance(31 * DAY);
    const pass = sandboxModule.periodic?.find((p) => p.name === 'sandbox clocks');
    expect(pass).toBeDefined();
    expect(await pass!.run(server().deps)).toBeGreaterThanOrEqual(1);
    expect((await member(sandbox, m.publicId)).pointsBalance).toBe(0);
  });

  it('runs each due rule once when advances of one sandbox race', async () => {
    const { sandbox, start } = await newSandbox();
    await createProgram(sandbox.client, { pointsExpiryDays: 5 });
    const m = await enrollMember(sandbox.client);
    await adjustPoints(sandbox.client, m.publicId, 300);
    const targets = [6, 7, 8, 9, 10, 11].map((d) => start + d * DAY);
    const answers = await Promise.all(targets.map((t) => advance(sandbox.client, t)));
    let expired = 0;
    for (const answer of answers) {
      expect([200, 422]).toContain(answer.status);
      if (answer.status === 200)
        expired += (answer.body as { data: sb.SandboxClock & { ran: sb.DueRun } }).data.ran.points_expired;
    }
    expect(expired).toBe(1);
    expect(answers.some((a) => a.status === 200)).toBe(true);
    const expiries = await server()
      .deps.db.selectFrom('loyalty_transactions')
      .select('id')
      .where('business_id', '=', sandbox.businessId)
      .where('type', '=', 'expire')
      .execute();
    expect(expiries).toHaveLength(1);
    expect((await member(sandbox, m.publicId)).pointsBalance).toBe(0);
  });
});

describe('a month-end revaluation on the test clock', () => {
  it('revalues foreign balances as of each month end passed when asked, and not otherwise', async () => {
    const { sandbox, start } = await newSandbox();
    const today = new Date(start);
    const monthStart = iso(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1)).slice(0, 10);
    const monthEnd = Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 0);
    const customer = await createCustomer(sandbox.client, { name: 'Ada Lovelace' });
    // 1,000.00 EUR posted at the feed's 1.1 (the test database's), then worth 1.2 at the month's end.
    await issuedInvoice(sandbox.client, {
      customer_id: customer.id,
      currency: 'EUR',
      issue_date: monthStart,
      items: [{ description: 'Consulting', quantity: 1, unit_price: 1000 }],
    });
    await unwrap(
      sandbox.client.finance.exchangeRates.createExchangeRate({
        body: { currency: 'EUR', date: iso(monthEnd).slice(0, 10), rate: '1.2' },
      }),
    );
    const moved = await unwrap(
      sandbox.client.sandbox.clock.advanceClock({
        body: { advance_to: iso(monthEnd + 2 * DAY), revalue_month_ends: true },
      }),
    );
    expect(moved.data.ran.revaluations_posted).toBe(1);
    const { revaluations } = await unwrap(
      sandbox.client.finance.revaluations.listRevaluations({ query: {} }),
    );
    expect(revaluations).toHaveLength(1);
    expect(revaluations[0]).toMatchObject({
      as_of: iso(monthEnd).slice(0, 10),
      gain: 10000,
      lines: [
        { account_code: '1200', currency: 'EUR', balance: 100000, base_balance: 110000, difference: 10000 },
      ],
    });

    // Without asking, the next month end passes with nothing posted.
    const nextMonthEnd = Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 2, 0);
    expect((await advanced(sandbox.client, nextMonthEnd + 2 * DAY)).ran.revaluations_posted).toBe(0);
    expect(
      (await unwrap(sandbox.client.finance.revaluations.listRevaluations({ query: {} }))).total_count,
    ).toBe(1);
  });
});
