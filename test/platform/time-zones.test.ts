import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { unwrap, type Client, type finance } from '../../client/index.js';
import { sendDueReminders } from '../../server/loyalty/reminders/service.js';
import { updateBusiness } from '../support/auth.js';
import { registerTenant, uniqueEmail, type TestTenant } from '../support/business.js';
import { expectError } from '../support/expect.js';
import { createBill, getBill } from '../support/finance.js';
import {
  createInvoice,
  createQuote,
  getInvoice,
  issueInvoice,
  issuedInvoice,
  payInvoice,
} from '../support/general.js';
import { createProgram, createReminder, enrollMember } from '../support/loyalty.js';
import { useTestServer } from '../support/setup.js';

/**
 * "Today" and every boundary between days follow the business's time zone. On 2026-11-25 Auckland
 * is at UTC+13 (daylight time) and Honolulu at UTC-10, so at 2026-11-25T11:30Z it is already
 * 2026-11-26 00:30 in Auckland and still 2026-11-25 01:30 in Honolulu.
 */

// The clock moves five weeks ahead: tokens must outlive it.
const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' }, worker: false });

const at = (iso: string) => server().clock.set(iso);
afterEach(() => server().clock.reset());

async function businessIn(timezone: string): Promise<TestTenant> {
  const biz = await registerTenant(server());
  await updateBusiness(biz.client, { timezone });
  return biz;
}

let auckland: TestTenant;
let honolulu: TestTenant;
let utc: TestTenant;

beforeAll(async () => {
  [auckland, honolulu, utc] = await Promise.all([
    businessIn('Pacific/Auckland'),
    businessIn('Pacific/Honolulu'),
    registerTenant(server()),
  ]);
});

const billStatus = async (client: Client, id: string) => (await getBill(client, id)).status;
const invoiceStatus = async (client: Client, id: string) => (await getInvoice(client, id)).status;

const listedBills = async (client: Client, status: finance.BillStatus) =>
  (await unwrap(client.finance.bills.listBills({ query: { status } }))).bills.map((b) => b.id);
const listedInvoices = async (client: Client, status: 'unpaid' | 'overdue') =>
  (await unwrap(client.general.invoices.listInvoices({ query: { status } }))).data.map((i) => i.id);

describe("default dates are the business's today", () => {
  it('dates an invoice issued at 2026-11-25T11:30Z 2026-11-26 in Auckland, 2026-11-25 in Honolulu and UTC', async () => {
    at('2026-11-25T11:30:00.000Z');
    const issued = await Promise.all(
      [auckland, honolulu, utc].map((biz) => issuedInvoice(biz.client, { customer_id: biz.customerId })),
    );
    expect(issued.map((i) => i.issue_date)).toEqual(['2026-11-26', '2026-11-25', '2026-11-25']);
  });

  it('dates an invoice issued just before Auckland midnight on the day it still is there', async () => {
    at('2026-11-25T10:59:59.999Z');
    const invoice = await issuedInvoice(auckland.client, { customer_id: auckland.customerId });
    expect(invoice.issue_date).toBe('2026-11-25');
  });

  it('dates a payment without payment_date on the local day', async () => {
    at('2026-11-25T11:30:00.000Z');
    const invoice = await issuedInvoice(auckland.client, { customer_id: auckland.customerId });
    const paid = await payInvoice(auckland.client, invoice.id, invoice.total);
    expect(paid.payments.map((p) => p.payment_date)).toEqual(['2026-11-26']);
  });

  it('dates a bill without issue_date on the local day', async () => {
    at('2026-11-25T11:30:00.000Z');
    const [inAuckland, inHonolulu] = await Promise.all([
      createBill(auckland.client),
      createBill(honolulu.client),
    ]);
    expect(inAuckland.issue_date).toBe('2026-11-26');
    expect(inHonolulu.issue_date).toBe('2026-11-25');
  });

  it("makes the invoice of a converted quote due 30 days after the business's today", async () => {
    const quote = await createQuote(auckland.client, auckland.customerId, 'accepted');
    at('2026-11-25T11:30:00.000Z');
    const invoice = await unwrap(auckland.client.general.quotes.convertQuote({ params: { id: quote.id } }));
    expect(invoice.data.due_date).toBe('2026-12-26');
  });

  it('defaults the trial balance to the local today', async () => {
    at('2026-11-25T11:30:00.000Z');
    const dates = await Promise.all(
      [auckland, honolulu].map(async (biz) => {
        const { data } = await unwrap(biz.client.finance.accounts.getTrialBalance({ query: {} }));
        return data.as_of;
      }),
    );
    expect(dates).toEqual(['2026-11-26', '2026-11-25']);
  });

  it('moves today at once when the business changes its time zone', async () => {
    const biz = await businessIn('Pacific/Honolulu');
    at('2026-11-25T11:30:00.000Z');
    expect((await issuedInvoice(biz.client, { customer_id: biz.customerId })).issue_date).toBe('2026-11-25');
    await updateBusiness(biz.client, { timezone: 'Pacific/Auckland' });
    expect((await issuedInvoice(biz.client, { customer_id: biz.customerId })).issue_date).toBe('2026-11-26');
  });
});

describe('overdue and expiry turn at local midnight', () => {
  it('reads a bill due 2026-11-25 overdue in Auckland from 2026-11-25T11:00Z, and not at 10:30Z', async () => {
    const bill = await createBill(auckland.client, { issue_date: '2026-11-20', due_date: '2026-11-25' });

    at('2026-11-25T10:30:00.000Z'); // 23:30 on the 25th in Auckland
    expect(await billStatus(auckland.client, bill.id)).toBe('pending');
    expect(await listedBills(auckland.client, 'pending')).toContain(bill.id);
    expect(await listedBills(auckland.client, 'overdue')).not.toContain(bill.id);

    at('2026-11-25T11:30:00.000Z'); // 00:30 on the 26th
    expect(await billStatus(auckland.client, bill.id)).toBe('overdue');
    expect(await listedBills(auckland.client, 'overdue')).toContain(bill.id);
    expect(await listedBills(auckland.client, 'pending')).not.toContain(bill.id);
  });

  it('keeps a bill due 2026-11-25 pending in Honolulu until its midnight, 2026-11-26T10:00Z', async () => {
    const bill = await createBill(honolulu.client, { issue_date: '2026-11-20', due_date: '2026-11-25' });

    at('2026-11-25T11:30:00.000Z'); // already the 26th in Auckland, 01:30 on the 25th here
    expect(await billStatus(honolulu.client, bill.id)).toBe('pending');
    at('2026-11-26T09:30:00.000Z'); // 23:30 on the 25th
    expect(await billStatus(honolulu.client, bill.id)).toBe('pending');
    expect(await listedBills(honolulu.client, 'overdue')).not.toContain(bill.id);
    at('2026-11-26T10:30:00.000Z'); // 00:30 on the 26th
    expect(await billStatus(honolulu.client, bill.id)).toBe('overdue');
    expect(await listedBills(honolulu.client, 'overdue')).toContain(bill.id);
  });

  it('reads an unpaid invoice due 2026-11-25 overdue at each business its own midnight', async () => {
    const issue = async (biz: TestTenant) =>
      issueInvoice(
        biz.client,
        (
          await createInvoice(biz.client, {
            customer_id: biz.customerId,
            issue_date: '2026-11-20',
            due_date: '2026-11-25',
          })
        ).id,
      );
    const [inAuckland, inHonolulu, inUtc] = await Promise.all([issue(auckland), issue(honolulu), issue(utc)]);

    at('2026-11-25T10:30:00.000Z');
    expect(await invoiceStatus(auckland.client, inAuckland.id)).toBe('unpaid');
    at('2026-11-25T11:30:00.000Z');
    expect(await invoiceStatus(auckland.client, inAuckland.id)).toBe('overdue');
    expect(await listedInvoices(auckland.client, 'overdue')).toContain(inAuckland.id);
    expect(await invoiceStatus(utc.client, inUtc.id)).toBe('unpaid');
    expect(await invoiceStatus(honolulu.client, inHonolulu.id)).toBe('unpaid');

    at('2026-11-26T00:30:00.000Z');
    expect(await invoiceStatus(utc.client, inUtc.id)).toBe('overdue');

    at('2026-11-26T09:30:00.000Z');
    expect(await invoiceStatus(honolulu.client, inHonolulu.id)).toBe('unpaid');
    expect(await listedInvoices(honolulu.client, 'unpaid')).toContain(inHonolulu.id);
    expect(await listedInvoices(honolulu.client, 'overdue')).not.toContain(inHonolulu.id);
    at('2026-11-26T10:30:00.000Z');
    expect(await invoiceStatus(honolulu.client, inHonolulu.id)).toBe('overdue');
    expect(await listedInvoices(honolulu.client, 'overdue')).toContain(inHonolulu.id);
  });

  it('expires a sent quote valid until 2026-11-25 at the local midnight, and refuses to accept it then', async () => {
    const quotes = auckland.client.general.quotes;
    const sentQuote = async (biz: TestTenant) => {
      const { data } = await unwrap(
        biz.client.general.quotes.createQuote({
          body: {
            customer_id: biz.customerId,
            valid_until: '2026-11-25',
            items: [{ description: 'Roasting course', quantity: 1, unit_price: 90 }],
          },
        }),
      );
      await unwrap(biz.client.general.quotes.sendQuote({ params: { id: data.id }, body: {} }));
      return data.id;
    };
    const [early, late, inHonolulu] = await Promise.all([
      sentQuote(auckland),
      sentQuote(auckland),
      sentQuote(honolulu),
    ]);

    at('2026-11-25T10:30:00.000Z');
    expect((await unwrap(quotes.getQuote({ params: { id: late } }))).data.status).toBe('sent');
    expect((await unwrap(quotes.acceptQuote({ params: { id: early } }))).data.status).toBe('accepted');

    at('2026-11-25T11:30:00.000Z');
    expect((await unwrap(quotes.getQuote({ params: { id: late } }))).data.status).toBe('expired');
    const expired = (await unwrap(quotes.listQuotes({ query: { status: 'expired' } }))).data.map((q) => q.id);
    expect(expired).toContain(late);
    expectError(await quotes.acceptQuote({ params: { id: late } }), 409, 'INVALID_STATE');

    at('2026-11-26T09:30:00.000Z'); // 23:30 on the 25th in Honolulu: still valid there
    const accepted = await unwrap(honolulu.client.general.quotes.acceptQuote({ params: { id: inHonolulu } }));
    expect(accepted.data.status).toBe('accepted');
  });
});

describe('VAT windows and report defaults cut at local midnight', () => {
  /** A business in `timezone` with a VAT threshold of 1,000.00 USD over `periodType` and one issued invoice of 100.00 on `issueDate`. */
  async function withRevenue(timezone: string, periodType: finance.PeriodType, issueDate: string) {
    const biz = await businessIn(timezone);
    await unwrap(
      biz.client.finance.vat.createVatThreshold({
        body: {
          country: 'NZ',
          thresholdAmount: 100000,
          currency: 'USD',
          periodType,
          alertAtPercentage: 80,
          alertEmail: 'accounts@example.com',
        },
      }),
    );
    await issuedInvoice(biz.client, {
      customer_id: biz.customerId,
      issue_date: issueDate,
      due_date: '2027-02-28',
    });
    return biz;
  }

  const vatRevenue = async (biz: TestTenant) =>
    (await unwrap(biz.client.finance.vat.getVatThreshold())).data?.currentRevenue;
  const scheduleVatRevenue = async (biz: TestTenant) =>
    (
      await unwrap(
        biz.client.finance.reports.getSalesSchedule({
          query: { startDate: '2026-12-01', endDate: '2027-01-31' },
        }),
      )
    ).data.vatThreshold.currentRevenue;

  it('turns the annual window to 2027 in Auckland at 2026-12-31T11:00Z, in UTC at midnight UTC', async () => {
    const [inAuckland, inUtc] = await Promise.all([
      withRevenue('Pacific/Auckland', 'annual', '2026-12-31'),
      withRevenue('UTC', 'annual', '2026-12-31'),
    ]);

    at('2026-12-31T10:30:00.000Z'); // 23:30 on 31 December in Auckland
    expect(await vatRevenue(inAuckland)).toBe(10000);
    expect(await scheduleVatRevenue(inAuckland)).toBe(10000);

    at('2026-12-31T11:30:00.000Z'); // 00:30 on 1 January 2027 in Auckland
    expect(await vatRevenue(inAuckland)).toBe(0);
    expect(await scheduleVatRevenue(inAuckland)).toBe(0);
    expect(await vatRevenue(inUtc)).toBe(10000);

    at('2027-01-01T00:30:00.000Z');
    expect(await vatRevenue(inUtc)).toBe(0);
  });

  it('turns the quarter in Honolulu only at its midnight, 2027-01-01T10:00Z', async () => {
    const biz = await withRevenue('Pacific/Honolulu', 'quarterly', '2026-12-31');
    at('2027-01-01T00:30:00.000Z'); // already 2027 in UTC
    expect(await vatRevenue(biz)).toBe(10000);
    at('2027-01-01T09:30:00.000Z'); // 23:30 on 31 December
    expect(await vatRevenue(biz)).toBe(10000);
    expect(await scheduleVatRevenue(biz)).toBe(10000);
    at('2027-01-01T10:30:00.000Z');
    expect(await vatRevenue(biz)).toBe(0);
  });

  it('ends the rolling 12 months on the local today', async () => {
    const biz = await withRevenue('Pacific/Auckland', 'rolling_12_months', '2025-11-26');
    at('2026-11-25T10:30:00.000Z'); // 2026-11-25 there: the window is 2025-11-26 .. 2026-11-25
    expect(await vatRevenue(biz)).toBe(10000);
    at('2026-11-25T11:30:00.000Z'); // 2026-11-26 there: the window starts 2025-11-27
    expect(await vatRevenue(biz)).toBe(0);
  });

  it("defaults the revenue calculator's asOfDate to the local today, on either side of the new year", async () => {
    const [inAuckland, inHonolulu] = await Promise.all([
      withRevenue('Pacific/Auckland', 'annual', '2026-12-31'),
      withRevenue('Pacific/Honolulu', 'annual', '2026-12-31'),
    ]);
    const metrics = async (biz: TestTenant) =>
      (await unwrap(biz.client.finance.reports.getRevenueCalculator({ query: {} }))).data;

    at('2026-12-31T11:30:00.000Z');
    expect(await metrics(inAuckland)).toMatchObject({ asOfDate: '2027-01-01', ytdRevenue: 0 });
    expect(await metrics(inHonolulu)).toMatchObject({ asOfDate: '2026-12-31', ytdRevenue: 10000 });

    at('2027-01-01T09:30:00.000Z');
    expect(await metrics(inHonolulu)).toMatchObject({ asOfDate: '2026-12-31', ytdRevenue: 10000 });
    at('2027-01-01T10:30:00.000Z');
    expect(await metrics(inHonolulu)).toMatchObject({ asOfDate: '2027-01-01', ytdRevenue: 0 });
  });
});

describe('service reminders fall due on the local day', () => {
  async function memberWithService(timezone: string) {
    const biz = await businessIn(timezone);
    await createProgram(biz.client, { name: 'Garage Club', pointsName: 'Miles', pointsPerCurrency: 1 });
    const member = await enrollMember(biz.client, {
      customer: { name: 'Ada Lovelace', email: uniqueEmail('ada') },
    });
    const reminder = await createReminder(biz.client, { name: 'Oil change', intervalDays: 1 });
    return { biz, member, reminder };
  }

  const complete = async (s: Awaited<ReturnType<typeof memberWithService>>) =>
    (
      await unwrap(
        s.biz.client.loyalty.reminders.completeReminder({
          params: { publicId: s.reminder.publicId },
          body: { memberId: s.member.publicId },
        }),
      )
    ).data.nextDueDate;

  const mailsOf = async (biz: TestTenant) =>
    (
      await server()
        .deps.db.selectFrom('mail_messages')
        .select('subject')
        .where('business_id', '=', biz.businessId)
        .execute()
    ).length;

  it('schedules the next service from the local today and reminds when that day begins there', async () => {
    const [kiwi, hawaii] = await Promise.all([
      memberWithService('Pacific/Auckland'),
      memberWithService('Pacific/Honolulu'),
    ]);

    at('2026-11-25T11:30:00.000Z');
    expect(await complete(kiwi)).toBe('2026-11-27');
    expect(await complete(hawaii)).toBe('2026-11-26');

    at('2026-11-26T09:30:00.000Z'); // 22:30 on the 26th in Auckland, 23:30 on the 25th in Honolulu
    await sendDueReminders(server().deps);
    expect([await mailsOf(kiwi.biz), await mailsOf(hawaii.biz)]).toEqual([0, 0]);

    at('2026-11-26T10:30:00.000Z'); // 23:30 on the 26th in Auckland, 00:30 on the 26th in Honolulu
    await sendDueReminders(server().deps);
    expect([await mailsOf(kiwi.biz), await mailsOf(hawaii.biz)]).toEqual([0, 1]);

    at('2026-11-26T11:30:00.000Z'); // 00:30 on the 27th in Auckland
    await sendDueReminders(server().deps);
    expect([await mailsOf(kiwi.biz), await mailsOf(hawaii.biz)]).toEqual([1, 1]);
  });
});
