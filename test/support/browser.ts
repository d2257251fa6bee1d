import { appendFileSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { AxeResults } from 'axe-core';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, expect, vi } from 'vitest';

/**
 * The dashboard in a real browser: Debian's Chromium driven by playwright-core (its own browser
 * download does not work here). Each test's page records console errors, failed scripts and any
 * request leaving the service's origin, which `expectClean` asserts are none.
 */

export const ARTIFACTS = join(process.cwd(), 'test-artifacts', 'screens');

function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const bin of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      return execFileSync('which', [bin], { encoding: 'utf8' }).trim();
    } catch {
      // next
    }
  }
  throw new Error('Chromium is missing: run `bash scripts/ensure-test-tools.sh` (npm test runs it first)');
}

/**
 * One browser per test file. A test here walks a whole flow through the screens (axe audits and
 * screenshots on the way) on a machine that runs another test file beside it: its time limit is
 * three minutes, not the 30 s of a test of the API.
 */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  vi.setConfig({ testTimeout: 180_000 });
  afterAll(() => vi.resetConfig());
  beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
    });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('browser not started');
    return browser;
  };
}

export interface AppPage {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions so far. */
  errors: string[];
  /** Requests to another origin (none should be made). */
  foreign: string[];
  close(): Promise<void>;
}

/** A phone's viewport (an iPhone 12 to 15): the dashboard must fit it without scrolling sideways. */
export const PHONE = { width: 390, height: 844 };

/**
 * A fresh browser context (its own sessionStorage) on the service's origin; with `signedIn`, the tab
 * starts with that access token, as after signing in (the dashboard keeps it in sessionStorage).
 * The viewport is a desktop's unless told (`PHONE`).
 */
export async function openApp(
  browser: Browser,
  baseUrl: string,
  path = '/app',
  signedIn?: { accessToken: string; environment?: 'live' | 'sandbox' },
  viewport = { width: 1280, height: 860 },
): Promise<AppPage> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport });
  if (signedIn) {
    const saved = JSON.stringify({
      accessToken: signedIn.accessToken,
      environment: signedIn.environment ?? 'live',
    });
    // Runs in the page, where sessionStorage exists (this file's types are Node's); and in its frames,
    // where a sandboxed one (a captured message) has no storage to read.
    await context.addInitScript(
      `if (window === window.top && !sessionStorage.getItem('bms.session')) sessionStorage.setItem('bms.session', ${JSON.stringify(saved)});`,
    );
  }
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
  const page = await context.newPage();
  const errors: string[] = [];
  const foreign: string[] = [];
  const origin = new URL(baseUrl).origin;
  // Observed rather than intercepted (routing every request through the test process cost about a
  // tenth of a browser test's time): the app's CSP blocks another origin in the page, which logs a
  // console error, and a request that went out anyway is recorded here. Either fails expectClean.
  context.on('request', (request) => {
    const url = request.url();
    if (!url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== origin) {
      foreign.push(url);
    }
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (err) => errors.push(`page: ${err.message}`));
  await page.goto(path);
  return { page, context, errors, foreign, close: () => context.close() };
}

/**
 * Known console errors a test provokes on purpose: the browser logs every non-2xx answer a screen
 * shows as a refusal ("Failed to load resource: ... 422").
 */
export function expectClean(app: AppPage, allowedStatuses: number[] = []): void {
  const unexpected = app.errors.filter((e) => {
    const status = /status of (\d{3})/.exec(e)?.[1];
    return !(status && allowedStatuses.includes(Number(status)));
  });
  expect(unexpected).toEqual([]);
  expect(app.foreign).toEqual([]);
}

/** axe-core's browser build, read once per test process. */
let axeSource: string | undefined;
const axeScript = () =>
  (axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8'));

/**
 * axe-core on the page as it is: no serious or critical violation. Returns the counts by impact.
 *
 * axe is evaluated into the page once (evaluation passes the dashboard's CSP, a script tag would not)
 * and kept there across the screens a single-page app shows, and `axe.run` asks for violations only.
 * The wrapper this replaced injected axe anew at every call and finished each run in a blank page of
 * its own: about 2 s a screen, against 0.2-0.5 s now, over some 300 screens in the suite.
 */
export async function expectAccessible(page: Page, screen: string): Promise<Record<string, number>> {
  // Frames the page shows get axe too, so that `axe.run` reaches into them. A sandboxed frame without
  // scripts (a captured message) is content the dashboard shows, not its own markup, and axe cannot
  // run in it: left out, not waited on.
  for (const frame of page.frames()) {
    const element = frame === page.mainFrame() ? null : await frame.frameElement();
    if (element && (await element.getAttribute('sandbox')) !== null) continue;
    if (!(await frame.evaluate(() => 'axe' in globalThis))) await frame.evaluate(axeScript());
  }
  const result = await page.evaluate(
    (options) =>
      (
        globalThis as unknown as { axe: { run(context: unknown, options: unknown): Promise<AxeResults> } }
      ).axe.run({ exclude: [['iframe[sandbox]']] }, options),
    { resultTypes: ['violations'] },
  );
  const counts: Record<string, number> = {};
  for (const violation of result.violations) {
    const impact = violation.impact ?? 'unknown';
    counts[impact] = (counts[impact] ?? 0) + violation.nodes.length;
  }
  // Every screen's counts, for the record (test-artifacts/axe.jsonl).
  mkdirSync(ARTIFACTS, { recursive: true });
  const rules = result.violations.map(
    (v) => `${v.id} (${v.impact ?? 'unknown'}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );
  appendFileSync(join(ARTIFACTS, '..', 'axe.jsonl'), `${JSON.stringify({ screen, counts, rules })}\n`);
  const severe = result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${screen}: ${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    );
  expect(severe).toEqual([]);
  return counts;
}

/** A screenshot kept as a test artefact (test-artifacts/screens, not committed). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}

/**
 * The message shown beside a field: the field is marked invalid and names it (aria-describedby), so
 * a screen reader reads it with the field.
 */
export async function errorBeside(field: Locator): Promise<string | null> {
  await expect.poll(() => field.getAttribute('aria-invalid')).toBe('true');
  const ids = (await field.getAttribute('aria-describedby'))?.split(' ') ?? [];
  const id = ids.find((i) => i.endsWith('-error'));
  expect(id, 'the field names its error').toBeDefined();
  return field.page().locator(`[id="${id}"]`).textContent();
}

/** An amount in major units as the page's locale writes it in the currency (what the dashboard shows). */
export const inPage = (page: Page, amount: number, currency = 'USD'): Promise<string> =>
  page.evaluate(([a, c]) => new Intl.NumberFormat(undefined, { style: 'currency', currency: c }).format(a), [
    amount,
    currency,
  ] as [number, string]);

/** The text of each row's first cell in the screen's tables. */
export const firstCells = (page: Page): Promise<string[]> =>
  page.locator('main table tbody tr td:first-child').allTextContents();
