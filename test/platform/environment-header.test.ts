import { describe, expect, it } from 'vitest';
import { raw, registerBusiness } from '../support/business.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ worker: false });

const UNKNOWN = ['staging', 'test', 'production', 'live,sandbox', ''];

describe('the Bms-Environment request header', () => {
  it('refuses a value other than live or sandbox (400 BAD_REQUEST naming the header and its values)', async () => {
    const biz = await registerBusiness(server());
    for (const value of UNKNOWN) {
      const result = await raw(server(), 'GET', '/v1/api-keys', {
        token: biz.accessToken,
        headers: { 'bms-environment': value },
      });
      expect(result.status, value).toBe(400);
      expect(result.body).toEqual({
        result: 'error',
        error: {
          code: 'BAD_REQUEST',
          status: 400,
          message: expect.stringMatching(/Bms-Environment.*live.*sandbox/),
          details: [{ field: 'Bms-Environment', message: 'Must be one of: live, sandbox' }],
        },
      });
      // The general group answers in its own envelope.
      const general = await raw(server(), 'GET', '/v1/customers', {
        token: biz.accessToken,
        headers: { 'bms-environment': value },
      });
      expect(general.status).toBe(400);
      expect(general.body).toMatchObject({
        error: { code: 'BAD_REQUEST', details: [{ field: 'Bms-Environment' }] },
      });
      expect(general.body).not.toHaveProperty('result');
    }
  }, 120_000);

  it('refuses it on a route without credentials too, before anything is done', async () => {
    const email = `env-${Date.now()}@example.test`;
    const res = await raw(server(), 'POST', '/v1/auth/register', {
      headers: { 'content-type': 'application/json', 'bms-environment': 'staging' },
      body: JSON.stringify({ businessName: 'Typo Ltd', email, password: 'correct horse battery staple' }),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      error: { code: 'BAD_REQUEST', details: [{ field: 'Bms-Environment' }] },
    });
    const users = await server()
      .deps.db.selectFrom('users')
      .select('id')
      .where('email', '=', email)
      .execute();
    expect(users).toEqual([]);
  }, 120_000);

  it('takes live and sandbox in any case: the right one answers, the other environment is 401', async () => {
    const biz = await registerBusiness(server());
    for (const value of ['live', 'LIVE', ' Live ']) {
      const res = await raw(server(), 'GET', '/v1/api-keys', {
        token: biz.accessToken,
        headers: { 'bms-environment': value },
      });
      expect(res.status, value).toBe(200);
      expect(res.headers.get('bms-environment')).toBe('live');
    }
    const other = await raw(server(), 'GET', '/v1/api-keys', {
      token: biz.accessToken,
      headers: { 'bms-environment': 'sandbox' },
    });
    expect(other.status).toBe(401);
  }, 120_000);
});
