import { describe, expect, it } from 'vitest';
import { registerBusiness } from '../support/business.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer();

describe('smoke', () => {
  it('creates a customer through the SDK', async () => {
    const { client } = await registerBusiness(server());
    const res = await client.general.customers.createCustomer({ body: { name: 'Ada Lovelace' } });
    expect(res.status).toBe(201);
    if (res.status === 201) expect(res.body.data.first_name).toBe('Ada');
  });
});
