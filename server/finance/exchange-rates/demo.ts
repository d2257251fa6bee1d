import { crossRate } from '../../../contract/common/exchange.js';
import { today } from '../../platform/calendar.js';
import type { DemoSeed } from '../../platform/module.js';
import { setRates } from './service.js';

/*
 * The demo's exchange rates (docs/decisions.md D278), with source `demo`: the euro, the pound and the
 * yen, those of them that are not the sandbox's base currency, on the last day of each of the 19
 * months before this one (the demo starts 18 months ago, so its first day has a rate on or before it)
 * and today. A demo document in one of them converts on any day of the demo. The rates are fixed
 * (round figures per euro of recent years, moving a little from month to month so that a revaluation
 * has something to show), the same on every seed.
 */

/** The currencies the demo has rates of. */
const DEMO_CURRENCIES = ['EUR', 'GBP', 'JPY'] as const;

/** Units of each currency one euro buys: the demo's rates are made of these, crossed to the base. */
const PER_EURO: Readonly<Record<string, number>> = {
  EUR: 1,
  GBP: 0.85,
  JPY: 160,
  USD: 1.1,
  CHF: 0.95,
  CAD: 1.5,
  AUD: 1.65,
  NZD: 1.8,
  SEK: 11.5,
  NOK: 11.7,
  DKK: 7.46,
  PLN: 4.3,
  CZK: 25,
  HUF: 400,
  INR: 92,
  SGD: 1.45,
  HKD: 8.6,
  CNY: 7.9,
  ZAR: 20,
  MXN: 20,
  BRL: 6,
};

/** How each month's rate stands against the figure above, a gentle wave repeating every eight months. */
const WAVE = [1, 1.01, 1.02, 1.01, 1, 0.99, 0.98, 0.99] as const;

const MONTHS = 19;

/** The last day of the month `back` months before the month of `day` (YYYY-MM-DD). */
function monthEnd(day: string, back: number): string {
  const [year, month] = day.split('-').map(Number) as [number, number];
  // Day 0 of a month is the last day of the one before it.
  return new Date(Date.UTC(year, month - back, 0)).toISOString().slice(0, 10);
}

/** The per-euro figure of `currency` moved by the wave on the `n`th date, as a decimal rate. */
const perEuroOn = (currency: string, n: number): string =>
  currency === 'EUR' ? '1' : (PER_EURO[currency]! * WAVE[n % WAVE.length]!).toPrecision(6);

/**
 * Seeds the demo rates to `base`; none when the base is not among the currencies the demo knows the
 * worth of (PER_EURO).
 */
export async function seedRateDemo(seed: DemoSeed, base: string): Promise<void> {
  const basePerEuro = PER_EURO[base];
  const ctx = seed.at(seed.now);
  const end = await today(ctx);
  const monthEnds = Array.from({ length: MONTHS }, (_, i) => monthEnd(end, MONTHS - i));
  const dates = [...monthEnds, end];
  const currencies = basePerEuro === undefined ? [] : DEMO_CURRENCIES.filter((c) => c !== base);
  const rates = currencies.flatMap((currency) =>
    dates.map((date, n) => ({
      date,
      currency,
      rate: crossRate(String(basePerEuro), perEuroOn(currency, n)),
    })),
  );
  await setRates(ctx, rates, 'demo');
  seed.count('exchange_rates', rates.length);
}
