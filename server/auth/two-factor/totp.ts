import { createHash, randomInt } from 'node:crypto';
import { generateSecret, generateURI, verify } from 'otplib';

/**
 * TOTP (RFC 6238) as authenticator apps know it: SHA-1, six digits, 30-second steps. A code of the
 * step before or after the current one is accepted (clock drift, typing time); a step at or before
 * the last one accepted is refused, so a code signs in once.
 */
const PERIOD = 30;
const TOLERANCE_SECONDS = PERIOD;
export const TOTP_ISSUER = 'Business Management Service';

export const newTotpSecret = (): string => generateSecret();

export const otpauthUri = (secret: string, account: string): string =>
  generateURI({ issuer: TOTP_ISSUER, label: account, secret, period: PERIOD, digits: 6 });

/** The URI as an SVG QR code in a data URL, for an `<img>`; qrcode is loaded on the first enrolment. */
export async function qrCodeDataUrl(uri: string): Promise<string> {
  const { default: qrcode } = await import('qrcode');
  const svg = await qrcode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}

export const isTotpCode = (code: string): boolean => /^\d{6}$/.test(code.replace(/\s+/g, ''));

/**
 * The time step `code` belongs to when it is valid at `now` and later than `afterStep`; null
 * otherwise.
 */
export async function totpStep(
  secret: string,
  code: string,
  now: Date,
  afterStep: number | null,
): Promise<number | null> {
  const epoch = Math.floor(now.getTime() / 1000);
  const current = Math.floor(epoch / PERIOD);
  // A last step ahead of the clock (the clock was set back): nothing is valid until it catches up.
  if (afterStep !== null && afterStep >= current + 1) return null;
  const result = await verify({
    secret,
    token: code.replace(/\s+/g, ''),
    epoch,
    period: PERIOD,
    epochTolerance: TOLERANCE_SECONDS,
    ...(afterStep !== null && { afterTimeStep: afterStep }),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : null;
}

/*
 * Recovery codes: 16 characters of an alphabet without look-alikes (about 79 bits), shown in groups
 * of four. Random enough that a SHA-256 hash protects them at rest as it does tokens.
 */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
export const RECOVERY_CODE_COUNT = 10;

export function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 16; i++) code += ALPHABET[randomInt(ALPHABET.length)];
  return code.match(/.{4}/g)!.join('-');
}

/** A recovery code as typed (any case, spaces and dashes) to its stored hash. */
export const hashRecoveryCode = (code: string): string =>
  createHash('sha256')
    .update(code.toLowerCase().replace(/[\s-]+/g, ''))
    .digest('hex');
