import { z } from 'zod';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** `free:100,standard:1000,enterprise:10000` -> { free: 100, ... } (requests per minute). */
const planTable = z
  .string()
  .regex(/^[a-z_]+:\d+(,[a-z_]+:\d+)*$/, 'Expected plan:limit pairs, e.g. free:100,standard:1000')
  .transform((s) =>
    Object.fromEntries(
      s
        .split(',')
        .map((pair) => pair.split(':'))
        .map(([p = '', n = '']) => [p, Number(n)]),
    ),
  );

/** A duration in seconds, or with a unit: `30s`, `15m`, `12h`, `7d`. */
const duration = z
  .string()
  .regex(/^\d+[smhd]?$/, 'Expected a duration such as 3600, 15m, 12h or 7d')
  .transform((s) => {
    const n = Number.parseInt(s, 10);
    const unit = s.at(-1);
    const factor = unit === 'm' ? 60 : unit === 'h' ? 3600 : unit === 'd' ? 86400 : 1;
    return n * factor;
  });

/** The 32 key bytes of an ENCRYPTION_KEY value, or null when it is not one. */
export function keyBytes(value: string): Buffer | null {
  if (/^[0-9a-fA-F]{64}$/.test(value)) return Buffer.from(value, 'hex');
  const decoded = Buffer.from(value, 'base64');
  return decoded.length === 32 && /^[A-Za-z0-9+/]+={0,2}$/.test(value) ? decoded : null;
}

export const ConfigSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().default('0.0.0.0'),
    DATABASE_URL: z.string().url().optional(),
    DATA_DIR: z.string().default('./data'),
    DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
    /** The embedded database's buffer pool: PostgreSQL's shared_buffers, 128kB to 1GB. */
    PGLITE_SHARED_BUFFERS: z
      .string()
      .regex(/^[1-9]\d{0,6}(kB|MB|GB)$/, 'Expected a size such as 16MB (kB, MB or GB)')
      .refine((size) => {
        const kB = Number.parseInt(size, 10) * { kB: 1, MB: 1024, GB: 1024 * 1024 }[size.slice(-2) as 'kB'];
        return kB >= 128 && kB <= 1024 * 1024;
      }, 'Expected 128kB to 1GB')
      .default('16MB'),
    STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(15_000),
    MIGRATE_ON_START: bool.default('true'),
    WORKER_ENABLED: bool.default('true'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    ACCESS_TOKEN_TTL: duration.default('7d'),
    SIGNUP_ENABLED: bool.default('true'),
    /** How long a resolved credential is reused without a query (0: always query). */
    CREDENTIAL_CACHE_MS: z.coerce.number().int().min(0).max(300_000).default(10_000),
    DEFAULT_PLAN: z
      .string()
      .regex(/^[a-z_]+$/)
      .default('standard'),
    RATE_LIMITS: planTable.default('free:100,standard:1000,enterprise:10000'),
    RATE_LIMIT_STORE: z.enum(['memory', 'postgres']).default('memory'),
    /** Requests per minute per IP for requests without a valid credential. */
    ANONYMOUS_RATE_LIMIT: z.coerce.number().int().min(1).default(100),
    REGISTER_RATE_LIMIT: z.coerce.number().int().min(1).default(10),
    SIGNIN_MAX_FAILURES: z.coerce.number().int().min(1).default(10),
    TRUST_PROXY: z.string().default('false'),
    /**
     * Lets `GET /metrics` answer `Authorization: Bearer <METRICS_TOKEN>` from any address (without
     * it, only loopback peers are answered).
     */
    METRICS_TOKEN: z.string().min(16, 'Expected at least 16 characters').optional(),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
    /** 32 bytes, base64 or hex: the AES-256-GCM key that seals secrets stored at rest. */
    ENCRYPTION_KEY: z
      .string()
      .refine((k) => keyBytes(k) !== null, 'Expected 32 bytes as 64 hex characters or base64')
      .optional(),
    WEBHOOK_ALLOW_PRIVATE: bool.default('false'),
    /** Whether a live business may connect the built-in `test` payment provider (every sandbox has it). */
    PAYMENTS_TEST_PROVIDER: bool.default('false'),
    /** Where the Stripe adapter sends its API calls: Stripe's own unless set (tests point it at a stand-in). */
    STRIPE_API_BASE: z.string().url().optional(),
    /**
     * The European Central Bank's reference rates in its XML (such as
     * https://www.ecb.europa.eu/stats/eurofxref/eurofxref-hist-90d.xml): a worker fetches it at start and
     * once a day. Unset: no feed, and postings convert at the businesses' own rates only.
     */
    FX_RATES_URL: z.string().url().optional(),
    WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(15_000),
    /** How often a worker looks for webhook retries that have come due. */
    WEBHOOK_SWEEP_INTERVAL_MS: z.coerce.number().int().min(50).max(60_000).default(1000),
    /**
     * Browser origins allowed to call /v1/public/* (storefront widgets): comma-separated, such as
     * `https://shop.example.com,https://www.example.com`, or `*` for any. Empty: no CORS.
     */
    CORS_ORIGINS: z
      .string()
      .default('')
      .transform((s) =>
        s
          .split(',')
          .map((o) => o.trim().replace(/\/$/, ''))
          .filter(Boolean),
      )
      .refine((origins) => origins.every((o) => o === '*' || /^https?:\/\/[^/\s]+$/.test(o)), {
        message: 'Expected * or origins such as https://shop.example.com, comma-separated',
      }),
    SMTP_URL: z.string().url().optional(),
    MAIL_FROM: z.string().max(254).default('Business Management Service <no-reply@localhost>'),
    /** Campaign messages per second per business (0: unpaced). */
    MAIL_RATE_PER_SECOND: z.coerce.number().min(0).max(100_000).default(1000),
    /** SMTP connections of the campaign transport's pool. */
    MAIL_POOL_SIZE: z.coerce.number().int().min(1).max(50).default(5),
    /** First retry delay after a temporary (4xx) SMTP refusal; doubled at each retry, 3 retries. */
    MAIL_RETRY_BASE_MS: z.coerce.number().int().min(0).max(3_600_000).default(60_000),
    /**
     * The lease of a claimed campaign recipient: a sending worker renews the claims it holds every
     * third of it, so one not renewed within this long belongs to a worker that died: queued again.
     */
    MAIL_CLAIM_LEASE_MS: z.coerce.number().int().min(1000).max(3_600_000).default(10_000),
    /** How often a worker looks for campaign recipients to send and scheduled campaigns that are due. */
    MARKETING_POLL_MS: z.coerce.number().int().min(20).max(60_000).default(500),
    /** A mailbox that unsubscribes whoever writes to it, offered in List-Unsubscribe beside the link. */
    MAIL_UNSUBSCRIBE_MAILTO: z.string().email().optional(),
    /** The service's public address: tracking and unsubscribe links (default http://localhost:<PORT>). */
    PUBLIC_BASE_URL: z.string().url().optional(),
    /** Sender domains that count as verified without DNS records (local runs): comma-separated. */
    MAIL_TRUSTED_DOMAINS: z
      .string()
      .default('')
      .transform((s) =>
        s
          .split(',')
          .map((d) => d.trim().toLowerCase().replace(/\.$/, ''))
          .filter(Boolean),
      ),
  })
  .superRefine((c, ctx) => {
    if (c.NODE_ENV === 'production' && !c.ENCRYPTION_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: ['ENCRYPTION_KEY'],
        message: 'Required when NODE_ENV=production',
      });
    }
    // A production service never calls private addresses for a tenant (SSRF, docs/security.md).
    if (c.NODE_ENV === 'production' && c.WEBHOOK_ALLOW_PRIVATE) {
      ctx.addIssue({
        code: 'custom',
        path: ['WEBHOOK_ALLOW_PRIVATE'],
        message:
          'Must be false when NODE_ENV=production: webhooks would reach private and loopback addresses',
      });
    }
    // The embedded database serves one process, and its one connection is held by a request's
    // transaction while the request checks a password: counters there would wait on it for ever
    // (docs/decisions.md D211, "Rate-limit counters have connections of their own").
    if (c.RATE_LIMIT_STORE === 'postgres' && !c.DATABASE_URL) {
      ctx.addIssue({
        code: 'custom',
        path: ['RATE_LIMIT_STORE'],
        message:
          'postgres shares counters between processes on PostgreSQL and needs DATABASE_URL; the embedded database serves one process: use memory',
      });
    }
    if (!(c.DEFAULT_PLAN in c.RATE_LIMITS)) {
      ctx.addIssue({
        code: 'custom',
        path: ['DEFAULT_PLAN'],
        message: `No rate limit for plan "${c.DEFAULT_PLAN}" in RATE_LIMITS`,
      });
    }
  });

export type Config = z.infer<typeof ConfigSchema>;

/** Where links in mail and documents point: `PUBLIC_BASE_URL`, or this server on localhost. */
export const publicBaseUrl = (config: Pick<Config, 'PUBLIC_BASE_URL' | 'PORT'>): string =>
  (config.PUBLIC_BASE_URL ?? `http://localhost:${config.PORT}`).replace(/\/$/, '');

export class ConfigError extends Error {}

/** Parses the environment once; a bad value names the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Readonly<Config> {
  const relevant = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ConfigSchema.safeParse(relevant);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(environment)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return Object.freeze(parsed.data);
}
