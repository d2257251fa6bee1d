import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createClient, unwrap } from '../../client/index.js';
import { json, keyClient, raw, uniqueEmail } from '../support/business.js';
import { expectResultError, itemAt } from '../support/expect.js';
import {
  customerRows,
  expectLedgerBalanced,
  member,
  newReward,
  redemptionRows,
  transactionRows,
} from '../support/loyalty.js';
import { useTestServer } from '../support/setup.js';
import { enroll, membersMatching, newShop, type Shop } from '../support/public-loyalty.js';
import { createApiKey } from '../support/auth.js';

const server = useTestServer({ worker: false });

const API_KEY_CHALLENGE = 'ApiKey header="X-Api-Key"';

interface Fixture {
  shop: Shop;
  email: string;
  memberId: string;
  rewardId: string;
  voucherCode: string;
}

/** A shop with a member holding 1,000 points, a 100-point reward and one voucher of it. */
async function fixture(): Promise<Fixture> {
  const shop = await newShop(server());
  const { email, memberId } = await enroll(shop, { points: 1000 });
  const reward = await newReward(shop, { pointsCost: 100 });
  const redeemed = await unwrap(
    shop.pos.publicLoyalty.publicRedeem({ body: { email, rewardId: reward.publicId } }),
  );
  return { shop, email, memberId, rewardId: reward.publicId, voucherCode: redeemed.data.voucherCode };
}

/** The five public routes, as raw requests (headers are added by the caller). */
function publicRoutes(f: Fixture) {
  return [
    {
      name: 'GET balance',
      method: 'GET',
      path: `/v1/public/loyalty/balance?email=${encodeURIComponent(f.email)}`,
    },
    {
      name: 'POST earn',
      method: 'POST',
      path: '/v1/public/loyalty/earn',
      ...json({ email: f.email, amount: 5 }),
    },
    {
      name: 'POST redeem',
      method: 'POST',
      path: '/v1/public/loyalty/redeem',
      ...json({ email: f.email, rewardId: f.rewardId }),
    },
    { name: 'GET rewards', method: 'GET', path: '/v1/public/loyalty/rewards' },
    { name: 'GET verify', method: 'GET', path: `/v1/public/loyalty/vouchers/${f.voucherCode}/verify` },
  ] as const;
}

type Route = ReturnType<typeof publicRoutes>[number];

const call = (route: Route, headers: Record<string, string>) =>
  raw(server(), route.method, route.path, {
    headers: { ...('headers' in route ? route.headers : {}), ...headers },
    body: 'body' in route ? route.body : undefined,
  });

/** Calls every public route with `headers` and expects 401 with the API key challenge from each. */
async function expectAllRefused(f: Fixture, headers: Record<string, string>): Promise<void> {
  for (const route of publicRoutes(f)) {
    const res = await call(route, headers);
    expectResultError(res, 401, 'UNAUTHORIZED');
    expect(res.headers.get('www-authenticate'), route.name).toBe(API_KEY_CHALLENGE);
  }
  // None of the refused writes did anything.
  const m = await expectLedgerBalanced(f.shop, f.memberId);
  expect(m.pointsBalance).toBe(900);
  expect(await redemptionRows(server(), f.shop.businessId)).toHaveLength(1);
}

const unknownKey = (prefix: string) => `${prefix}${randomBytes(24).toString('base64url')}`;

describe('public loyalty authentication (X-Api-Key)', () => {
  it('answers every route for a public_loyalty key sent as X-Api-Key', async () => {
    const f = await fixture();
    const statuses = [];
    for (const route of publicRoutes(f))
      statuses.push((await call(route, { 'x-api-key': f.shop.apiKey })).status);
    expect(statuses).toEqual([200, 200, 201, 200, 200]);
    // earn 5 x 10 = 50, redeem 100: 900 + 50 - 100.
    expect((await expectLedgerBalanced(f.shop, f.memberId)).pointsBalance).toBe(850);
  });

  it('answers every route for a full key sent as X-Api-Key', async () => {
    const f = await fixture();
    const { key } = await createApiKey(f.shop.client, 'full');
    const statuses = [];
    for (const route of publicRoutes(f)) statuses.push((await call(route, { 'x-api-key': key })).status);
    expect(statuses).toEqual([200, 200, 201, 200, 200]);
  });

  it('refuses a request without any credential (401 UNAUTHORIZED, ApiKey challenge)', async () => {
    const f = await fixture();
    await expectAllRefused(f, {});
  });

  it('refuses an unknown key, of either prefix or none (401)', async () => {
    const f = await fixture();
    await expectAllRefused(f, { 'x-api-key': unknownKey('bms_pk_') });
    await expectAllRefused(f, { 'x-api-key': unknownKey('bms_sk_') });
    await expectAllRefused(f, { 'x-api-key': 'not-a-key' });
    await expectAllRefused(f, { 'x-api-key': '' });
  });

  it('refuses a key once it is revoked (401), having accepted it before', async () => {
    const f = await fixture();
    const { id, key } = await createApiKey(f.shop.client);
    expect((await keyClient(server(), key).publicLoyalty.publicListRewards()).status).toBe(200);
    await unwrap(f.shop.client.auth.revokeApiKey({ params: { id } }));
    await expectAllRefused(f, { 'x-api-key': key });
    // The business's other key keeps working.
    expect((await f.shop.pos.publicLoyalty.publicListRewards()).status).toBe(200);
  });

  it('refuses an access token, as Bearer or as X-Api-Key (401)', async () => {
    const f = await fixture();
    await expectAllRefused(f, { authorization: `Bearer ${f.shop.accessToken}` });
    await expectAllRefused(f, { 'x-api-key': f.shop.accessToken });
  });

  it('refuses a full or public key sent only as Authorization: Bearer (401)', async () => {
    const f = await fixture();
    const { key: full } = await createApiKey(f.shop.client, 'full');
    await expectAllRefused(f, { authorization: `Bearer ${full}` });
    await expectAllRefused(f, { authorization: `Bearer ${f.shop.apiKey}` });
  });

  it('refuses through the typed client too: an access-token client gets 401 on a public route', async () => {
    const f = await fixture();
    const res = await f.shop.client.publicLoyalty.publicGetBalance({ query: { email: f.email } });
    expectResultError(res, 401, 'UNAUTHORIZED');
    expect(res.headers.get('www-authenticate')).toBe(API_KEY_CHALLENGE);
  });
});

describe('public loyalty keys on token routes', () => {
  it('refuses a public_loyalty key on GET /v1/loyalty/members as X-Api-Key or as Bearer (403 FORBIDDEN)', async () => {
    const f = await fixture();
    const asHeader = await raw(server(), 'GET', '/v1/loyalty/members', {
      headers: { 'x-api-key': f.shop.apiKey },
    });
    expectResultError(asHeader, 403, 'FORBIDDEN');
    const asBearer = await raw(server(), 'GET', '/v1/loyalty/members', { token: f.shop.apiKey });
    expectResultError(asBearer, 403, 'FORBIDDEN');
    const viaClient = await createClient({
      baseUrl: server().baseUrl,
      accessToken: f.shop.apiKey,
      maxRetries: 0,
    }).loyalty.members.listMembers({ query: {} });
    expectResultError(viaClient, 403, 'FORBIDDEN');
  });

  it('refuses a public_loyalty key on a token write (403) and changes nothing', async () => {
    const f = await fixture();
    const res = await raw(server(), 'POST', '/v1/loyalty/transactions/adjust', {
      token: f.shop.apiKey,
      ...json({ memberId: f.memberId, points: 500, description: 'Escalation' }),
    });
    expectResultError(res, 403, 'FORBIDDEN');
    expect((await member(f.shop, f.memberId)).pointsBalance).toBe(900);
  });

  it('accepts a full key as Bearer on the token routes', async () => {
    const f = await fixture();
    const { key } = await createApiKey(f.shop.client, 'full');
    const res = await raw(server(), 'GET', '/v1/loyalty/members', { token: key });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ result: 'success', totalCount: 1 });
  });
});

describe('tenant isolation of the public interface', () => {
  it("never shows business A's member balance to business B's key (404)", async () => {
    const a = await fixture();
    const b = await newShop(server());
    expectResultError(
      await b.pos.publicLoyalty.publicGetBalance({ query: { email: a.email } }),
      404,
      'NOT_FOUND',
    );
    expect(
      (await unwrap(a.shop.pos.publicLoyalty.publicGetBalance({ query: { email: a.email } }))).data,
    ).toMatchObject({ pointsBalance: 900 });
  });

  it("does not earn for business A's member through business B's manual program (404), creating nothing", async () => {
    const a = await fixture();
    const b = await newShop(server(), { enrollmentType: 'manual' });
    expectResultError(
      await b.pos.publicLoyalty.publicEarn({ body: { email: a.email, amount: 50, reference: 'B-1' } }),
      404,
      'NOT_FOUND',
    );
    expect(await customerRows(server(), b.businessId)).toEqual([]);
    expect(await transactionRows(server(), b.businessId)).toEqual([]);
    expect((await expectLedgerBalanced(a.shop, a.memberId)).pointsBalance).toBe(900);
  });

  it("enrolls business A's member email as business B's own customer under B's automatic program", async () => {
    const a = await fixture();
    const b = await newShop(server(), { enrollmentType: 'automatic' });
    const res = await unwrap(b.pos.publicLoyalty.publicEarn({ body: { email: a.email, amount: 3 } }));
    expect(res.data).toEqual({ pointsEarned: 30, multiplierApplied: 1, newBalance: 30, tierName: null });

    const bCustomers = await customerRows(server(), b.businessId);
    expect(bCustomers).toHaveLength(1);
    expect(bCustomers[0]?.email?.toLowerCase()).toBe(a.email.toLowerCase());
    const bMembers = await membersMatching(b, a.email);
    expect(bMembers.totalCount).toBe(1);
    expect(itemAt(bMembers.data, 0).publicId).not.toBe(a.memberId);
    expect(bMembers.data[0]?.pointsBalance).toBe(30);

    expect((await expectLedgerBalanced(a.shop, a.memberId)).pointsBalance).toBe(900);
    expect(await customerRows(server(), a.shop.businessId)).toHaveLength(1);
    expect(
      (await unwrap(a.shop.pos.publicLoyalty.publicGetBalance({ query: { email: a.email } }))).data,
    ).toMatchObject({ pointsBalance: 900, lifetimePoints: 1000 });
  });

  it("refuses business A's reward to business B's member (422 on rewardId) without debiting", async () => {
    const a = await fixture();
    const b = await newShop(server());
    const bMember = await enroll(b, { points: 1000 });
    expectResultError(
      await b.pos.publicLoyalty.publicRedeem({ body: { email: bMember.email, rewardId: a.rewardId } }),
      422,
      'VALIDATION_ERROR',
      'rewardId',
    );
    expect((await expectLedgerBalanced(b, bMember.memberId)).pointsBalance).toBe(1000);
    expect(await redemptionRows(server(), b.businessId)).toEqual([]);
    expect(await redemptionRows(server(), a.shop.businessId)).toHaveLength(1);
  });

  it("does not redeem for business A's member email through business B (404)", async () => {
    const a = await fixture();
    const b = await newShop(server());
    const bReward = await newReward(b, { pointsCost: 10 });
    expectResultError(
      await b.pos.publicLoyalty.publicRedeem({ body: { email: a.email, rewardId: bReward.publicId } }),
      404,
      'NOT_FOUND',
    );
    expect((await member(a.shop, a.memberId)).pointsBalance).toBe(900);
  });

  it("answers 404 for business A's voucher to business B's key", async () => {
    const a = await fixture();
    const b = await newShop(server());
    expectResultError(
      await b.pos.publicLoyalty.publicVerifyVoucher({ params: { code: a.voucherCode } }),
      404,
      'NOT_FOUND',
    );
    expect(
      (await unwrap(a.shop.pos.publicLoyalty.publicVerifyVoucher({ params: { code: a.voucherCode } }))).data
        .valid,
    ).toBe(true);
  });

  it("lists only the business's own rewards", async () => {
    const a = await fixture();
    const b = await newShop(server());
    const mine = await newReward(b, { name: 'B reward' });
    const listed = await unwrap(b.pos.publicLoyalty.publicListRewards());
    expect(listed.data.map((r) => r.publicId)).toEqual([mine.publicId]);
    expect((await unwrap(a.shop.pos.publicLoyalty.publicListRewards())).data.map((r) => r.publicId)).toEqual([
      a.rewardId,
    ]);
  });

  it('keeps a key of business A working only on A, even for an email both businesses know', async () => {
    const a = await fixture();
    const b = await newShop(server());
    const shared = uniqueEmail('shared');
    const inA = await enroll(a.shop, { email: shared, points: 40 });
    const inB = await enroll(b, { email: shared, points: 70 });
    expect(
      (await unwrap(a.shop.pos.publicLoyalty.publicGetBalance({ query: { email: shared } }))).data
        .pointsBalance,
    ).toBe(40);
    expect(
      (await unwrap(b.pos.publicLoyalty.publicGetBalance({ query: { email: shared } }))).data.pointsBalance,
    ).toBe(70);
    await unwrap(a.shop.pos.publicLoyalty.publicEarn({ body: { email: shared, amount: 1 } }));
    expect((await member(a.shop, inA.memberId)).pointsBalance).toBe(50);
    expect((await member(b, inB.memberId)).pointsBalance).toBe(70);
  });
});
