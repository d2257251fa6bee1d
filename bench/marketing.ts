/**
 * Marketing at scale on PostgreSQL.
 *
 * Segments: 200,000 contacts (customers) of one business, bulk-loaded; a segment of three
 * conditions (an attribute, a creation date and a company prefix): its detail (the live
 * contact_count) and its contacts page, first and further in (target p95 50 ms each). Rendering:
 * one template (CSS inlined, merge tags, escaping) for 10,000 contacts in-process (target 1 s).
 *
 * Sending: a campaign to 10,000 recipients (DKIM-signed, tracked, one SMTP message each) through
 * the service's worker to an SMTP sink in this process, from send to `sent`: unpaced
 * (MAIL_RATE_PER_SECOND=0), target 15 s, beside the same unsigned; at the default 1,000 a second;
 * then at 200 a second, which must take 50 s +- 10% (pacing works). The service's peak RSS is read
 * from /proc. After each unpaced signed round, a raw compose-sign-send loop (rawLoop) sends the same
 * number of messages to the same sink: the service's rate over the loop's (target at least 0.8).
 *
 *   npm run build && npx tsx bench/marketing.ts   (BENCH_PG_URL defaults to postgres://postgres@127.0.0.1:5432/postgres)
 *
 * BENCH_CONTACTS (default 200000), BENCH_ROUNDS (default 5), BENCH_REQUESTS (per round and query,
 * default 60), BENCH_RENDERS (default 10000), BENCH_RECIPIENTS (default 10000), BENCH_SEND_ROUNDS
 * (default 3), BENCH_PARTS (default segments,render,sending), BENCH_SEND_RUNS (default
 * signed,unsigned,1000,200); BENCH_KEEP_DB=1 keeps the scratch
 * database.
 */
import { generateKeyPairSync } from 'node:crypto';
import nodemailer from 'nodemailer';
import { unwrap } from '../client/index.js';
import { compileTemplate, type MergeFields } from '../server/marketing/index.js';
import { benchService, measureQueries, median, report, startSink, type BenchService } from './support.js';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 200_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 60);
const RENDERS = Number(process.env.BENCH_RENDERS ?? 10_000);
const RECIPIENTS = Number(process.env.BENCH_RECIPIENTS ?? 10_000);
const SEND_ROUNDS = Number(process.env.BENCH_SEND_ROUNDS ?? 3);
const PARTS = (process.env.BENCH_PARTS ?? 'segments,render,sending').split(',');
const API_PORT = 3834;
const SENDER_DOMAIN = 'bench-mail.example.test';
const BENCH = 'marketing';

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
    BENCH,
  );
}

/** One template for RENDERS contacts, compiled once (CSS inlined, parts parsed), in this process. */
async function renderPart(): Promise<void> {
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
    const render = await compileTemplate({
      subject: 'Hello {{first_name}}',
      html_body: html,
      text_body: null,
    });
    for (const fields of contacts) bytes += render(fields).html.length;
    times.push(performance.now() - t);
  }
  const med = median(times);
  console.log(
    `\nrendering one template for ${RENDERS.toLocaleString('en')} contacts (compile included), ${ROUNDS} rounds: ` +
      `median ${med.toFixed(0)} ms (${Math.min(...times).toFixed(0)}-${Math.max(...times).toFixed(0)}), ` +
      `${(bytes / ROUNDS / RENDERS).toFixed(0)} bytes of HTML each; target 1000 ms: ${med <= 1000 ? 'met' : 'NOT met'}`,
  );
  report({
    bench: BENCH,
    measure: `render one template for ${RENDERS.toLocaleString('en')} contacts`,
    unit: 'ms',
    rounds: times,
    target: { op: '<=', value: 1000 },
  });
}

/** RECIPIENTS contacts, a DKIM-signing sender domain, a template with links and a segment of everyone. */
async function sendingSetup(service: BenchService, dkim: boolean) {
  const { businessId, client } = await service.register('Bench campaigns');
  await service.data.query(
    `INSERT INTO customers (business_id, id, name, email, first_name, last_name, attributes, unsubscribed,
                            created_at, updated_at)
     SELECT $1, 'cus_SEND' || lpad(i::text, 22, '0'), 'First' || i || ' Last' || i, 'r' || i || '@example.test',
            'First' || i, 'Last' || i, jsonb_build_object('plan', 'pro'), false, now(), now()
     FROM generate_series(1, $2::int) AS i`,
    [businessId, RECIPIENTS],
  );
  await service.data.query('VACUUM ANALYZE customers');
  // A domain row (verified: the domain is trusted) holds the DKIM key every message is signed with.
  if (dkim) await unwrap(client.marketing.domains.createDomain({ body: { domain: SENDER_DOMAIN } }));
  const template = (
    await unwrap(
      client.marketing.templates.createTemplate({
        body: {
          name: 'Offer',
          subject: 'An offer for {{first_name}}',
          html_body:
            '<style>p{color:#333}</style><h1>Hello {{first_name}}</h1><p>Our autumn offer, {{name}}.</p>' +
            '<p><a href="https://shop.example/offer">See it</a> or <a href="https://shop.example/">visit us</a>.</p>',
          from_name: 'Bench Shop',
          from_email: `news@${SENDER_DOMAIN}`,
        },
      }),
    )
  ).template;
  const segment = (
    await unwrap(
      client.marketing.segments.createSegment({
        body: { name: 'Everyone', filters: { match: 'all', conditions: [] } },
      }),
    )
  ).segment;
  return { client, template, segment };
}

/** One campaign to every contact: seconds from the send request until the campaign is `sent`. */
async function sendOnce(
  setup: Awaited<ReturnType<typeof sendingSetup>>,
  sink: Awaited<ReturnType<typeof startSink>>,
): Promise<number> {
  const { campaigns } = setup.client.marketing;
  const campaign = (
    await unwrap(
      campaigns.createCampaign({
        body: { name: 'Bench', template_id: setup.template.id, segment_id: setup.segment.id },
      }),
    )
  ).campaign;
  const before = sink.received();
  const started = performance.now();
  const { recipients_count } = await unwrap(campaigns.sendCampaign({ params: { id: campaign.id } }));
  if (recipients_count !== RECIPIENTS) throw new Error(`${recipients_count} recipients, not ${RECIPIENTS}`);
  for (;;) {
    const { status } = (await unwrap(campaigns.getCampaign({ params: { id: campaign.id } }))).campaign;
    if (status === 'sent') break;
    if (status !== 'sending') throw new Error(`the campaign is ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const seconds = (performance.now() - started) / 1000;
  const delivered = sink.received() - before;
  const analytics = (await unwrap(campaigns.getCampaignAnalytics({ params: { id: campaign.id } }))).analytics;
  if (delivered !== RECIPIENTS || analytics.delivered !== RECIPIENTS) {
    throw new Error(
      `the sink got ${delivered} messages, analytics ${analytics.delivered}, for ${RECIPIENTS}`,
    );
  }
  return seconds;
}

/**
 * The least work the same sending needs, for comparison: this process composes RECIPIENTS messages
 * (the template's HTML and a text part with the merge fields put in), DKIM-signs each with a 2048-bit
 * key as the service does, and sends them to the same sink over a nodemailer pool of the service's
 * size (MAIL_POOL_SIZE, 5), 50 in flight. No database, no tracking links, no records: seconds from
 * the first message to the last accepted.
 */
async function rawLoop(sink: Awaited<ReturnType<typeof startSink>>): Promise<number> {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const { hostname, port } = new URL(sink.url);
  const transport = nodemailer.createTransport({
    host: hostname,
    port: Number(port),
    secure: false,
    ignoreTLS: true,
    pool: true,
    maxConnections: 5,
    dkim: {
      domainName: SENDER_DOMAIN,
      keySelector: 'bms',
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    },
  });
  const before = sink.received();
  const started = performance.now();
  let next = 1;
  const lane = async () => {
    for (let i = next++; i <= RECIPIENTS; i = next++) {
      const first = `First${i}`;
      await transport.sendMail({
        from: { name: 'Bench Shop', address: `news@${SENDER_DOMAIN}` },
        to: `r${i}@example.test`,
        subject: `An offer for ${first}`,
        html:
          `<h1>Hello ${first}</h1><p style="color:#333">Our autumn offer, ${first} Last${i}.</p>` +
          '<p><a href="https://shop.example/offer">See it</a> or <a href="https://shop.example/">visit us</a>.</p>',
        text: `Hello ${first}\n\nOur autumn offer, ${first} Last${i}.\n\nSee it: https://shop.example/offer`,
      });
    }
  };
  await Promise.all(Array.from({ length: 50 }, lane));
  const seconds = (performance.now() - started) / 1000;
  transport.close();
  if (sink.received() - before !== RECIPIENTS) throw new Error('the raw loop lost messages');
  return seconds;
}

/** Campaign sending at the given MAIL_RATE_PER_SECOND, `rounds` times, in a service of its own. */
async function sendingPart(
  rate: number,
  rounds: number,
  check: (median: number) => { target: string; met: boolean },
  dkim = true,
  reportAs?: (times: number[]) => void,
): Promise<void> {
  const sink = await startSink();
  const service = await benchService(API_PORT, {
    WORKER_ENABLED: 'true',
    SMTP_URL: sink.url,
    MAIL_TRUSTED_DOMAINS: SENDER_DOMAIN,
    MAIL_RATE_PER_SECOND: String(rate),
    MARKETING_POLL_MS: '100',
    PUBLIC_BASE_URL: 'https://bench.example',
  });
  try {
    const setup = await sendingSetup(service, dkim);
    const times: number[] = [];
    const ratios: number[] = [];
    for (let round = 0; round < rounds; round++) {
      times.push(await sendOnce(setup, sink));
      // Unpaced and signed: the raw loop to the same sink right after, its time over the service's.
      if (rate === 0 && dkim) {
        const raw = await rawLoop(sink);
        ratios.push(raw / times[times.length - 1]!);
        console.log(
          `round ${round + 1}: service ${times[times.length - 1]!.toFixed(1)} s, raw compose-sign-send loop ` +
            `${raw.toFixed(1)} s, service at ${ratios[ratios.length - 1]!.toFixed(2)} of the raw loop's rate`,
        );
      }
    }
    if (ratios.length > 0) {
      report({
        bench: BENCH,
        measure: `campaign rate / raw compose-sign-send loop rate`,
        unit: 'x',
        rounds: ratios,
        target: { op: '>=', value: 0.8 },
      });
    }
    const med = median(times);
    const { target, met } = check(med);
    console.log(
      `\ncampaign to ${RECIPIENTS.toLocaleString('en')} recipients at MAIL_RATE_PER_SECOND=${rate} ` +
        `(${rate === 0 ? 'unpaced' : `${rate}/s`}), ${dkim ? 'DKIM-signed' : 'unsigned (baseline)'}, ${rounds} round(s): median ${med.toFixed(1)} s ` +
        `(${Math.min(...times).toFixed(1)}-${Math.max(...times).toFixed(1)}), ` +
        `${(RECIPIENTS / med).toFixed(0)} messages/s, service peak RSS ${service.peakRssMiB().toFixed(0)} MiB; ` +
        `target ${target}: ${met ? 'met' : 'NOT met'}`,
    );
    reportAs?.(times);
  } finally {
    await service.close();
    await sink.close();
  }
}

if (PARTS.includes('segments')) {
  const service = await benchService(API_PORT);
  try {
    await segmentsPart(service);
  } finally {
    await service.close();
  }
}
if (PARTS.includes('render')) await renderPart();
if (PARTS.includes('sending')) {
  const runs = (process.env.BENCH_SEND_RUNS ?? 'signed,unsigned,1000,200').split(',');
  const within15 = (m: number) => ({ target: '<= 15 s', met: m <= 15 });
  const recipients = `${RECIPIENTS.toLocaleString('en')} recipients`;
  const seconds = (measure: string) => (times: number[]) =>
    report({ bench: BENCH, measure, unit: 's', rounds: times, target: { op: '<=', value: 15 } });
  if (runs.includes('signed')) {
    await sendingPart(
      0,
      SEND_ROUNDS,
      within15,
      true,
      seconds(`campaign to ${recipients}, DKIM-signed, unpaced`),
    );
  }
  // Beside it, the same without signatures: what the RSA signature of each message costs.
  if (runs.includes('unsigned')) {
    await sendingPart(
      0,
      SEND_ROUNDS,
      within15,
      false,
      seconds(`campaign to ${recipients}, unsigned, unpaced`),
    );
  }
  if (runs.includes('1000')) {
    await sendingPart(1000, 1, within15, true, seconds(`campaign to ${recipients}, DKIM-signed, 1,000/s`));
  }
  const expected = RECIPIENTS / 200;
  if (runs.includes('200')) {
    await sendingPart(
      200,
      1,
      (m) => ({
        target: `${expected.toFixed(0)} s +- 10%`,
        met: Math.abs(m - expected) <= expected * 0.1,
      }),
      true,
      (times) => {
        report({ bench: BENCH, measure: `campaign to ${recipients} at 200/s`, unit: 's', rounds: times });
        report({
          bench: BENCH,
          measure: `campaign at 200/s, off the paced ${expected.toFixed(0)} s by`,
          unit: '%',
          rounds: times.map((t) => (Math.abs(t - expected) / expected) * 100),
          target: { op: '<=', value: 10 },
        });
      },
    );
  }
}
