import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../server/platform/db/types.js';
import { registerBusiness, type TestBusiness } from '../support/business.js';
import { onPostgres } from '../support/database.js';
import {
  billOf,
  createEntry,
  DEFAULT_CHART,
  entryOf,
  expectTrialBalance,
  journal,
  journalLineRows,
  payBill,
} from '../support/finance.js';
import { useTestServer } from '../support/setup.js';

/**
 * The ledger's rules as the database enforces them, whatever writes the rows: raw SQL straight to
 * the test server's database tries to break each one (docs/decisions.md D130). The code checks the
 * same rules first; these tests prove the database stands behind it.
 */

const server = useTestServer({ worker: false });
const where = onPostgres ? 'PostgreSQL' : 'PGlite';

const db = (): Kysely<Database> => server().deps.db;

const newEntryId = () => `je_RAW${randomBytes(11).toString('hex').toUpperCase()}`;

interface RawLine {
  account: string;
  debit?: number;
  credit?: number;
  /** In the base currency: the amount unless told (docs/decisions.md D278). */
  base_debit?: number;
  base_credit?: number;
  /** The entry's date and currency unless told. */
  date?: string;
  currency?: string;
}

/** Inserts an entry and its lines with raw SQL in the transaction (nothing is checked before commit). */
async function insertEntry(
  trx: Kysely<Database>,
  businessId: string,
  lines: RawLine[],
  entry: { id?: string; date?: string; currency?: string } = {},
): Promise<string> {
  const id = entry.id ?? newEntryId();
  const date = entry.date ?? '2026-11-10';
  const currency = entry.currency ?? 'USD';
  await sql`
    INSERT INTO finance_journal_entries (business_id, id, date, description, currency, source_type, source_id,
                                         line_count, created_at)
    VALUES (${businessId}, ${id}, ${date}, 'Written with raw SQL', ${currency}, 'manual', ${id},
            ${Math.max(lines.length, 2)}, now())`.execute(trx);
  await insertLines(trx, businessId, id, lines, { date, currency }, 1);
  return id;
}

async function insertLines(
  trx: Kysely<Database>,
  businessId: string,
  entryId: string,
  lines: RawLine[],
  entry: { date: string; currency: string },
  firstLineNo: number,
): Promise<void> {
  for (const [i, line] of lines.entries()) {
    await sql`
      INSERT INTO finance_journal_lines (business_id, entry_id, line_no, account_code, date, currency, debit, credit,
                                         base_debit, base_credit)
      VALUES (${businessId}, ${entryId}, ${firstLineNo + i}, ${line.account}, ${line.date ?? entry.date},
              ${line.currency ?? entry.currency}, ${line.debit ?? 0}, ${line.credit ?? 0},
              ${line.base_debit ?? line.debit ?? 0}, ${line.base_credit ?? line.credit ?? 0})`.execute(trx);
  }
}

/** Runs `fn` in one transaction of its own. */
const inTransaction = (fn: (trx: Kysely<Database>) => Promise<void>) => db().transaction().execute(fn);

/** The error a database operation failed with (the test fails when it succeeds). */
async function failure(action: () => Promise<unknown>): Promise<{ code?: string; message: string }> {
  try {
    await action();
  } catch (error) {
    return error as { code?: string; message: string };
  }
  throw new Error('the database accepted what it must refuse');
}

/** What the business's ledger holds, from the API and the rows: nothing may change on a refusal. */
async function ledgerOf(t: TestBusiness) {
  const [entries, lines, days, entryDays] = await Promise.all([
    journal(t.client),
    journalLineRows(server(), t.businessId),
    sql`SELECT * FROM finance_account_days WHERE business_id = ${t.businessId} ORDER BY account_code, currency, date`.execute(
      db(),
    ),
    sql`SELECT * FROM finance_entry_days WHERE business_id = ${t.businessId} ORDER BY date`.execute(db()),
  ]);
  return { entries, lines, days: days.rows, entryDays: entryDays.rows };
}

/** `action` is refused by the database with `code` (and a message matching `message`); the ledger stays as it was. */
async function expectRefused(
  t: TestBusiness,
  action: () => Promise<unknown>,
  code: string,
  message?: RegExp,
): Promise<void> {
  const before = await ledgerOf(t);
  const error = await failure(action);
  expect(error.code, error.message).toBe(code);
  if (message) expect(error.message).toMatch(message);
  expect(await ledgerOf(t)).toEqual(before);
}

const UNBALANCED = /does not balance/;
const MISMATCH = /differs from its entry/;
const IMMUTABLE = /cannot be changed or deleted/;

describe(`the balance of every entry, checked by the database at commit (${where})`, () => {
  let t: TestBusiness;
  beforeAll(async () => {
    t = await registerBusiness(server());
  });

  it('commits a balanced entry written with raw SQL, which the journal and the trial balance then show', async () => {
    let id = '';
    await inTransaction(async (trx) => {
      id = await insertEntry(trx, t.businessId, [
        { account: '1010', debit: 700 },
        { account: '1000', credit: 500 },
        { account: '1020', credit: 200 },
      ]);
    });
    const entry = (await journal(t.client)).find((e) => e.id === id);
    expect(entry).toMatchObject({
      date: '2026-11-10',
      debits: [{ account: '1010', amount: 700 }],
      credits: [
        { account: '1000', amount: 500 },
        { account: '1020', amount: 200 },
      ],
    });
    await expectTrialBalance(t.client, {
      '1010': { debit: 700 },
      '1000': { credit: 500 },
      '1020': { credit: 200 },
    });
  });

  it('checks at commit, not per statement: lines written one by one, unbalanced in between, commit', async () => {
    const before = (await journal(t.client)).length;
    await inTransaction(async (trx) => {
      const id = await insertEntry(trx, t.businessId, [{ account: '5000', debit: 300 }]);
      // Unbalanced here; the check waits for the commit.
      await insertLines(
        trx,
        t.businessId,
        id,
        [{ account: '2000', credit: 300 }],
        { date: '2026-11-10', currency: 'USD' },
        2,
      );
    });
    expect(await journal(t.client)).toHaveLength(before + 1);
  });

  it('refuses an unbalanced entry (debits 100, credits 90): nothing of it is stored', async () => {
    await expectRefused(
      t,
      () =>
        inTransaction(async (trx) => {
          await insertEntry(trx, t.businessId, [
            { account: '1010', debit: 100 },
            { account: '1000', credit: 90 },
          ]);
        }),
      '23514',
      UNBALANCED,
    );
  });

  it('refuses an entry balanced in its currency but not in the base currency: nothing of it is stored', async () => {
    await expectRefused(
      t,
      () =>
        inTransaction(async (trx) => {
          await insertEntry(
            trx,
            t.businessId,
            [
              { account: '1010', debit: 100, base_debit: 110 },
              { account: '1000', credit: 100, base_credit: 109 },
            ],
            { currency: 'EUR' },
          );
        }),
      '23514',
      UNBALANCED,
    );
  });

  it('refuses a line debiting one amount and crediting the other (a debit of 100, a base credit of 100)', async () => {
    await expectRefused(
      t,
      () =>
        inTransaction(async (trx) => {
          await insertEntry(trx, t.businessId, [
            { account: '1010', debit: 100, base_credit: 100 },
            { account: '1000', credit: 100, base_debit: 100 },
          ]);
        }),
      '23514',
    );
  });

  it('refuses an entry with a single line', async () => {
    await expectRefused(
      t,
      () =>
        inTransaction(
          async (trx) => void (await insertEntry(trx, t.businessId, [{ account: '1010', debit: 100 }])),
        ),
      '23514',
      UNBALANCED,
    );
  });

  it('refuses an entry without lines', async () => {
    await expectRefused(
      t,
      () => inTransaction(async (trx) => void (await insertEntry(trx, t.businessId, []))),
      '23514',
      UNBALANCED,
    );
  });

  it('refuses two entries that balance together but not each on its own, and the balanced entry beside them', async () => {
    await expectRefused(
      t,
      () =>
        inTransaction(async (trx) => {
          await insertEntry(trx, t.businessId, [
            { account: '1010', debit: 100 },
            { account: '1000', credit: 50 },
          ]);
          await insertEntry(trx, t.businessId, [
            { account: '1010', debit: 50 },
            { account: '1000', credit: 100 },
          ]);
          await insertEntry(trx, t.businessId, [
            { account: '5000', debit: 10 },
            { account: '2000', credit: 10 },
          ]);
        }),
      '23514',
      UNBALANCED,
    );
  });

  it('refuses a line whose date differs from its entry', async () => {
    await expectRefused(
      t,
      () =>
        inTransaction(async (trx) => {
          await insertEntry(trx, t.businessId, [
            { account: '1010', debit: 100 },
            { account: '1000', credit: 100, date: '2026-11-11' },
          ]);
        }),
      '23514',
      MISMATCH,
    );
  });

  it('refuses a line whose currency differs from its entry', async () => {
    await expectRefused(
      t,
      () =>
        inTransaction(async (trx) => {
          await insertEntry(trx, t.businessId, [
            { account: '1010', debit: 100 },
            { account: '1000', credit: 100, currency: 'EUR' },
          ]);
        }),
      '23514',
      MISMATCH,
    );
  });

  it('refuses a line with both a debit and a credit, with neither, or with a negative amount', async () => {
    for (const line of [
      { account: '1000', debit: 100, credit: 100 },
      { account: '1000' },
      { account: '1000', debit: -100 },
    ]) {
      await expectRefused(
        t,
        () =>
          inTransaction(async (trx) => {
            await insertEntry(trx, t.businessId, [{ account: '1010', debit: 100 }, line]);
          }),
        '23514',
      );
    }
  });

  it('refuses a line on an account not in the chart', async () => {
    await expectRefused(
      t,
      () =>
        inTransaction(async (trx) => {
          await insertEntry(trx, t.businessId, [
            { account: '1010', debit: 100 },
            { account: '9999', credit: 100 },
          ]);
        }),
      '23503',
    );
  });

  it("refuses a line on another business's account", async () => {
    const other = await registerBusiness(server());
    await sql`INSERT INTO finance_accounts (business_id, code, name, type) VALUES (${other.businessId}, '7000', 'Theirs', 'expense')`.execute(
      db(),
    );
    await expectRefused(
      t,
      () =>
        inTransaction(async (trx) => {
          await insertEntry(trx, t.businessId, [
            { account: '7000', debit: 100 },
            { account: '1000', credit: 100 },
          ]);
        }),
      '23503',
    );
  });
});

describe(`posted entries are immutable (${where})`, () => {
  let t: TestBusiness;
  let billEntry: string;
  beforeAll(async () => {
    t = await registerBusiness(server());
    const bill = await billOf(t.client, 12_000, { issue_date: '2026-11-02' });
    const { payment_id } = await payBill(t.client, bill.id, 2_000, { payment_date: '2026-11-05' });
    await createEntry(t.client, { date: '2026-11-06' });
    billEntry = (await entryOf(t.client, 'bill', bill.id)).id;
    expect((await entryOf(t.client, 'bill_payment', payment_id)).id).not.toBe(billEntry);
  });

  it.each([
    [
      'an UPDATE of an entry',
      (id: string, biz: string) =>
        sql`UPDATE finance_journal_entries SET description = 'Changed' WHERE business_id = ${biz} AND id = ${id}`,
    ],
    [
      "an UPDATE of an entry's date",
      (id: string, biz: string) =>
        sql`UPDATE finance_journal_entries SET date = date + 1 WHERE business_id = ${biz} AND id = ${id}`,
    ],
    [
      'an UPDATE of a line amount',
      (id: string, biz: string) =>
        sql`UPDATE finance_journal_lines SET debit = debit + 1 WHERE business_id = ${biz} AND entry_id = ${id} AND debit > 0`,
    ],
    [
      'an UPDATE of every line of an entry that keeps it balanced',
      (id: string, biz: string) =>
        sql`UPDATE finance_journal_lines SET debit = debit * 2, credit = credit * 2 WHERE business_id = ${biz} AND entry_id = ${id}`,
    ],
    [
      'an UPDATE moving a line to another account',
      (id: string, biz: string) =>
        sql`UPDATE finance_journal_lines SET account_code = '1000' WHERE business_id = ${biz} AND entry_id = ${id} AND credit > 0`,
    ],
    [
      'a DELETE of a line',
      (id: string, biz: string) =>
        sql`DELETE FROM finance_journal_lines WHERE business_id = ${biz} AND entry_id = ${id} AND line_no = 1`,
    ],
    [
      'a DELETE of an entry with its lines',
      (id: string, biz: string) =>
        sql`WITH l AS (DELETE FROM finance_journal_lines WHERE business_id = ${biz} AND entry_id = ${id})
            DELETE FROM finance_journal_entries WHERE business_id = ${biz} AND id = ${id}`,
    ],
    [
      'a DELETE of every line of the business',
      (_: string, biz: string) => sql`DELETE FROM finance_journal_lines WHERE business_id = ${biz}`,
    ],
    ['a TRUNCATE of the lines', () => sql`TRUNCATE finance_journal_lines`],
    ['a TRUNCATE of the entries', () => sql`TRUNCATE finance_journal_entries CASCADE`],
  ])('refuses %s (55000); the ledger stays as it was', async (_, statement) => {
    await expectRefused(t, () => statement(billEntry, t.businessId).execute(db()), '55000', IMMUTABLE);
    await expectTrialBalance(t.client, {
      '5000': { debit: 12_000 },
      '2000': { debit: 2_000, credit: 12_000 },
      '1010': { debit: 5_000, credit: 2_000 },
      '1000': { credit: 5_000 },
    });
  });

  it('refuses the same UPDATE inside a transaction that also posts a correct entry: neither is kept', async () => {
    await expectRefused(
      t,
      () =>
        inTransaction(async (trx) => {
          await insertEntry(trx, t.businessId, [
            { account: '5000', debit: 1 },
            { account: '2000', credit: 1 },
          ]);
          await sql`UPDATE finance_journal_entries SET description = 'Changed' WHERE business_id = ${t.businessId} AND id = ${billEntry}`.execute(
            trx,
          );
        }),
      '55000',
      IMMUTABLE,
    );
  });

  it.each([
    ['a single debit line', [{ account: '5000', debit: 1 }]],
    [
      'a balanced pair of lines',
      [
        { account: '5000', debit: 500 },
        { account: '2000', credit: 500 },
      ],
    ],
  ])('refuses %s added to a posted entry in a later transaction', async (_label, lines) => {
    await expectRefused(
      t,
      () =>
        inTransaction((trx) =>
          insertLines(trx, t.businessId, billEntry, lines, { date: '2026-11-02', currency: 'USD' }, 10),
        ),
      '23514',
      UNBALANCED,
    );
  });

  it('refuses a second posting of the same document (the bill posts once)', async () => {
    const [bill] = (await journal(t.client)).filter((e) => e.id === billEntry);
    await expectRefused(
      t,
      () =>
        inTransaction(async (trx) => {
          const id = newEntryId();
          await sql`
            INSERT INTO finance_journal_entries (business_id, id, date, description, currency, source_type, source_id,
                                                 line_count, created_at)
            VALUES (${t.businessId}, ${id}, '2026-11-02', 'Twice', 'USD', 'bill', ${bill!.source.id}, 2, now())`.execute(
            trx,
          );
          await insertLines(
            trx,
            t.businessId,
            id,
            [
              { account: '5000', debit: 12_000 },
              { account: '2000', credit: 12_000 },
            ],
            { date: '2026-11-02', currency: 'USD' },
            1,
          );
        }),
      '23505',
    );
  });
});

describe(`the default chart of accounts, made by the database (${where})`, () => {
  it('is made for a business inserted with raw SQL, as the CLI or any other writer would', async () => {
    const id = `biz_RAW${randomBytes(8).toString('hex').toUpperCase()}`;
    await sql`INSERT INTO businesses (id, name, email, plan) VALUES (${id}, 'Raw Ltd', ${`${id}@example.test`}, 'standard')`.execute(
      db(),
    );
    const { rows } = await sql<{ code: string; name: string; type: string; system: boolean }>`
      SELECT code, name, type, cash_flow_group, system FROM finance_accounts WHERE business_id = ${id} ORDER BY code`.execute(
      db(),
    );
    expect(rows).toEqual(DEFAULT_CHART);
  });
});
