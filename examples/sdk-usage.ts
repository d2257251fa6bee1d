// The README's SDK example, type-checked in CI against the package's published `exports`.
import { createClient, unwrap } from 'business-management-service/client';

export async function example(): Promise<string> {
  const bms = createClient({ baseUrl: 'http://localhost:3000', apiKey: process.env.BMS_API_KEY });
  const { data: customer } = await unwrap(
    bms.general.customers.createCustomer({ body: { name: 'Ada Lovelace' } }),
  );
  const { data: invoice } = await unwrap(
    bms.general.invoices.createInvoice({
      body: {
        customer_id: customer.id,
        due_date: '2026-12-31',
        items: [{ description: 'Consulting', quantity: 2, unit_price: 150 }],
      },
      headers: { 'idempotency-key': 'order-1042' },
    }),
  );
  return invoice.number;
}
