import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { EmailSchema } from '../contract/common/schemas.js';
import {
  createApiKey,
  createBusiness,
  sandboxSession,
  type AuthSource,
  type ProvisionedBusiness,
} from './auth/index.js';
import { systemClock } from './platform/clock.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirLockedError } from './platform/db/data-dir-lock.js';
import { databaseOptions, openDatabase } from './platform/db/database.js';
import { migrateToLatest } from './platform/db/migrate.js';
import { ApiError } from './platform/errors.js';

const USAGE = `Usage:
  npm run cli -- business create --name NAME --email EMAIL [--plan PLAN] [--password PASSWORD] [--sandbox] [--json]
  npm run cli -- --help

Creates a business with its owner user (whether or not sign-up is enabled) and prints the business
id, an access token and a full-scope API key. Without --password a random one is generated and printed.
With --sandbox, its staging sandbox is made too, with a test access token and a bms_sk_test_ key.
With --json, the result is one JSON object on stdout, and so is a refusal: {"error": {"code", "message"}}
(exit code 1).`;

const CreateArgs = z.object({
  name: z.string().trim().min(1).max(200),
  email: EmailSchema,
  plan: z
    .string()
    .regex(/^[a-z_]+$/)
    .optional(),
  password: z.string().min(12).max(200).optional(),
});

async function createBusinessCommand(argv: string[]): Promise<void> {
  const { values } = parseArgs({
    args: argv,
    options: {
      name: { type: 'string' },
      email: { type: 'string' },
      plan: { type: 'string' },
      password: { type: 'string' },
      sandbox: { type: 'boolean', default: false },
      json: { type: 'boolean', default: false },
    },
  });
  const parsed = CreateArgs.safeParse(values);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `  --${i.path.join('.')}: ${i.message}`).join('\n');
    throw new UsageError(`Invalid arguments:\n${problems}`);
  }
  const args = parsed.data;
  const config = loadConfig();
  const plan = args.plan ?? config.DEFAULT_PLAN;
  if (!(plan in config.RATE_LIMITS))
    throw new UsageError(`Unknown plan "${plan}"; known: ${Object.keys(config.RATE_LIMITS).join(', ')}`);
  const password = args.password ?? randomBytes(18).toString('base64url');

  const database = await openDatabase(databaseOptions(config, 1));
  try {
    if (config.MIGRATE_ON_START) await migrateToLatest(database.db);
    const source = { db: database.db, clock: systemClock, config };
    const created = await createBusiness(source, {
      name: args.name,
      email: args.email,
      password,
      plan,
    });
    const key = await createApiKey(
      { ...source, businessId: created.businessId },
      { name: 'CLI', scope: 'full' },
    );
    const out = {
      businessId: created.businessId,
      email: args.email.toLowerCase(),
      plan,
      ...(args.password ? {} : { password }),
      accessToken: created.session.accessToken,
      accessTokenExpiresAt: created.session.expiresAt,
      apiKey: key.key,
      ...(values.sandbox ? await sandboxCredentials(source, created) : {}),
    };
    if (values.json) {
      console.log(JSON.stringify(out));
    } else {
      for (const [k, v] of Object.entries(out)) console.log(`${k.padEnd(21)} ${v}`);
    }
  } finally {
    await database.close();
  }
}

/** The business's sandbox, made now, with a test access token and a full test key. */
async function sandboxCredentials(source: AuthSource, created: ProvisionedBusiness) {
  const session = await sandboxSession(source, created);
  const key = await createApiKey(
    { ...source, businessId: session.businessId },
    { name: 'CLI', scope: 'full' },
  );
  return {
    sandboxBusinessId: session.businessId,
    sandboxAccessToken: session.accessToken,
    sandboxApiKey: key.key,
  };
}

class UsageError extends Error {}

const HELP = new Set(['--help', '-h', 'help']);

async function main(argv: string[]): Promise<void> {
  if (argv.some((arg) => HELP.has(arg))) {
    console.log(USAGE);
    return;
  }
  const [group, command, ...rest] = argv;
  if (group === 'business' && command === 'create') return createBusinessCommand(rest);
  throw new UsageError(USAGE);
}

/** A refusal as the caller reads it: the code and message, and what is known of the cause. */
function refusalOf(err: unknown): { code: string; message: string } | undefined {
  if (err instanceof UsageError) return { code: 'USAGE', message: err.message };
  if (err instanceof ConfigError) return { code: 'CONFIG', message: err.message };
  if (err instanceof DataDirLockedError) return { code: 'DATA_DIR_LOCKED', message: err.message };
  if (err instanceof ApiError) return { code: err.code, message: err.message };
  // parseArgs refuses an unknown or incomplete option with a TypeError that carries a code.
  if (err instanceof Error && err.name === 'TypeError' && 'code' in err) {
    return { code: 'USAGE', message: `${err.message}\n\n${USAGE}` };
  }
  return undefined;
}

const argv = process.argv.slice(2);
main(argv).catch((err: unknown) => {
  const refusal = refusalOf(err);
  if (argv.includes('--json')) {
    console.log(JSON.stringify({ error: refusal ?? { code: 'INTERNAL_ERROR', message: String(err) } }));
  } else if (!refusal) console.error(err);
  else console.error(err instanceof ApiError ? `Refused: ${refusal.message}` : refusal.message);
  process.exit(1);
});
