import { createHmac, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.js';
import { loadSecretBox, SecretBox } from '../../server/platform/secret-box.js';
import { createLogger } from '../../server/platform/logger.js';
import { configErrorOf } from '../support/config.js';
import { atLeast, itemAt } from '../support/expect.js';

const log = createLogger('silent');
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;

/** Replaces one character of a base64url string with a different one. */
function flip(part: string, at = 0): string {
  const c = part[at];
  return part.slice(0, at) + (c === 'A' ? 'B' : 'A') + part.slice(at + 1);
}

/** The sealed value with its part `index` (0 version, 1 iv, 2 tag, 3 ciphertext) replaced. */
function withPart(sealed: string, index: number, replace: (part: string) => string): string {
  const parts = sealed.split('.');
  parts[index] = replace(itemAt(parts, index));
  return parts.join('.');
}

describe('SecretBox', () => {
  const box = new SecretBox(randomBytes(32));

  it('opens what it sealed', () => {
    expect(box.open(box.seal(SECRET))).toBe(SECRET);
    expect(box.open(box.seal(''))).toBe('');
    expect(box.open(box.seal('ünïcødé ✓'))).toBe('ünïcødé ✓');
  });

  it('seals as v1.<iv>.<tag>.<ciphertext> without the plain text in it', () => {
    const sealed = box.seal(SECRET);
    expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    const [, iv, tag] = atLeast(sealed.split('.'), 3);
    expect(Buffer.from(iv, 'base64url')).toHaveLength(12);
    expect(Buffer.from(tag, 'base64url')).toHaveLength(16);
    expect(sealed).not.toContain(SECRET);
    expect(sealed).not.toContain(SECRET.slice('whsec_'.length));
  });

  it('seals the same text differently each time (random IV)', () => {
    const a = box.seal(SECRET);
    const b = box.seal(SECRET);
    expect(a).not.toBe(b);
    expect(a.split('.')[1]).not.toBe(b.split('.')[1]);
    expect(box.open(a)).toBe(SECRET);
    expect(box.open(b)).toBe(SECRET);
  });

  it('refuses to open a tampered ciphertext', () => {
    const sealed = box.seal(SECRET);
    expect(() => box.open(withPart(sealed, 3, (p) => flip(p)))).toThrow();
    expect(() => box.open(withPart(sealed, 3, (p) => flip(p, p.length - 2)))).toThrow();
  });

  it('refuses to open with a tampered tag or IV', () => {
    const sealed = box.seal(SECRET);
    expect(() => box.open(withPart(sealed, 2, (p) => flip(p)))).toThrow();
    expect(() => box.open(withPart(sealed, 1, (p) => flip(p)))).toThrow();
  });

  it('refuses a ciphertext moved under another tag', () => {
    const a = box.seal(SECRET);
    const b = box.seal('another secret of similar size, long enough');
    const swapped = withPart(a, 3, () => itemAt(b.split('.'), 3));
    expect(() => box.open(swapped)).toThrow();
  });

  it('refuses an unknown version or a truncated value', () => {
    const sealed = box.seal(SECRET);
    expect(() => box.open(withPart(sealed, 0, () => 'v2'))).toThrow(/version/);
    expect(() => box.open(sealed.split('.').slice(0, 3).join('.'))).toThrow();
    expect(() => box.open('')).toThrow();
  });

  it('cannot be opened by a box with another key', () => {
    const sealed = box.seal(SECRET);
    expect(() => new SecretBox(randomBytes(32)).open(sealed)).toThrow();
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => new SecretBox(randomBytes(16))).toThrow(/32-byte/);
    expect(() => new SecretBox(randomBytes(33))).toThrow(/32-byte/);
  });
});

describe('loadSecretBox', () => {
  const dirs: string[] = [];
  const tempDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'bms-secret-box-'));
    dirs.push(dir);
    return dir;
  };

  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('uses a 64-hex-character ENCRYPTION_KEY: a new box from the same key opens what the first sealed', () => {
    const key = randomBytes(32);
    const dir = tempDir();
    const config = loadConfig({ ENCRYPTION_KEY: key.toString('hex'), DATA_DIR: dir });
    const sealed = loadSecretBox(config, log).seal(SECRET);
    expect(loadSecretBox(config, log).open(sealed)).toBe(SECRET);
    // It is exactly that key: a hand-made box with those bytes opens it too.
    expect(new SecretBox(key).open(sealed)).toBe(SECRET);
    // With a key set, nothing is written to the data directory.
    expect(existsSync(join(dir, 'encryption.key'))).toBe(false);
  });

  it('uses a 32-byte base64 ENCRYPTION_KEY', () => {
    const key = randomBytes(32);
    const config = loadConfig({ ENCRYPTION_KEY: key.toString('base64'), DATA_DIR: 'memory://' });
    const sealed = loadSecretBox(config, log).seal(SECRET);
    expect(loadSecretBox(loadConfig({ ENCRYPTION_KEY: key.toString('base64') }), log).open(sealed)).toBe(
      SECRET,
    );
    expect(new SecretBox(key).open(sealed)).toBe(SECRET);
  });

  it('does not open with a different ENCRYPTION_KEY', () => {
    const sealed = loadSecretBox(loadConfig({ ENCRYPTION_KEY: randomBytes(32).toString('hex') }), log).seal(
      SECRET,
    );
    const other = loadSecretBox(loadConfig({ ENCRYPTION_KEY: randomBytes(32).toString('hex') }), log);
    expect(() => other.open(sealed)).toThrow();
  });

  it('without ENCRYPTION_KEY creates DATA_DIR/encryption.key (mode 0600) and reuses it on the next load', () => {
    const dir = tempDir();
    const file = join(dir, 'encryption.key');
    const config = loadConfig({ DATA_DIR: dir });
    expect(existsSync(file)).toBe(false);

    const first = loadSecretBox(config, log);
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const stored = readFileSync(file, 'utf8');
    expect(stored.trim()).toMatch(/^[0-9a-f]{64}$/);
    const sealed = first.seal(SECRET);

    const second = loadSecretBox(config, log);
    expect(second.open(sealed)).toBe(SECRET);
    expect(readFileSync(file, 'utf8')).toBe(stored);
    expect(new SecretBox(Buffer.from(stored.trim(), 'hex')).open(sealed)).toBe(SECRET);
  });

  it('creates a DATA_DIR that does not exist yet', () => {
    const dir = join(tempDir(), 'nested', 'data');
    const box = loadSecretBox(loadConfig({ DATA_DIR: dir }), log);
    expect(statSync(join(dir, 'encryption.key')).mode & 0o777).toBe(0o600);
    expect(loadSecretBox(loadConfig({ DATA_DIR: dir }), log).open(box.seal(SECRET))).toBe(SECRET);
  });

  it('tightens a key file that was left readable by others back to 0600', () => {
    const dir = tempDir();
    const file = join(dir, 'encryption.key');
    const key = randomBytes(32);
    writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o644 });
    const box = loadSecretBox(loadConfig({ DATA_DIR: dir }), log);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(new SecretBox(key).open(box.seal(SECRET))).toBe(SECRET);
  });

  it('refuses a key file that does not hold a 32-byte key', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'encryption.key'), 'not a key', { mode: 0o600 });
    expect(() => loadSecretBox(loadConfig({ DATA_DIR: dir }), log)).toThrow(/encryption\.key/);
  });

  it('gives an in-memory data directory a key of its own for each load', () => {
    const config = loadConfig({ DATA_DIR: 'memory://' });
    const sealed = loadSecretBox(config, log).seal(SECRET);
    expect(() => loadSecretBox(config, log).open(sealed)).toThrow();
  });
});

describe('ENCRYPTION_KEY in the configuration', () => {
  it('is required in production, naming ENCRYPTION_KEY', () => {
    expect(configErrorOf({ NODE_ENV: 'production' }).message).toMatch(/\bENCRYPTION_KEY\b/);
  });

  it('is accepted in production when set', () => {
    const key = randomBytes(32).toString('hex');
    expect(loadConfig({ NODE_ENV: 'production', ENCRYPTION_KEY: key }).ENCRYPTION_KEY).toBe(key);
  });

  it.each([
    ['too short hex', randomBytes(16).toString('hex')],
    ['too long hex', randomBytes(33).toString('hex')],
    ['non-hex characters', 'z'.repeat(64)],
    ['base64 of 31 bytes', randomBytes(31).toString('base64')],
    ['base64 of 33 bytes', randomBytes(33).toString('base64')],
    ['base64url alphabet', `${'-_'.repeat(21)}A=`],
    ['a passphrase', 'correct horse battery staple'],
  ])('refuses a malformed key (%s), naming ENCRYPTION_KEY', (_name, key) => {
    expect(configErrorOf({ ENCRYPTION_KEY: key }).message).toMatch(/\bENCRYPTION_KEY\b/);
    expect(configErrorOf({ NODE_ENV: 'production', ENCRYPTION_KEY: key }).message).toMatch(
      /\bENCRYPTION_KEY\b/,
    );
  });
});

describe('signatures of the links the service hands out', () => {
  const box = new SecretBox(randomBytes(32));

  it('verifies its own signature of a text, and only of that text', () => {
    const signature = box.sign('recipient:abc');
    expect(signature).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(box.verify('recipient:abc', signature)).toBe(true);
    expect(box.verify('recipient:abd', signature)).toBe(false);
    expect(box.verify('recipient:abc', flip(signature))).toBe(false);
    expect(box.verify('recipient:abc', signature.slice(1))).toBe(false);
    expect(box.verify('recipient:abc', '')).toBe(false);
  });

  it("refuses another key's signature, and signs with a key other than the sealing key", () => {
    const key = randomBytes(32);
    const other = new SecretBox(randomBytes(32));
    expect(other.verify('recipient:abc', box.sign('recipient:abc'))).toBe(false);
    // The signature is not an HMAC under the sealing key itself.
    const plain = createHmac('sha256', key).update('x').digest().subarray(0, 16).toString('base64url');
    expect(new SecretBox(key).sign('x')).not.toBe(plain);
    expect(new SecretBox(key).sign('x')).toBe(new SecretBox(key).sign('x'));
  });
});
