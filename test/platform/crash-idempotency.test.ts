import { describe, expect, it } from 'vitest';
import { createClient, unwrap } from '../../client/index.js';
import { useServiceDatabase } from '../support/setup.js';
import { onPostgres } from '../support/database.js';
import { openDatabase } from '../../server/platform/db/database.js';
import { itemAt } from '../support/expect.js';
import { serviceReady, startServiceProcess, type ServiceProcess } from '../support/service-process.js';

const PORT = 4200 + Math.floor(Math.random() * 200);
const BASE = `http://127.0.0.1:${PORT}`;

const databaseEnv = useServiceDatabase('crash');

/** The compiled service as one process, the one a SIGKILL takes down mid-request. */
const startService = () =>
  startServiceProcess({
    ...databaseEnv(),
    PORT: String(PORT),
    HOST: '127.0.0.1',
    RATE_LIMITS: 'free:100,standard:1000000,enterprise:1000000',
    DB_POOL_SIZE: '20',
  });

const ready = (service: ServiceProcess) => serviceReady(BASE, service);

interface Keyed {
  key: string;
  path: string;
  body: string;
  credential: Record<string, string>;
}

interface Outcome {
  status?: number;
  text?: string;
  replayed?: boolean;
}

async function send(request: Keyed): Promise<Outcome> {
  const res = await fetch(`${BASE}${request.path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'idempotency-key': request.key, ...request.credential },
    body: request.body,
  });
  return {
    status: res.status,
    text: await res.text(),
    replayed: res.headers.get('idempotent-replayed') === 'true',
  };
}

/** Sends every request, `parallel` at a time; a request whose answer never came has no status. */
async function burst(
  requests: Keyed[],
  parallel: number,
  onAnswer: (done: number) => void,
): Promise<Outcome[]> {
  const outcomes: Outcome[] = new Array(requests.length);
  let next = 0;
  let done = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < requests.length) {
        const i = next++;
        outcomes[i] = await send(itemAt(requests, i)).catch(() => ({}));
        onAnswer(++done);
      }
    }),
  );
  return outcomes;
}

describe(
  `a crash in the middle of keyed requests (${onPostgres ? 'PostgreSQL' : 'PGlite'})`,
  { timeout: 300_000 },
  () => {
    it('applies every keyed create, invoice payment and public earn exactly once after a SIGKILL and retries', async () => {
      let service = startService();
      await ready(service);

      const owner = await unwrap(
        createClient({ baseUrl: BASE }).auth.register({
          body: {
            businessName: 'Crash Ltd',
            email: 'crash@example.test',
            password: 'a long enough password',
          },
        }),
      );
      const bms = createClient({ baseUrl: BASE, accessToken: owner.data.accessToken });
      const { data: customer } = await unwrap(
        bms.general.customers.createCustomer({ body: { name: 'Payer' } }),
      );
      const { data: invoice } = await unwrap(
        bms.general.invoices.createInvoice({
          body: {
            customer_id: customer.id,
            due_date: '2030-12-31',
            items: [{ description: 'Retainer', quantity: 1, unit_price: 10_000 }],
          },
        }),
      );
      await unwrap(bms.general.invoices.issueInvoice({ params: { id: invoice.id } }));
      await unwrap(
        bms.loyalty.program.createProgram({
          body: {
            name: 'Club',
            pointsName: 'Stars',
            pointsPerCurrency: 10,
            currency: 'USD',
            enrollmentType: 'automatic',
          },
        }),
      );
      const { data: till } = await unwrap(
        bms.auth.createApiKey({ body: { name: 'Till', scope: 'public_loyalty' } }),
      );

      const N = onPostgres ? 150 : 60;
      const bearer = { authorization: `Bearer ${owner.data.accessToken}` };
      const requests: Keyed[] = [];
      for (let i = 0; i < N; i++) {
        requests.push(
          {
            key: `cus-${i}`,
            path: '/v1/customers',
            body: JSON.stringify({ name: `Crash ${i}` }),
            credential: bearer,
          },
          {
            key: `pay-${i}`,
            path: `/v1/invoices/${invoice.id}/payments`,
            body: JSON.stringify({ amount: 1, payment_method: 'cash' }),
            credential: bearer,
          },
          {
            key: `earn-${i}`,
            path: '/v1/public/loyalty/earn',
            body: JSON.stringify({ email: `shopper${i % 10}@example.test`, amount: 1, reference: `R-${i}` }),
            credential: { 'x-api-key': till.key },
          },
        );
      }

      // Kill the process once a third of the answers are back: the rest are in flight or unsent.
      let killed = false;
      const first = await burst(requests, 24, (done) => {
        if (!killed && done >= requests.length / 3) {
          killed = true;
          service.child.kill('SIGKILL');
        }
      });
      await service.exited;
      const answered = first.filter((o) => o.status !== undefined);
      const lost = first.length - answered.length;
      expect(killed).toBe(true);
      expect(lost).toBeGreaterThan(0);
      for (const o of answered) expect(o.status, o.text).toBeLessThan(300);

      service = startService();
      await ready(service);
      const retries = await burst(requests, 8, () => {});
      for (const [i, retry] of retries.entries()) {
        expect(retry.status, `${itemAt(requests, i).key}: ${retry.text}`).toBeLessThan(300);
        // An answer the client saw before the crash is what every retry gets back.
        const before = itemAt(first, i);
        if (before.status !== undefined) {
          expect(retry.replayed).toBe(true);
          expect(retry.text).toBe(before.text);
        }
      }
      const replayed = retries.filter((r) => r.replayed).length;
      console.log(
        `crash test: ${requests.length} keyed requests, ${answered.length} answered before SIGKILL, ${lost} unanswered; ` +
          `after restart every retry succeeded, ${replayed} as replays, ${requests.length - replayed} ran afresh`,
      );

      // Each effect exactly once, read from the database itself.
      service.child.kill('SIGTERM');
      await service.exited;
      const database = await openDatabase({
        databaseUrl: databaseEnv().DATABASE_URL,
        dataDir: databaseEnv().DATA_DIR ?? 'memory://',
        poolSize: 1,
        statementTimeoutMs: 10_000,
      });
      try {
        const { db } = database;
        const customers = await db
          .selectFrom('customers')
          .select(['name'])
          .where('business_id', '=', owner.data.businessId)
          .where('name', 'like', 'Crash %')
          .execute();
        expect(customers).toHaveLength(N);
        expect(new Set(customers.map((c) => c.name)).size).toBe(N);
        const payments = await db
          .selectFrom('payments')
          .select(['amount_minor'])
          .where('business_id', '=', owner.data.businessId)
          .execute();
        expect(payments).toHaveLength(N);
        const earns = await db
          .selectFrom('loyalty_transactions')
          .select(['reference_id'])
          .where('business_id', '=', owner.data.businessId)
          .where('type', '=', 'earn')
          .execute();
        expect(earns).toHaveLength(N);
        expect(new Set(earns.map((e) => e.reference_id)).size).toBe(N);
        const balances = await db
          .selectFrom('loyalty_members')
          .select((eb) => eb.fn.sum<number>('points_balance').as('total'))
          .where('business_id', '=', owner.data.businessId)
          .executeTakeFirstOrThrow();
        expect(Number(balances.total)).toBe(N * 10);
      } finally {
        await database.close();
      }
    });
  },
);
