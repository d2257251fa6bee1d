import { contract } from '../../client/index.js';
import { registerShop, uniqueEmail, type TestShop } from '../support/business.js';
import { createRedemption, enrollMember, newReward } from '../support/loyalty.js';
import { describeRouteSecurity } from '../support/security.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ worker: false });

const { publicLoyalty } = contract;

/** The email of a new member holding 1,000 points. */
async function memberEmail(shop: TestShop): Promise<string> {
  const email = uniqueEmail('member');
  await enrollMember(shop.client, { initialPoints: 1000, customer: { email } });
  return email;
}

describeRouteSecurity({
  server,
  // Manual enrollment: an email the business does not know is refused, not enrolled.
  tenant: (s) => registerShop(s, { enrollmentType: 'manual' }),
  router: publicLoyalty,
  routes: (route) => [
    route(publicLoyalty.publicGetBalance, async (t) => ({ query: { email: await memberEmail(t) } }), {
      otherBusiness: { status: 404, code: 'NOT_FOUND' },
    }),
    route(publicLoyalty.publicEarn, async (t) => ({ body: { email: await memberEmail(t), amount: 5 } }), {
      otherBusiness: { status: 404, code: 'NOT_FOUND' },
    }),
    route(
      publicLoyalty.publicRedeem,
      async (t) => ({ body: { email: await memberEmail(t), rewardId: (await newReward(t)).publicId } }),
      { otherBusiness: { status: 404, code: 'NOT_FOUND' } },
    ),
    route(publicLoyalty.publicListRewards, async () => ({})),
    route(publicLoyalty.publicVerifyVoucher, async (t) => {
      const member = await enrollMember(t.client, { initialPoints: 1000 });
      const reward = await newReward(t);
      const redemption = await createRedemption(t.client, {
        memberId: member.publicId,
        rewardId: reward.publicId,
      });
      return { params: { code: redemption.voucherCode } };
    }),
  ],
});
