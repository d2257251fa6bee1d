import { currencyExponent } from '../../../contract/common/currencies.js';

/**
 * Money as customers read it on their documents, in the currency's own format: `$1,234.56`,
 * `¥1,235` (no decimals), `KWD 1.235` (three). One formatter per currency, made once.
 */
const FORMATTERS = new Map<string, Intl.NumberFormat>();

function formatterOf(currency: string): Intl.NumberFormat {
  let formatter = FORMATTERS.get(currency);
  if (!formatter) {
    const digits = currencyExponent(currency);
    formatter = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency,
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    });
    FORMATTERS.set(currency, formatter);
  }
  return formatter;
}

/** An amount in major units (as the API gives it) in the currency's format. */
export const formatMoney = (amount: number, currency: string): string => formatterOf(currency).format(amount);
