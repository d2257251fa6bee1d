import type { CapturedMessage, ListMessagesQuery } from '../../../contract/sandbox/index.js';
import type { Ctx } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { listCapturedMail, mailCaptured } from '../../platform/mail.js';

/**
 * The business's captured mail: a sandbox's always; every business's without `SMTP_URL`, when all
 * mail is captured. With it, live mail is really sent and there is nothing live to list.
 */
export async function listMessages(
  ctx: Ctx,
  query: ListMessagesQuery,
): Promise<{ messages: CapturedMessage[]; total_count: number }> {
  if (!(await mailCaptured(ctx, ctx.businessId))) {
    throw new ApiError(
      'FORBIDDEN',
      'Live mail is sent through SMTP, not captured: captured mail is listed for sandbox credentials only ' +
        '(sign in with {"environment": "sandbox"}, or use a bms_sk_test_ key)',
    );
  }
  const { messages, total } = await listCapturedMail(ctx.db, ctx.businessId, query);
  return { messages, total_count: total };
}
