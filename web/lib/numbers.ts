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
