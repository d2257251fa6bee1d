// The README's SDK example as a script: creates a customer, invoices them, issues and pays the invoice.
// It imports the SDK package `@bms/client` (client/, linked into node_modules by npm install), so CI
// type-checks it against the package's `exports`. Run it against a live server with
//
//   BMS_BASE_URL=http://localhost:3000 BMS_API_KEY=bms_sk_... npx tsx examples/sdk-usage.ts
//
// Without BMS_API_KEY it registers a new business (unique email) and uses its access token, so it
// can run any number of times against the same server. Exits 1 when a call fails.
import { randomUUID } from 'node:crypto';
import { BmsApiError, createClient, unwrap, type Client } from '@bms/client';

const baseUrl = process.env.BMS_BASE_URL ?? 'http://localhost:3000';

/** A client with BMS_API_KEY, or signed in as the owner of a newly registered business. */
async function connect(): Promise<Client> {
  const apiKey = process.env.BMS_API_KEY;
  if (apiKey) {
    console.log(`Using BMS_API_KEY against ${baseUrl}`);
    return createClient({ baseUrl, apiKey });
  }
  const email = `example-${Date.now()}-${randomUUID().slice(0, 8)}@example.test`;
  const { data: session } = await unwrap(
    createClient({ baseUrl }).auth.register({
      body: { businessName: 'Example Ltd', email, password: randomUUID() },
    }),
  );
  console.log(`Registered business ${session.businessId} as ${email} at ${baseUrl}`);
  return createClient({ baseUrl, accessToken: session.accessToken });
}

async function example(): Promise<string> {
  const bms = await connect();

  const { data: customer } = await unwrap(
    bms.general.customers.createCustomer({ body: { name: 'Ada Lovelace' } }),
  );
  console.log(`Created customer ${customer.id} (${customer.name})`);

  // One key per operation: a retry of this request (same key, same body) is answered with the same
  // invoice instead of creating a second one. Reusing a key for a different body is refused (422).
  const orderKey = `order-${randomUUID()}`;
  const draft = {
    body: {
      customer_id: customer.id,
      due_date: new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10), // in 30 days
      items: [{ description: 'Consulting', quantity: 2, unit_price: 150 }],
    },
    headers: { 'idempotency-key': orderKey },
  };
  const { data: invoice } = await unwrap(bms.general.invoices.createInvoice(draft));
  console.log(
    `Created draft invoice ${invoice.number} (${invoice.id}), total ${invoice.total} ${invoice.currency}`,
  );
  const { data: again } = await unwrap(bms.general.invoices.createInvoice(draft));
  console.log(
    `Retried with the same Idempotency-Key: got ${again.number} again (${again.id === invoice.id ? 'same' : 'another'} invoice)`,
  );
  if (again.id !== invoice.id) throw new Error('the retried request created a second invoice');

  const { data: issued } = await unwrap(bms.general.invoices.issueInvoice({ params: { id: invoice.id } }));
  console.log(`Issued ${issued.number}: ${issued.status}, ${issued.amount_due} ${issued.currency} due`);

  const { data: paid } = await unwrap(
    bms.general.invoices.createPayment({
      params: { id: invoice.id },
      body: { amount: issued.amount_due, payment_method: 'bank_transfer' },
    }),
  );
  console.log(`Recorded a payment of ${paid.amount_paid} ${paid.currency}: ${paid.number} is ${paid.status}`);
  return paid.number;
}

try {
  const number = await example();
  console.log(`Done: invoice ${number} created, issued and paid.`);
} catch (err) {
  if (err instanceof BmsApiError) console.error(`Failed: ${err.status} ${err.code}: ${err.message}`);
  else if (err instanceof TypeError)
    console.error(
      `Failed: no answer from ${baseUrl} (${String((err.cause as Error | undefined)?.message ?? err.message)})`,
    );
  else console.error('Failed:', err);
  process.exitCode = 1;
}
