import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { OPENAPI_PATH } from '../../server/app.js';
import { registerShop, signedInMember, signInTo, uniqueEmail } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import {
  BAD_DATE_TIMES,
  captureServerErrors,
  dateTimeFieldsOf,
  dateTimeRequests,
  fuzzSettings,
  generateRequests,
  groupViolations,
  loadOperations,
  reportOf,
  slowestOperations,
  runRequests,
  seedOf,
  sharesOf,
  shuffle,
  type Credentials,
  type FuzzContext,
  type FuzzRequest,
  type Operation,
  type Outcome,
  type SeededCollection,
} from '../support/fuzz.js';
import { useReceivers } from '../support/receiver.js';
import { useTestServer } from '../support/setup.js';
import { waitFor } from '../support/wait.js';
import { itemAt } from '../support/expect.js';
import { MARKETING_ENV, TRUSTED_DOMAIN } from '../support/marketing.js';

const UNLIMITED = '1000000000';

const server = useTestServer({
  env: {
    RATE_LIMITS: `free:${UNLIMITED},standard:${UNLIMITED},enterprise:${UNLIMITED}`,
    ANONYMOUS_RATE_LIMIT: UNLIMITED,
    REGISTER_RATE_LIMIT: UNLIMITED,
    SIGNIN_MAX_FAILURES: UNLIMITED,
    WEBHOOK_ALLOW_PRIVATE: 'true',
    WEBHOOK_TIMEOUT_MS: '2000',
    ...MARKETING_ENV,
  },
});
const startReceiver = useReceivers();

const { requests: REQUESTS, seed: SEED, concurrency: CONCURRENCY } = fuzzSettings();

/** Operations that revoke the credential they are called with. */
const REVOKES_OWN_CREDENTIAL = new Set(['logout']);

/**
 * Requests run in phases so that deletions do not remove the rows the other requests should find:
 * everything else, then deletions by id, then collection-wide deletions, then sign-out.
 */
function phaseOf(op: Operation): number {
  if (REVOKES_OWN_CREDENTIAL.has(op.id)) return 3;
  if (op.method === 'DELETE') return op.path.length ? 1 : 2;
  return 0;
}

const operations = loadOperations(OPENAPI_PATH);

interface Seeded {
  credentials: Credentials;
  /** Real ids by collection, as `collectionOf` names them. */
  ids: Record<SeededCollection, string[]>;
  emails: string[];
  password: string;
  skus: string[];
}

/**
 * A business with one of everything: customers, a product, invoices in each state, a loyalty
 * program with a tier, a reward, a member, a redemption (its voucher) and a reminder, a webhook
 * with a delivery, spare API keys (the fuzzer may revoke those, never the keys it uses) and two team
 * members besides the owner (the fuzzer may change their roles or remove them).
 */
async function seedBusiness(hookUrl: string): Promise<Seeded> {
  const shop = await registerShop(server());
  const { auth, finance, general, hr, loyalty, marketing, webhooks } = shop.client;
  const fullKey = (await unwrap(auth.createApiKey({ body: { name: 'Backend', scope: 'full' } }))).data.key;
  const spareKeys: string[] = [];
  for (const name of ['Spare 1', 'Spare 2']) {
    spareKeys.push((await unwrap(auth.createApiKey({ body: { name } }))).data.id);
  }
  // Two more sign-ins of the owner: sessions the fuzz may end (its own token is never one).
  for (let i = 0; i < 2; i++) await signInTo(server(), shop);
  const spareSessions = (await unwrap(auth.listSessions())).data.filter((s) => !s.current).map((s) => s.id);

  const emails = [uniqueEmail('ada'), uniqueEmail('grace')];
  const customers: string[] = [];
  for (const [i, email] of emails.entries()) {
    const body = {
      name: i === 0 ? 'Ada Lovelace' : 'Grace Hopper',
      email,
      address: { line1: '1 Main St', city: 'Springfield', postal_code: '12345', country: 'US' },
      attributes: { segment: 'vip' },
    };
    customers.push((await unwrap(general.customers.createCustomer({ body }))).data.id);
  }
  const sku = `FZ-${randomBytes(4).toString('hex')}`;
  const product = (
    await unwrap(general.products.createProduct({ body: { name: 'Widget', sku, price: 19.99, stock: 100 } }))
  ).data;
  const newInvoice = async () =>
    (
      await unwrap(
        general.invoices.createInvoice({
          body: {
            customer_id: itemAt(customers, 0),
            items: [{ product_id: product.id, quantity: 2, tax_rate: 20 }],
            due_date: '2030-01-31',
          },
        }),
      )
    ).data;
  const draft = await newInvoice();
  const issued = await newInvoice();
  await unwrap(general.invoices.issueInvoice({ params: { id: issued.id } }));
  const paid = await newInvoice();
  await unwrap(general.invoices.issueInvoice({ params: { id: paid.id } }));
  await unwrap(
    general.invoices.createPayment({
      params: { id: paid.id },
      body: { amount: paid.total, payment_method: 'cash' },
    }),
  );

  const creditNotes: string[] = [];
  for (const invoice of [issued, paid]) {
    const note = (
      await unwrap(
        general.creditNotes.createCreditNote({
          body: {
            invoice_id: invoice.id,
            amount: 1,
            reason: 'Goodwill',
            credit_amount: invoice.id === issued.id ? 1 : 0,
            refund_amount: 0,
            customer_credit_amount: invoice.id === issued.id ? 0 : 1,
          },
        }),
      )
    ).data;
    creditNotes.push(note.id);
  }

  // Recurring invoices: one active, one paused, far enough ahead that no period falls during the run.
  const recurringInvoices: string[] = [];
  for (const paused of [false, true]) {
    const schedule = (
      await unwrap(
        general.recurringInvoices.createRecurringInvoice({
          body: {
            customer_id: customers[0]!,
            items: [{ description: 'Support', quantity: 1, unit_price: 100 }],
            interval: 'month',
            start_date: '2099-01-31',
          },
        }),
      )
    ).data;
    if (paused)
      await unwrap(general.recurringInvoices.pauseRecurringInvoice({ params: { id: schedule.id } }));
    recurringInvoices.push(schedule.id);
  }

  const quotes: string[] = [];
  for (const status of ['draft', 'sent', 'accepted'] as const) {
    const quote = (
      await unwrap(
        general.quotes.createQuote({
          body: {
            customer_id: itemAt(customers, 0),
            items: [{ product_id: product.id, quantity: 2, tax_rate: 20 }],
            valid_until: '2099-12-31',
          },
        }),
      )
    ).data;
    if (status !== 'draft') await unwrap(general.quotes.sendQuote({ params: { id: quote.id }, body: {} }));
    if (status === 'accepted') await unwrap(general.quotes.acceptQuote({ params: { id: quote.id } }));
    quotes.push(quote.id);
  }

  const tier = (
    await unwrap(loyalty.tiers.createTier({ body: { name: 'Gold', minPoints: 1000, color: '#FFD700' } }))
  ).data;
  const reward = (
    await unwrap(
      loyalty.rewards.createReward({ body: { name: 'Free coffee', pointsCost: 100, rewardType: 'voucher' } }),
    )
  ).data;
  // The program enrolls customers with an email automatically.
  const members = (await unwrap(loyalty.members.listMembers({ query: {} }))).data;
  const member = members.find((m) => m.customerId === customers[0])!;
  await unwrap(
    loyalty.transactions.adjustPoints({
      body: { memberId: member.publicId, points: 100_000, description: 'Seed' },
    }),
  );
  const redemption = (
    await unwrap(
      loyalty.redemptions.createRedemption({
        body: { memberId: member.publicId, rewardId: reward.publicId },
      }),
    )
  ).data;
  const reminder = (
    await unwrap(loyalty.reminders.createReminder({ body: { name: 'Come back', intervalDays: 30 } }))
  ).data;

  const department = (await unwrap(hr.departments.createDepartment({ body: { name: 'Engineering' } })))
    .department;
  const emptyDepartment = (await unwrap(hr.departments.createDepartment({ body: { name: 'Empty' } })))
    .department;
  const employees: string[] = [];
  for (const [i, status] of (['active', 'on_leave', 'inactive'] as const).entries()) {
    const body = {
      first_name: 'Grace',
      last_name: `Hopper ${i}`,
      email: uniqueEmail(`staff${i}`),
      department_id: department.id,
      position: 'Engineer',
      hire_date: '2024-03-01',
      salary: 850_000,
      status,
    };
    employees.push((await unwrap(hr.employees.createEmployee({ body }))).employee_id);
  }
  // Annual leave tracked (so requests meet balances), a type of the business's own, a holiday.
  const types = (await unwrap(hr.leaveTypes.listLeaveTypes({ query: {} }))).leave_types;
  const annual = types.find((t) => t.name === 'annual')!;
  await unwrap(
    hr.leaveTypes.updateLeaveType({
      params: { id: annual.id },
      body: { days_per_year: 25, accrual: 'monthly', carry_over_max: 5 },
    }),
  );
  const study = (
    await unwrap(
      hr.leaveTypes.createLeaveType({ body: { name: 'study', days_per_year: 5, allow_negative: true } }),
    )
  ).leave_type;
  const holiday = (
    await unwrap(hr.holidays.createHoliday({ body: { date: '2027-01-01', name: "New Year's Day" } }))
  ).holiday;
  const leaves: string[] = [];
  for (const [i, start] of ['2027-01-04', '2027-02-01', '2027-03-01'].entries()) {
    const body = {
      employee_id: itemAt(employees, 0),
      type: 'annual' as const,
      start_date: start,
      end_date: start,
    };
    const leave = (await unwrap(hr.leaves.createLeave({ body }))).leave;
    if (i === 1)
      await unwrap(hr.leaves.updateLeave({ params: { id: leave.id }, body: { status: 'approved' } }));
    leaves.push(leave.id);
  }

  const vendor = (
    await unwrap(finance.vendors.createVendor({ body: { name: 'Acme Supplies', currency: 'USD' } }))
  ).vendor;
  const newBill = async (status?: 'draft') =>
    (
      await unwrap(
        finance.bills.createBill({
          body: {
            vendor_id: vendor.id,
            items: [{ description: 'Paper', quantity: 2, unit_price: 2_500 }],
            currency: 'USD',
            due_date: '2030-01-31',
            ...(status && { status }),
          },
        }),
      )
    ).bill_id;
  const draftBill = await newBill('draft');
  const pendingBill = await newBill();
  const paidBill = await newBill();
  await unwrap(
    finance.bills.payBill({
      params: { id: paidBill },
      body: { amount: 5_000, payment_method: 'bank_transfer', payment_date: '2026-11-30' },
    }),
  );
  const bankAccount = (
    await unwrap(
      finance.bankAccounts.createBankAccount({
        body: {
          name: 'Current account',
          currency: 'USD',
          opening_balance: 100_000,
          opening_date: '2026-11-01',
        },
      }),
    )
  ).bank_account.id;
  // A statement of three lines: one matched to the paid bill's payment, one categorised, one left.
  const statement = [
    'Date,Details,Amount',
    '2026-11-30,ACME SUPPLIES,-50.00',
    '2026-12-01,Monthly fee,-2.50',
    '2026-12-02,Customer transfer,120.00',
  ].join('\n');
  await unwrap(
    finance.bankAccounts.importStatement({
      params: { id: bankAccount },
      query: { mapping: JSON.stringify({ date: 'Date', description: 'Details', amount: 'Amount' }) },
      body: { file: new File([statement], 'statement.csv', { type: 'text/csv' }) },
    }),
  );
  const bankTransactions = (
    await unwrap(finance.bankTransactions.listBankTransactions({ query: { bank_account_id: bankAccount } }))
  ).bank_transactions.map((line) => line.id);
  await unwrap(
    finance.bankTransactions.categoriseBankTransaction({
      params: { id: itemAt(bankTransactions, 1) },
      body: { account_code: '5000' },
    }),
  );
  const bankRule = (
    await unwrap(
      finance.bankRules.createBankRule({ body: { description_contains: 'transfer', account_code: '4000' } }),
    )
  ).bank_rule.id;
  const recurringBill = (
    await unwrap(
      finance.recurringBills.createRecurringBill({
        body: {
          vendor_id: vendor.id,
          items: [{ description: 'Rent', quantity: 1, unit_price: 120_000 }],
          interval: 'month',
          start_date: '2099-01-31',
        },
      }),
    )
  ).recurring_bill.id;

  const vat = (
    await unwrap(
      finance.vat.createVatThreshold({
        body: {
          country: 'GB',
          thresholdAmount: 9_000_000,
          currency: 'USD',
          periodType: 'rolling_12_months',
          alertAtPercentage: 80,
          alertEmail: 'accounts@example.com',
        },
      }),
    )
  ).data;

  // Marketing: a pending and a trusted domain, a filtered and a listed segment, a template.
  const domains = [
    (
      await unwrap(
        marketing.domains.createDomain({
          body: { domain: `fz-${randomBytes(4).toString('hex')}.example.com` },
        }),
      )
    ).domain.id,
    (await unwrap(marketing.domains.createDomain({ body: { domain: TRUSTED_DOMAIN } }))).domain.id,
  ];
  const segments = [
    (
      await unwrap(
        marketing.segments.createSegment({
          body: {
            name: 'VIP',
            filters: {
              match: 'all',
              conditions: [{ field: 'attributes.segment', operator: 'eq', value: 'vip' }],
            },
          },
        }),
      )
    ).segment_id,
    (await unwrap(marketing.segments.createSegment({ body: { name: 'Listed', contact_ids: customers } })))
      .segment_id,
  ];
  const template = (
    await unwrap(
      marketing.templates.createTemplate({
        body: {
          name: 'Welcome',
          subject: 'Hello {{first_name}}',
          html_body: '<p>Hello {{first_name}}</p>',
          from_email: `news@${TRUSTED_DOMAIN}`,
        },
      }),
    )
  ).template_id;
  // A draft campaign, and one that has started sending (to the listed segment).
  const campaigns = [
    (
      await unwrap(
        marketing.campaigns.createCampaign({
          body: { name: 'Draft', template_id: template, segment_id: segments[0]! },
        }),
      )
    ).campaign_id,
    (
      await unwrap(
        marketing.campaigns.createCampaign({
          body: { name: 'Sent', template_id: template, segment_id: segments[1]! },
        }),
      )
    ).campaign_id,
  ];
  await unwrap(marketing.campaigns.sendCampaign({ params: { id: campaigns[1]! } }));

  const teamEmails: string[] = [];
  for (const role of ['viewer', 'accountant'] as const) {
    teamEmails.push((await signedInMember(server(), shop, role)).email);
  }
  const team = (await unwrap(shop.client.team.getTeam())).data.members
    .filter((m) => teamEmails.includes(m.email))
    .map((m) => m.userId);
  // Pending invitations the fuzzer may resend, read the link of or revoke.
  const invitations: string[] = [];
  for (const label of ['fuzz-invited', 'fuzz-invited-too']) {
    const body = { email: uniqueEmail(label), role: 'viewer' as const };
    invitations.push((await unwrap(shop.client.team.inviteMember({ body }))).data.id);
  }

  const webhook = await unwrap(
    webhooks.createWebhook({ body: { url: hookUrl, events: ['customer.created', 'invoice.created'] } }),
  );
  await unwrap(general.customers.createCustomer({ body: { name: 'Hook Trigger' } }));
  const deliveries = await waitFor('a webhook delivery', async () => {
    const { deliveries } = await unwrap(webhooks.listDeliveries({ params: { id: webhook.id }, query: {} }));
    return deliveries.length > 0 && deliveries;
  });

  return {
    credentials: { accessToken: shop.accessToken, fullKey, publicKey: shop.apiKey },
    ids: {
      'api-keys': spareKeys,
      sessions: spareSessions,
      customers,
      products: [product.id],
      invoices: [draft.id, issued.id, paid.id],
      webhooks: [String(webhook.id)],
      deliveries: deliveries.map((d) => d.deliveryId),
      tiers: [tier.publicId],
      rewards: [reward.publicId],
      members: [member.publicId],
      redemptions: [redemption.publicId],
      reminders: [reminder.publicId],
      vouchers: redemption.voucherCode ? [redemption.voucherCode] : [],
      departments: [department.id, emptyDepartment.id],
      employees,
      leaves,
      'leave-types': [annual.id, study.id, ...types.map((t) => t.id)],
      'leave-entitlements': ['annual', 'study', study.id],
      holidays: [holiday.id],
      vendors: [vendor.id],
      bills: [draftBill, pendingBill, paidBill],
      vatThreshold: [vat.publicId],
      quotes,
      'credit-notes': creditNotes,
      'recurring-invoices': recurringInvoices,
      'recurring-bills': [recurringBill],
      'bank-accounts': [bankAccount],
      'bank-transactions': bankTransactions,
      'bank-rules': [bankRule],
      domains,
      segments,
      templates: [template],
      campaigns,
      team,
      invitations,
      business_id: [shop.businessId],
    },
    emails,
    password: shop.password,
    skus: [sku],
  };
}

function contextOf(own: Seeded, other: Seeded, hookUrl: string): FuzzContext {
  const { ids } = own;
  return {
    own: own.credentials,
    other: other.credentials,
    ids,
    foreignIds: Object.values(other.ids).flat(),
    hints: {
      customer_id: ids.customers,
      department_id: ids.departments,
      employee_id: ids.employees,
      head: ids.employees,
      vendor_id: ids.vendors,
      bank_account_id: ids['bank-accounts'],
      bill_id: ids.bills,
      account: ['1000', '1010', '2000', '4000', '5000'],
      customerId: ids.customers,
      customerIds: ids.customers,
      contact_ids: ids.customers,
      template_id: ids.templates,
      segment_id: ids.segments,
      campaign_id: ids.campaigns,
      product_id: ids.products,
      invoice_id: ids.invoices,
      memberId: ids.members,
      rewardId: ids.rewards,
      tierId: ids.tiers,
      tier: ids.tiers,
      email: own.emails,
      password: [own.password],
      sku: own.skus,
      currency: ['USD', 'EUR', 'JPY', 'KWD'],
      base_currency: ['USD', 'EUR', 'JPY', 'KWD'],
      timezone: ['Pacific/Auckland', 'Pacific/Honolulu', 'UTC', 'Europe/London'],
      url: [hookUrl, `${hookUrl}/other`],
    },
  };
}

describe('schema-driven fuzzing of every operation in openapi.json', () => {
  it('reads every operation of the document, with its parameters, body and authentication', () => {
    const byId = new Map(operations.map((op) => [op.id, op]));
    expect(operations.length).toBeGreaterThan(50);
    expect(byId.get('register')).toMatchObject({ method: 'POST', auth: 'none' });
    expect(byId.get('createApiKey')).toMatchObject({ auth: 'user' });
    expect(byId.get('publicEarn')).toMatchObject({ auth: 'apiKey' });
    expect(byId.get('createPayment')).toMatchObject({
      template: '/v1/invoices/{id}/payments',
      auth: 'token',
      path: [expect.objectContaining({ name: 'id' })],
      headers: [expect.objectContaining({ name: 'idempotency-key' })],
      body: expect.objectContaining({ required: ['amount', 'payment_method'] }),
    });
    expect(byId.get('listInvoices')?.query.map((p) => p.name)).toContain('customer_id');
  });

  it('finds every date-time field of the document, in bodies and in query strings', () => {
    const found = operations.flatMap((op) => {
      const { body, query } = dateTimeFieldsOf(op);
      return [
        ...body.map((path) => `${op.id} ${path.join('.')}`),
        ...query.map((name) => `${op.id} ?${name}`),
      ];
    });
    expect(found).toEqual(
      expect.arrayContaining([
        'advanceClock advance_to',
        'scheduleCampaign scheduled_at',
        'listAuditLog ?from',
        'listAuditLog ?to',
      ]),
    );
    expect(BAD_DATE_TIMES.map(([, value]) => value)).toEqual(
      expect.arrayContaining([
        '2026-11-29T05:02:02.866+99:00',
        '2027-01-01T00:00:00+24:00',
        '2027-01-01T00:00:00-99:59',
        '2027-01-01T00:00:00+00:60',
      ]),
    );
  });

  it('answers every generated request below 500, and every 4xx in the error envelope of its path', async () => {
    const started = Date.now();
    const receiver = await startReceiver(() => ({ status: 204 }));
    const hookUrl = `http://127.0.0.1:${receiver.port}/hook`;
    const own = await seedBusiness(hookUrl);
    const other = await seedBusiness(hookUrl);
    const ctx = contextOf(own, other, hookUrl);

    const phases: FuzzRequest[][] = [[], [], [], []];
    // Besides the random share: every impossible date-time in every date-time field, 422 each.
    let dateTimes = 0;
    for (const [op, count] of sharesOf(operations, REQUESTS)) {
      const impossible = dateTimeRequests(op, ctx, seedOf(op, SEED));
      dateTimes += impossible.length;
      itemAt(phases, phaseOf(op)).push(...generateRequests(op, ctx, count, seedOf(op, SEED)), ...impossible);
    }
    expect(dateTimes).toBeGreaterThanOrEqual(4 * BAD_DATE_TIMES.length);
    const generated = Date.now();

    const errors = captureServerErrors(server());
    const outcomes: Outcome[] = [];
    try {
      for (const [i, phase] of phases.entries()) {
        outcomes.push(
          ...(await runRequests(server().baseUrl, shuffle(phase, SEED + i), {
            concurrency: CONCURRENCY,
            errors,
            firstId: outcomes.length,
          })),
        );
      }
    } finally {
      errors.restore();
    }

    const report = reportOf(outcomes);
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    console.log(
      [
        `fuzz: seed ${SEED} (FUZZ_SEED), ${outcomes.length} requests (FUZZ_REQUESTS) over ${operations.length} ` +
          `operations, ${CONCURRENCY} in flight, ${onPostgres ? 'PostgreSQL' : 'PGlite'}; set-up and generation ` +
          `${seconds(generated - started)}, sending ${seconds(Date.now() - generated)}`,
        `fuzz: status histogram ${JSON.stringify(report.histogram)}`,
        `fuzz: the operations that took longest, in all: ${slowestOperations(outcomes).join('; ')}`,
        ...(report.failures.length ? [report.text] : []),
      ].join('\n'),
    );
    const violations = groupViolations(server().violations, operations);
    if (violations.length) {
      console.log(
        `fuzz: ${server().violations.length} responses do not match openapi.json (fails the file):\n${violations.join('\n')}`,
      );
    }

    expect(outcomes).toHaveLength(REQUESTS + dateTimes);
    expect(
      report.failures,
      `reproduce with FUZZ_SEED=${SEED} FUZZ_REQUESTS=${REQUESTS} (FUZZ_CONCURRENCY=1 for a fixed order)`,
    ).toEqual([]);
  }, 480_000);
});
