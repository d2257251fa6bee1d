import { currencyExponent } from '../../contract/common/currencies.js';
import type { CreateCustomerBody } from '../../contract/general/customers.js';
import type { Invoice, InvoiceItemInput, PAYMENT_METHODS } from '../../contract/general/invoices.js';
import { addDays, today } from '../platform/calendar.js';
import type { DemoSeed } from '../platform/module.js';
import { toMajor, toMinor } from '../platform/money.js';
import { baseCurrency } from '../platform/settings.js';
import { createCreditNote } from './credit-notes/service.js';
import { createCustomer } from './customers/service.js';
import { createInvoice, issueInvoice, recordPayment, voidInvoice } from './invoices/service.js';
import { createProduct } from './products/service.js';
import * as quotes from './quotes/service.js';
import { createRecurringInvoice } from './recurring-invoices/service.js';

/**
 * The general group's part of the demo business (`POST /v1/sandbox/reset {"seed": true}`): a small
 * coffee roaster's customers, products, 18 months of invoices (most paid some days after issue, a few
 * partly paid, recent ones open and some of them past due, two voided) and quotes in every state, one
 * converted to an invoice. Everything goes through the services, each at the time it happened, so the
 * ledger, the sales totals and every report follow from the services' own hooks.
 */

const DAY = 86_400_000;
const MINUTE = 60_000;

interface DemoCustomer {
  body: CreateCustomerBody;
  /** Days the customer's invoices are due after issue. */
  terms: number;
  /** Relative weight of the customer in the order book: regulars order more often. */
  weight: number;
}

const address = (line1: string, city: string, postal_code: string, country: string) => ({
  line1,
  city,
  postal_code,
  country,
});

const CUSTOMERS: DemoCustomer[] = [
  {
    body: {
      name: 'Amelia Hart',
      email: 'amelia@northsidecafe.example.com',
      company: 'Northside Café',
      phone: '+44 20 7946 0101',
      address: address('14 Canal Street', 'Manchester', 'M1 3HE', 'GB'),
    },
    terms: 30,
    weight: 6,
  },
  {
    body: {
      name: 'Ben Okafor',
      email: 'ben@grindhouse.example.com',
      company: 'Grindhouse Espresso Bar',
      address: address('2 Market Row', 'Leeds', 'LS1 6DT', 'GB'),
    },
    terms: 30,
    weight: 5,
  },
  {
    body: {
      name: 'Chloe Martin',
      email: 'office@brightdesk.example.org',
      company: 'Brightdesk Coworking',
      phone: '+44 161 496 0202',
      address: address('88 Deansgate', 'Manchester', 'M3 2ER', 'GB'),
    },
    terms: 30,
    weight: 5,
  },
  {
    body: { name: 'Daniel Novak', email: 'daniel.novak@example.com', phone: '+44 7700 900301' },
    terms: 14,
    weight: 1,
  },
  {
    body: {
      name: 'Emma Lindqvist',
      email: 'emma@larkbakery.example.net',
      company: 'Lark Bakery',
      address: address('5 Church Lane', 'York', 'YO1 8BN', 'GB'),
    },
    terms: 30,
    weight: 4,
  },
  {
    body: { name: 'Farah Siddiqui', email: 'farah.siddiqui@example.com', company: 'Siddiqui Events' },
    terms: 14,
    weight: 2,
  },
  {
    body: {
      name: 'George Whitfield',
      email: 'procurement@whitfieldhotels.example.com',
      company: 'Whitfield Hotels',
      phone: '+44 113 496 0404',
      address: address('1 Park Square', 'Leeds', 'LS1 2NE', 'GB'),
    },
    terms: 30,
    weight: 4,
  },
  { body: { name: 'Hana Tanaka', email: 'hana.tanaka@example.org' }, terms: 14, weight: 1 },
  {
    body: {
      name: 'Isaac Mensah',
      email: 'isaac@mensahdeli.example.com',
      company: 'Mensah Deli',
      address: address('23 High Street', 'Sheffield', 'S1 2GD', 'GB'),
    },
    terms: 14,
    weight: 3,
  },
  {
    body: { name: 'Julia Costa', email: 'julia.costa@example.net', phone: '+44 7700 900505' },
    terms: 14,
    weight: 1,
  },
  {
    body: {
      name: 'Kieran Walsh',
      email: 'kieran@walshandco.example.com',
      company: 'Walsh & Co Solicitors',
      address: address('9 King Street', 'Manchester', 'M2 4LQ', 'GB'),
    },
    terms: 30,
    weight: 2,
  },
  { body: { name: 'Lena Fischer', email: 'lena.fischer@example.com' }, terms: 14, weight: 1 },
  {
    body: {
      name: 'Marcus Reid',
      email: 'marcus@reidfitness.example.org',
      company: 'Reid Fitness Studio',
    },
    terms: 30,
    weight: 2,
  },
  {
    body: { name: 'Nadia Haddad', email: 'nadia.haddad@example.com', phone: '+44 7700 900606' },
    terms: 14,
    weight: 1,
  },
  {
    body: {
      name: 'Oliver Brooks',
      email: 'oliver@brookscatering.example.com',
      company: 'Brooks Catering',
      address: address('41 Station Road', 'Harrogate', 'HG1 1TT', 'GB'),
    },
    terms: 30,
    weight: 3,
  },
  { body: { name: 'Priya Shah', email: 'priya.shah@example.net' }, terms: 14, weight: 1 },
  {
    body: {
      name: 'Quentin Moreau',
      email: 'quentin@moreaubistro.example.com',
      company: 'Moreau Bistro',
    },
    terms: 30,
    weight: 3,
  },
  { body: { name: 'Rosa Jiménez', email: 'rosa.jimenez@example.org' }, terms: 14, weight: 1 },
  {
    body: {
      name: 'Samuel Adeyemi',
      email: 'facilities@adeyemitech.example.com',
      company: 'Adeyemi Tech',
      phone: '+44 114 496 0707',
      address: address('3 Kelham Island', 'Sheffield', 'S3 8RY', 'GB'),
    },
    terms: 30,
    weight: 3,
  },
  { body: { name: 'Tara Byrne', email: 'tara.byrne@example.com' }, terms: 14, weight: 1 },
  {
    body: {
      name: 'Umar Farouk',
      email: 'umar@theplantshop.example.net',
      company: 'The Plant Shop',
    },
    terms: 14,
    weight: 2,
  },
  { body: { name: 'Vera Petrova', email: 'vera.petrova@example.com' }, terms: 14, weight: 1 },
  {
    body: {
      name: 'William Chen',
      email: 'william@chenarchitects.example.com',
      company: 'Chen Architects',
      address: address('17 Albion Street', 'Leeds', 'LS1 5ES', 'GB'),
    },
    terms: 30,
    weight: 2,
  },
  {
    body: { name: 'Yasmin Ali', email: 'yasmin.ali@example.org', phone: '+44 7700 900808' },
    terms: 14,
    weight: 1,
  },
];

interface DemoProduct {
  name: string;
  sku: string;
  /** Price in hundredths of the currency's major unit (2450 is 24.50 USD); see `priceIn`. */
  cents: number;
  stock?: number;
  description?: string;
  /** How many a customer orders at once: [least, most]. */
  quantity: [number, number];
}

const PRODUCTS: DemoProduct[] = [
  { name: 'House espresso beans 1kg', sku: 'BEAN-ESP-1KG', cents: 2450, stock: 140, quantity: [2, 12] },
  { name: 'Single origin Ethiopia 250g', sku: 'BEAN-ETH-250', cents: 1150, stock: 90, quantity: [2, 10] },
  { name: 'Decaf Colombia 500g', sku: 'BEAN-DEC-500', cents: 1390, stock: 60, quantity: [1, 6] },
  { name: 'Ceramic mug', sku: 'MUG-CER-01', cents: 1200, stock: 75, quantity: [1, 12] },
  { name: 'Pour-over kettle', sku: 'KET-PO-1L', cents: 6400, stock: 18, quantity: [1, 2] },
  { name: 'Burr grinder', sku: 'GRN-BURR-01', cents: 18900, stock: 9, quantity: [1, 1] },
  { name: 'Paper filters (100)', sku: 'FLT-100', cents: 650, stock: 300, quantity: [2, 20] },
  { name: 'Cold brew concentrate 1L', sku: 'CB-CONC-1L', cents: 2200, stock: 40, quantity: [2, 8] },
  {
    name: 'Barista training (half day)',
    sku: 'SVC-TRAIN-HD',
    cents: 45000,
    description: 'On-site training for up to four staff: extraction, milk and workflow.',
    quantity: [1, 1],
  },
  {
    name: 'Espresso machine service',
    sku: 'SVC-MAINT',
    cents: 18000,
    description: 'Descale, gaskets and calibration; parts invoiced separately.',
    quantity: [1, 2],
  },
  {
    name: 'Event coffee catering (per guest)',
    sku: 'SVC-CATER',
    cents: 950,
    description: 'Barista and mobile espresso bar, priced per guest.',
    quantity: [25, 120],
  },
  {
    name: 'Coffee menu consulting (hour)',
    sku: 'SVC-CONSULT',
    cents: 12000,
    description: 'Menu, sourcing and pricing advice, billed by the hour.',
    quantity: [2, 6],
  },
];

type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** How customers pay: mostly by transfer or card, into the bank. */
const METHOD_SHARES: [PaymentMethod, number][] = [
  ['bank_transfer', 0.5],
  ['card', 0.25],
  ['check', 0.1],
  ['cash', 0.1],
  ['mobile_money', 0.05],
];

/** VAT on every line of the demo, in percent. */
const TAX_RATE = 20;
const MONTHS = 18;
/**
 * Invoices in the first and the last month of the demo (the months between grow evenly): each
 * costs some thirty statements, most of the seed's time.
 */
const FIRST_MONTH = 8;
const LAST_MONTH = 12;

/**
 * A price given in hundredths as a major amount the currency can hold: 24.50 in a two-decimal
 * currency, 2450 in one without decimals (where hundredths would be too little money).
 */
function priceIn(cents: number, currency: string): number {
  const decimals = Math.min(currencyExponent(currency), 2);
  return cents / 10 ** decimals;
}

/** The instant `months` calendar months before `now`. */
function monthsBefore(now: Date, months: number): Date {
  const at = new Date(now);
  at.setUTCMonth(at.getUTCMonth() - months);
  return at;
}

/** A moment of the working day (09:00-17:00 UTC) `days` after `from`. */
function workingMoment(seed: DemoSeed, from: Date, days: number): Date {
  const at = new Date(from.getTime() + Math.floor(days) * DAY);
  at.setUTCHours(9 + Math.floor(seed.random() * 8), Math.floor(seed.random() * 60), 0, 0);
  return at;
}

/** `at`, or a minute before `now` when `at` is still to come (an invoice of later today). */
const notAfter = (at: Date, now: Date) =>
  at.getTime() < now.getTime() ? at : new Date(now.getTime() - MINUTE);

const between = (seed: DemoSeed, [least, most]: [number, number]) =>
  least + Math.floor(seed.random() * (most - least + 1));

/** What happens to an invoice after it is issued. */
type Outcome =
  | { kind: 'paid'; afterDays: number }
  | { kind: 'partly'; afterDays: number }
  | { kind: 'open' }
  | { kind: 'void'; afterDays: number };

interface PlannedInvoice {
  at: Date;
  customer: number;
  items: { product: number; quantity: number }[];
  outcome: Outcome;
}

/** A step of the demo's history, run in the order of `at` so that numbers follow the dates. */
interface Step {
  at: Date;
  run: () => Promise<void>;
}

function pickCustomer(seed: DemoSeed): number {
  const total = CUSTOMERS.reduce((sum, c) => sum + c.weight, 0);
  let left = seed.random() * total;
  for (const [i, customer] of CUSTOMERS.entries()) {
    left -= customer.weight;
    if (left < 0) return i;
  }
  return CUSTOMERS.length - 1;
}

function pickItems(seed: DemoSeed): PlannedInvoice['items'] {
  const count = 1 + Math.floor(seed.random() * 3);
  const chosen = new Set<number>();
  while (chosen.size < count) {
    // Beans and consumables sell most; the equipment and services now and then.
    const r = seed.random();
    chosen.add(r < 0.7 ? Math.floor(seed.random() * 4) : Math.floor(seed.random() * PRODUCTS.length));
  }
  return [...chosen].map((product) => ({ product, quantity: between(seed, PRODUCTS[product]!.quantity) }));
}

/**
 * How an invoice issued `monthsAgo` months ago ended: older ones are paid (a few in part), recent
 * ones still open, some of those past their due date.
 */
function outcomeOf(seed: DemoSeed, monthsAgo: number): Outcome {
  const afterDays = 4 + Math.floor(seed.random() * 30);
  const r = seed.random();
  if (monthsAgo === 0) return r < 0.35 ? { kind: 'paid', afterDays: afterDays % 12 } : { kind: 'open' };
  if (monthsAgo <= 2) {
    if (r < 0.25) return { kind: 'open' };
    if (r < 0.35) return { kind: 'partly', afterDays };
    return { kind: 'paid', afterDays };
  }
  if (r < 0.03) return { kind: 'partly', afterDays };
  return { kind: 'paid', afterDays };
}

/** About FIRST_MONTH invoices a month 18 months ago, growing to about LAST_MONTH this month. */
function planInvoices(seed: DemoSeed): PlannedInvoice[] {
  const planned: PlannedInvoice[] = [];
  for (let monthsAgo = MONTHS - 1; monthsAgo >= 0; monthsAgo--) {
    const from = monthsBefore(seed.now, monthsAgo + 1);
    const span = (monthsBefore(seed.now, monthsAgo).getTime() - from.getTime()) / DAY;
    const trend = FIRST_MONTH + ((LAST_MONTH - FIRST_MONTH) * (MONTHS - 1 - monthsAgo)) / (MONTHS - 1);
    const count = Math.round(trend + seed.random() - 0.5);
    const month: PlannedInvoice[] = [];
    for (let i = 0; i < count; i++) {
      month.push({
        at: notAfter(workingMoment(seed, from, seed.random() * span), seed.now),
        customer: pickCustomer(seed),
        items: pickItems(seed),
        outcome: outcomeOf(seed, monthsAgo),
      });
    }
    // Two invoices issued in error and voided a few days later, a year apart.
    if (monthsAgo === 14 || monthsAgo === 3) month[0]!.outcome = { kind: 'void', afterDays: 2 };
    planned.push(...month);
  }
  return planned;
}

export async function seedGeneralDemo(seed: DemoSeed): Promise<void> {
  const setup = seed.at(seed.start);
  const currency = await baseCurrency(setup);
  const dayOf = (at: Date) => today(seed.at(at));

  const customerIds: string[] = [];
  for (const customer of CUSTOMERS) {
    const created = await createCustomer(setup, customer.body);
    customerIds.push(created.id);
  }
  seed.count('customers', customerIds.length);

  const productIds: string[] = [];
  for (const product of PRODUCTS) {
    const created = await createProduct(setup, {
      name: product.name,
      sku: product.sku,
      price: priceIn(product.cents, currency),
      ...(product.stock !== undefined && { stock: product.stock }),
      ...(product.description && { description: product.description }),
    });
    productIds.push(created.id);
  }
  seed.count('products', productIds.length);

  const lines = (items: PlannedInvoice['items']): InvoiceItemInput[] =>
    items.map((item) => ({
      product_id: productIds[item.product]!,
      quantity: item.quantity,
      tax_rate: TAX_RATE,
    }));
  const method = (): PaymentMethod => {
    let left = seed.random();
    for (const [name, share] of METHOD_SHARES) {
      left -= share;
      if (left < 0) return name;
    }
    return 'bank_transfer';
  };
  let invoices = 0;
  let payments = 0;
  /** The invoices paid in full: the last one's customer gets the demo's credit note. */
  const paidInFull: { invoice: Invoice; at: Date }[] = [];

  /** Pays the invoice in full, or half of it, at `at`, unless that is still to come. */
  const pay = async (invoice: Invoice, part: 'full' | 'half', at: Date) => {
    if (at.getTime() >= seed.now.getTime()) return;
    if (part === 'full') paidInFull.push({ invoice, at });
    const owed = toMinor(invoice.amount_due, currency, 'amount');
    await recordPayment(seed.at(at), invoice.id, {
      amount: toMajor(part === 'full' ? owed : Math.ceil(owed / 2), currency),
      payment_method: method(),
      reference: invoice.number,
    });
    payments++;
  };

  const steps: Step[] = planInvoices(seed).map((plan) => ({
    at: plan.at,
    run: async () => {
      const ctx = seed.at(plan.at);
      const customer = CUSTOMERS[plan.customer]!;
      const draft = await createInvoice(ctx, {
        customer_id: customerIds[plan.customer]!,
        items: lines(plan.items),
        due_date: addDays(await dayOf(plan.at), customer.terms),
        notes: customer.terms === 14 ? 'Payment due within 14 days.' : 'Thank you for your business.',
      });
      const issued = await issueInvoice(ctx, draft.id);
      invoices++;
      const { outcome } = plan;
      if (outcome.kind === 'void') {
        await voidInvoice(seed.at(workingMoment(seed, plan.at, outcome.afterDays)), issued.id);
      } else if (outcome.kind === 'paid') {
        await pay(issued, 'full', workingMoment(seed, plan.at, outcome.afterDays));
      } else if (outcome.kind === 'partly') {
        await pay(issued, 'half', workingMoment(seed, plan.at, outcome.afterDays));
      }
    },
  }));

  steps.push(...quoteSteps(seed, customerIds, lines, () => invoices++, pay));
  steps.sort((a, b) => a.at.getTime() - b.at.getTime());
  for (const step of steps) await step.run();

  seed.count('invoices', invoices);
  seed.count('payments', payments);
  seed.count('quotes', QUOTES.length);

  // A customer paid for a late delivery: a tenth of the last invoice paid in full goes back by bank
  // transfer, against a credit note.
  const refunded = paidInFull.sort((a, b) => b.at.getTime() - a.at.getTime())[0];
  if (refunded !== undefined) {
    const total = toMinor(refunded.invoice.total, currency, 'amount');
    const amount = toMajor(Math.max(1, Math.round(total / 10)), currency);
    await createCreditNote(seed.at(seed.now), {
      invoice_id: refunded.invoice.id,
      amount,
      reason: 'Late delivery: a tenth refunded',
      credit_amount: 0,
      refund_amount: amount,
      refund_method: 'bank_transfer',
      customer_credit_amount: 0,
    });
    seed.count('credit_notes', 1);
  }

  // Two customers billed on a schedule: a monthly retainer from tomorrow for a year, and quarterly
  // maintenance from the first of next month, mailed as they are made.
  const now = seed.at(seed.now);
  const day = await today(now);
  await createRecurringInvoice(now, {
    customer_id: customerIds[0]!,
    items: lines([{ product: 8, quantity: 1 }]),
    interval: 'month',
    start_date: addDays(day, 1),
    end_after_count: 12,
    due_days: 14,
    notes: 'Monthly retainer.',
  });
  await createRecurringInvoice(now, {
    customer_id: customerIds[2]!,
    items: lines([{ product: 9, quantity: 1 }]),
    interval: 'quarter',
    start_date: `${addDays(day.slice(0, 8) + '01', 32).slice(0, 8)}01`,
    auto_send: true,
    notes: 'Quarterly maintenance.',
  });
  seed.count('recurring_invoices', 2);
}

/** What becomes of a demo quote, the days after its creation each step happens. */
interface DemoQuote {
  daysAgo: number;
  customer: number;
  items: PlannedInvoice['items'];
  notes: string;
  sent?: number;
  accepted?: number;
  declined?: number;
  /** Converted to an invoice, issued at once, and paid some days later. */
  converted?: { after: number; paidAfter: number };
}

const QUOTES: DemoQuote[] = [
  {
    daysAgo: 2,
    customer: 2,
    items: [{ product: 8, quantity: 2 }],
    notes: 'Training for the new front-of-house team.',
  },
  {
    daysAgo: 1,
    customer: 12,
    items: [
      { product: 0, quantity: 10 },
      { product: 3, quantity: 24 },
    ],
    notes: 'Opening order for the studio café.',
  },
  {
    daysAgo: 9,
    customer: 6,
    items: [{ product: 10, quantity: 180 }],
    notes: 'Summer gala, 180 guests.',
    sent: 0,
  },
  {
    daysAgo: 4,
    customer: 16,
    items: [
      { product: 9, quantity: 1 },
      { product: 5, quantity: 1 },
    ],
    notes: 'Service and a second grinder.',
    sent: 1,
  },
  {
    daysAgo: 75,
    customer: 10,
    items: [{ product: 11, quantity: 4 }],
    notes: 'Office coffee programme review.',
    sent: 1,
  },
  {
    daysAgo: 40,
    customer: 0,
    items: [
      { product: 0, quantity: 20 },
      { product: 7, quantity: 6 },
    ],
    notes: 'Quarterly supply at the agreed rate.',
    sent: 0,
    accepted: 5,
  },
  {
    daysAgo: 20,
    customer: 18,
    items: [{ product: 10, quantity: 60 }],
    notes: 'Product launch breakfast.',
    sent: 1,
    accepted: 8,
  },
  {
    daysAgo: 60,
    customer: 5,
    items: [{ product: 10, quantity: 90 }],
    notes: 'Wedding reception, 90 guests.',
    sent: 0,
    declined: 10,
  },
  {
    daysAgo: 110,
    customer: 14,
    items: [
      { product: 4, quantity: 2 },
      { product: 5, quantity: 1 },
    ],
    notes: 'Equipment for the second kitchen.',
    sent: 1,
    declined: 6,
  },
  {
    daysAgo: 70,
    customer: 1,
    items: [
      { product: 8, quantity: 1 },
      { product: 9, quantity: 1 },
    ],
    notes: 'Training and machine service before the reopening.',
    sent: 0,
    accepted: 4,
    converted: { after: 5, paidAfter: 21 },
  },
];

/** The quotes' histories as steps: created, sent, then accepted, declined or converted on later days. */
function quoteSteps(
  seed: DemoSeed,
  customerIds: string[],
  lines: (items: PlannedInvoice['items']) => InvoiceItemInput[],
  countInvoice: () => void,
  pay: (invoice: Invoice, part: 'full' | 'half', at: Date) => Promise<void>,
): Step[] {
  const steps: Step[] = [];
  for (const quote of QUOTES) {
    const created = workingMoment(seed, new Date(seed.now.getTime() - quote.daysAgo * DAY), 0);
    // The same day: half an hour later; later days: some time of that working day.
    const moment = (days: number) =>
      days === 0 ? new Date(created.getTime() + 30 * MINUTE) : workingMoment(seed, created, days);
    let id = '';
    steps.push({
      at: created,
      run: async () => {
        const ctx = seed.at(created);
        const draft = await quotes.createQuote(ctx, {
          customer_id: customerIds[quote.customer]!,
          items: lines(quote.items),
          valid_until: addDays(await today(ctx), 30),
          notes: quote.notes,
        });
        id = draft.id;
        if (quote.sent !== undefined)
          await quotes.sendQuote(seed.at(moment(quote.sent)), id, {}, { mail: false });
      },
    });
    if (quote.accepted !== undefined) {
      const at = moment(quote.accepted);
      steps.push({ at, run: async () => void (await quotes.acceptQuote(seed.at(at), id)) });
    }
    if (quote.declined !== undefined) {
      const at = moment(quote.declined);
      steps.push({ at, run: async () => void (await quotes.declineQuote(seed.at(at), id)) });
    }
    if (quote.converted) {
      const at = moment(quote.converted.after);
      const paidAt = workingMoment(seed, at, quote.converted.paidAfter);
      steps.push({
        at,
        run: async () => {
          const ctx = seed.at(at);
          const draft = await quotes.convertQuote(ctx, id);
          const invoice = await issueInvoice(ctx, draft.id);
          countInvoice();
          await pay(invoice, 'full', paidAt);
        },
      });
    }
  }
  return steps;
}
