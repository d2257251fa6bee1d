/**
 * Marketing at scale on PostgreSQL.
 *
 * Segments: 200,000 contacts (customers) of one business, bulk-loaded; a segment of three
 * conditions (an attribute, a creation date and a company prefix): its detail (the live
 * contact_count) and its contacts page, first and further in (target p95 50 ms each). Rendering:
 * one template (CSS inlined, merge tags, escaping) for 10,000 contacts in-process (target 1 s).
 *
 *   npm run build && npx tsx bench/marketing.ts   (BENCH_PG_URL defaults to postgres://postgres@127.0.0.1:5432/postgres)
 *
 * BENCH_CONTACTS (default 200000), BENCH_ROUNDS (default 5), BENCH_REQUESTS (per round and query,
 * default 60), BENCH_RENDERS (default 10000); BENCH_KEEP_DB=1 keeps the scratch database.
 */
import { unwrap } from '../client/index.js';
import { compileTemplate, type MergeFields } from '../server/marketing/index.js';
import { benchService, measureQueries, median } from './support.js';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 200_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 60);
const RENDERS = Number(process.env.BENCH_RENDERS ?? 10_000);
const API_PORT = 3834;

async function segmentsPart(service: Awaited<ReturnType<typeof benchService>>): Promise<void> {
  const { businessId, client } = await service.register('Bench marketing');
  const started = performance.now();
  // Plans 1/3 each; companies from 26 initials; created over two years; 1 in 20 unsubscribed.
  await service.data.query(
    `INSERT INTO customers (business_id, id, name, email, company, first_name, last_name, attributes, unsubscribed,
                            created_at, updated_at)
     SELECT $1, 'cus_BENCH' || lpad(i::text, 22, '0'), 'First' || i || ' Last' || i, 'contact' || i || '@example.test',
            chr(65 + (i * 7) % 26) || 'company ' || (i % 500), 'First' || i, 'Last' || i,
            jsonb_build_object('plan', (ARRAY['free', 'pro', 'team'])[1 + i % 3], 'seats', (i % 50)::text),
            i % 20 = 0, timestamptz '2025-01-01' + (i % 730) * interval '1 day' + (i % 86400) * interval '1 second',
            now()
     FROM generate_series(1, $2::int) AS i`,
    [businessId, CONTACTS],
  );
  await service.data.query('VACUUM ANALYZE customers');
  console.log(
    `bulk-loaded ${CONTACTS.toLocaleString('en')} contacts in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const segment = (
    await unwrap(
      client.marketing.segments.createSegment({
        body: {
          name: 'Pro customers since mid-2025 at A-companies',
          filters: {
            match: 'all',
            conditions: [
              { field: 'attributes.plan', operator: 'eq', value: 'pro' },
              { field: 'created_at', operator: 'gte', value: '2025-07-01' },
              { field: 'company', operator: 'starts_with', value: 'a' },
            ],
          },
        },
      }),
    )
  ).segment;
  // The same rule in plain arithmetic over the generated rows, as a check of the compiled SQL.
  let expected = 0;
  for (let i = 1; i <= CONTACTS; i++) {
    const created = Date.UTC(2025, 0, 1) + (i % 730) * 86_400_000 + (i % 86_400) * 1000;
    if (i % 3 === 1 && created >= Date.UTC(2025, 6, 1) && (i * 7) % 26 === 0) expected++;
  }
  if (segment.contact_count !== expected) {
    throw new Error(`the segment counts ${segment.contact_count} contacts, the rule ${expected}`);
  }
  console.log(`three-condition segment: ${segment.contact_count.toLocaleString('en')} contacts`);

  const { segments } = client.marketing;
  await measureQueries(
    `${CONTACTS.toLocaleString('en')} contacts`,
    [
      {
        label: 'segment detail (live contact_count)',
        target: 50,
        send: () => unwrap(segments.getSegment({ params: { id: segment.id } })),
      },
      {
        label: 'segment contacts, first page of 50',
        target: 50,
        send: () => unwrap(segments.listSegmentContacts({ params: { id: segment.id }, query: {} })),
      },
      {
        label: 'segment contacts, offset 2,000',
        target: 50,
        send: () =>
          unwrap(segments.listSegmentContacts({ params: { id: segment.id }, query: { offset: 2000 } })),
      },
    ],
    ROUNDS,
    REQUESTS,
  );
}

/** One template for RENDERS contacts, compiled once (CSS inlined, parts parsed), in this process. */
function renderPart(): void {
  const html =
    '<style>p { color: #333; font-family: sans-serif } .cta { background: #0a7; color: #fff }</style>' +
    '<h1>Hello {{first_name}}</h1>' +
    '<p>Thanks for being with us, {{name}} of {{company}}. Your plan: {{attributes.plan}}.</p>'.repeat(20) +
    '<p><a class="cta" href="https://example.com/offer?e={{email}}">See the offer</a></p>';
  const contacts: MergeFields[] = Array.from({ length: RENDERS }, (_, i) => ({
    first_name: `Ada${i}`,
    last_name: `Lovelace <${i}>`,
    name: `Ada${i} "Lovelace" & Co`,
    email: `ada${i}@example.com`,
    company: `Engines ${i} <Ltd>`,
    attributes: { plan: i % 2 ? 'pro' : 'free' },
  }));
  const times: number[] = [];
  let bytes = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const t = performance.now();
    const render = compileTemplate({ subject: 'Hello {{first_name}}', html_body: html, text_body: null });
    for (const fields of contacts) bytes += render(fields).html.length;
    times.push(performance.now() - t);
  }
  const med = median(times);
  console.log(
    `\nrendering one template for ${RENDERS.toLocaleString('en')} contacts (compile included), ${ROUNDS} rounds: ` +
      `median ${med.toFixed(0)} ms (${Math.min(...times).toFixed(0)}-${Math.max(...times).toFixed(0)}), ` +
      `${(bytes / ROUNDS / RENDERS).toFixed(0)} bytes of HTML each; target 1000 ms: ${med <= 1000 ? 'met' : 'NOT met'}`,
  );
}

const service = await benchService(API_PORT);
try {
  await segmentsPart(service);
} finally {
  await service.close();
}
renderPart();
