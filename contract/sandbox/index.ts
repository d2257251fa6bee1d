import { initContract } from '@ts-rest/core';
import { clockContract } from './clock.js';
import { messagesContract } from './messages.js';
import { resetContract } from './reset.js';

const c = initContract();

/** The sandbox: what an integrator tests against (captured mail, reset with demo data, the test clock). */
export const sandboxContract: {
  messages: typeof messagesContract;
  clock: typeof clockContract;
  reset: typeof resetContract;
} = c.router({
  messages: messagesContract,
  clock: clockContract,
  reset: resetContract,
});

export * from './clock.js';
export * from './messages.js';
export * from './reset.js';
