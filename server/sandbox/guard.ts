import type { Ctx } from '../platform/context.js';
import { ApiError } from '../platform/errors.js';
import { isSandbox } from '../platform/settings.js';

/** The sandbox's own operations (reset, the test clock) refuse live credentials: 403. */
export async function sandboxOnly(ctx: Ctx): Promise<void> {
  if (await isSandbox(ctx)) return;
  throw new ApiError(
    'FORBIDDEN',
    'This operation is for the sandbox only: sign in with {"environment": "sandbox"} or use a bms_sk_test_ key; ' +
      'live data is never reset and live businesses always run on real time',
  );
}
