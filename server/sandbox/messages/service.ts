import {
  readsCapturedLiveMail,
  type CapturedMessage,
  type ListMessagesQuery,
} from '../../../contract/sandbox/index.js';
import type { Role } from '../../../contract/permissions.js';
import type { Ctx } from '../../platform/context.js';
import { ApiError } from '../../platform/errors.js';
import { listCapturedMail, mailCaptured } from '../../platform/mail.js';
import { isSandbox } from '../../platform/settings.js';

/**
 * The business's captured mail: a sandbox's always; every business's without `SMTP_URL`, when all
 * mail is captured. With it, live mail is really sent and there is nothing live to list. Captured
 * live mail carries invitation links (and whatever else the service mails its people), so only the
 * roles that could have made them read it (docs/decisions.md D79).
 */
export async function listMessages(
  ctx: Ctx,
  query: ListMessagesQuery,
  role: Role | undefined,
): Promise<{ messages: CapturedMessage[]; total_count: number }> {
  if (!(await mailCaptured(ctx, ctx.businessId))) {
    throw new ApiError(
      'FORBIDDEN',
      'Live mail is sent through SMTP, not captured: captured mail is listed for sandbox credentials only ' +
        '(sign in with {"environment": "sandbox"}, or use a bms_sk_test_ key)',
    );
  }
  if (!readsCapturedLiveMail(role) && !(await isSandbox(ctx))) {
    throw new ApiError(
      'FORBIDDEN',
      `Captured live mail carries invitation links: only owners and admins (and full API keys) read it, ` +
        `not the ${role ?? 'credential'} role; the sandbox's captured mail is open to every role with sandbox.read`,
    );
  }
  const { messages, total } = await listCapturedMail(ctx.db, ctx.businessId, query);
  return { messages, total_count: total };
}
