import { unwrap, type Client } from '../../client/index.js';
import type { ApiKeyScope } from '../../contract/auth/index.js';
import type {
  CreateProgramBody,
  CreateTierBody,
  Member,
  MemberDetail,
  Tier,
} from '../../contract/loyalty/index.js';
import {
  keyClient,
  registerShop,
  uniqueEmail,
  type TestBusiness,
  type TestShop,
} from '../support/business.js';
import type { TestServer } from '../support/server.js';

/** Shared set-up of the public loyalty test files (a helper module, not a test file). */

export const DAY_MS = 24 * 60 * 60 * 1000;
/** 12 Crockford base32 characters in groups of four. */
export const VOUCHER = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;
export const UNKNOWN_REWARD = 'rew_01JD7X2R5VQ8N3K4M6P9T1W2Y3';

export async function createKey(
  business: TestBusiness,
  scope: ApiKeyScope = 'public_loyalty',
): Promise<{ id: string; key: string }> {
  const { data } = await unwrap(
    business.client.auth.createApiKey({ body: { name: `Till ${scope}`, scope } }),
  );
  return { id: data.id, key: data.key };
}

export interface Shop extends TestShop {
  /** The typed client with the shop's public_loyalty key: the point of sale. */
  pos: Client;
}

/** A shop (`registerShop`: 10 points per unit, automatic enrollment unless told) with its point of sale. */
export async function newShop(server: TestServer, program: Partial<CreateProgramBody> = {}): Promise<Shop> {
  const shop = await registerShop(server, program);
  return { ...shop, pos: keyClient(server, shop.apiKey) };
}

export async function newTier(business: TestBusiness, body: CreateTierBody): Promise<Tier> {
  return (await unwrap(business.client.loyalty.tiers.createTier({ body }))).data;
}

export interface Enrolled {
  memberId: string;
  customerId: string;
  email: string;
  name: string;
}

let customers = 0;

/** A new customer with an email, enrolled through the token API with `points` (an adjust). */
export async function enroll(
  business: TestBusiness,
  options: { points?: number; email?: string; name?: string; tierId?: string } = {},
): Promise<Enrolled> {
  customers += 1;
  const email = options.email ?? uniqueEmail('member');
  const name = options.name ?? `Customer ${customers}`;
  const customer = await unwrap(business.client.general.customers.createCustomer({ body: { name, email } }));
  const member = await unwrap(
    business.client.loyalty.members.enrollMember({
      body: {
        customerId: customer.data.id,
        ...(options.points ? { initialPoints: options.points } : {}),
        ...(options.tierId ? { tierId: options.tierId } : {}),
      },
    }),
  );
  return { memberId: member.data.publicId, customerId: customer.data.id, email, name };
}

/** A member detail as the events show a member: without customerPhone. */
export function withoutPhone(detail: MemberDetail): Member {
  const copy: Partial<MemberDetail> = { ...detail };
  delete copy.customerPhone;
  return copy as Member;
}

/** The business's members whose name or email contains `search`. */
export async function membersMatching(business: TestBusiness, search: string) {
  return unwrap(business.client.loyalty.members.listMembers({ query: { search, limit: 200 } }));
}
