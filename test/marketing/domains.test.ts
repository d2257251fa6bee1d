import { createPublicKey } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { unwrap, type marketing } from '../../client/index.js';
import { registerBusiness, type TestBusiness } from '../support/business.js';
import { expectResultError } from '../support/expect.js';
import {
  createDomain,
  createTemplate,
  MARKETING_ENV,
  publishRecords,
  TRUSTED_DOMAIN,
  uniqueDomain,
  verifiedDomain,
} from '../support/marketing.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ env: MARKETING_ENV, worker: false });

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const tenant = () => registerBusiness(server());
const verify = (t: TestBusiness, id: string) => t.client.marketing.domains.verifyDomain({ params: { id } });

/** The stored row of a domain, as the database has it. */
const storedDomain = (id: string) =>
  server().deps.db.selectFrom('marketing_domains').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

describe('adding a sender domain', () => {
  it('answers 201 with the ownership and DKIM records to publish, pending', async () => {
    const t = await tenant();
    const name = uniqueDomain();
    const res = await t.client.marketing.domains.createDomain({ body: { domain: name } });
    expect(res.status).toBe(201);
    const { domain } = res.body as { domain: marketing.Domain };
    expect(domain).toEqual({
      id: expect.stringMatching(/^dom_/),
      domain: name,
      status: 'pending',
      verification: [
        {
          purpose: 'ownership',
          type: 'TXT',
          name: `_bms-verification.${name}`,
          value: expect.stringMatching(/^bms-verification=[0-9a-f]{32}$/),
          verified: false,
        },
        {
          purpose: 'dkim',
          type: 'TXT',
          name: `bms1._domainkey.${name}`,
          value: expect.stringMatching(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/]+=*$/),
          verified: false,
        },
      ],
      dkim_selector: 'bms1',
      verified_at: null,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
    });
  });

  it('keeps the DKIM private key sealed, and the published public key is its own', async () => {
    const t = await tenant();
    const domain = await createDomain(t.client);
    const row = await storedDomain(domain.id);
    expect(row.dkim_private_key).not.toContain('PRIVATE KEY');
    const privateKey = server().deps.secrets.open(row.dkim_private_key);
    expect(privateKey).toContain('BEGIN PRIVATE KEY');
    const derived = createPublicKey(privateKey).export({ type: 'spki', format: 'der' }).toString('base64');
    const p = domain.verification[1]?.value.split('p=')[1];
    expect(p).toBe(derived);
    expect(createPublicKey(privateKey).asymmetricKeyDetails?.modulusLength).toBe(2048);
  });

  it('gives each domain its own key pair and token', async () => {
    const t = await tenant();
    const [a, b] = await Promise.all([createDomain(t.client), createDomain(t.client)]);
    expect(a?.verification[0]?.value).not.toBe(b?.verification[0]?.value);
    expect(a?.verification[1]?.value).not.toBe(b?.verification[1]?.value);
  });

  it('stores the name in lower case without a trailing dot', async () => {
    const t = await tenant();
    const name = uniqueDomain();
    const domain = await createDomain(t.client, ` ${name.toUpperCase()}. `);
    expect(domain.domain).toBe(name);
  });

  it('refuses a domain the business already has, whatever its case: 409 CONFLICT', async () => {
    const t = await tenant();
    const name = uniqueDomain();
    await createDomain(t.client, name);
    const res = await t.client.marketing.domains.createDomain({ body: { domain: name.toUpperCase() } });
    expectResultError(res, 409, 'CONFLICT');
  });

  it('lets two businesses add the same domain', async () => {
    const name = uniqueDomain();
    const [a, b] = [await tenant(), await tenant()];
    await createDomain(a.client, name);
    expect((await createDomain(b.client, name)).domain).toBe(name);
  });

  it.each([
    'localhost',
    'example',
    'exa mple.com',
    '-bad.example.com',
    'bad-.example.com',
    'a..example.com',
    'http://example.com',
    'user@example.com',
    'example.com/path',
    `${'a'.repeat(64)}.example.com`,
    `${'abcdefghi.'.repeat(26)}com`,
    'example.c',
    'ex_ample.com',
    '',
  ])('refuses the malformed domain %j: 422 on domain', async (domain) => {
    const t = await tenant();
    const res = await t.client.marketing.domains.createDomain({ body: { domain } });
    expectResultError(res, 422, 'VALIDATION_ERROR', 'domain');
  });

  it('marks a domain of MAIL_TRUSTED_DOMAINS verified at once', async () => {
    const t = await tenant();
    const domain = await createDomain(t.client, TRUSTED_DOMAIN);
    expect(domain.status).toBe('verified');
    expect(domain.verified_at).toMatch(ISO);
    expect(domain.verification.every((r) => r.verified)).toBe(true);
  });

  it('refuses the 51st domain of a business: 422 LIMIT_EXCEEDED', async () => {
    const t = await tenant();
    const first = await createDomain(t.client);
    const row = await storedDomain(first.id);
    await server()
      .deps.db.insertInto('marketing_domains')
      .values(
        Array.from({ length: 49 }, (_, i) => ({
          ...row,
          id: `${row.id}_${i}`,
          domain: `n${i}.${row.domain}`,
        })),
      )
      .execute();
    const res = await t.client.marketing.domains.createDomain({ body: { domain: uniqueDomain() } });
    expectResultError(res, 422, 'LIMIT_EXCEEDED');
  });
});

describe('verifying a sender domain', () => {
  it('stays pending, both records unseen, while nothing is published', async () => {
    const t = await tenant();
    const domain = await createDomain(t.client);
    const res = await verify(t, domain.id);
    expect(res.status).toBe(200);
    const answered = (res.body as { domain: marketing.Domain }).domain;
    expect(answered.status).toBe('pending');
    expect(answered.verified_at).toBeNull();
    expect(answered.verification.map((r) => r.verified)).toEqual([false, false]);
  });

  it('stays pending with only the ownership record, and says which record is missing', async () => {
    const t = await tenant();
    const domain = await createDomain(t.client);
    const ownership = domain.verification[0]!;
    server().dns.publish(ownership.name, ownership.value);
    const answered = (await unwrap(verify(t, domain.id))).domain;
    expect(answered.status).toBe('pending');
    expect(answered.verification.map((r) => r.verified)).toEqual([true, false]);
  });

  it('stays pending with only the DKIM record', async () => {
    const t = await tenant();
    const domain = await createDomain(t.client);
    const dkim = domain.verification[1]!;
    server().dns.publish(dkim.name, dkim.value);
    const answered = (await unwrap(verify(t, domain.id))).domain;
    expect(answered.status).toBe('pending');
    expect(answered.verification.map((r) => r.verified)).toEqual([false, true]);
  });

  it('becomes verified when both records are published, at the clock time', async () => {
    const t = await tenant();
    const domain = await createDomain(t.client);
    publishRecords(server().dns, domain);
    const answered = (await unwrap(verify(t, domain.id))).domain;
    expect(answered.status).toBe('verified');
    expect(answered.verification.map((r) => r.verified)).toEqual([true, true]);
    expect(answered.verified_at).toMatch(ISO);
    const got = (await unwrap(t.client.marketing.domains.getDomain({ params: { id: domain.id } }))).domain;
    expect(got.status).toBe('verified');
    expect(got.verified_at).toBe(answered.verified_at);
  });

  it('reads a DKIM record split into several strings, among other TXT records', async () => {
    const t = await tenant();
    const domain = await createDomain(t.client);
    const [ownership, dkim] = [domain.verification[0]!, domain.verification[1]!];
    server().dns.publish(ownership.name, 'google-site-verification=abc', ownership.value);
    server().dns.publish(dkim.name, [
      dkim.value.slice(0, 100),
      dkim.value.slice(100, 230),
      dkim.value.slice(230),
    ]);
    expect((await unwrap(verify(t, domain.id))).domain.status).toBe('verified');
  });

  it('does not accept a DKIM record with another key, or a wrong ownership token', async () => {
    const t = await tenant();
    const [a, b] = [await createDomain(t.client), await createDomain(t.client)];
    // a's names, b's values.
    server().dns.publish(a.verification[0]!.name, b.verification[0]!.value);
    server().dns.publish(a.verification[1]!.name, b.verification[1]!.value);
    const answered = (await unwrap(verify(t, a.id))).domain;
    expect(answered.status).toBe('pending');
    expect(answered.verification.map((r) => r.verified)).toEqual([false, false]);
  });

  it('keeps a verified domain verified when its records disappear', async () => {
    const t = await tenant();
    const domain = await verifiedDomain(t.client, server().dns);
    for (const record of domain.verification) server().dns.unpublish(record.name);
    const answered = (await unwrap(verify(t, domain.id))).domain;
    expect(answered.status).toBe('verified');
    expect(answered.verified_at).toBe(domain.verified_at);
  });

  it("answers 404 for another business's domain, and does not verify it", async () => {
    const [owner, other] = [await tenant(), await tenant()];
    const domain = await createDomain(owner.client);
    publishRecords(server().dns, domain);
    expectResultError(await verify(other, domain.id), 404, 'NOT_FOUND');
    const got = (await unwrap(owner.client.marketing.domains.getDomain({ params: { id: domain.id } })))
      .domain;
    expect(got.status).toBe('pending');
  });
});

describe('listing, reading and deleting sender domains', () => {
  it('lists the business’s own domains by name', async () => {
    const [t, other] = [await tenant(), await tenant()];
    const names = ['zeta', 'alpha', 'mid'].map((tag) => uniqueDomain(tag));
    for (const name of names) await createDomain(t.client, name);
    await createDomain(other.client);
    const { domains } = await unwrap(t.client.marketing.domains.listDomains());
    expect(domains.map((d) => d.domain)).toEqual([...names].sort());
  });

  it('gets one domain; an unknown id is 404', async () => {
    const t = await tenant();
    const domain = await createDomain(t.client);
    expect(
      (await unwrap(t.client.marketing.domains.getDomain({ params: { id: domain.id } }))).domain,
    ).toEqual(domain);
    expectResultError(
      await t.client.marketing.domains.getDomain({ params: { id: 'dom_unknown' } }),
      404,
      'NOT_FOUND',
    );
  });

  it('deletes a domain no template sends from; it is gone after', async () => {
    const t = await tenant();
    const domain = await createDomain(t.client);
    const res = await t.client.marketing.domains.deleteDomain({ params: { id: domain.id } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', message: expect.any(String) });
    expectResultError(
      await t.client.marketing.domains.getDomain({ params: { id: domain.id } }),
      404,
      'NOT_FOUND',
    );
    // The name is free again.
    expect((await createDomain(t.client, domain.domain)).status).toBe('pending');
  });

  it('refuses to delete a domain a template sends from: 409 RESOURCE_IN_USE, until the template moves', async () => {
    const t = await tenant();
    const domain = await verifiedDomain(t.client, server().dns);
    const template = await createTemplate(t.client, { from_email: `News@${domain.domain.toUpperCase()}` });
    expectResultError(
      await t.client.marketing.domains.deleteDomain({ params: { id: domain.id } }),
      409,
      'RESOURCE_IN_USE',
    );
    await unwrap(
      t.client.marketing.templates.updateTemplate({
        params: { id: template.id },
        body: { from_email: `news@${TRUSTED_DOMAIN}` },
      }),
    );
    expect((await t.client.marketing.domains.deleteDomain({ params: { id: domain.id } })).status).toBe(200);
  });

  it('counts a deleted template as not sending', async () => {
    const t = await tenant();
    const domain = await verifiedDomain(t.client, server().dns);
    const template = await createTemplate(t.client, { from_email: `news@${domain.domain}` });
    await unwrap(t.client.marketing.templates.deleteTemplate({ params: { id: template.id } }));
    expect((await t.client.marketing.domains.deleteDomain({ params: { id: domain.id } })).status).toBe(200);
  });
});
