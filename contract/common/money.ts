import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';

/**
 * Money fields name their unit everywhere a client meets them (docs/decisions.md D12): in the API
 * reference (description and example) and in every refusal. The general group (`/v1/invoices`,
 * `/v1/customers`, `/v1/products`, `/v1/quotes`, `/v1/employees`, `/v1/reports`) and the public
 * loyalty earn take major units; every result-envelope group takes integer minor units.
 */

/** The largest amount in minor units the service stores (docs/decisions.md D44): 15 digits. */
export const MAX_AMOUNT_MINOR = 999_999_999_999_999;

/** How the reference and the refusals name minor units. */
export const MINOR_UNITS = 'minor units (an integer: 1250 is 12.50 USD, 1250 is 1,250 JPY)';
/** How the reference and the refusals name major units. */
export const MAJOR_UNITS = 'major units (a decimal: 12.50 is 12.50 USD, 1250 is 1,250 JPY)';

const sentence = (text: string) => (text.endsWith('.') ? text : `${text}.`);

interface AmountOptions {
  /** What the amount is, e.g. 'Unit price of the line'. */
  description: string;
  min?: number;
  max?: number;
  /** Above `min` rather than from it. */
  aboveMin?: boolean;
  /** Major units only: any number of decimals is taken as sent (the public earn). */
  anyDecimals?: boolean;
  example?: number;
}

const atLeast = (min: number, aboveMin: boolean | undefined, units: string) =>
  aboveMin ? `Must be more than ${min} in ${units}` : `Must be at least ${min} in ${units}`;

/** An amount a client sends in minor units; each refusal says the unit. */
export function minorAmountInput({
  description,
  min = 0,
  max = MAX_AMOUNT_MINOR,
  example = 1250,
}: AmountOptions) {
  return extendApi(
    z
      .number({
        invalid_type_error: `Expected a number in ${MINOR_UNITS}`,
        required_error: `Required, in ${MINOR_UNITS}`,
      })
      .int({
        message: `Must be a whole number of minor units: 1250 is 12.50 USD, so a fraction such as 12.5 is refused`,
      })
      .min(min, { message: atLeast(min, false, MINOR_UNITS) })
      .max(max, { message: `Must be at most ${max} in ${MINOR_UNITS}` }),
    { description: `${sentence(description)} In ${MINOR_UNITS}.`, example },
  );
}

/** An amount the service answers in minor units. */
export function minorAmount(description: string, example = 1250) {
  return extendApi(z.number().int(), { description: `${sentence(description)} In ${MINOR_UNITS}.`, example });
}

/** An amount a client sends in major units; each refusal says the unit (decimals: the server checks). */
export function majorAmountInput({
  description,
  min = 0,
  max = 1_000_000_000_000,
  aboveMin,
  anyDecimals,
  example = 12.5,
}: AmountOptions) {
  const number = z.number({
    invalid_type_error: `Expected a number in ${MAJOR_UNITS}`,
    required_error: `Required, in ${MAJOR_UNITS}`,
  });
  const message = atLeast(min, aboveMin, MAJOR_UNITS);
  return extendApi(
    (aboveMin ? number.gt(min, { message }) : number.min(min, { message })).max(max, {
      message: `Must be at most ${max} in ${MAJOR_UNITS}`,
    }),
    {
      description: `${sentence(description)} In ${MAJOR_UNITS}${anyDecimals ? '' : ', with at most as many decimals as the currency has'}.`,
      example,
    },
  );
}

/** An amount the service answers in major units. */
export function majorAmount(description: string, example = 12.5) {
  return extendApi(z.number(), { description: `${sentence(description)} In ${MAJOR_UNITS}.`, example });
}
