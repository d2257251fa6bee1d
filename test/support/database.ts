import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The PostgreSQL server tests run against, when DATABASE_URL is set; otherwise PGlite in memory. */
export const serverUrl = process.env.DATABASE_URL;
export const onPostgres = Boolean(serverUrl);

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * A fresh database on the PostgreSQL server, dropped by the returned function: empty, or a copy of
 * `template` (a migrated database, see seed.ts).
 */
export async function createScratchDatabase(
  template?: string,
): Promise<{ url: string; name: string; drop: () => Promise<void> }> {
  if (!serverUrl) throw new Error('DATABASE_URL is not set');
  const name = `bms_test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}${template ? ` TEMPLATE ${template}` : ''}`));
  return {
    url: withDatabase(serverUrl, name),
    name,
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/**
 * Makes the scratch database `name` a template: no connection to it is left or allowed, so that
 * CREATE DATABASE may copy it. The returned function drops it.
 */
export async function markTemplate(name: string): Promise<() => Promise<void>> {
  await admin(async (c) => {
    await c.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE true ALLOW_CONNECTIONS false`);
    await c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1', [name]);
  });
  return () =>
    admin(async (c) => {
      await c.query(`ALTER DATABASE ${name} WITH IS_TEMPLATE false`);
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    });
}
