import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BmsApiError, unwrap } from '../../client/index.js';
import type { Member, Reminder } from '../../contract/loyalty/index.js';
import { sendDueReminders } from '../../server/loyalty/reminders/service.js';
import { json, raw, registerBusiness, uniqueEmail, type TestBusiness } from '../support/business.js';
import { outbox, withEvents } from '../support/events.js';
import { useTestServer } from '../support/setup.js';
import { waitFor } from '../support/wait.js';
import { createProgram, createReminder, enrollMember } from '../support/loyalty.js';
import { atLeast } from '../support/expect.js';

// The clock moves years ahead: tokens must outlive it.
const server = useTestServer({ env: { ACCESS_TOKEN_TTL: '3650d' } });

const REMINDER_ID = /^rem_[0-9A-HJKMNP-TV-Z]{26}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const MISSING_REMINDER = 'rem_01JD7X2R5VQ8N3K4M6P9T1W2Y3';
const MISSING_MEMBER = 'mem_01JD7X2R5VQ8N3K4M6P9T1W2Y3';

async function expectApiError(call: Promise<unknown>, status: number, code: string, field?: string) {
  const err = await unwrap(call as Promise<{ status: number; body: unknown }>).then(
    () => {
      throw new Error(`expected ${status} ${code}, got a success`);
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(BmsApiError);
  const apiError = err as BmsApiError;
  expect({ status: apiError.status, code: apiError.code }).toEqual({ status, code });
  expect(apiError.body).toMatchObject({
    result: 'error',
    error: { code, status, message: expect.any(String) },
  });
  if (field !== undefined) expect(apiError.details?.map((d) => d.field)).toContain(field);
}

async function openShop(options: { autoNotify?: boolean } = {}): Promise<TestBusiness> {
  const biz = await registerBusiness(server());
  await createProgram(biz.client, {
    name: 'Garage Club',
    pointsName: 'Miles',
    pointsPerCurrency: 1,
    ...options,
  });
  touched.push(biz);
  return biz;
}

/** A new customer named `name`, with `email` (none when null), enrolled; with that email. */
async function enroll(biz: TestBusiness, name = 'Ada Lovelace', email: string | null = uniqueEmail('ada')) {
  const member = await enrollMember(biz.client, { customer: { name, email: email ?? undefined } });
  return { ...member, email };
}

const list = async (biz: TestBusiness, isActive?: boolean) =>
  (
    await unwrap(
      biz.client.loyalty.reminders.listReminders({
        query: isActive === undefined ? {} : { isActive: isActive ? 'true' : 'false' },
      }),
    )
  ).data;

const complete = (biz: TestBusiness, reminderId: string, memberId: string) =>
  biz.client.loyalty.reminders.completeReminder({ params: { publicId: reminderId }, body: { memberId } });

const getMember = async (biz: TestBusiness, id: string) =>
  (await unwrap(biz.client.loyalty.members.getMember({ params: { publicId: id } }))).data;

const memberTransactions = async (biz: TestBusiness, id: string) =>
  (await unwrap(biz.client.loyalty.members.listMemberTransactions({ params: { publicId: id }, query: {} })))
    .data;

const scheduleRow = (biz: TestBusiness, reminderId: string, memberId: string) =>
  server()
    .deps.db.selectFrom('loyalty_member_reminders')
    .selectAll()
    .where('business_id', '=', biz.businessId)
    .where('reminder_id', '=', reminderId)
    .where('member_id', '=', memberId)
    .executeTakeFirst();

const mails = (biz: TestBusiness) =>
  server()
    .deps.db.selectFrom('mail_messages')
    .selectAll()
    .where('business_id', '=', biz.businessId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

const reminderEvents = async (biz: TestBusiness) =>
  (await outbox(server(), biz.businessId)).filter((e) => e.type === 'loyalty.reminder_sent');

const send = () => sendDueReminders(server().deps);

/** Sets the server's clock to `day` at 09:00 UTC. */
const at = (day: string) => server().clock.set(`${day}T09:00:00.000Z`);

// The job works across businesses: every business a test used has its reminders deleted after it,
// so no schedule of one test is due (and counted) in a later one.
const touched: TestBusiness[] = [];
afterEach(async () => {
  for (const biz of touched.splice(0)) {
    for (const reminder of await list(biz)) {
      await unwrap(biz.client.loyalty.reminders.deleteReminder({ params: { publicId: reminder.publicId } }));
    }
  }
});

let a: TestBusiness;
let b: TestBusiness;

beforeAll(async () => {
  a = await openShop();
  b = await openShop();
  touched.length = 0;
});

describe('POST /v1/loyalty/reminders', () => {
  it('creates a reminder (201) with bonusPoints 0, isActive true and no description by default', async () => {
    at('2030-01-01');
    const res = await unwrap(
      a.client.loyalty.reminders.createReminder({ body: { name: 'Oil change', intervalDays: 180 } }),
    );
    expect(res).toEqual({
      result: 'success',
      message: expect.any(String),
      data: {
        publicId: expect.stringMatching(REMINDER_ID),
        name: 'Oil change',
        description: null,
        intervalDays: 180,
        bonusPoints: 0,
        isActive: true,
        dateCreated: '2030-01-01T09:00:00.000Z',
      },
    });
    touched.push(a);
  });

  it('keeps every field given', async () => {
    const created = await createReminder(a.client, {
      name: 'Bike service',
      intervalDays: 90,
      description: 'Brakes, chain and gears',
      bonusPoints: 50,
      isActive: false,
    });
    touched.push(a);
    expect(created).toMatchObject({
      name: 'Bike service',
      intervalDays: 90,
      description: 'Brakes, chain and gears',
      bonusPoints: 50,
      isActive: false,
    });
    expect(created.dateCreated).toMatch(ISO);
    expect((await list(a)).find((r) => r.publicId === created.publicId)).toEqual(created);
  });

  it('refuses a missing name, a zero interval, negative bonus points and unknown fields (422)', async () => {
    const before = await list(a);
    const post = (body: unknown) =>
      raw(server(), 'POST', '/v1/loyalty/reminders', { ...json(body), token: a.accessToken });
    const cases: [unknown, string][] = [
      [{ intervalDays: 30 }, 'name'],
      [{ name: 'Tyres', intervalDays: 0 }, 'intervalDays'],
      [{ name: 'Tyres', intervalDays: 1.5 }, 'intervalDays'],
      [{ name: 'Tyres', intervalDays: 30, bonusPoints: -1 }, 'bonusPoints'],
      [{ name: 'Tyres', intervalDays: 30, colour: 'red' }, 'colour'],
    ];
    for (const [body, field] of cases) {
      const res = await post(body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body).toMatchObject({ result: 'error', error: { code: 'VALIDATION_ERROR', status: 422 } });
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect(await list(a)).toEqual(before);
  });
});

describe('GET /v1/loyalty/reminders', () => {
  it('lists reminders newest first, filtered by isActive, without deleted ones', async () => {
    const biz = await openShop();
    at('2030-02-01');
    const first = await createReminder(biz.client, { name: 'First', intervalDays: 10 });
    server().clock.advance(1000);
    const second = await createReminder(biz.client, { name: 'Second', intervalDays: 10, isActive: false });
    server().clock.advance(1000);
    const third = await createReminder(biz.client, { name: 'Third', intervalDays: 10 });
    server().clock.advance(1000);
    const gone = await createReminder(biz.client, { name: 'Gone', intervalDays: 10 });
    await unwrap(biz.client.loyalty.reminders.deleteReminder({ params: { publicId: gone.publicId } }));

    expect((await list(biz)).map((r) => r.name)).toEqual(['Third', 'Second', 'First']);
    expect(await list(biz, true)).toEqual([third, first]);
    expect(await list(biz, false)).toEqual([second]);
  });

  it('refuses an isActive filter that is not true or false (422)', async () => {
    const res = await raw(server(), 'GET', '/v1/loyalty/reminders?isActive=yes', { token: a.accessToken });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ result: 'error', error: { code: 'VALIDATION_ERROR', status: 422 } });
  });

  it("never shows another business's reminders", async () => {
    const mine = await createReminder(a.client, { name: 'Alpha only', intervalDays: 5 });
    touched.push(a);
    const theirs = await list(b);
    expect(theirs.map((r) => r.publicId)).not.toContain(mine.publicId);
    expect(theirs).toEqual([]);
  });
});

describe('PUT /v1/loyalty/reminders/:publicId', () => {
  it('changes only the fields given', async () => {
    const created = await createReminder(a.client, {
      name: 'Tyres',
      intervalDays: 365,
      description: 'Winter set',
    });
    touched.push(a);
    await unwrap(
      a.client.loyalty.reminders.updateReminder({
        params: { publicId: created.publicId },
        body: { bonusPoints: 25, isActive: false },
      }),
    );
    const [after] = (await list(a)).filter((r) => r.publicId === created.publicId);
    expect(after).toEqual({ ...created, bonusPoints: 25, isActive: false });

    await unwrap(
      a.client.loyalty.reminders.updateReminder({
        params: { publicId: created.publicId },
        body: { name: 'Tyre change', intervalDays: 182, description: 'Summer and winter', isActive: true },
      }),
    );
    const [again] = (await list(a)).filter((r) => r.publicId === created.publicId);
    expect(again).toEqual({
      ...created,
      name: 'Tyre change',
      intervalDays: 182,
      description: 'Summer and winter',
      bonusPoints: 25,
      isActive: true,
    });
  });

  it('treats an empty body as a no-op (200, reminder untouched) and still answers 404 for an unknown id', async () => {
    const created = await createReminder(a.client, { name: 'Chain', intervalDays: 90, bonusPoints: 5 });
    touched.push(a);
    const updatedAt = () =>
      server()
        .deps.db.selectFrom('loyalty_reminders')
        .select('updated_at')
        .where('business_id', '=', a.businessId)
        .where('id', '=', created.publicId)
        .executeTakeFirstOrThrow();
    const before = await updatedAt();
    server().clock.advance(60_000);
    const res = await raw(server(), 'PUT', `/v1/loyalty/reminders/${created.publicId}`, {
      ...json({}),
      token: a.accessToken,
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ result: 'success', message: expect.any(String) });
    expect((await list(a)).find((r) => r.publicId === created.publicId)).toEqual(created);
    expect(await updatedAt()).toEqual(before);
    await expectApiError(
      a.client.loyalty.reminders.updateReminder({ params: { publicId: MISSING_REMINDER }, body: {} }),
      404,
      'NOT_FOUND',
    );
  });

  it('answers 404 for an unknown, deleted or other business id, changing nothing', async () => {
    const theirs = await createReminder(b.client, { name: 'Beta only', intervalDays: 30 });
    const deleted = await createReminder(a.client, { name: 'Deleted', intervalDays: 30 });
    touched.push(a, b);
    await unwrap(a.client.loyalty.reminders.deleteReminder({ params: { publicId: deleted.publicId } }));
    for (const publicId of [MISSING_REMINDER, theirs.publicId, deleted.publicId]) {
      await expectApiError(
        a.client.loyalty.reminders.updateReminder({ params: { publicId }, body: { name: 'Hijacked' } }),
        404,
        'NOT_FOUND',
      );
    }
    expect(await list(b)).toEqual([theirs]);
  });

  it('refuses invalid values and unknown fields (422)', async () => {
    const created = await createReminder(a.client, { name: 'Wash', intervalDays: 7 });
    touched.push(a);
    for (const [body, field] of [
      [{ intervalDays: 0 }, 'intervalDays'],
      [{ name: '' }, 'name'],
      [{ dueDate: '2030-01-01' }, 'dueDate'],
    ] as const) {
      const res = await raw(server(), 'PUT', `/v1/loyalty/reminders/${created.publicId}`, {
        ...json(body),
        token: a.accessToken,
      });
      expect(res.status).toBe(422);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    expect((await list(a)).find((r) => r.publicId === created.publicId)).toEqual(created);
  });
});

describe('DELETE /v1/loyalty/reminders/:publicId', () => {
  it('removes the reminder; a second delete is 404', async () => {
    const created = await createReminder(a.client, { name: 'Filter', intervalDays: 60 });
    const res = await unwrap(
      a.client.loyalty.reminders.deleteReminder({ params: { publicId: created.publicId } }),
    );
    expect(res).toEqual({ result: 'success', message: expect.any(String) });
    expect((await list(a)).map((r) => r.publicId)).not.toContain(created.publicId);
    await expectApiError(
      a.client.loyalty.reminders.deleteReminder({ params: { publicId: created.publicId } }),
      404,
      'NOT_FOUND',
    );
  });

  it("answers 404 for another business's reminder and keeps it", async () => {
    const theirs = await createReminder(b.client, { name: 'Keep me', intervalDays: 30 });
    touched.push(b);
    await expectApiError(
      a.client.loyalty.reminders.deleteReminder({ params: { publicId: theirs.publicId } }),
      404,
      'NOT_FOUND',
    );
    await expectApiError(
      a.client.loyalty.reminders.deleteReminder({ params: { publicId: MISSING_REMINDER } }),
      404,
      'NOT_FOUND',
    );
    expect(await list(b)).toEqual([theirs]);
  });
});

describe('POST /v1/loyalty/reminders/:publicId/complete', () => {
  it('awards the bonus as an earn transaction and schedules the next due date intervalDays after today', async () => {
    const biz = await openShop();
    const member = await enroll(biz);
    const reminder = await createReminder(biz.client, {
      name: 'Bike service',
      intervalDays: 180,
      bonusPoints: 50,
    });
    server().clock.set('2030-03-10T23:30:00.000Z');

    const { result, events } = await withEvents(server(), biz.businessId, () =>
      unwrap(complete(biz, reminder.publicId, member.publicId)),
    );
    expect(result).toEqual({
      result: 'success',
      data: {
        transaction: {
          publicId: expect.any(String),
          memberId: member.publicId,
          type: 'earn',
          points: 50,
          balanceAfter: 50,
          description: 'Completed Bike service',
          referenceType: 'reminder',
          referenceId: reminder.publicId,
          multiplierApplied: 1,
          dateCreated: '2030-03-10T23:30:00.000Z',
        },
        nextDueDate: '2030-09-06',
      },
    });
    expect(events.map((e) => e.type)).toContain('loyalty.points_earned');

    const after = await getMember(biz, member.publicId);
    expect(after.pointsBalance).toBe(50);
    expect(after.lifetimePoints).toBe(50);
    const transactions = await memberTransactions(biz, member.publicId);
    expect(transactions).toEqual([result.data.transaction]);
    expect(after.pointsBalance).toBe(transactions.reduce((sum, t) => sum + t.points, 0));
    expect(await scheduleRow(biz, reminder.publicId, member.publicId)).toMatchObject({
      due_date: '2030-09-06',
      notified_for: null,
    });
  });

  it('awards nothing when bonusPoints is 0 (transaction null) but still schedules the next service', async () => {
    const biz = await openShop();
    const member = await enroll(biz);
    const reminder = await createReminder(biz.client, { name: 'Check-up', intervalDays: 1 });
    at('2030-12-31');
    const { result, events } = await withEvents(server(), biz.businessId, () =>
      unwrap(complete(biz, reminder.publicId, member.publicId)),
    );
    expect(result.data).toEqual({ transaction: null, nextDueDate: '2031-01-01' });
    expect(events).toEqual([]);
    expect(await memberTransactions(biz, member.publicId)).toEqual([]);
    expect((await getMember(biz, member.publicId)).pointsBalance).toBe(0);
  });

  it('moves the due date on each completion, counting from the day of completion', async () => {
    const biz = await openShop();
    const member = await enroll(biz);
    const reminder = await createReminder(biz.client, { name: 'Haircut', intervalDays: 28, bonusPoints: 10 });
    at('2031-02-01');
    expect((await unwrap(complete(biz, reminder.publicId, member.publicId))).data.nextDueDate).toBe(
      '2031-03-01',
    );
    at('2031-02-20');
    expect((await unwrap(complete(biz, reminder.publicId, member.publicId))).data.nextDueDate).toBe(
      '2031-03-20',
    );
    const rows = await server()
      .deps.db.selectFrom('loyalty_member_reminders')
      .selectAll()
      .where('business_id', '=', biz.businessId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      due_date: '2031-03-20',
      last_completed_at: new Date('2031-02-20T09:00:00.000Z'),
    });
    const member2 = await getMember(biz, member.publicId);
    expect(member2.pointsBalance).toBe(20);
    const transactions = await memberTransactions(biz, member.publicId);
    expect(member2.pointsBalance).toBe(transactions.reduce((sum, t) => sum + t.points, 0));
  });

  it('answers 404 for an unknown, deleted or other business reminder', async () => {
    const member = await enroll(a);
    const theirs = await createReminder(b.client, { name: 'Beta service', intervalDays: 30, bonusPoints: 5 });
    const deleted = await createReminder(a.client, {
      name: 'Retired service',
      intervalDays: 30,
      bonusPoints: 5,
    });
    touched.push(a, b);
    await unwrap(a.client.loyalty.reminders.deleteReminder({ params: { publicId: deleted.publicId } }));
    for (const id of [MISSING_REMINDER, theirs.publicId, deleted.publicId]) {
      await expectApiError(complete(a, id, member.publicId), 404, 'NOT_FOUND');
    }
    expect((await getMember(a, member.publicId)).pointsBalance).toBe(0);
  });

  it('refuses an unknown, deleted or other business member (422 naming memberId)', async () => {
    const reminder = await createReminder(a.client, { name: 'Service', intervalDays: 30, bonusPoints: 5 });
    touched.push(a);
    const theirs = await enroll(b, 'Beta Customer');
    const deleted = await enroll(a, 'Gone Customer');
    await unwrap(a.client.loyalty.members.deleteMember({ params: { publicId: deleted.publicId } }));
    for (const memberId of [MISSING_MEMBER, theirs.publicId, deleted.publicId]) {
      await expectApiError(complete(a, reminder.publicId, memberId), 422, 'VALIDATION_ERROR', 'memberId');
    }
    expect((await getMember(b, theirs.publicId)).pointsBalance).toBe(0);
    expect(await scheduleRow(b, reminder.publicId, theirs.publicId)).toBeUndefined();
  });

  it('refuses an inactive reminder (409 INVALID_STATE) without awarding or scheduling', async () => {
    const member = await enroll(a);
    const reminder = await createReminder(a.client, {
      name: 'Paused',
      intervalDays: 30,
      bonusPoints: 5,
      isActive: false,
    });
    touched.push(a);
    await expectApiError(complete(a, reminder.publicId, member.publicId), 409, 'INVALID_STATE');
    expect((await getMember(a, member.publicId)).pointsBalance).toBe(0);
    expect(await scheduleRow(a, reminder.publicId, member.publicId)).toBeUndefined();
  });

  it('refuses a suspended or inactive member (409 INVALID_STATE) without awarding or scheduling', async () => {
    const reminder = await createReminder(a.client, { name: 'Valet', intervalDays: 30, bonusPoints: 5 });
    touched.push(a);
    for (const status of ['suspended', 'inactive'] as const) {
      const member = await enroll(a, `A ${status} member`);
      await unwrap(
        a.client.loyalty.members.updateMember({ params: { publicId: member.publicId }, body: { status } }),
      );
      await expectApiError(complete(a, reminder.publicId, member.publicId), 409, 'INVALID_STATE');
      expect((await getMember(a, member.publicId)).pointsBalance).toBe(0);
      expect(await scheduleRow(a, reminder.publicId, member.publicId)).toBeUndefined();
    }
  });

  it('refuses a body without memberId or with unknown fields (422)', async () => {
    const reminder = await createReminder(a.client, { name: 'Body check', intervalDays: 30 });
    touched.push(a);
    for (const [body, field] of [
      [{}, 'memberId'],
      [{ memberId: MISSING_MEMBER, points: 5 }, 'points'],
    ] as const) {
      const res = await raw(server(), 'POST', `/v1/loyalty/reminders/${reminder.publicId}/complete`, {
        ...json(body),
        token: a.accessToken,
      });
      expect(res.status).toBe(422);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });
});

describe('sending due reminders', () => {
  /** A shop with one reminder completed for `members` on `day`, due `intervalDays` later. */
  async function scheduled(
    day: string,
    options: { intervalDays?: number; members?: number; autoNotify?: boolean; bonusPoints?: number } = {},
  ) {
    const biz = await openShop({ autoNotify: options.autoNotify });
    const reminder = await createReminder(biz.client, {
      name: 'Bike service',
      intervalDays: options.intervalDays ?? 30,
      description: 'Chain, brakes and gears',
      bonusPoints: options.bonusPoints ?? 0,
    });
    const members: (Member & { email: string | null })[] = [];
    at(day);
    for (let i = 0; i < (options.members ?? 1); i++) {
      const member = await enroll(biz, `Rider ${i + 1}`);
      await unwrap(complete(biz, reminder.publicId, member.publicId));
      members.push(member);
    }
    return { biz, reminder, members: atLeast(members, 1) };
  }

  it('emails each member once on the due date, announces it and records the mail as logged', async () => {
    const { biz, reminder, members } = await scheduled('2032-01-01', { members: 2 });

    at('2032-01-30');
    expect(await send()).toBe(0);
    expect(await mails(biz)).toEqual([]);

    at('2032-01-31');
    expect(await send()).toBe(2);
    const messages = await mails(biz);
    expect(messages.map((m) => m.to_address).sort()).toEqual(members.map((m) => m.email).sort());
    for (const message of messages) {
      expect(message.subject).toBe('Bike service is due');
      expect(message.body).toContain('2032-01-31');
    }
    const logged = await waitFor('the reminder mails to be logged', async () => {
      const rows = await mails(biz);
      return rows.every((m) => m.status === 'logged') ? rows : null;
    });
    expect(logged.map((m) => m.status)).toEqual(['logged', 'logged']);

    const events = await reminderEvents(biz);
    expect(events).toHaveLength(2);
    const current = await list(biz);
    for (const member of members) {
      const event = events.find((e) => (e.data as { member: Member }).member.publicId === member.publicId);
      expect(event?.data).toEqual({
        reminder: current.find((r) => r.publicId === reminder.publicId),
        member: await getMemberBrief(biz, member.publicId),
        dueDate: '2032-01-31',
      });
      expect(await scheduleRow(biz, reminder.publicId, member.publicId)).toMatchObject({
        due_date: '2032-01-31',
        notified_for: '2032-01-31',
      });
    }

    // Never twice for one due date, even days later.
    expect(await send()).toBe(0);
    at('2032-02-10');
    expect(await send()).toBe(0);
    expect(await mails(biz)).toHaveLength(2);
    expect(await reminderEvents(biz)).toHaveLength(2);
  });

  it('sends a reminder that came due while no job ran, once, with its original due date', async () => {
    const { biz } = await scheduled('2032-03-01', { intervalDays: 10 });
    at('2032-04-15');
    expect(await send()).toBe(1);
    expect((await mails(biz))[0]?.body).toContain('2032-03-11');
    expect((await reminderEvents(biz))[0]?.data).toMatchObject({ dueDate: '2032-03-11' });
    expect(await send()).toBe(0);
  });

  it('reminds again for the next due date after the service is completed again', async () => {
    const { biz, reminder, members } = await scheduled('2032-05-01', { intervalDays: 10 });
    const [member] = members;
    at('2032-05-11');
    expect(await send()).toBe(1);
    at('2032-05-12');
    await unwrap(complete(biz, reminder.publicId, member.publicId));
    expect(await scheduleRow(biz, reminder.publicId, member.publicId)).toMatchObject({
      due_date: '2032-05-22',
      notified_for: null,
    });
    at('2032-05-21');
    expect(await send()).toBe(0);
    at('2032-05-22');
    expect(await send()).toBe(1);
    expect((await reminderEvents(biz)).map((e) => (e.data as { dueDate: string }).dueDate)).toEqual([
      '2032-05-11',
      '2032-05-22',
    ]);
    expect((await mails(biz)).map((m) => m.subject)).toEqual(['Bike service is due', 'Bike service is due']);
  });

  it('sends nothing for an inactive or deleted reminder, and resumes when it is active again', async () => {
    const first = await scheduled('2032-06-01', { intervalDays: 5 });
    const second = await scheduled('2032-06-01', { intervalDays: 5 });
    await unwrap(
      first.biz.client.loyalty.reminders.updateReminder({
        params: { publicId: first.reminder.publicId },
        body: { isActive: false },
      }),
    );
    await unwrap(
      second.biz.client.loyalty.reminders.deleteReminder({ params: { publicId: second.reminder.publicId } }),
    );
    at('2032-06-07');
    expect(await send()).toBe(0);
    expect(await mails(first.biz)).toEqual([]);
    expect(await mails(second.biz)).toEqual([]);

    await unwrap(
      first.biz.client.loyalty.reminders.updateReminder({
        params: { publicId: first.reminder.publicId },
        body: { isActive: true },
      }),
    );
    expect(await send()).toBe(1);
    expect(await mails(first.biz)).toHaveLength(1);
    expect(await mails(second.biz)).toEqual([]);
  });

  it('sends nothing to members who are not active, deleted, or whose customer has no email', async () => {
    const biz = await openShop();
    const reminder = await createReminder(biz.client, { name: 'Tune-up', intervalDays: 3 });
    at('2032-07-01');
    const suspended = await enroll(biz, 'Suspended Rider');
    const inactive = await enroll(biz, 'Inactive Rider');
    const deleted = await enroll(biz, 'Deleted Rider');
    const silent = await enroll(biz, 'Rider Without Email', null);
    const active = await enroll(biz, 'Active Rider');
    for (const m of [suspended, inactive, deleted, silent, active]) {
      await unwrap(complete(biz, reminder.publicId, m.publicId));
    }
    await unwrap(
      biz.client.loyalty.members.updateMember({
        params: { publicId: suspended.publicId },
        body: { status: 'suspended' },
      }),
    );
    await unwrap(
      biz.client.loyalty.members.updateMember({
        params: { publicId: inactive.publicId },
        body: { status: 'inactive' },
      }),
    );
    await unwrap(biz.client.loyalty.members.deleteMember({ params: { publicId: deleted.publicId } }));

    at('2032-07-04');
    expect(await send()).toBe(1);
    expect((await mails(biz)).map((m) => m.to_address)).toEqual([active.email]);
    expect((await reminderEvents(biz)).map((e) => (e.data as { member: Member }).member.publicId)).toEqual([
      active.publicId,
    ]);
  });

  it("sends nothing while the program's autoNotify is false, and the due reminders once it is true", async () => {
    const { biz } = await scheduled('2032-08-01', { intervalDays: 2, autoNotify: false });
    at('2032-08-03');
    expect(await send()).toBe(0);
    expect(await mails(biz)).toEqual([]);

    await unwrap(biz.client.loyalty.program.updateProgram({ body: { autoNotify: true } }));
    expect(await send()).toBe(1);
    expect(await mails(biz)).toHaveLength(1);

    await unwrap(biz.client.loyalty.program.updateProgram({ body: { autoNotify: false } }));
    expect(await send()).toBe(0);
  });

  it('sends nothing while the business has no active program', async () => {
    const { biz } = await scheduled('2032-09-01', { intervalDays: 2 });
    await unwrap(biz.client.loyalty.program.deleteProgram());
    at('2032-09-05');
    expect(await send()).toBe(0);
    expect(await mails(biz)).toEqual([]);
    expect(await reminderEvents(biz)).toEqual([]);
  });

  it("keeps businesses apart: each business's mail and events name only its own reminders and members", async () => {
    const first = await scheduled('2032-10-01', { intervalDays: 4 });
    const second = await scheduled('2032-10-01', { intervalDays: 4, members: 2 });
    at('2032-10-05');
    expect(await send()).toBe(3);
    expect((await mails(first.biz)).map((m) => m.to_address)).toEqual([first.members[0].email]);
    expect((await mails(second.biz)).map((m) => m.to_address).sort()).toEqual(
      second.members.map((m) => m.email).sort(),
    );
    for (const { biz, reminder, members } of [first, second]) {
      const events = await reminderEvents(biz);
      expect(events).toHaveLength(members.length);
      for (const event of events) {
        const data = event.data as { reminder: Reminder; member: Member };
        expect(data.reminder.publicId).toBe(reminder.publicId);
        expect(members.map((m) => m.publicId)).toContain(data.member.publicId);
      }
    }
  });

  it('sends each due reminder exactly once when two runs race', async () => {
    const { biz } = await scheduled('2032-11-01', { intervalDays: 1, members: 4 });
    at('2032-11-02');
    const counts = await Promise.all([send(), send(), send()]);
    expect(counts.reduce((x, y) => x + y, 0)).toBe(4);
    expect(await mails(biz)).toHaveLength(4);
    expect(await reminderEvents(biz)).toHaveLength(4);
  });
});

/** The member as list responses and event data show it (without the phone). */
async function getMemberBrief(biz: TestBusiness, id: string): Promise<Member> {
  const { customerPhone, ...member } = await getMember(biz, id);
  expect(customerPhone).toBeNull();
  return member;
}
