/**
 * HR employee lists at scale on PostgreSQL: latency of a page of 50 from GET /v1/hr/employees,
 * unfiltered and filtered (department, status, both), and of the general group's GET /v1/employees
 * with each sort, over 50,000 employees of one business (target p95 10 ms for a page of 50).
 *
 *   npx tsx bench/hr.ts        (BENCH_PG_URL defaults to postgres://postgres@127.0.0.1:5432/postgres)
 *
 * BENCH_EMPLOYEES (default 50000), BENCH_ROUNDS (default 5) and BENCH_REQUESTS (per round, default
 * 400) change the sizes; BENCH_KEEP_DB=1 keeps the scratch database.
 *
 * A scratch database is created and dropped. The service runs as a child process (build first:
 * `npm run build`); the business and 20 departments are made through the API, then the employees are
 * bulk-loaded with SQL and the tables vacuumed and analysed. Each round sends the request mix one at
 * a time (first pages and pages further in, every filter); the figures are the median over rounds
 * of each round's percentiles, with the spread (min-max) over rounds.
 */
import pg from 'pg';
import { unwrap, type Client } from '../client/index.js';
import { benchService, itemAt, percentile, report } from './support.js';

const EMPLOYEES = Number(process.env.BENCH_EMPLOYEES ?? 50_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 400);
const DEPARTMENTS = 20;
const API_PORT = 3832;
const TARGET_P95_MS = 10;
const BENCH = 'hr';

const ms = (n: number) => n.toFixed(2);

/** Employees straight into the table: statuses 80% active, 10% on leave, 10% inactive. */
async function bulkLoad(db: pg.Client, businessId: string, departmentIds: string[]): Promise<void> {
  await db.query(
    `INSERT INTO hr_employees (business_id, id, first_name, last_name, email, phone, department_id, position, status,
                               hire_date, salary, currency, created_at, updated_at)
     SELECT $1, 'emp_BENCH' || lpad(i::text, 22, '0'), 'First' || i, 'Last' || ((i * 7919) % 50000),
            'employee' || i || '@example.test', NULL, ($3::text[])[1 + i % array_length($3::text[], 1)],
            'Position ' || (i % 40),
            CASE WHEN i % 10 = 0 THEN 'inactive' WHEN i % 10 = 5 THEN 'on_leave' ELSE 'active' END,
            date '2010-01-01' + (i % 5000), 200000 + (i % 700000), 'USD',
            now() - i * interval '1 minute', now() - i * interval '1 minute'
     FROM generate_series(1, $2::int) AS i`,
    [businessId, EMPLOYEES, departmentIds],
  );
  await db.query('VACUUM ANALYZE hr_employees');
  await db.query('VACUUM ANALYZE hr_departments');
}

type Request = { label: string; send: (client: Client) => Promise<unknown> };

/** The request mix: every filter and sort, first pages and pages further in. */
function requestMix(departmentIds: string[]): Request[] {
  const department = (i: number) => itemAt(departmentIds, i % departmentIds.length);
  const hr = (
    label: string,
    query: NonNullable<Parameters<Client['hr']['employees']['listEmployees']>[0]>['query'],
  ) => ({
    label,
    send: (client: Client) => unwrap(client.hr.employees.listEmployees({ query })),
  });
  const general = (
    label: string,
    query: NonNullable<Parameters<Client['hr']['employees']['listGeneralEmployees']>[0]>['query'],
  ) => ({ label, send: (client: Client) => unwrap(client.hr.employees.listGeneralEmployees({ query })) });
  return [
    {
      // The floor: an authenticated read of one row, the same way; the lists add their own cost to it.
      label: 'floor: one department by id',
      send: (client: Client) =>
        unwrap(client.hr.departments.getDepartment({ params: { id: department(1) } })),
    },
    hr('hr, unfiltered, first page', { limit: 50 }),
    hr('hr, unfiltered, offset 1,000', { limit: 50, offset: 1000 }),
    hr('hr, by department', { limit: 50, department_id: department(3) }),
    hr('hr, by department, offset 500', { limit: 50, offset: 500, department_id: department(7) }),
    hr('hr, by status on_leave', { limit: 50, status: 'on_leave' }),
    hr('hr, by status active', { limit: 50, offset: 100, status: 'active' }),
    hr('hr, department and status', { limit: 50, department_id: department(11), status: 'active' }),
    general('general, created_at:desc', { limit: 50 }),
    general('general, hire_date:asc', { limit: 50, sort: 'hire_date:asc' }),
    general('general, last_name:asc, page 3', { limit: 50, page: 3, sort: 'last_name:asc' }),
    general('general, by department, hire_date:desc', {
      limit: 50,
      department_id: department(5),
      sort: 'hire_date:desc',
    }),
  ];
}

const service = await benchService(API_PORT);
const { data } = service;
try {
  const { businessId, client } = await service.register();
  const departmentIds: string[] = [];
  for (let i = 1; i <= DEPARTMENTS; i++) {
    const created = await unwrap(
      client.hr.departments.createDepartment({ body: { name: `Department ${i}` } }),
    );
    departmentIds.push(created.department_id);
  }

  const loadStarted = performance.now();
  await bulkLoad(data, businessId, departmentIds);
  console.log(
    `loaded ${EMPLOYEES.toLocaleString('en')} employees in ${DEPARTMENTS} departments in ` +
      `${((performance.now() - loadStarted) / 1000).toFixed(1)} s`,
  );

  // The lists count what the table holds.
  const all = await unwrap(client.hr.employees.listEmployees({ query: { limit: 50 } }));
  if (all.total_count !== EMPLOYEES || all.employees.length !== 50) {
    throw new Error(`the list counted ${all.total_count} employees (page ${all.employees.length})`);
  }

  const mix = requestMix(departmentIds);
  // Warm-up: each request a few times (plans cached, pages in memory), not timed.
  for (let i = 0; i < 5; i++) for (const request of mix) await request.send(client);

  const rounds: { all: number[]; byLabel: Map<string, number[]> }[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const timings: number[] = [];
    const byLabel = new Map<string, number[]>(mix.map((r) => [r.label, []]));
    for (let i = 0; i < REQUESTS; i++) {
      const request = itemAt(mix, i % mix.length);
      const started = performance.now();
      await request.send(client);
      const elapsed = performance.now() - started;
      if (!request.label.startsWith('floor')) timings.push(elapsed);
      byLabel.get(request.label)?.push(elapsed);
    }
    rounds.push({ all: timings.sort((a, b) => a - b), byLabel });
  }

  const median = (values: number[]) =>
    percentile(
      [...values].sort((a, b) => a - b),
      50,
    );
  const spread = (values: number[]) => `${ms(Math.min(...values))}-${ms(Math.max(...values))}`;
  const p = (sorted: number[], q: number) => percentile(sorted, q);
  const p95s = rounds.map((r) => p(r.all, 95));
  console.log(
    `\nA page of 50 over ${EMPLOYEES.toLocaleString('en')} employees, ${ROUNDS} rounds of ${REQUESTS} sequential ` +
      `requests (median over rounds, spread min-max):`,
  );
  console.log(
    `all lists      p50 ${ms(median(rounds.map((r) => p(r.all, 50))))} ms  ` +
      `p95 ${ms(median(p95s))} ms (${spread(p95s)})  ` +
      `p99 ${ms(median(rounds.map((r) => p(r.all, 99))))} ms`,
  );
  for (const request of mix) {
    const perRound = rounds.map((r) => (r.byLabel.get(request.label) ?? []).sort((a, b) => a - b));
    const own95 = perRound.map((s) => p(s, 95));
    console.log(
      `  ${request.label.padEnd(42)} p50 ${ms(median(perRound.map((s) => p(s, 50))))} ms  ` +
        `p95 ${ms(median(own95))} ms (${spread(own95)})`,
    );
  }
  console.log(`target p95 ${TARGET_P95_MS} ms: ${median(p95s) <= TARGET_P95_MS ? 'met' : 'NOT met'}`);
  const page = `a page of 50 over ${EMPLOYEES.toLocaleString('en')} employees`;
  report({
    bench: BENCH,
    measure: `${page}, every list, p95`,
    unit: 'ms',
    rounds: p95s,
    target: { op: '<=', value: TARGET_P95_MS },
  });
  report({
    bench: BENCH,
    measure: `${page}, every list, p50`,
    unit: 'ms',
    rounds: rounds.map((r) => p(r.all, 50)),
  });
  report({
    bench: BENCH,
    measure: 'floor: one department by id, p95',
    unit: 'ms',
    rounds: rounds.map((r) =>
      p(
        (r.byLabel.get('floor: one department by id') ?? []).sort((a, b) => a - b),
        95,
      ),
    ),
  });
} finally {
  await service.close();
}
