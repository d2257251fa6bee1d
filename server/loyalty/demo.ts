import type { CreateRewardBody, Reward } from '../../contract/loyalty/index.js';
import { salesItems, type SalesItem } from '../general/index.js';
import type { TxCtx } from '../platform/context.js';
import type { DemoSeed } from '../platform/module.js';
import { toMajor } from '../platform/money.js';
import { baseCurrency } from '../platform/settings.js';
import { demoCustomers } from './demo.queries.js';
import { expirePoints } from './expiry/service.js';
import { earning } from './ledger/earning.js';
import { post } from './ledger/service.js';
import { tierOfMember } from './members/queries.js';
import { enrollMember, listMembers } from './members/service.js';
import { createProgram } from './program/service.js';
import { createRedemption, expireVouchers, updateRedemption } from './redemptions/service.js';
import { completeReminder, createReminder } from './reminders/service.js';
import { createReward } from './rewards/service.js';
import { createTier } from './tiers/service.js';

/**
 * Loyalty's part of the sandbox demo (docs/decisions.md D83), made through loyalty's own services with
 * the clock of each step: a program with three tiers and four rewards since the start of the demo,
 * about two thirds of the customers enrolled over the months, points earned on their paid invoices
 * and at the till, a service reminder completed by some members, six redemptions (fulfilled, one
 * cancelled, one whose voucher expired, one pending), and points expiring after a year: those
 * already due expire on the way, the rest later. Tiers follow from what members earn.
 */

const DAY = 86_400_000;
const HOUR = 3_600_000;
const PAGE = 500;

/** Credits expire a year after they are earned. */
const EXPIRY_DAYS = 365;
const REMINDER_INTERVAL_DAYS = 180;
/** Every invoice of the demo that is paid is paid within this many days of its issue. */
const PAID_WITHIN_DAYS = 35;

const TIERS = [
  { name: 'Bronze', minPoints: 0, color: '#CD7F32', multiplier: 1, sortOrder: 0 },
  { name: 'Silver', minPoints: 750, color: '#C0C0C0', multiplier: 1.25, sortOrder: 1 },
  { name: 'Gold', minPoints: 2500, color: '#FFD700', multiplier: 1.5, sortOrder: 2 },
];

const REWARDS: CreateRewardBody[] = [
  {
    name: 'Free bag of house espresso',
    rewardType: 'product',
    pointsCost: 250,
    description: 'A 250g bag of our house espresso blend',
  },
  {
    name: 'Free delivery',
    rewardType: 'service',
    pointsCost: 400,
    description: 'Free delivery on one order',
  },
  {
    name: '10% off your next order',
    rewardType: 'discount',
    pointsCost: 600,
    discountPercent: 10,
    description: 'One order, any size',
  },
  {
    name: 'Barista masterclass seat',
    rewardType: 'voucher',
    pointsCost: 1500,
    description: 'A seat at one of our monthly barista masterclasses',
  },
];

/**
 * The redemptions, by days before now: the reward (an index of REWARDS) and what became of it. A
 * voucher never used (valid 90 days, every reward's default) expires on the way; the pending one is
 * still valid.
 */
const REDEMPTIONS: {
  daysAgo: number;
  reward: number;
  outcome: 'fulfilled' | 'cancelled' | 'expired' | 'pending';
}[] = [
  { daysAgo: 360, reward: 0, outcome: 'fulfilled' },
  { daysAgo: 290, reward: 2, outcome: 'fulfilled' },
  { daysAgo: 210, reward: 1, outcome: 'cancelled' },
  { daysAgo: 170, reward: 2, outcome: 'expired' },
  { daysAgo: 75, reward: 3, outcome: 'fulfilled' },
  { daysAgo: 9, reward: 0, outcome: 'pending' },
];

/** One step of the demo's history, run at its time: every step in time order. */
interface Step {
  at: number;
  run: (ctx: TxCtx) => Promise<void>;
}

export async function seedLoyaltyDemo(seed: DemoSeed): Promise<void> {
  const start = seed.start.getTime();
  const end = seed.now.getTime();
  /** A time in the demo's span, at least a minute before now. */
  const within = (t: number) => Math.min(Math.max(t, start), end - 60_000);
  const between = (lo: number, hi: number) => lo + seed.random() * (hi - lo);
  let transactions = 0;

  const setup = seed.at(seed.start);
  const currency = await baseCurrency(setup);
  const program = await createProgram(setup, {
    name: 'Rewards Club',
    pointsName: 'Points',
    pointsPerCurrency: 1,
    currency,
    enrollmentType: 'manual',
    pointsExpiryDays: EXPIRY_DAYS,
    autoNotify: true,
  });
  for (const tier of TIERS) await createTier(setup, tier);
  const rewardsAt = seed.at(new Date(start + 14 * DAY));
  const rewards: Reward[] = [];
  for (const reward of REWARDS) rewards.push(await createReward(rewardsAt, reward));
  const reminder = await createReminder(seed.at(new Date(start + 30 * DAY)), {
    name: 'Espresso machine service',
    description: 'Descaling, new gaskets and calibration, twice a year.',
    intervalDays: REMINDER_INTERVAL_DAYS,
    bonusPoints: 50,
  });
  seed.count('loyalty_programs');
  seed.count('rewards', rewards.length);
  seed.count('reminders');

  // About two thirds of the customers, drawn once, enrolled one after another over the months (none
  // before they became a customer).
  const customers = await demoCustomers(setup.db, setup.businessId);
  const chosen = customers
    .map((customer) => ({ customer, key: seed.random() }))
    .sort((a, b) => a.key - b.key)
    .slice(0, Math.round((customers.length * 2) / 3));
  const first = start + 10 * DAY;
  const last = end - 60 * DAY;
  const members = chosen
    .map(({ customer }, k) => ({
      customer,
      enrolledAt: Math.max(
        customer.created_at.getTime() + DAY,
        first + ((k + seed.random()) / chosen.length) * (last - first),
      ),
      id: '',
    }))
    .filter((m) => m.enrolledAt < end - 3 * DAY);

  const steps: Step[] = [];
  const step = (at: number, run: Step['run']) => steps.push({ at: within(at), run });

  /** An earn at the member's tier, as a paid invoice or a purchase at the till earns. */
  const earn = async (
    ctx: TxCtx,
    memberId: string,
    amount: number,
    entry: { description: string; referenceType: 'invoice' | 'public'; referenceId: string },
  ) => {
    const { points, multiplier } = earning(
      amount,
      program.pointsPerCurrency,
      await tierOfMember(ctx.db, ctx.businessId, memberId),
    );
    if (points <= 0) return;
    await post(ctx, memberId, { type: 'earn', points, multiplier, ...entry });
    transactions++;
  };

  for (const member of members) {
    step(member.enrolledAt, async (ctx) => {
      member.id = (await enrollMember(ctx, { customerId: member.customer.id })).publicId;
    });
  }

  // A paid invoice of a member earns its points once paid. General's sales report names the
  // customer and the issue date, not the payment's: the points are posted by the end of the
  // longest payment term the demo gives (or today, for an invoice issued since), never before.
  const byName = new Map<string, (typeof members)[number] | null>();
  for (const member of members) {
    byName.set(member.customer.name, byName.has(member.customer.name) ? null : member);
  }
  for (const invoice of await paidInvoices(setup, currency, seed)) {
    const member = byName.get(invoice.clientName);
    const settled = Date.parse(`${invoice.issueDate}T00:00:00Z`) + PAID_WITHIN_DAYS * DAY;
    const paidAt = Math.min(settled, end - between(1, 20) * HOUR);
    if (!member || paidAt <= member.enrolledAt + HOUR) continue;
    step(paidAt, (ctx) =>
      earn(ctx, member.id, toMajor(invoice.amount, currency), {
        description: `Invoice ${invoice.invoiceNumber}`,
        referenceType: 'invoice',
        referenceId: invoice.invoiceId,
      }),
    );
  }

  // Private customers also buy at the shop's counter now and then.
  let till = 1000;
  for (const member of members) {
    if (member.customer.company) continue;
    for (let at = member.enrolledAt + between(3, 40) * DAY; at < end - DAY; at += between(90, 150) * DAY) {
      const reference = `POS-${++till}`;
      const amount = Math.round(between(6, 60) * 100) / 100;
      step(at, (ctx) =>
        earn(ctx, member.id, amount, {
          description: `Purchase ${reference}`,
          referenceType: 'public',
          referenceId: reference,
        }),
      );
    }
  }

  // Every other business member had its machine serviced within the interval, so each next due
  // date is still ahead.
  members
    .filter((member) => member.customer.company)
    .forEach((member, i) => {
      const at = end - between(5, REMINDER_INTERVAL_DAYS - 10) * DAY;
      if (i % 2 !== 0 || at < member.enrolledAt + 7 * DAY) return;
      step(at, async (ctx) => {
        await completeReminder(ctx, reminder.publicId, member.id);
        transactions++;
      });
    });

  // Redemptions by members who have the points by then.
  let redeemed = 0;
  for (const plan of REDEMPTIONS) {
    const at = end - plan.daysAgo * DAY;
    const pick = seed.random();
    const done = at + between(1, 6) * DAY;
    let redemptionId: string | undefined;
    step(at, async (ctx) => {
      const { data } = await listMembers(ctx, { limit: 200, offset: 0 });
      const able = (cost: number) => data.filter((m) => m.status === 'active' && m.pointsBalance >= cost);
      // The planned reward, else the dearest one some member can afford by then.
      const reward = [rewards[plan.reward]!, ...[...rewards].reverse()].find(
        (r) => able(r.pointsCost).length > 0,
      );
      if (!reward) return;
      const candidates = able(reward.pointsCost);
      const member = candidates[Math.floor(pick * candidates.length)]!;
      const redemption = await createRedemption(ctx, {
        memberId: member.publicId,
        rewardId: reward.publicId,
        ...(plan.outcome === 'cancelled' && { notes: 'Changed their mind at the counter' }),
      });
      redemptionId = redemption.publicId;
      redeemed++;
      transactions++;
    });
    const outcome = plan.outcome;
    if (outcome !== 'fulfilled' && outcome !== 'cancelled') continue;
    step(done, async (ctx) => {
      if (!redemptionId) return;
      await updateRedemption(ctx, redemptionId, { status: outcome });
      if (outcome === 'cancelled') transactions++;
    });
  }

  // What time made due on the way: points a year old expire, vouchers past their date too.
  for (let at = start + EXPIRY_DAYS * DAY; at < end; at += 30 * DAY) {
    step(at, async (ctx) => {
      transactions += await expirePoints(ctx, ctx.businessId);
      await expireVouchers(ctx, ctx.businessId);
    });
  }
  steps.push({
    at: end,
    run: async (ctx) => {
      transactions += await expirePoints(ctx, ctx.businessId);
      await expireVouchers(ctx, ctx.businessId);
    },
  });

  // In time order (a stable sort keeps the order steps were planned in at equal times).
  steps.sort((a, b) => a.at - b.at);
  for (const { at, run } of steps) await run(seed.at(new Date(at)));

  seed.count('members', members.length);
  seed.count('loyalty_transactions', transactions);
  seed.count('redemptions', redeemed);
}

/** The paid invoices of the demo in the program's currency, as general reports its sales. */
async function paidInvoices(ctx: TxCtx, currency: string, seed: DemoSeed): Promise<SalesItem[]> {
  const from = seed.start.toISOString().slice(0, 10);
  const to = new Date(seed.now.getTime() + DAY).toISOString().slice(0, 10);
  const paid: SalesItem[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await salesItems(ctx, { currency, from, to, limit: PAGE, offset });
    paid.push(...page.filter((item) => item.status === 'paid'));
    if (page.length < PAGE) return paid;
  }
}
