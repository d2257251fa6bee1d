import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations are frozen in time */

/**
 * Invitations an owner can manage and a person can use:
 * - the token sealed with the service's SecretBox next to its hash, so an owner or admin can copy
 *   the link again and a resend mails the same one (rows made before have none);
 * - who invited (the mail names them) and when the mail last went out;
 * - the invitation a two-factor sign-in challenge completes: a person with an account who accepts
 *   with their password joins only when the second step succeeds.
 */
const STATEMENTS = [
  `ALTER TABLE invitations
     ADD COLUMN token_sealed text,
     ADD COLUMN invited_by text,
     ADD COLUMN sent_at timestamptz`,
  `UPDATE invitations SET sent_at = created_at`,
  `ALTER TABLE invitations ALTER COLUMN sent_at SET NOT NULL, ALTER COLUMN sent_at SET DEFAULT now()`,
  `ALTER TABLE sign_in_challenges ADD COLUMN invitation_id text`,
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Migrations are forward only');
}
