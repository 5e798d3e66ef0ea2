import type { BrokerApi, Prefetched } from '../src/protocol.js';

/** A broker view for one call that answers the prefetched request once, from the answer sent with the call. */
export function withPrefetched(broker: BrokerApi, prefetched: Prefetched | undefined): BrokerApi {
  const read = prefetched?.readFileStrict;
  if (!read) return broker;
  let used = false;
  return {
    ...broker,
    readFileStrict: (path) => {
      if (used || path !== read.path) return broker.readFileStrict(path);
      used = true;
      return Promise.resolve(read.reply);
    },
  };
}
