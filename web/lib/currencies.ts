import { CURRENCY_CODES, unwrap } from '../../client/index.js';
import { useLoad } from './forms.js';
import { api } from './api.js';
import { allowed } from './session.js';

/** The currencies a document or product may be in, named in the browser's language; the base currency. */

/** Whether the service holds money in `code`. */
export const isCurrency = (code: string): boolean => CURRENCY_CODES.includes(code);

let options: { value: string; label: string }[] | undefined;

/** Every currency the service holds, named in the browser's language: `EUR — Euro`. */
export function currencyOptions(): { value: string; label: string }[] {
  if (!options) {
    const names = new Intl.DisplayNames(undefined, { type: 'currency' });
    options = CURRENCY_CODES.map((code) => ({ value: code, label: `${code} — ${names.of(code) ?? code}` }));
  }
  return options;
}

/** The business's base currency (what the service uses when a document names none); USD until known. */
export function useBaseCurrency(): { currency: string; loaded: boolean } {
  const load = useLoad(
    async () =>
      allowed('settings.read') ? (await unwrap(api.value.auth.getBusiness())).data.base_currency : 'USD',
    [],
  );
  return { currency: load.data ?? 'USD', loaded: load.data !== undefined || load.error !== null };
}

/** Currency choices with an empty first option meaning "the business's base currency". */
export function currencyChoices(emptyLabel: string): { value: string; label: string }[] {
  return [{ value: '', label: emptyLabel }, ...currencyOptions()];
}
