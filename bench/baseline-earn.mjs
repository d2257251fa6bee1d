// Baseline for the public earn endpoint: the least work a correct implementation must do, written
// with node:http and pg alone, no framework. Benchmarks compare the service against it, side by side
// in one run, on the same PostgreSQL: ratio = service req/s / baseline req/s.
//
//   DATABASE_URL=postgres://... PORT=4100 node bench/baseline-earn.mjs   (from the project root)
//   POST /earn  headers X-Api-Key: bench-key   body {"email":"m123@bench.test","amount":12.5,"reference":"r-1"}
//
// It creates its own tables (bl_*) and 10,000 members m0..m9999@bench.test on start.
import http from 'node:http';
import crypto from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(`${process.cwd()}/package.json`); // pg from the project's node_modules
const pg = require('pg');
const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL ?? 10) });
const keyHash = crypto.createHash('sha256').update('bench-key').digest('hex');
const keys = new Map([[keyHash, 'biz_bench']]);

await pool.query(`
  CREATE TABLE IF NOT EXISTS bl_members (business_id text, id bigserial, email text, balance bigint NOT NULL DEFAULT 0
    CHECK (balance >= 0), lifetime bigint NOT NULL DEFAULT 0, multiplier numeric NOT NULL DEFAULT 1,
    PRIMARY KEY (business_id, id), UNIQUE (business_id, email));
  CREATE TABLE IF NOT EXISTS bl_transactions (business_id text, id bigserial, member_id bigint, type text, points bigint,
    balance_after bigint, reference text, created_at timestamptz DEFAULT now(), PRIMARY KEY (business_id, id),
    UNIQUE (business_id, reference));
  CREATE TABLE IF NOT EXISTS bl_outbox (id bigserial PRIMARY KEY, business_id text, event text, data jsonb,
    created_at timestamptz DEFAULT now());
  INSERT INTO bl_members (business_id, email)
    SELECT 'biz_bench', 'm' || g || '@bench.test' FROM generate_series(0, 9999) g
    ON CONFLICT DO NOTHING;`);

function send(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function earn(businessId, { email, amount, reference }) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const m = await client.query(
      'SELECT id, multiplier FROM bl_members WHERE business_id = $1 AND email = $2 FOR UPDATE', [businessId, email]);
    if (m.rowCount === 0) { await client.query('ROLLBACK'); return [404, { error: 'not found' }]; }
    const points = Math.floor(amount * 10 * Number(m.rows[0].multiplier));
    const u = await client.query(
      'UPDATE bl_members SET balance = balance + $3, lifetime = lifetime + $3 WHERE business_id = $1 AND id = $2 RETURNING balance',
      [businessId, m.rows[0].id, points]);
    const balance = Number(u.rows[0].balance);
    await client.query(
      'INSERT INTO bl_transactions (business_id, member_id, type, points, balance_after, reference) VALUES ($1, $2, $3, $4, $5, $6)',
      [businessId, m.rows[0].id, 'earn', points, balance, reference ?? null]);
    await client.query('INSERT INTO bl_outbox (business_id, event, data) VALUES ($1, $2, $3)',
      [businessId, 'loyalty.points_earned', { email, points, balance }]);
    await client.query('COMMIT');
    return [200, { result: 'success', data: { pointsEarned: points, multiplierApplied: Number(m.rows[0].multiplier), newBalance: balance } }];
  } catch (e) {
    await client.query('ROLLBACK').catch(() => {});
    return e.code === '23505' ? [409, { error: 'duplicate reference' }] : [500, { error: 'internal' }];
  } finally {
    client.release();
  }
}

http.createServer((req, res) => {
  if (req.method !== 'POST' || req.url !== '/earn') return send(res, 404, { error: 'not found' });
  const key = req.headers['x-api-key'];
  const businessId = key && keys.get(crypto.createHash('sha256').update(String(key)).digest('hex'));
  if (!businessId) return send(res, 401, { error: 'unauthorized' });
  let raw = '';
  req.on('data', (c) => { raw += c; });
  req.on('end', async () => {
    let body;
    try { body = JSON.parse(raw); } catch { return send(res, 400, { error: 'bad json' }); }
    if (typeof body.email !== 'string' || typeof body.amount !== 'number' || !(body.amount > 0)) {
      return send(res, 422, { error: 'invalid' });
    }
    const [status, out] = await earn(businessId, body);
    send(res, status, out);
  });
}).listen(Number(process.env.PORT ?? 4100), '127.0.0.1', () => {
  console.log(`baseline-earn listening on ${process.env.PORT ?? 4100}`);
});
