import { BmsApiError } from '../../client/index.js';
import { describeError, type FieldErrors } from './forms.js';
import { CHECK_FIELDS, plainDetail } from './messages.js';

/** How a form shows a refusal: beside the fields it names, with a line under the form pointing to them. */

/**
 * A 409 CONFLICT on a value that must be unique (a customer's email, a product's SKU) names no field:
 * the one field it can be about gets the message, so the form shows it there.
 */
export async function conflictOn<T>(field: string, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof BmsApiError && err.code === 'CONFLICT' && !err.details?.length) {
      throw new BmsApiError(err.status, {
        error: {
          code: err.code,
          message: err.message,
          status: err.status,
          details: [{ field, message: err.message }],
        },
      });
    }
    throw err;
  }
}

/**
 * The line under a form: when the refusal names fields (shown beside them), it points to them rather
 * than repeat one of them or say "Request validation failed"; otherwise the refusal's own message.
 */
export function summaryOf(form: { message: string | null; errors: FieldErrors }): string | null {
  if (!form.message) return null;
  const named = Object.keys(form.errors).filter((field) => field !== '_').length;
  if (named === 0) return form.errors._ ?? form.message;
  return CHECK_FIELDS(named);
}

/**
 * A refusal of an action that has no form (a button's): the messages of the fields it names, or for
 * a VALIDATION_ERROR naming none the service's own words (a rule over the whole request: "the
 * amounts add up to 100.00, the line is 120.00"), else the refusal's line.
 */
export function refusalLine(err: unknown): string {
  const { message, fields } = describeError(err);
  const named = [...new Set(Object.values(fields))];
  if (named.length > 0) return named.join(' ');
  if (err instanceof BmsApiError && err.code === 'VALIDATION_ERROR') return plainDetail(err.message);
  return message;
}
