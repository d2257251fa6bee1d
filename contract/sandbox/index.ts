import { initContract } from '@ts-rest/core';
import { messagesContract } from './messages.js';

const c = initContract();

/** The sandbox: what an integrator needs to test against the service (captured mail). */
export const sandboxContract: { messages: typeof messagesContract } = c.router({
  messages: messagesContract,
});

export * from './messages.js';
