export { COUNTRY_CODES } from './countries.js';
export { RATE_DIGITS, crossRate, inverseRate, normaliseRate, rateProblem, toBase } from './exchange.js';
export { CURRENCY_CODES, CURRENCY_EXPONENTS, currencyExponent } from './currencies.js';
export * from './envelopes.js';
export * from './errors.js';
export * from './events.js';
export * from './metadata.js';
export * from './pagination.js';
export * from './schemas.js';
