/**
 * Leave balances in days with two decimals (docs/decisions.md D280), kept as whole hundredths
 * wherever they are added up, so that no sum of twelfths drifts. One rule for the server (which
 * answers balances) and the dashboard (which shows the balance while a request is typed).
 */

/** Hundredths of a day from a number of days (two decimals at most). */
export const toHundredths = (days: number): number => Math.round(days * 100);
/** Days from hundredths of a day. */
export const fromHundredths = (hundredths: number): number => hundredths / 100;

/** How a type's days accrue over the year (docs/decisions.md D280). */
export const ACCRUALS = ['yearly', 'monthly', 'none'] as const;
export type Accrual = (typeof ACCRUALS)[number];

/**
 * The first month (1-12) of `year` an employee hired on `hireDate` accrues in: whole months from the
 * hire date, so a hire on the 1st counts that month and any later day starts with the next. 13 when
 * no month of the year counts (hired after it, or in its December after the 1st); 1 when hired before.
 */
export function firstAccruingMonth(hireDate: string, year: number): number {
  const [y, m, d] = hireDate.split('-').map(Number) as [number, number, number];
  if (y < year) return 1;
  if (y > year) return 13;
  return d === 1 ? m : m + 1;
}

/**
 * Hundredths of a day accrued in `year` as of `asOf` (a date of that year): the year's entitlement
 * (`perYear`, hundredths) on 1 January (`yearly`) or a twelfth on the first of each month
 * (`monthly`), pro rata by whole months from the hire date; `none` accrues nothing. Monthly sums
 * are rounded once, cumulatively, so twelve months make exactly the year.
 */
export function accruedHundredths(
  accrual: Accrual,
  perYear: number,
  hireDate: string,
  year: number,
  asOf: string,
): number {
  const first = firstAccruingMonth(hireDate, year);
  if (accrual === 'none' || first > 12) return 0;
  const asOfMonth = Number(asOf.slice(5, 7));
  if (Number(asOf.slice(0, 4)) !== year) throw new RangeError('as_of must be a date of the year');
  // The year's first accruing month begins on its 1st: before it, nothing has accrued.
  if (asOfMonth < first) return 0;
  const months = accrual === 'yearly' ? 13 - first : asOfMonth - first + 1;
  return Math.round((perYear * months) / 12);
}

/** What carries into the next year of what remained: a debt in full, a credit up to the cap. */
export const carriedHundredths = (remaining: number, cap: number): number =>
  remaining < 0 ? remaining : Math.min(remaining, cap);
