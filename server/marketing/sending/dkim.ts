import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';

const generate = promisify(generateKeyPair);

/** The selector of the keys made here: `<selector>._domainkey.<domain>`. */
export const DKIM_SELECTOR = 'bms1';

/**
 * A new RSA 2048 key pair for DKIM: the public key as the base64 SubjectPublicKeyInfo a DKIM
 * record's `p=` carries, the private key as PKCS#8 PEM (nodemailer's `dkim.privateKey`).
 */
export async function dkimKeyPair(): Promise<{ publicKey: string; privateKey: string }> {
  const { publicKey, privateKey } = await generate('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'der' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicKey: publicKey.toString('base64'), privateKey };
}

/** The tags of a DKIM record (`v=DKIM1; k=rsa; p=...`), whitespace removed from values. */
export function dkimTags(record: string): Map<string, string> {
  const tags = new Map<string, string>();
  for (const part of record.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    tags.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).replace(/\s+/g, ''));
  }
  return tags;
}
