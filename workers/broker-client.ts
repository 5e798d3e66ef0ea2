import { fromPlainError } from '../src/errors.js';
import type { BrokerReply } from '../src/protocol.js';

/** Unwraps a broker reply, rethrowing its error with the code intact. */
export async function unwrap<T>(reply: Promise<BrokerReply<T>>): Promise<T> {
  const settled = await reply;
  if (settled.ok) return settled.value;
  throw fromPlainError(settled.error);
}
