import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { createClient, unwrap } from '../client/index.js';
import { itemAt, scratchDatabase, spawnService, stop, waitHealthy } from './support.js';
const PORT = 3851;
function cpuMsOf(pid: number): number {
  const f = itemAt(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') '), 1).split(' ');
  return ((Number(f[11]) + Number(f[12])) * 1000) / 100;
}
const database = await scratchDatabase();
const service = spawnService({ DATABASE_URL: database.url, PORT: String(PORT), RATE_LIMITS: 'free:100,standard:100000000,enterprise:100000000', ANONYMOUS_RATE_LIMIT: '100000000', WORKER_ENABLED: 'false' });
try {
  await waitHealthy(PORT, service);
  const anonymous = createClient({ baseUrl: `http://127.0.0.1:${PORT}` });
  const { data: session } = await unwrap(anonymous.auth.register({ body: { businessName: 'B', email: `b-${database.name}@example.test`, password: 'bench password 123' } }));
  const client = createClient({ baseUrl: `http://127.0.0.1:${PORT}`, accessToken: session.accessToken });
  await unwrap(client.loyalty.program.createProgram({ body: { name: 'C', pointsName: 'P', pointsPerCurrency: 10, currency: 'USD' } }));
  const { data: key } = await unwrap(client.auth.createApiKey({ body: { name: 'till' } }));
  let seq = 0;
  const cases: Record<string, autocannon.Options> = {
    healthz: { url: `http://127.0.0.1:${PORT}/healthz` },
    notfound: { url: `http://127.0.0.1:${PORT}/v1/public/loyalty/nothing`, headers: { 'x-api-key': key.key } },
    rewards: { url: `http://127.0.0.1:${PORT}/v1/public/loyalty/rewards`, headers: { 'x-api-key': key.key } },
    earn: { url: `http://127.0.0.1:${PORT}/v1/public/loyalty/earn`, method: 'POST', headers: { 'x-api-key': key.key, 'content-type': 'application/json' },
      requests: [{ setupRequest: (r: any) => ({ ...r, body: JSON.stringify({ email: `m${seq % 200}@bench.test`, amount: 12.5, reference: `r-${Date.now()}-${++seq}` }) }) }] as any },
  };
  for (const round of [1, 2]) for (const [name, opts] of Object.entries(cases).filter(([n]) => !process.env.ONLY || n === process.env.ONLY)) {
    const before = cpuMsOf(service.pid!);
    const r = await autocannon({ connections: 10, duration: round === 1 ? 3 : 5, ...opts });
    const n = r.requests.total;
    if (round === 2) console.log(name.padEnd(9), `${(r.requests.average).toFixed(0)} req/s`, `CPU/req ${((cpuMsOf(service.pid!) - before) / n).toFixed(3)} ms`, `non2xx ${r.non2xx}`);
  }
} finally { await stop(service); await database.drop(); }
