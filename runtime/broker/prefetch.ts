import type { BrokerApi, Prefetched } from '../../src/protocol.js';

/**
 * The broker's answer to the I/O an admitted call will certainly ask for first, computed with the call so the
 * worker need not ask: read_file's read. The answer is the broker's own (the same guard runs), and the worker uses
 * it for that path only.
 */
export async function prefetchFor(broker: BrokerApi, tool: string, args: Record<string, unknown>): Promise<{ prefetched?: Prefetched }> {
  if (tool === 'read_file' && typeof args['path'] === 'string') {
    const path = args['path'];
    return { prefetched: { readFileStrict: { path, reply: await broker.readFileStrict(path) } } };
  }
  return {};
}
