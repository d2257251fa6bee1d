import { extendApi } from '@anatine/zod-openapi';
import { z } from 'zod';
import { normaliseRate, rateProblem } from './exchange.js';

/**
 * Exchange rates in requests and answers (docs/decisions.md D278): units of the base currency one
 * unit of another buys, exact decimals.
 */

/** A rate in an answer: a decimal string, exact. */
export const RateSchema = extendApi(z.string(), {
  description:
    'Units of the base currency one unit of the currency buys (base = amount x rate), a decimal string.',
  example: '0.8642',
});

/**
 * A rate in a request: a decimal string (or a JSON number) of at most 10 significant digits,
 * answered back written plainly ("0.86420" is "0.8642").
 */
export const RateInputSchema = extendApi(
  z.preprocess(
    (value) => (typeof value === 'number' ? String(value) : value),
    z
      .string({ invalid_type_error: 'Expected a decimal string such as "0.8642" (or a number)' })
      .max(40)
      .transform((value, ctx) => {
        const text = value.trim();
        const problem = rateProblem(text);
        if (problem !== null) {
          ctx.addIssue({
            code: z.ZodIssueCode.custom,
            message: `${problem}; send it as a string such as "0.8642"`,
          });
          return z.NEVER;
        }
        return normaliseRate(text);
      }),
  ) as unknown as z.ZodType<string, z.ZodTypeDef, string | number>,
  {
    description:
      'Units of the base currency one unit of the currency buys, up to 10 significant digits, as a decimal ' +
      'string ("0.8642" keeps every digit; a JSON number is taken too, read as JavaScript writes it).',
    example: '0.8642',
  },
);
