import type { Ctx } from './context.js';
import { businessSettings, timeZonesInUse } from './settings.js';

/**
 * Calendar dates as a business lives them. "Today", and every boundary between days (default issue
 * dates, overdue, quote expiry, VAT windows, reminders), is the date in the business's time zone
 * (`GET /v1/business`), never the UTC date: at 09:00 in Auckland (UTC+13) it is still yesterday in
 * UTC, and an invoice issued then would be dated the day before. Everything here goes through Intl
 * (the ICU time zone data Node ships).
 */

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    try {
      formatter = new Intl.DateTimeFormat('en-US', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      });
    } catch {
      // Names are checked when they are stored; one this Node's time zone data no longer knows is
      // read as UTC rather than failing every request of the business.
      return formatterOf('UTC');
    }
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

const CANONICAL = new Map(['UTC', ...Intl.supportedValuesOf('timeZone')].map((z) => [z.toLowerCase(), z]));

/** The spelling a time zone is stored in: its canonical case when Node lists it, else as given. */
export const timeZoneName = (name: string): string => CANONICAL.get(name.toLowerCase()) ?? name;

/** `YYYY-MM-DD` of `instant` on the wall calendar of `timeZone`. */
export function dateIn(timeZone: string, instant: Date): string {
  let year = '';
  let month = '';
  let day = '';
  for (const part of formatterOf(timeZone).formatToParts(instant)) {
    if (part.type === 'year') year = part.value.padStart(4, '0');
    else if (part.type === 'month') month = part.value;
    else if (part.type === 'day') day = part.value;
  }
  return `${year}-${month}-${day}`;
}

/** The business's today, `YYYY-MM-DD` in its time zone on the context's clock. */
export async function today(ctx: Pick<Ctx, 'db' | 'businessId' | 'clock' | 'state'>): Promise<string> {
  const { timezone } = await businessSettings(ctx);
  return dateIn(timezone, ctx.clock.now());
}

/** `YYYY-MM-DD` that many days after (or before, when negative) the date `YYYY-MM-DD`. */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** The dates of today in a set of time zones: the zones on each date (at any instant, at most three dates). */
export type DaysByZone = { day: string; zones: string[] }[];

/** Today in each zone of `zones`, grouped by date. */
export function todayByDate(zones: readonly string[], now: Date): DaysByZone {
  const byDay = new Map<string, string[]>();
  for (const zone of zones) {
    const day = dateIn(zone, now);
    byDay.set(day, [...(byDay.get(day) ?? []), zone]);
  }
  return [...byDay].map(([day, inZones]) => ({ day, zones: inZones }));
}

/** Today of every business at once, for the sweeps across businesses (service reminders). */
export async function todayOfEveryBusiness(deps: Pick<Ctx, 'db' | 'clock'>): Promise<DaysByZone> {
  return todayByDate(await timeZonesInUse(deps.db), deps.clock.now());
}
