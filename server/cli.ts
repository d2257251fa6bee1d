import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { EmailSchema } from '../contract/common/schemas.js';
import { createApiKey, createBusiness } from './auth/index.js';
import { systemClock } from './platform/clock.js';
import { ConfigError, loadConfig } from './config.js';
import { DataDirLockedError } from './platform/db/data-dir-lock.js';
import { databaseOptions, openDatabase } from './platform/db/database.js';
import { migrateToLatest } from './platform/db/migrate.js';
import { ApiError } from './platform/errors.js';

const USAGE = `Usage:
  npm run cli -- business create --name NAME --email EMAIL [--plan PLAN] [--password PASSWORD] [--json]

Creates a business with its owner user (whether or not sign-up is enabled) and prints the business
id, an access token and a full-scope API key. Without --password a random one is generated and printed.`;

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

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  const [group, command, ...rest] = argv;
  if (group === 'business' && command === 'create') return createBusinessCommand(rest);
  throw new UsageError(USAGE);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  if (err instanceof UsageError || err instanceof ConfigError || err instanceof DataDirLockedError)
    console.error(err.message);
  else if (err instanceof ApiError) console.error(`Refused: ${err.message}`);
  else if (err instanceof Error && err.name === 'TypeError' && 'code' in err)
    console.error(`${err.message}\n\n${USAGE}`);
  else console.error(err);
  process.exit(1);
});
