import { currencyExponent } from '../../contract/common/currencies.js';
import type { BILL_PAYMENT_METHODS, CreateBillBody, CreateVendorBody } from '../../contract/finance/index.js';
import { addDays, today } from '../platform/calendar.js';
import type { DemoSeed } from '../platform/module.js';
import { baseCurrency, businessEmail } from '../platform/settings.js';
import { seedBankDemo } from './bank-accounts/demo.js';
import { seedRateDemo } from './exchange-rates/demo.js';
import { createBill, payBill, voidBill } from './bills/service.js';
import { revenueCalculator } from './reports/service.js';
import { createVatThreshold } from './vat/service.js';
import { createVendor } from './vendors/service.js';

/**
 * Finance's part of the demo business (`POST /v1/sandbox/reset {"seed": true}`): six vendors and
 * about thirty bills over the last 18 months (rent, energy, software, green coffee, packaging, the
 * accountant), most paid some days after they came in, a few still open or past due, one voided;
 * rates of the euro, the pound and the yen over the whole span; and a VAT threshold at a believable
 * share of the revenue the general group's invoices made. Every bill goes through the bill services
 * at the time it happened, so the journal posts itself.
 */

const DAY = 86_400_000;

type Method = (typeof BILL_PAYMENT_METHODS)[number];
type Item = CreateBillBody['items'][number];

interface DemoVendor {
  body: CreateVendorBody;
  method: Method;
  /** Days a bill is due after it comes in. */
  terms: number;
  /** When its bills came in (days before today) and what they were for. */
  bills: { daysAgo: number; items: (r: () => number) => Item[]; outcome?: Outcome }[];
}

/** How a bill ended; by default paid in full some days after it came in. */
type Outcome = 'open' | 'void' | 'instalments';

/** An amount in hundredths of the currency's major unit (see the general group's prices). */
type Cents = number;

const item = (description: string, quantity: number, unit: Cents): Item => ({
  description,
  quantity,
  unit_price: unit,
  tax_rate: 0,
});

/** `base` give or take `spread` (a share of it), whole hundredths. */
const around = (r: () => number, base: Cents, spread: number) =>
  Math.round(base * (1 - spread + 2 * spread * r()));

const every = (first: number, step: number, count: number) =>
  Array.from({ length: count }, (_, i) => first - i * step);

const VENDORS: DemoVendor[] = [
  {
    body: {
      name: 'Harbour Property Management',
      email: 'accounts@harbourproperty.example.com',
      phone: '+44 161 496 0900',
      tax_id: 'GB 284 1173 09',
      address: { line1: '10 Quay Street', city: 'Manchester', postal_code: 'M3 3HN', country: 'GB' },
    },
    method: 'bank_transfer',
    terms: 14,
    bills: every(540, 91, 6).map((daysAgo) => ({
      daysAgo,
      items: () => [item('Shop and roastery rent (3 months)', 3, 120000)],
    })),
  },
  {
    body: {
      name: 'BrightGrid Energy',
      email: 'billing@brightgrid.example.com',
      tax_id: 'GB 390 5521 17',
    },
    method: 'bank_transfer',
    terms: 21,
    bills: every(500, 60, 9).map((daysAgo) => ({
      daysAgo,
      items: (r) => [
        item('Electricity (2 months)', 1, around(r, 31000, 0.15)),
        item('Gas (2 months)', 1, around(r, 11500, 0.25)),
      ],
      ...(daysAgo < 30 && { outcome: 'open' as const }),
    })),
  },
  {
    body: {
      name: 'Cloudledger Software',
      email: 'invoices@cloudledger.example.net',
      address: { line1: '200 Old Street', city: 'London', postal_code: 'EC1V 9NR', country: 'GB' },
    },
    method: 'bank_transfer',
    terms: 7,
    bills: every(535, 91, 6).map((daysAgo) => ({
      daysAgo,
      items: () => [
        item('Point of sale subscription (3 months)', 3, 4900),
        item('Accounting software (3 months)', 3, 2500),
      ],
    })),
  },
  {
    body: {
      name: 'Origin Green Coffee Importers',
      email: 'orders@origingreen.example.com',
      phone: '+44 151 496 0455',
      tax_id: 'GB 771 2093 44',
      address: { line1: 'Unit 4, Dock Road', city: 'Liverpool', postal_code: 'L20 8DA', country: 'GB' },
    },
    method: 'bank_transfer',
    terms: 30,
    bills: [
      { daysAgo: 510 },
      { daysAgo: 390 },
      { daysAgo: 270, outcome: 'instalments' as const },
      { daysAgo: 150 },
      { daysAgo: 38, outcome: 'open' as const },
    ].map((bill) => ({
      ...bill,
      items: (r: () => number) => [
        item('Green coffee, Colombia Huila (60 kg sack)', 2 + Math.floor(r() * 3), 39000),
        item('Green coffee, Ethiopia Yirgacheffe (60 kg sack)', 1 + Math.floor(r() * 2), 46000),
      ],
    })),
  },
  {
    body: {
      name: 'PackRight Packaging',
      email: 'sales@packright.example.org',
      tax_id: 'GB 602 8810 52',
    },
    method: 'check',
    terms: 30,
    bills: [
      { daysAgo: 420 },
      { daysAgo: 232, outcome: 'void' as const },
      { daysAgo: 228 },
      { daysAgo: 52, outcome: 'open' as const },
    ].map((bill) => ({
      ...bill,
      items: (r: () => number) => [
        item('Valve bags 1 kg (500)', 1 + Math.floor(r() * 2), 32000),
        item('Printed labels (1,000)', 1, 9500),
      ],
    })),
  },
  {
    body: {
      name: 'Marlow & Finch Accountants',
      email: 'office@marlowfinch.example.com',
      phone: '+44 113 496 0288',
    },
    method: 'check',
    terms: 30,
    bills: [
      { daysAgo: 300, items: () => [item('Annual accounts and tax return', 1, 145000)] },
      {
        daysAgo: 8,
        items: () => [item('Mid-year review', 1, 45000)],
        outcome: 'open' as const,
      },
    ],
  },
];

/** Hundredths as minor units of the currency: 1 for 1 with two decimals, 10 for 1 with three. */
function minorOf(cents: Cents, currency: string): number {
  return cents * 10 ** Math.max(currencyExponent(currency) - 2, 0);
}

/**
 * The VAT registration country the demo assumes for a base currency: the country the code begins
 * with (GBP GB, KES KE), but for the currencies of several countries.
 */
const SHARED_CURRENCIES: Record<string, string> = { EUR: 'IE', XOF: 'SN', XAF: 'CM', XCD: 'LC', XPF: 'PF' };
const countryOf = (currency: string): string => SHARED_CURRENCIES[currency] ?? currency.slice(0, 2);

/** The share of the threshold the demo's revenue reaches, in percent: short of the 80% alert. */
const VAT_SHARE = 64;

/** A moment of the working day (09:00-17:00 UTC) `daysAgo` days before `now`. */
function workingMoment(seed: DemoSeed, daysAgo: number): Date {
  const at = new Date(seed.now.getTime() - daysAgo * DAY);
  at.setUTCHours(9 + Math.floor(seed.random() * 8), Math.floor(seed.random() * 60), 0, 0);
  return at.getTime() < seed.now.getTime() ? at : new Date(seed.now.getTime() - 60_000);
}

export async function seedFinanceDemo(seed: DemoSeed): Promise<void> {
  const setup = seed.at(seed.start);
  const currency = await baseCurrency(setup);
  const random = () => seed.random();
  await seedRateDemo(seed, currency);

  const planned: { vendor: DemoVendor; id: string; daysAgo: number; items: Item[]; outcome?: Outcome }[] = [];
  for (const vendor of VENDORS) {
    const created = await createVendor(setup, { ...vendor.body, currency });
    for (const bill of vendor.bills) {
      const items = bill.items(random).map((i) => ({ ...i, unit_price: minorOf(i.unit_price, currency) }));
      planned.push({ vendor, id: created.id, daysAgo: bill.daysAgo, items, outcome: bill.outcome });
    }
  }
  seed.count('vendors', VENDORS.length);

  let payments = 0;
  /** Pays `amount` of the bill at `at` (by the vendor's method), unless that is still to come. */
  const pay = async (id: string, amount: number, method: Method, at: Date) => {
    if (at.getTime() >= seed.now.getTime()) return;
    const ctx = seed.at(at);
    await payBill(ctx, id, { amount, payment_method: method, payment_date: await today(ctx) });
    payments++;
  };

  // In the order they came in, so that the journal reads as the business lived it.
  planned.sort((a, b) => b.daysAgo - a.daysAgo);
  for (const bill of planned) {
    const at = workingMoment(seed, bill.daysAgo);
    const ctx = seed.at(at);
    const issued = await today(ctx);
    const created = await createBill(ctx, {
      vendor_id: bill.id,
      items: bill.items,
      due_date: addDays(issued, bill.vendor.terms),
    });
    const paidAfter = 3 + Math.floor(random() * Math.min(bill.vendor.terms, 20));
    const later = (days: number) => new Date(at.getTime() + days * DAY);
    if (bill.outcome === 'void') {
      // Entered with the wrong quantities; the vendor sent a corrected bill a few days later.
      await voidBill(seed.at(later(2)), created.id);
    } else if (bill.outcome === 'instalments') {
      const first = Math.round(created.amount / 2);
      await pay(created.id, first, bill.vendor.method, later(paidAfter));
      await pay(created.id, created.amount - first, bill.vendor.method, later(paidAfter + 30));
    } else if (bill.outcome !== 'open') {
      await pay(created.id, created.amount, bill.vendor.method, later(paidAfter));
    }
  }
  seed.count('bills', planned.length);
  seed.count('bill_payments', payments);

  // The threshold the revenue of the last 12 months reaches VAT_SHARE percent of, in round thousands.
  const now = seed.at(seed.now);
  const { rolling12MonthRevenue } = await revenueCalculator(now, { currency });
  const thousand = 1000 * 10 ** currencyExponent(currency);
  const threshold = Math.max(
    thousand,
    Math.ceil((rolling12MonthRevenue * 100) / VAT_SHARE / thousand) * thousand,
  );
  await createVatThreshold(now, {
    country: countryOf(currency),
    thresholdAmount: threshold,
    currency,
    periodType: 'rolling_12_months',
    alertAtPercentage: 80,
    alertEmail: (await businessEmail(now)) ?? 'accounts@example.com',
  });
  await seedBankDemo(seed, currency, currencyExponent(currency));
  seed.count('vat_thresholds');
}
