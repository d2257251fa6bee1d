import { unwrap, type Client, type loyalty } from '../../client/index.js';
import { keyClient, registerShop, uniqueEmail, type TestBusiness, type TestShop } from './business.js';
import { enrollMember } from './loyalty.js';
import type { TestServer } from './server.js';

/** What the public loyalty tests share: a shop with its point of sale, and members known by email. */

export const DAY_MS = 24 * 60 * 60 * 1000;
/** 12 Crockford base32 characters in groups of four. */
export const VOUCHER = /^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/;
export const UNKNOWN_REWARD = 'rew_01JD7X2R5VQ8N3K4M6P9T1W2Y3';

export interface Shop extends TestShop {
  /** The typed client with the shop's public_loyalty key: the point of sale. */
  pos: Client;
}

/** A shop (`registerShop`: 10 points per unit, automatic enrollment unless told) with its point of sale. */
export async function newShop(
  server: TestServer,
  program: Partial<loyalty.CreateProgramBody> = {},
): Promise<Shop> {
  const shop = await registerShop(server, program);
  return { ...shop, pos: keyClient(server, shop.apiKey) };
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
  const member = await enrollMember(business.client, {
    customer: { name, email },
    ...(options.points ? { initialPoints: options.points } : {}),
    ...(options.tierId ? { tierId: options.tierId } : {}),
  });
  return { memberId: member.publicId, customerId: member.customerId, email, name };
}

/** A member detail as the events show a member: without customerPhone. */
export function withoutPhone(detail: loyalty.MemberDetail): loyalty.Member {
  const copy: Partial<loyalty.MemberDetail> = { ...detail };
  delete copy.customerPhone;
  return copy as loyalty.Member;
}

/** The business's members whose name or email contains `search`. */
export async function membersMatching(business: TestBusiness, search: string) {
  return unwrap(business.client.loyalty.members.listMembers({ query: { search, limit: 200 } }));
}
