import type { CapturedMessage, ListMessagesQuery } from '../../contract/sandbox/index.js';
import type { Ctx } from '../platform/context.js';
import { ApiError } from '../platform/errors.js';
import { listCapturedMail } from '../platform/mail.js';

/**
 * The business's captured mail. Without `SMTP_URL` every message is captured, so the list answers
 * every credential; with it, live mail is really sent and there is nothing live to list.
 */
export async function listMessages(
  ctx: Ctx,
  query: ListMessagesQuery,
): Promise<{ messages: CapturedMessage[]; total_count: number }> {
  if (ctx.config.SMTP_URL) {
    throw new ApiError(
      'FORBIDDEN',
      'Live mail is sent through SMTP, not captured: captured mail is listed for sandbox credentials only',
    );
  }
  const { messages, total } = await listCapturedMail(ctx.db, ctx.businessId, query);
  return { messages, total_count: total };
}
