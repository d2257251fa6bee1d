import { toMinor } from '../../client/money.js';

/**
 * Numbers typed in a field as a body's value: the number when the text is one, else the text itself
 * (so the schema refuses it beside the field), nothing when the field is empty.
 */

/** An integer typed in a field, or the text itself. */
export function integerOf(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/** A decimal typed in a field, or the text itself. */
export function decimalOf(text: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  return /^-?\d+(\.\d+)?$/.test(trimmed) ? Number(trimmed) : trimmed;
}

/**
 * An amount typed in major units of `currency` (`-12.50`) as integer minor units (-1250), or the text
 * itself (too many decimals, not a number); nothing when the field is empty.
 */
export function minorOf(text: string, currency: string): number | string | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (!/^-?\d+(\.\d+)?$/.test(trimmed)) return trimmed;
  try {
    return toMinor(trimmed, currency);
  } catch {
    return trimmed;
  }
}
