import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';

// Random bytes drawn from the CSPRNG a few kilobytes at a time: the default draws one byte per
// character through a system call, 16 per id.
const pool = Buffer.alloc(4096);
let offset = pool.length;
const randomByte = (): number => {
  if (offset >= pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  return pool[offset++]!;
};

const ulid = monotonicFactory(() => randomByte() / 256);

/** Opaque, time-ordered, unguessable ids: `cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3`. */
export const newId = (prefix: string): string => `${prefix}_${ulid()}`;
