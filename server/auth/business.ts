import type { Business, UpdateBusinessBody } from '../../contract/auth/index.js';
import { timeZoneName } from '../platform/calendar.js';
import type { Ctx } from '../platform/context.js';
import type { AuthInfo } from '../platform/deps.js';
import { ApiError, invalidState, notFound } from '../platform/errors.js';
import * as settings from '../platform/settings.js';
import { toBusiness } from './mappers.js';

/** The caller's business, or 404. */
export async function businessOrFail(ctx: Ctx) {
  const row = await settings.findBusiness(ctx);
  if (!row) throw notFound('Business');
  return row;
}

/** The settings of the caller's business. */
export async function getBusiness(ctx: Ctx): Promise<Business> {
  return toBusiness(await businessOrFail(ctx));
}

/**
 * Partial update of the settings; an empty one changes nothing. The settings the other domains read
 * (base currency, time zone) are forgotten by this process's cache at once (the platform's
 * `updateBusiness` does it).
 */
export async function updateBusiness(ctx: Ctx, auth: AuthInfo, input: UpdateBusinessBody): Promise<Business> {
  if (input.require_two_factor !== undefined) await setRequireTwoFactor(ctx, auth, input.require_two_factor);
  const changes = {
    ...(input.name !== undefined && { name: input.name }),
    ...(input.base_currency !== undefined && { base_currency: input.base_currency }),
    ...(input.timezone !== undefined && { timezone: timeZoneName(input.timezone) }),
    ...(input.country !== undefined && { country: input.country }),
    ...(input.address !== undefined && { address: input.address ? JSON.stringify(input.address) : null }),
    ...(input.tax_number !== undefined && { tax_number: input.tax_number }),
    ...(input.payment_instructions !== undefined && { payment_instructions: input.payment_instructions }),
    ...(input.invoice_reminders?.enabled !== undefined && {
      invoice_reminders_enabled: input.invoice_reminders.enabled,
    }),
    ...(input.invoice_reminders?.days_after_due !== undefined && {
      invoice_reminder_days: [...input.invoice_reminders.days_after_due].sort((a, b) => a - b),
    }),
    ...(input.financial_year_start_month !== undefined && {
      financial_year_start_month: input.financial_year_start_month,
    }),
  };
  if (Object.keys(changes).length === 0) return getBusiness(ctx);
  const row = await settings.updateBusiness(ctx, changes);
  if (!row) throw notFound('Business');
  return toBusiness(row);
}

/**
 * Whether every member needs a second factor: an owner's decision, made with their own on (so the
 * business is never left requiring what its owner cannot give), on the live business for both
 * environments. The cached credentials of other members notice within the cache time.
 */
async function setRequireTwoFactor(ctx: Ctx, auth: AuthInfo, required: boolean): Promise<void> {
  if (auth.role !== 'owner') {
    throw new ApiError('FORBIDDEN', 'Only an owner can change require_two_factor', [
      { field: 'require_two_factor', message: 'Only an owner can change it' },
    ]);
  }
  const access = await settings.businessAccess(ctx);
  if (!access) throw notFound('Business');
  if (required && !auth.twoFactor?.enabled) {
    throw invalidState(
      'Turn on two-factor sign-in for yourself first (POST /v1/auth/two-factor/enrolment), then require it of everyone',
    );
  }
  await settings.setRequireTwoFactor(ctx, access.teamBusinessId, required);
}
