import { fromPlainError } from '../errors.js';
import type { BrokerReply } from '../protocol.js';

/** A broker reply's value, or its error thrown again with its code intact. */
export async function unwrap<T>(reply: Promise<BrokerReply<T>>): Promise<T> {
  const settled = await reply;
  if (settled.ok) return settled.value;
  throw fromPlainError(settled.error);
}
