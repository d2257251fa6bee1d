import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { configErrorOf } from '../support/config.js';

describe('loadConfig', () => {
  it('applies the documented defaults to an empty environment', () => {
    const config = loadConfig({});
    expect(config.PORT).toBe(3000);
    expect(config.DATA_DIR).toBe('./data');
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.RATE_LIMITS).toEqual({ free: 100, standard: 1000, enterprise: 10000 });
    expect(config.DEFAULT_PLAN).toBe('standard');
    expect(config.RATE_LIMIT_STORE).toBe('memory');
    expect(config.ACCESS_TOKEN_TTL).toBe(604800);
    expect(config.MIGRATE_ON_START).toBe(true);
    expect(config.SIGNUP_ENABLED).toBe(true);
  });

  it('refuses WEBHOOK_ALLOW_PRIVATE=true in production, naming it, and takes it elsewhere', () => {
    const key = 'a'.repeat(64);
    expect(
      configErrorOf({ NODE_ENV: 'production', ENCRYPTION_KEY: key, WEBHOOK_ALLOW_PRIVATE: 'true' }).message,
    ).toMatch(/\bWEBHOOK_ALLOW_PRIVATE\b.*production/);
    expect(loadConfig({ NODE_ENV: 'production', ENCRYPTION_KEY: key }).WEBHOOK_ALLOW_PRIVATE).toBe(false);
    expect(loadConfig({ NODE_ENV: 'development', WEBHOOK_ALLOW_PRIVATE: 'true' }).WEBHOOK_ALLOW_PRIVATE).toBe(
      true,
    );
  });

  it('refuses RATE_LIMIT_STORE=postgres without DATABASE_URL, saying to use memory on the embedded database', () => {
    const message = configErrorOf({ RATE_LIMIT_STORE: 'postgres' }).message;
    expect(message).toMatch(/\bRATE_LIMIT_STORE\b.*DATABASE_URL/);
    expect(message).toContain('use memory');
    expect(
      loadConfig({ RATE_LIMIT_STORE: 'postgres', DATABASE_URL: 'postgres://bms@db.internal/bms' })
        .RATE_LIMIT_STORE,
    ).toBe('postgres');
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', DATA_DIR: '' })).toMatchObject({ PORT: 3000, DATA_DIR: './data' });
  });

  it('reads the values it is given', () => {
    const config = loadConfig({
      PORT: '8080',
      DATA_DIR: '/var/lib/bms',
      DATABASE_URL: 'postgres://bms:secret@db.internal:5432/bms',
      RATE_LIMITS: 'free:10,standard:20,enterprise:30,gold:40',
      DEFAULT_PLAN: 'gold',
      RATE_LIMIT_STORE: 'postgres',
      MIGRATE_ON_START: 'false',
    });
    expect(config).toMatchObject({
      PORT: 8080,
      DATA_DIR: '/var/lib/bms',
      DATABASE_URL: 'postgres://bms:secret@db.internal:5432/bms',
      RATE_LIMITS: { free: 10, standard: 20, enterprise: 30, gold: 40 },
      DEFAULT_PLAN: 'gold',
      RATE_LIMIT_STORE: 'postgres',
      MIGRATE_ON_START: false,
    });
  });

  it('refuses a PORT that is not a number, naming PORT', () => {
    expect(configErrorOf({ PORT: 'abc' }).message).toMatch(/\bPORT\b/);
  });

  it('refuses a PORT out of range, naming PORT', () => {
    expect(configErrorOf({ PORT: '70000' }).message).toMatch(/\bPORT\b/);
  });

  it('refuses a PGlite buffer pool that is not a size from 128kB to 1GB, naming PGLITE_SHARED_BUFFERS', () => {
    for (const value of ['16', '16mb', '0MB', '64kB', '2GB', 'lots']) {
      expect(configErrorOf({ PGLITE_SHARED_BUFFERS: value }).message).toMatch(/\bPGLITE_SHARED_BUFFERS\b/);
    }
    expect(loadConfig({ PGLITE_SHARED_BUFFERS: '128kB' }).PGLITE_SHARED_BUFFERS).toBe('128kB');
    expect(loadConfig({ PGLITE_SHARED_BUFFERS: '1GB' }).PGLITE_SHARED_BUFFERS).toBe('1GB');
  });

  it.each(['free=100', 'free:100,standard', 'free:ten', 'Free:100'])(
    'refuses RATE_LIMITS=%s, naming RATE_LIMITS',
    (value) => {
      expect(configErrorOf({ RATE_LIMITS: value }).message).toMatch(/\bRATE_LIMITS\b/);
    },
  );

  it('refuses a DEFAULT_PLAN without a rate in RATE_LIMITS, naming DEFAULT_PLAN', () => {
    const error = configErrorOf({ DEFAULT_PLAN: 'gold' });
    expect(error.message).toMatch(/\bDEFAULT_PLAN\b/);
    expect(error.message).toContain('gold');
  });

  it('accepts a DEFAULT_PLAN that RATE_LIMITS gives a rate', () => {
    expect(loadConfig({ DEFAULT_PLAN: 'gold', RATE_LIMITS: 'gold:50' }).DEFAULT_PLAN).toBe('gold');
  });

  it.each([
    ['15m', 900],
    ['3600', 3600],
    ['30s', 30],
    ['12h', 43200],
    ['7d', 604800],
  ])('parses ACCESS_TOKEN_TTL=%s as %i seconds', (value, seconds) => {
    expect(loadConfig({ ACCESS_TOKEN_TTL: value }).ACCESS_TOKEN_TTL).toBe(seconds);
  });

  it('refuses an ACCESS_TOKEN_TTL it cannot read, naming ACCESS_TOKEN_TTL', () => {
    expect(configErrorOf({ ACCESS_TOKEN_TTL: 'a week' }).message).toMatch(/\bACCESS_TOKEN_TTL\b/);
  });

  it('refuses a DATABASE_URL that is not a URL, naming DATABASE_URL', () => {
    expect(configErrorOf({ DATABASE_URL: 'not a url' }).message).toMatch(/\bDATABASE_URL\b/);
  });

  it('refuses an unknown RATE_LIMIT_STORE, naming RATE_LIMIT_STORE', () => {
    expect(configErrorOf({ RATE_LIMIT_STORE: 'redis-ish' }).message).toMatch(/\bRATE_LIMIT_STORE\b/);
  });

  it('names every bad variable at once', () => {
    const { message } = configErrorOf({ PORT: 'abc', DATABASE_URL: 'nope' });
    expect(message).toMatch(/\bPORT\b/);
    expect(message).toMatch(/\bDATABASE_URL\b/);
  });

  it('returns a frozen object', () => {
    const config = loadConfig({});
    expect(Object.isFrozen(config)).toBe(true);
    expect(() => {
      (config as { PORT: number }).PORT = 1;
    }).toThrow(TypeError);
    expect(config.PORT).toBe(3000);
  });
});
