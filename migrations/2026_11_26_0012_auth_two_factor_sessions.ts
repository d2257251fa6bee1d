import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * Two-factor sign-in and sessions (the security campaign):
 * - a person's TOTP secret, sealed with the service's SecretBox: pending while enrolment awaits its
 *   first code, then confirmed; the last time step accepted, so no code signs in twice;
 * - their recovery codes, stored as SHA-256 hashes, each used once;
 * - the challenges of the second sign-in step: found by the hash of their token, short-lived, with a
 *   count of wrong codes;
 * - each access token's user agent, address and last use, for the list of sessions;
 * - whether a business requires the second factor of every member (its sandbox twin carries the
 *   live business's value).
 */
const STATEMENTS = [
  `ALTER TABLE users
     ADD COLUMN totp_secret text,
     ADD COLUMN totp_enabled_at timestamptz,
     ADD COLUMN totp_pending_secret text,
     ADD COLUMN totp_last_step bigint,
     ADD CONSTRAINT users_totp_enabled_check CHECK ((totp_secret IS NULL) = (totp_enabled_at IS NULL))`,
  `CREATE TABLE user_recovery_codes (
     user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
     code_hash text NOT NULL,
     used_at timestamptz,
     created_at timestamptz NOT NULL DEFAULT now(),
     PRIMARY KEY (user_id, code_hash)
   )`,
  `CREATE TABLE sign_in_challenges (
     id text PRIMARY KEY,
     user_id text NOT NULL REFERENCES users (id) ON DELETE CASCADE,
     business_id text NOT NULL REFERENCES businesses (id) ON DELETE CASCADE,
     environment text NOT NULL CHECK (environment IN ('live', 'sandbox')),
     token_hash text NOT NULL UNIQUE,
     failed_attempts integer NOT NULL DEFAULT 0 CHECK (failed_attempts >= 0),
     expires_at timestamptz NOT NULL,
     used_at timestamptz,
     user_agent text,
     ip text,
     created_at timestamptz NOT NULL DEFAULT now()
   )`,
  `CREATE INDEX sign_in_challenges_user_idx ON sign_in_challenges (user_id)`,
  `ALTER TABLE access_tokens
     ADD COLUMN last_used_at timestamptz,
     ADD COLUMN user_agent text,
     ADD COLUMN ip text`,
  `CREATE INDEX access_tokens_user_idx ON access_tokens (user_id, created_at DESC)`,
  `ALTER TABLE businesses ADD COLUMN require_two_factor boolean NOT NULL DEFAULT false`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
