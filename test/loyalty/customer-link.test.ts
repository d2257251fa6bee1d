import { describe, expect, it } from 'vitest';
import { unwrap } from '../../client/index.js';
import { registerTenant } from '../support/business.js';
import { expectError } from '../support/expect.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer();

describe('customers and loyalty members', () => {
  it('refuses to delete a customer who is, or was, a loyalty member (409 RESOURCE_IN_USE)', async () => {
    const t = await registerTenant(server());
    const loyalty = t.client.loyalty;
    await unwrap(
      loyalty.program.createProgram({
        body: { name: 'Club', pointsName: 'Points', pointsPerCurrency: 1, currency: 'USD' },
      }),
    );
    const { data: member } = await unwrap(
      loyalty.members.enrollMember({ body: { customerId: t.customerId } }),
    );

    expectError(
      await t.client.general.customers.deleteCustomer({ params: { id: t.customerId } }),
      409,
      'RESOURCE_IN_USE',
    );
    await unwrap(loyalty.members.deleteMember({ params: { publicId: member.publicId } }));
    // The deleted member's history still names the customer.
    expectError(
      await t.client.general.customers.deleteCustomer({ params: { id: t.customerId } }),
      409,
      'RESOURCE_IN_USE',
    );
    const still = await t.client.general.customers.getCustomer({ params: { id: t.customerId } });
    expect(still.status).toBe(200);
  });
});
