import {
  createHash,
  randomBytes,
  scrypt as scryptCb,
  timingSafeEqual,
  type ScryptOptions,
} from 'node:crypto';

const scrypt = (password: string, salt: Buffer, keylen: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(password, salt, keylen, options, (err, key) => (err ? reject(err) : resolve(key))),
  );

const PARAMS = { N: 16384, r: 8, p: 1 };
const KEY_LENGTH = 32;

/** `scrypt$N$r$p$salt$hash` (node:crypto scrypt, parameters stored so they can be raised later). */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_LENGTH, PARAMS);
  return ['scrypt', PARAMS.N, PARAMS.r, PARAMS.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt = '', hash = ''] = stored.split('$');
  if (scheme !== 'scrypt') return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await scrypt(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(key, expected);
}

/** A hash to compare against when the email is unknown, so both paths take the same time. */
export const DUMMY_PASSWORD_HASH = await hashPassword(randomBytes(16).toString('hex'));

export const TOKEN_PREFIX = 'bms_at_';
/** Invitations to a team: single-use, mailed, stored only as a hash. */
export const INVITATION_PREFIX = 'bms_inv_';
/** The second sign-in step's challenge: single-use, short-lived, stored only as a hash. */
export const CHALLENGE_PREFIX = 'bms_ch_';
/** Password reset links: single-use, valid an hour, mailed, stored only as a hash. */
export const PASSWORD_RESET_PREFIX = 'bms_pwr_';
export const KEY_PREFIXES = { public_loyalty: 'bms_pk_', full: 'bms_sk_' } as const;
/** A sandbox's keys say so (docs/decisions.md D74): `bms_pk_test_...`, `bms_sk_test_...`. */
export const TEST_KEY_PREFIXES = { public_loyalty: 'bms_pk_test_', full: 'bms_sk_test_' } as const;

export const newSecret = (prefix: string): string => `${prefix}${randomBytes(32).toString('base64url')}`;

/** Credentials are stored only as SHA-256 hashes: they are random, so no salt or stretching is needed. */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

export const isApiKey = (secret: string): boolean =>
  secret.startsWith(KEY_PREFIXES.public_loyalty) || secret.startsWith(KEY_PREFIXES.full);
