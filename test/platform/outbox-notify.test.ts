import { describe, expect, it } from 'vitest';
import { inTransaction } from '../../server/platform/context.js';
import { jobCtx } from '../../server/platform/context.js';
import { emit, emitMany } from '../../server/platform/outbox.js';
import { EVENTS_CHANNEL } from '../../server/platform/outbox.queries.js';
import { registerBusiness } from '../support/business.js';
import { outbox } from '../support/events.js';
import { useTestServer } from '../support/setup.js';

const server = useTestServer({ worker: false });

/** Counts the notifications on the events channel; `next()` resolves at the next one. */
async function listening() {
  let heard = 0;
  let waiting: (() => void)[] = [];
  await server().deps.database.listen(EVENTS_CHANNEL, () => {
    heard++;
    for (const resolve of waiting) resolve();
    waiting = [];
  });
  return {
    heard: () => heard,
    next: () => new Promise<void>((resolve) => waiting.push(resolve)),
  };
}

describe('events written through emit wake the relay when their transaction commits', () => {
  it('notifies once a committed transaction, however many events it wrote, and never for one rolled back', async () => {
    const { businessId } = await registerBusiness(server());
    const ctx = jobCtx(server().deps, businessId, 'outbox test');
    const channel = await listening();
    const before = (await outbox(server(), businessId)).length;

    await expect(
      inTransaction(ctx, async (tx) => {
        await emit(tx, 'customer.created', { id: 'rolled back' });
        throw new Error('undone');
      }),
    ).rejects.toThrow('undone');

    const heard = channel.next();
    await inTransaction(ctx, async (tx) => {
      await emit(tx, 'customer.created', { id: 'one' });
      await emitMany(tx, 'customer.updated', [{ id: 'two' }, { id: 'three' }]);
      // Nothing is heard before the commit.
      expect(channel.heard()).toBe(0);
    });
    await heard;
    // Notifications arrive in commit order: had the rolled-back one sent any, it would have come first.
    expect(channel.heard()).toBe(1);

    const written = (await outbox(server(), businessId)).slice(before);
    expect(written.map((e) => [e.type, e.data, e.dispatched_at])).toEqual([
      ['customer.created', { id: 'one' }, null],
      ['customer.updated', { id: 'two' }, null],
      ['customer.updated', { id: 'three' }, null],
    ]);
  });
});
