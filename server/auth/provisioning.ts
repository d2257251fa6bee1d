import type { AuthSession, RegisterBody } from '../../contract/auth/index.js';
import { withTransaction } from '../platform/db/database.js';
import { refuseDuplicates } from '../platform/db/errors.js';
import { ApiError, conflict } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import * as settings from '../platform/settings.js';
import * as queries from './queries.js';
import { hashPassword } from './secrets.js';
import { issueToken, issueTokenTo, type AuthSource, type SignInClient } from './tokens.js';

/*
 * Provisioning: a new business with its owner (sign-up and the command line), and the command
 * line's sandbox session.
 */

export interface NewBusiness {
  name: string;
  email: string;
  password: string;
  plan: string;
}

export interface ProvisionedBusiness {
  businessId: string;
  userId: string;
  session: AuthSession;
}

const emailTaken = () => conflict('An account with this email already exists');

/**
 * Creates a business, its owner user and a first access token (register and the CLI). The email is
 * checked first for a clear refusal; the unique key refuses a concurrent sign-up with the same one.
 */
export async function createBusiness(
  source: AuthSource,
  input: NewBusiness,
  client?: SignInClient,
): Promise<ProvisionedBusiness> {
  const passwordHash = await hashPassword(input.password);
  return withTransaction(source.db, async (trx) => {
    if (await queries.findUserByEmail(trx, input.email)) throw emailTaken();
    const businessId = newId('biz');
    const userId = newId('usr');
    const now = source.clock.now();
    const email = input.email.toLowerCase();
    await settings.createBusinessRow(
      { db: trx },
      {
        id: businessId,
        name: input.name,
        email,
        plan: input.plan,
        created_at: now,
      },
    );
    await refuseDuplicates(
      () =>
        queries.insertUser(trx, {
          id: userId,
          business_id: businessId,
          email,
          password_hash: passwordHash,
          created_at: now,
        }),
      { users_email_key: emailTaken },
    );
    await queries.insertMembership(trx, { business_id: businessId, user_id: userId, role: 'owner' });
    const session = await issueToken(trx, source, businessId, userId, 'live', client);
    return { businessId, userId, session };
  });
}

export async function register(
  source: AuthSource,
  input: RegisterBody,
  client?: SignInClient,
): Promise<AuthSession> {
  if (!source.config.SIGNUP_ENABLED) throw new ApiError('FORBIDDEN', 'Sign-up is disabled on this server');
  const created = await createBusiness(
    source,
    {
      name: input.businessName,
      email: input.email,
      password: input.password,
      plan: source.config.DEFAULT_PLAN,
    },
    client,
  );
  return created.session;
}

/** An access token to the sandbox of the user's live business (the CLI's `--sandbox`). */
export async function sandboxSession(
  source: AuthSource,
  provisioned: Pick<ProvisionedBusiness, 'businessId' | 'userId'>,
): Promise<AuthSession> {
  return issueTokenTo(source, provisioned.businessId, provisioned.userId, 'sandbox');
}
