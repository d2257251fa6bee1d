import { composeMessage, type OutgoingMessage } from './compose.js';

/** The thread-pool task of the sending worker (see compose.ts). */
export default async function compose(message: OutgoingMessage): Promise<Uint8Array> {
  return composeMessage(message);
}
