import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  hkdfSync,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { keyBytes, type Config } from '../config.js';
import type { Logger } from './logger.js';

const VERSION = 'v1';

/** Seals short secrets at rest with AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export class SecretBox {
  private readonly macKey: Buffer;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('SecretBox needs a 32-byte key');
    // A key of its own for signatures, derived so that sealing and signing never share one.
    this.macKey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'bms signed links', 32));
  }

  /** A short signature of `text` (HMAC-SHA256, 128 bits, base64url): links the service hands out. */
  sign(text: string): string {
    return createHmac('sha256', this.macKey)
      .update(text, 'utf8')
      .digest()
      .subarray(0, 16)
      .toString('base64url');
  }

  /** Whether `signature` is `sign(text)`, compared in constant time. */
  verify(text: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(text));
    const given = Buffer.from(signature);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv, cipher.getAuthTag(), data]
      .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
      .join('.');
  }

  open(sealed: string): string {
    const [version, iv = '', tag = '', data = ''] = sealed.split('.');
    if (version !== VERSION) throw new Error('Unknown sealed-secret version');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  }
}

/**
 * ENCRYPTION_KEY when set (required in production, see config). In development the key is generated
 * once and kept in DATA_DIR/encryption.key, so sealed secrets survive restarts; an in-memory data
 * directory gets a key that lives as long as the process.
 */
export function loadSecretBox(config: Readonly<Config>, log: Logger): SecretBox {
  if (config.ENCRYPTION_KEY) return new SecretBox(keyBytes(config.ENCRYPTION_KEY)!);
  if (config.DATA_DIR === 'memory://') return new SecretBox(randomBytes(32));
  const dir = resolve(config.DATA_DIR);
  const file = join(dir, 'encryption.key');
  if (!existsSync(file)) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    log.warn(
      { file },
      'ENCRYPTION_KEY is not set: generated a development key; set ENCRYPTION_KEY in production',
    );
  }
  chmodSync(file, 0o600);
  const key = keyBytes(readFileSync(file, 'utf8').trim());
  if (!key) throw new Error(`${file} does not hold a 32-byte hex key`);
  return new SecretBox(key);
}
