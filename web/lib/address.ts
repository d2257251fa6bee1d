/** A postal address as a customer's and a vendor's forms type it. */

export type AddressKey = 'line1' | 'line2' | 'city' | 'state' | 'postal_code' | 'country';

/** The address fields typed, trimmed (the country in capitals), empty ones left out. */
export function addressOf(draft: Partial<Record<AddressKey, string>>): Partial<Record<AddressKey, string>> {
  const address: Partial<Record<AddressKey, string>> = {};
  for (const [key, text] of Object.entries(draft) as [AddressKey, string | undefined][]) {
    const value = key === 'country' ? text?.trim().toUpperCase() : text?.trim();
    if (value) address[key] = value;
  }
  return address;
}

/** The address fields of a form's draft. */
export function pick<D extends Record<AddressKey, string>, K extends AddressKey>(
  draft: Pick<D, K>,
  keys: readonly K[],
): Partial<Record<AddressKey, string>> {
  const out: Partial<Record<AddressKey, string>> = {};
  for (const key of keys) out[key] = draft[key];
  return out;
}
