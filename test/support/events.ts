import type { TestServer } from './server.js';

/** The business's outbox rows, oldest first. */
export const outbox = (server: TestServer, businessId: string) =>
  server.deps.db
    .selectFrom('events')
    .selectAll()
    .where('business_id', '=', businessId)
    .orderBy('occurred_at')
    .orderBy('id')
    .execute();

/** Runs `action` and returns what it returned with the outbox rows it added for the business. */
export async function withEvents<T>(server: TestServer, businessId: string, action: () => Promise<T>) {
  const before = new Set((await outbox(server, businessId)).map((e) => e.id));
  const result = await action();
  const added = (await outbox(server, businessId)).filter((e) => !before.has(e.id));
  return { result, events: added };
}
