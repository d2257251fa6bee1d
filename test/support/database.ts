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

/** A fresh database on the PostgreSQL server, dropped by the returned function. */
export async function createScratchDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  if (!serverUrl) throw new Error('DATABASE_URL is not set');
  const name = `bms_test_${randomBytes(6).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${name}`));
  return {
    url: withDatabase(serverUrl, name),
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
