import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { unwrap, type finance } from '../../client/index.js';
import { registerTenant, type TestTenant } from '../support/business.js';
import { createCreditNote, invoiceLine, issuedInvoice } from '../support/general.js';
import * as migration0040 from '../../migrations/2026_11_28_0040_finance_sales_credit_notes.js';
import { useTestServer } from '../support/setup.js';

// Credit notes in the revenue the finance reports read (docs/decisions.md D248): their net comes off the
// revenue of their issue date, and a void puts it back.

const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' }, worker: false });

const TODAY = '2026-11-23';
const NOW = `${TODAY}T09:00:00.000Z`;

beforeEach(() => server().clock.set(NOW));
afterEach(() => server().clock.reset());

/** An invoice issued on `issue_date` of one line worth `net` minor units of USD, with 20% tax. */
const sale = (t: TestTenant, issue_date: string, net: number) =>
  issuedInvoice(t.client, {
    customer_id: t.customerId,
    issue_date,
    due_date: '2030-12-31',
    items: [invoiceLine({ unit_price: net / 100, tax_rate: 20 })],
  });

/** A credit note of `gross` minor units (tax included) on `issue_date`, all of it off what the invoice owes. */
const creditOf = (t: TestTenant, invoiceId: string, issue_date: string, gross: number) =>
  createCreditNote(t.client, { invoice_id: invoiceId, issue_date, amount: gross / 100 });

const voidNote = (t: TestTenant, id: string) =>
  unwrap(t.client.general.creditNotes.voidCreditNote({ params: { id } }));

const scheduleOf = async (t: TestTenant, query: Partial<finance.SalesScheduleQuery>) =>
  (await unwrap(t.client.finance.reports.getSalesSchedule({ query: query as finance.SalesScheduleQuery })))
    .data;

const byMonth = async (t: TestTenant) => {
  const data = await scheduleOf(t, { startDate: '2026-10-01', endDate: '2026-11-30', groupBy: 'month' });
  return {
    periods: data.periods.map((p) => [p.period, p.revenue, p.invoiceCount, p.cumulative]),
    summary: data.summary,
  };
};

const vat = (t: TestTenant) => t.client.finance.vat;

const mailSubjects = async (t: TestTenant) =>
  (
    await server()
      .deps.db.selectFrom('mail_messages')
      .select(['subject', 'created_at', 'id'])
      .where('business_id', '=', t.businessId)
      .orderBy('created_at')
      .orderBy('id')
      .execute()
  ).map((m) => m.subject);

describe('credit notes in the sales schedule', () => {
  it("takes a credit note's net off the revenue of its issue date, and a void puts it back", async () => {
    const t = await registerTenant(server());
    const invoice = await sale(t, '2026-10-05', 100_000);
    // 120.00 tax included, split as the invoice is: 100.00 net, 20.00 tax.
    const note = await creditOf(t, invoice.id, '2026-11-10', 12_000);
    expect(note).toMatchObject({ subtotal: 100, tax: 20 });
    expect(await byMonth(t)).toEqual({
      periods: [
        ['2026-10', 100_000, 1, 100_000],
        ['2026-11', -10_000, 0, 90_000],
      ],
      summary: { totalRevenue: 90_000, totalInvoices: 1, currency: 'USD' },
    });

    await voidNote(t, note.id);
    expect(await byMonth(t)).toEqual({
      periods: [
        ['2026-10', 100_000, 1, 100_000],
        ['2026-11', 0, 0, 100_000],
      ],
      summary: { totalRevenue: 100_000, totalInvoices: 1, currency: 'USD' },
    });
  });

  it('takes off the net of a credit note made of lines, leaving the tax out', async () => {
    const t = await registerTenant(server());
    const invoice = await sale(t, '2026-11-02', 50_000);
    await createCreditNote(t.client, {
      invoice_id: invoice.id,
      issue_date: '2026-11-03',
      items: [{ description: 'Returned', quantity: 2, unit_price: 50, tax_rate: 20 }],
      credit_amount: 120,
    });
    const data = await scheduleOf(t, { startDate: '2026-11-01', endDate: '2026-11-30', groupBy: 'month' });
    expect(data.summary.totalRevenue).toBe(40_000);
  });
});

describe('credit notes and the VAT threshold', () => {
  it('counts revenue less credit notes, and a credit note below a level re-arms its alert', async () => {
    const t = await registerTenant(server());
    await unwrap(
      vat(t).createVatThreshold({
        body: {
          country: 'GB',
          thresholdAmount: 10_000,
          currency: 'USD',
          periodType: 'rolling_12_months',
          alertAtPercentage: 80,
          alertEmail: 'accounts@example.com',
        },
      }),
    );
    const invoice = await sale(t, '2026-11-20', 9_000);
    const alert = 'VAT registration threshold: 80% reached (GB)';
    expect(await mailSubjects(t)).toEqual([alert]);

    const note = await creditOf(t, invoice.id, '2026-11-21', 2_400);
    const after = (await unwrap(vat(t).getVatThreshold())).data;
    expect(after).toMatchObject({ currentRevenue: 7_000, percentageReached: 70 });

    // Back under 80%, the level is armed again: the next crossing is announced.
    await sale(t, '2026-11-22', 1_500);
    expect(await mailSubjects(t)).toEqual([alert, alert]);

    await voidNote(t, note.id);
    expect((await unwrap(vat(t).getVatThreshold())).data).toMatchObject({ currentRevenue: 10_500 });
  });
});

describe('migration 0040: credit notes written before the rule', () => {
  it('takes the net of every live credit note off its day once, and leaves void ones and invoices alone', async () => {
    const t = await registerTenant(server());
    const other = await registerTenant(server());
    const invoice = await sale(t, '2026-10-05', 100_000);
    await creditOf(t, invoice.id, '2026-11-10', 12_000);
    const voided = await creditOf(t, invoice.id, '2026-11-12', 6_000);
    await voidNote(t, voided.id);
    await sale(other, '2026-11-10', 50_000);
    const expected = { t: await byMonth(t), other: await byMonth(other) };
    expect(expected.t.summary.totalRevenue).toBe(90_000);

    // The days as they stood before the rule: no credit note had taken anything off them.
    const { db } = server().deps;
    await db
      .updateTable('finance_sales_days')
      .set((eb) => ({ revenue: eb('revenue', '+', '10000') }))
      .where('business_id', '=', t.businessId)
      .where('date', '=', '2026-11-10')
      .execute();
    expect((await byMonth(t)).summary.totalRevenue).toBe(100_000);

    // Run again here, it finds these notes (and the other tests' tenants', whose checks are over).
    await migration0040.up(db);
    expect(await byMonth(t)).toEqual(expected.t);
    expect(await byMonth(other)).toEqual(expected.other);
  });
});
