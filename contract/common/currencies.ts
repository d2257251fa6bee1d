/**
 * Active ISO 4217 currency codes with their minor-unit exponent (the number of decimals).
 * Funds, precious metals and testing codes without a minor unit are left out on purpose:
 * money cannot be expressed in them.
 */
const EXPONENT_0 = 'BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF';
const EXPONENT_3 = 'BHD IQD JOD KWD LYD OMR TND';
const EXPONENT_4 = 'CLF UYW';
const EXPONENT_2 =
  'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP BYN BZD ' +
  'CAD CDF CHE CHF CHW CNY COP COU CRC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS ' +
  'GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW KYD KZT LAK LBP LKR LRD LSL ' +
  'MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD NGN NIO NOK NPR NZD PAB PEN PGK ' +
  'PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP STN SVC SYP SZL THB TJS ' +
  'TMT TOP TRY TTD TWD TZS UAH USD USN UYU UZS VED VES WST XCD XCG YER ZAR ZMW ZWG';

function table(): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [codes, exp] of [
    [EXPONENT_0, 0],
    [EXPONENT_2, 2],
    [EXPONENT_3, 3],
    [EXPONENT_4, 4],
  ] as const) {
    for (const code of codes.split(' ')) out[code] = exp;
  }
  return out;
}

export const CURRENCY_EXPONENTS: Readonly<Record<string, number>> = Object.freeze(table());
export const CURRENCY_CODES = Object.keys(CURRENCY_EXPONENTS).sort();

export function currencyExponent(code: string): number {
  const exp = CURRENCY_EXPONENTS[code];
  if (exp === undefined) throw new Error(`Unknown currency ${code}`);
  return exp;
}
