import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { expectAccessible, expectClean, openApp, screenshot, useBrowser } from '../support/browser.js';
import { registerBusiness } from '../support/business.js';
import { createCustomer, issuedInvoice } from '../support/general.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ worker: false });
const browser = useBrowser();

/** The first day of the month `back` months before this one (the overview shows the last 12). */
function monthStart(back: number): string {
  const now = new Date();
  const first = new Date(now.getFullYear(), now.getMonth() - back, 1);
  return `${first.getFullYear()}-${String(first.getMonth() + 1).padStart(2, '0')}-01`;
}

type Scale = 'x' | 'revenue' | 'cumulative';
type Scales = Record<Scale, [number, number]>;

const scalesOf = async (plot: Locator): Promise<Scales | null> => {
  const text = await plot.getAttribute('data-scales');
  return text ? (JSON.parse(text) as Scales) : null;
};

/** A month (`2025-12-01`) as the page's locale writes it with its year: `Dec 2025`. */
const monthInPage = (page: Page, day: string): Promise<string> =>
  page.evaluate((d) => {
    const [y, m] = d.split('-').map(Number);
    return new Intl.DateTimeFormat(undefined, { month: 'short', year: 'numeric' }).format(
      new Date(y!, m! - 1, 1),
    );
  }, day);

const moneyInPage = (page: Page, amount: number): Promise<string> =>
  page.evaluate(
    (a) => new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' }).format(a),
    amount,
  );

/** Revenue in four months of the last twelve: the first month of the range and this month among them. */
const SALES = [
  { back: 11, amount: 1079 },
  { back: 8, amount: 650 },
  { back: 3, amount: 700 },
  { back: 0, amount: 820 },
];

describe('the revenue chart', () => {
  it('draws whole bars from 0 with one baseline for both axes, months with their year, and the latest month in the legend until hovered', async () => {
    const owner = await registerBusiness(server(), 'Chart Ltd');
    const customer = await createCustomer(owner.client, { name: 'Ada Buyer' });
    for (const sale of SALES) {
      await issuedInvoice(owner.client, {
        customer_id: customer.id,
        issue_date: monthStart(sale.back),
        items: [{ description: 'Consulting', quantity: 1, unit_price: sale.amount }],
      });
    }
    const total = SALES.reduce((sum, s) => sum + s.amount, 0);

    const app = await openApp(browser(), server().baseUrl, '/app', { accessToken: owner.accessToken });
    const { page } = app;
    const tile = page.getByRole('region', { name: 'Revenue by month' });
    const plot = tile.locator('figure.chart [role="img"]');
    await expect.poll(() => scalesOf(plot)).not.toBeNull();
    const scales = (await scalesOf(plot))!;

    // Bars from 0, and 0 at the same height on both axes.
    expect(scales.revenue[0]).toBe(0);
    expect(scales.cumulative[0]).toBe(0);
    expect(scales.revenue[1]).toBeGreaterThanOrEqual(1079_00);
    expect(scales.cumulative[1]).toBeGreaterThanOrEqual(total * 100);
    // Twelve months in slots 0..11: half a slot either side holds the first and last bars whole.
    expect(scales.x[0]).toBeLessThanOrEqual(-0.5);
    expect(scales.x[1]).toBeGreaterThanOrEqual(11.5);

    // Tick labels carry their year.
    // uPlot draws them on the canvas; the chart leaves the labels it drew in data-ticks.
    const drawn = JSON.parse((await plot.getAttribute('data-ticks'))!) as Record<Scale, string[]>;
    const ticks = drawn.x;
    expect(ticks.length).toBeGreaterThan(1);
    for (const tick of ticks) expect(tick).toMatch(/\d{4}/);
    const latest = await monthInPage(page, monthStart(0));
    const first = await monthInPage(page, monthStart(11));
    expect(ticks).toContain(latest);

    // The legend shows the latest month without hovering.
    const legend = tile.locator('.u-legend');
    const latestMoney = await moneyInPage(page, 820);
    const totalMoney = await moneyInPage(page, total);
    await expect
      .poll(() => legend.locator('.u-value').allTextContents())
      .toEqual([latest, latestMoney, totalMoney]);
    // The money axes in the currency's exponent.
    expect(drawn.revenue).toContain(await moneyInPage(page, 0));
    expect(drawn.revenue).toContain(await moneyInPage(page, 1200));
    expect(drawn.cumulative).toContain(await moneyInPage(page, 0));

    // Pointing at the first month shows it; leaving the plot returns to the latest.
    const box = (await tile.locator('.u-over').boundingBox())!;
    await page.mouse.move(box.x + box.width / 24, box.y + box.height - 5);
    await expect.poll(() => legend.locator('.u-value').first().textContent()).toBe(first);
    expect(await legend.locator('.u-value').nth(1).textContent()).toBe(await moneyInPage(page, 1079));
    await page.mouse.move(box.x + box.width / 2, box.y - 80);
    await expect.poll(() => legend.locator('.u-value').first().textContent()).toBe(latest);

    await screenshot(page, 'chart-overview');
    await expectAccessible(page, 'chart overview');

    // The sales schedule draws the same chart.
    await page.goto('/app/finance/sales-schedule');
    const schedulePlot = page.locator('figure.chart [role="img"]');
    await expect.poll(() => scalesOf(schedulePlot)).not.toBeNull();
    const schedule = (await scalesOf(schedulePlot))!;
    expect([schedule.revenue[0], schedule.cumulative[0]]).toEqual([0, 0]);
    expect(schedule.x[0]).toBeLessThanOrEqual(-0.5);
    await expect
      .poll(() => page.locator('.u-legend .u-value').allTextContents())
      .toEqual([latest, latestMoney, totalMoney]);
    await screenshot(page, 'chart-sales-schedule');
    await expectAccessible(page, 'chart sales schedule');

    expectClean(app);
    await app.close();
  });
});
