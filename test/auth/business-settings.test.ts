import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { createApiKey, getBusiness, updateBusiness } from '../support/auth.js';
import {
  json,
  keyClient,
  raw,
  registerBusiness,
  registerTenant,
  type TestBusiness,
} from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import { createBill, createVendor } from '../support/finance.js';
import { createProduct, invoiceLine } from '../support/general.js';
import { createDepartment, uniqueEmployeeEmail } from '../support/hr.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ worker: false });

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** A PATCH /v1/business as sent, for what the typed client would refuse to send. */
const patch = (biz: TestBusiness, body: unknown) =>
  raw(server(), 'PATCH', '/v1/business', { token: biz.accessToken, ...json(body) });

/** The business's row as stored, to prove a refusal wrote nothing. */
const businessRow = (biz: TestBusiness) =>
  server()
    .deps.db.selectFrom('businesses')
    .selectAll()
    .where('id', '=', biz.businessId)
    .executeTakeFirstOrThrow();

describe('GET /v1/business', () => {
  it('answers a new business with USD, UTC, no country, address or tax number, and its plan', async () => {
    const biz = await registerBusiness(server(), 'Kiwi Coffee Ltd');
    const res = await unwrap(biz.client.auth.getBusiness());
    expect(res).toEqual({
      result: 'success',
      data: {
        id: biz.businessId,
        name: 'Kiwi Coffee Ltd',
        base_currency: 'USD',
        timezone: 'UTC',
        country: null,
        address: null,
        tax_number: null,
        payment_instructions: null,
        invoice_reminders: { enabled: true, days_after_due: [0, 7, 14] },
        financial_year_start_month: 1,
        require_two_factor: false,
        plan: 'standard',
        created_at: expect.stringMatching(ISO),
      },
    });
  });

  it('answers a full API key as Bearer with the settings of its own business', async () => {
    const biz = await registerBusiness(server());
    const key = await createApiKey(biz.client, 'full');
    const settings = await getBusiness(keyClient(server(), key.key));
    expect(settings.id).toBe(biz.businessId);
  });
});

describe('PATCH /v1/business', () => {
  it('sets every writable setting and answers the business as it now is; GET agrees', async () => {
    const biz = await registerBusiness(server());
    const res = await unwrap(
      biz.client.auth.updateBusiness({
        body: {
          name: 'Kiwi Coffee Roasters',
          base_currency: 'NZD',
          timezone: 'Pacific/Auckland',
          country: 'NZ',
          address: { line1: '1 Queen St', city: 'Auckland', postal_code: '1010', country: 'NZ' },
          tax_number: 'NZ-123-456-789',
          payment_instructions: 'Direct credit to 12-3456-7890123-00',
          invoice_reminders: { enabled: false, days_after_due: [30, 1] },
          financial_year_start_month: 4,
        },
      }),
    );
    const expected = {
      id: biz.businessId,
      name: 'Kiwi Coffee Roasters',
      base_currency: 'NZD',
      timezone: 'Pacific/Auckland',
      country: 'NZ',
      address: { line1: '1 Queen St', city: 'Auckland', postal_code: '1010', country: 'NZ' },
      tax_number: 'NZ-123-456-789',
      payment_instructions: 'Direct credit to 12-3456-7890123-00',
      invoice_reminders: { enabled: false, days_after_due: [1, 30] },
      financial_year_start_month: 4,
      require_two_factor: false,
      plan: 'standard',
      created_at: expect.stringMatching(ISO),
    };
    expect(res).toEqual({ result: 'success', data: expected });
    expect(await getBusiness(biz.client)).toEqual(expected);
  });

  it('changes only the fields sent', async () => {
    const biz = await registerBusiness(server(), 'Partial Ltd');
    await updateBusiness(biz.client, { base_currency: 'EUR', country: 'IE' });
    const after = await updateBusiness(biz.client, { timezone: 'Europe/Dublin' });
    expect(after).toMatchObject({
      name: 'Partial Ltd',
      base_currency: 'EUR',
      timezone: 'Europe/Dublin',
      country: 'IE',
      address: null,
      tax_number: null,
    });
  });

  it('clears country, address and tax number with null', async () => {
    const biz = await registerBusiness(server());
    await updateBusiness(biz.client, { country: 'GB', address: { city: 'London' }, tax_number: 'GB1' });
    const cleared = await updateBusiness(biz.client, { country: null, address: null, tax_number: null });
    expect(cleared).toMatchObject({ country: null, address: null, tax_number: null });
    expect(await getBusiness(biz.client)).toMatchObject({ country: null, address: null, tax_number: null });
  });

  it('treats an empty body as a no-op: 200 with the settings unchanged', async () => {
    const biz = await registerBusiness(server());
    await updateBusiness(biz.client, { timezone: 'Asia/Tokyo', base_currency: 'JPY' });
    const before = await businessRow(biz);
    const res = await unwrap(biz.client.auth.updateBusiness({ body: {} }));
    expect(res.data).toMatchObject({ timezone: 'Asia/Tokyo', base_currency: 'JPY' });
    expect(await businessRow(biz)).toEqual(before);
  });

  it('stores a time zone in its canonical spelling whatever its case, and accepts IANA aliases', async () => {
    const biz = await registerBusiness(server());
    expect((await updateBusiness(biz.client, { timezone: 'pacific/AUCKLAND' })).timezone).toBe(
      'Pacific/Auckland',
    );
    expect((await updateBusiness(biz.client, { timezone: 'utc' })).timezone).toBe('UTC');
    expect((await updateBusiness(biz.client, { timezone: 'Asia/Kolkata' })).timezone).toBe('Asia/Kolkata');
    expect((await updateBusiness(biz.client, { timezone: 'Etc/GMT-14' })).timezone).toBe('Etc/GMT-14');
  });

  it('trims the name and refuses an empty one (422 on name)', async () => {
    const biz = await registerBusiness(server());
    expect((await updateBusiness(biz.client, { name: '  Trimmed Ltd  ' })).name).toBe('Trimmed Ltd');
    expectResultError(await patch(biz, { name: '   ' }), 422, 'VALIDATION_ERROR', 'name');
  });

  describe('refusals, each changing nothing', () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['an unknown field', { colour: 'teal' }, 'colour'],
      ['the read-only plan', { plan: 'enterprise' }, 'plan'],
      ['the id', { id: 'biz_01JD7X2R5VQ8N3K4M6P9T1W2Y3' }, 'id'],
      ['created_at', { created_at: '2020-01-01T00:00:00.000Z' }, 'created_at'],
      ['an unknown currency', { base_currency: 'XYZ' }, 'base_currency'],
      ['a lower-case currency', { base_currency: 'usd' }, 'base_currency'],
      ['a null currency', { base_currency: null }, 'base_currency'],
      ['an unknown time zone', { timezone: 'Mars/Olympus_Mons' }, 'timezone'],
      ['a UTC offset for a time zone', { timezone: '+13:00' }, 'timezone'],
      ['an abbreviation that is no zone', { timezone: 'NZDT' }, 'timezone'],
      ['an empty time zone', { timezone: '' }, 'timezone'],
      ['a null time zone', { timezone: null }, 'timezone'],
      ['a time zone that is not a string', { timezone: 13 }, 'timezone'],
      ['a three-letter country', { country: 'NZL' }, 'country'],
      ['a lower-case country', { country: 'nz' }, 'country'],
      ['a country with a digit', { country: 'N1' }, 'country'],
      ['an address with an unknown field', { address: { street: '1 Queen St' } }, 'address.street'],
      ['an address with a bad country', { address: { country: 'NZL' } }, 'address.country'],
      ['an empty tax number', { tax_number: '' }, 'tax_number'],
    ];

    it.each(cases)('refuses %s (422 naming the field)', async (_what, body, field) => {
      const biz = await registerBusiness(server());
      await updateBusiness(biz.client, { timezone: 'Pacific/Honolulu', base_currency: 'EUR' });
      const before = await businessRow(biz);
      expectResultError(await patch(biz, body), 422, 'VALIDATION_ERROR', field);
      expect(await businessRow(biz)).toEqual(before);
      expect(await getBusiness(biz.client)).toMatchObject({ timezone: 'Pacific/Honolulu', plan: 'standard' });
    });

    it('refuses a body naming plan beside valid fields, and applies none of them', async () => {
      const biz = await registerBusiness(server());
      const before = await businessRow(biz);
      expectResultError(
        await patch(biz, { timezone: 'Pacific/Auckland', plan: 'enterprise' }),
        422,
        'VALIDATION_ERROR',
        'plan',
      );
      expect(await businessRow(biz)).toEqual(before);
    });
  });

  it("keeps businesses apart: one business's change is not another's", async () => {
    const a = await registerBusiness(server(), 'Alpha');
    const b = await registerBusiness(server(), 'Beta');
    await updateBusiness(a.client, { base_currency: 'GBP', timezone: 'Europe/London', country: 'GB' });
    expect(await getBusiness(b.client)).toMatchObject({
      id: b.businessId,
      name: 'Beta',
      base_currency: 'USD',
      timezone: 'UTC',
      country: null,
    });
    expect(await getBusiness(a.client)).toMatchObject({
      id: a.businessId,
      name: 'Alpha',
      base_currency: 'GBP',
    });
  });
});

describe('the base currency is the default wherever a currency is optional', () => {
  it('applies to invoices, quotes, products, employees, bills, journal entries and the VAT threshold', async () => {
    const biz = await registerTenant(server());
    await updateBusiness(biz.client, { base_currency: 'NZD' });
    const { general, hr, finance } = biz.client;

    const invoice = await unwrap(
      general.invoices.createInvoice({
        body: { customer_id: biz.customerId, due_date: '2026-12-31', items: [invoiceLine()] },
      }),
    );
    expect(invoice.data.currency).toBe('NZD');

    const quote = await unwrap(
      general.quotes.createQuote({
        body: { customer_id: biz.customerId, valid_until: '2026-12-31', items: [invoiceLine()] },
      }),
    );
    expect(quote.data.currency).toBe('NZD');

    expect((await createProduct(biz.client)).currency).toBe('NZD');

    const department = await createDepartment(biz.client);
    const employee = await unwrap(
      hr.employees.createEmployee({
        body: {
          first_name: 'Kate',
          last_name: 'Sheppard',
          email: uniqueEmployeeEmail(),
          position: 'Roaster',
          department_id: department.id,
          hire_date: '2026-01-05',
          salary: 600000,
        },
      }),
    );
    expect(employee.employee.currency).toBe('NZD');

    const vendor = await createVendor(biz.client);
    const bill = await unwrap(
      finance.bills.createBill({
        body: {
          vendor_id: vendor.id,
          due_date: '2026-12-31',
          items: [{ description: 'Green beans', quantity: 1, unit_price: 5000 }],
        },
      }),
    );
    expect(bill.bill.currency).toBe('NZD');

    const entry = await unwrap(
      finance.journal.createJournalEntry({
        body: {
          date: '2026-11-25',
          description: 'Owner funds',
          debits: [{ account: '1010', amount: 1000 }],
          credits: [{ account: '1000', amount: 1000 }],
        },
      }),
    );
    expect(entry.entry.currency).toBe('NZD');

    const vat = await unwrap(
      finance.vat.createVatThreshold({
        body: {
          country: 'NZ',
          thresholdAmount: 6000000,
          periodType: 'rolling_12_months',
          alertAtPercentage: 80,
          alertEmail: 'accounts@example.com',
        },
      }),
    );
    expect(vat.data.currency).toBe('NZD');
  });

  it('keeps a currency that is sent, and documents made before a change keep theirs', async () => {
    const biz = await registerTenant(server());
    // A draft: once the journal holds an entry, the base currency is fixed (docs/decisions.md D278).
    const before = await createBill(biz.client, { currency: 'USD', status: 'draft' });
    await updateBusiness(biz.client, { base_currency: 'JPY' });
    expect((await createProduct(biz.client, { currency: 'EUR' })).currency).toBe('EUR');
    expect((await createProduct(biz.client, { price: 2450 })).currency).toBe('JPY');
    const reread = await unwrap(biz.client.finance.bills.getBill({ params: { id: before.id } }));
    expect(reread.bill.currency).toBe('USD');
  });

  it('follows a change at once: the next document takes the new base currency', async () => {
    const biz = await registerTenant(server());
    const create = async () =>
      (
        await unwrap(
          biz.client.general.invoices.createInvoice({
            body: { customer_id: biz.customerId, due_date: '2026-12-31', items: [invoiceLine()] },
          }),
        )
      ).data.currency;
    expect(await create()).toBe('USD');
    await updateBusiness(biz.client, { base_currency: 'EUR' });
    expect(await create()).toBe('EUR');
    await updateBusiness(biz.client, { base_currency: 'GBP' });
    expect(await create()).toBe('GBP');
  });

  it('is the reports currency when none is asked for', async () => {
    const biz = await registerTenant(server());
    await updateBusiness(biz.client, { base_currency: 'AUD' });
    const { finance } = biz.client;
    const trial = await unwrap(finance.accounts.getTrialBalance({ query: {} }));
    expect(trial.data.currency).toBe('AUD');
    const schedule = await unwrap(
      finance.reports.getSalesSchedule({ query: { startDate: '2026-01-01', endDate: '2026-12-31' } }),
    );
    expect(schedule.data.summary.currency).toBe('AUD');
    const metrics = await unwrap(finance.reports.getRevenueCalculator({ query: { asOfDate: '2026-11-25' } }));
    expect(metrics.data.currency).toBe('AUD');
    const pnl = await unwrap(
      finance.reports.getProfitLoss({ query: { start_date: '2026-01-01', end_date: '2026-12-31' } }),
    );
    expect(pnl.data.currency).toBe('AUD');
  });
});
