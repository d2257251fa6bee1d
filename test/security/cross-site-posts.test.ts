import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { registerBusiness } from '../support/business.js';
import { outbox } from '../support/events.js';
import { createCustomer, createQuote } from '../support/general.js';
import { useTestServer } from '../support/setup.js';

/**
 * The hosted quote page's Accept and Decline are form posts without a credential: a post another
 * site makes from the customer's browser is refused (403, a page saying why), the page's own form
 * and clients that send neither header still work.
 */

const server = useTestServer({ env: { PUBLIC_BASE_URL: 'https://billing.example.com' }, worker: false });

async function sentQuote() {
  const biz = await registerBusiness(server());
  const customer = await createCustomer(biz.client, { name: 'Grace Hopper', email: 'grace@example.com' });
  const quote = await createQuote(biz.client, customer.id, 'sent');
  return { biz, quote, page: new URL(quote.hosted_url!).pathname };
}

const post = (path: string, headers: Record<string, string> = {}) =>
  fetch(`${server().baseUrl}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
  });

describe('cross-site posts to the hosted quote page', () => {
  for (const action of ['accept', 'decline'] as const) {
    it(`refuses a cross-site ${action} (403 with a page saying why), and the quote stays sent`, async () => {
      const { biz, quote, page } = await sentQuote();
      const before = (await outbox(server(), biz.businessId)).length;
      for (const headers of <Record<string, string>[]>[
        { origin: 'https://evil.example' },
        { 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'same-site', origin: 'https://shop.example.com' },
        { origin: 'https://evil.example', 'sec-fetch-site': 'same-origin' },
        { origin: 'null', 'sec-fetch-site': 'cross-site' },
      ]) {
        const res = await post(`${page}/${action}`, headers);
        expect(res.status, JSON.stringify(headers)).toBe(403);
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
        expect(await res.text()).toContain('came from another website');
      }
      const now = (await unwrap(biz.client.general.quotes.getQuote({ params: { id: quote.id } }))).data;
      expect(now.status).toBe('sent');
      expect((await outbox(server(), biz.businessId)).length).toBe(before);
    }, 120_000);
  }

  it("takes the page's own form: same origin by Sec-Fetch-Site, by Origin, or Origin null", async () => {
    for (const headers of <Record<string, string>[]>[
      { 'sec-fetch-site': 'same-origin', origin: 'null' },
      { origin: 'https://billing.example.com' },
      { 'sec-fetch-site': 'same-origin' },
    ]) {
      const { biz, quote, page } = await sentQuote();
      const res = await post(`${page}/accept`, headers);
      expect(res.status, JSON.stringify(headers)).toBe(303);
      const now = (await unwrap(biz.client.general.quotes.getQuote({ params: { id: quote.id } }))).data;
      expect(now.status).toBe('accepted');
    }
    // The server's own address as the request names it is its origin too.
    const { page } = await sentQuote();
    const own = await post(`${page}/decline`, { origin: new URL(server().baseUrl).origin });
    expect(own.status).toBe(303);
  }, 180_000);

  it('takes a post without Origin or Sec-Fetch-Site (an older client)', async () => {
    const { biz, quote, page } = await sentQuote();
    const res = await post(`${page}/decline`);
    expect(res.status).toBe(303);
    const now = (await unwrap(biz.client.general.quotes.getQuote({ params: { id: quote.id } }))).data;
    expect(now.status).toBe('declined');
  }, 120_000);
});
