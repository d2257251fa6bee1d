import { monotonicFactory } from 'ulid';

const ulid = monotonicFactory();

/** Opaque, time-ordered, unguessable ids: `cus_01JD7X2R5VQ8N3K4M6P9T1W2Y3`. */
export const newId = (prefix: string): string => `${prefix}_${ulid()}`;
