import { randomBytes } from 'node:crypto';
import type { CreateDomainBody, Domain } from '../../../contract/marketing/index.js';
import { type Ctx, inTransaction } from '../../platform/context.js';

import { refuseDuplicates } from '../../platform/db/errors.js';
import { ApiError, conflict, notFound } from '../../platform/errors.js';
import { newId } from '../../platform/ids.js';
import { DKIM_SELECTOR, dkimKeyPair, dkimTags } from '../sending/dkim.js';
import * as queries from './queries.js';
import { dnsRecords, toDomain } from './mappers.js';
import { templateSendsFrom } from '../templates/queries.js';

export const MAX_DOMAINS_PER_BUSINESS = 50;

type DomainRow = NonNullable<Awaited<ReturnType<typeof queries.findDomain>>>;

const trusted = (ctx: Ctx, domain: string) => ctx.config.MAIL_TRUSTED_DOMAINS.includes(domain);

export async function listDomains(ctx: Ctx): Promise<Domain[]> {
  return (await queries.listDomains(ctx.db, ctx.businessId)).map((row) => toDomain(row));
}

export async function getDomain(ctx: Ctx, id: string): Promise<Domain> {
  const row = await queries.findDomain(ctx.db, ctx.businessId, id);
  if (!row) throw notFound('Sender domain');
  return toDomain(row);
}

export async function createDomain(ctx: Ctx, input: CreateDomainBody): Promise<Domain> {
  // Made before the transaction: an RSA key takes a while and holds no lock.
  const keys = await dkimKeyPair();
  return refuseDuplicates(
    () =>
      inTransaction(ctx, async (ctx) => {
        if ((await queries.countDomains(ctx.db, ctx.businessId)) >= MAX_DOMAINS_PER_BUSINESS) {
          throw new ApiError(
            'LIMIT_EXCEEDED',
            `A business can have at most ${MAX_DOMAINS_PER_BUSINESS} sender domains`,
          );
        }
        const now = ctx.clock.now();
        const verified = trusted(ctx, input.domain);
        const id = newId('dom');
        await queries.insertDomain(ctx.db, {
          business_id: ctx.businessId,
          id,
          domain: input.domain,
          status: verified ? 'verified' : 'pending',
          verification_token: randomBytes(16).toString('hex'),
          dkim_selector: DKIM_SELECTOR,
          dkim_public_key: keys.publicKey,
          dkim_private_key: ctx.secrets.seal(keys.privateKey),
          verified_at: verified ? now : null,
          created_at: now,
          updated_at: now,
        });
        const row = await queries.findDomain(ctx.db, ctx.businessId, id);
        if (!row) throw new Error(`Sender domain ${id} vanished in its own transaction`);
        return toDomain(row);
      }),
    { marketing_domains_domain_key: () => conflict(`The business already has the domain ${input.domain}`) },
  );
}

/** TXT records at `name`, each joined from its strings; a failing lookup finds nothing. */
async function txtRecords(ctx: Ctx, name: string): Promise<string[]> {
  try {
    return (await ctx.dns.resolveTxt(name)).map((chunks) => chunks.join(''));
  } catch (err) {
    ctx.log.warn({ err, name }, 'TXT lookup failed');
    return [];
  }
}

async function lookUp(ctx: Ctx, row: DomainRow) {
  const records = dnsRecords(row);
  const [ownership, dkim] = await Promise.all([
    txtRecords(ctx, records.ownership.name),
    txtRecords(ctx, records.dkim.name),
  ]);
  return {
    ownership: ownership.some((r) => r.trim() === records.ownership.value),
    dkim: dkim.some((r) => {
      const tags = dkimTags(r);
      return tags.get('p') === row.dkim_public_key && (tags.get('k') ?? 'rsa').toLowerCase() === 'rsa';
    }),
  };
}

/** Looks the records up (outside any transaction) and marks the domain verified when both are there. */
export async function verifyDomain(ctx: Ctx, id: string): Promise<Domain> {
  const seen = await queries.findDomain(ctx.db, ctx.businessId, id);
  if (!seen) throw notFound('Sender domain');
  const found = await lookUp(ctx, seen);
  const passes = (found.ownership && found.dkim) || trusted(ctx, seen.domain);
  return inTransaction(ctx, async (ctx) => {
    const row = await queries.findDomain(ctx.db, ctx.businessId, id, true);
    if (!row) throw notFound('Sender domain');
    if (row.status === 'verified' || !passes) return toDomain(row, found);
    const now = ctx.clock.now();
    const verified = await queries.updateDomain(ctx.db, ctx.businessId, id, {
      status: 'verified',
      verified_at: now,
      updated_at: now,
    });
    return toDomain(verified, found);
  });
}

export async function deleteDomain(ctx: Ctx, id: string): Promise<void> {
  await inTransaction(ctx, async (ctx) => {
    const row = await queries.findDomain(ctx.db, ctx.businessId, id, true);
    if (!row) throw notFound('Sender domain');
    if (await templateSendsFrom(ctx.db, ctx.businessId, row.domain)) {
      throw new ApiError(
        'RESOURCE_IN_USE',
        `A template sends from an address at ${row.domain}; change its from_email first`,
      );
    }
    await queries.deleteDomain(ctx.db, ctx.businessId, id);
  });
}

/** Whether `email` is at a verified sender domain of the business (or a trusted one). */
export async function isVerifiedSender(ctx: Ctx, email: string): Promise<boolean> {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  if (trusted(ctx, domain)) return true;
  const row = await queries.findDomainByName(ctx.db, ctx.businessId, domain);
  return row?.status === 'verified';
}
