import { MessageChannel } from 'node:worker_threads';
import * as Comlink from 'comlink/dist/esm/comlink.mjs';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { describe, expect, it } from 'vitest';
import { filterEndpoint } from '../../runtime/broker/filtered-endpoint.js';
import { isBrokerRequest } from '../../runtime/broker/broker-requests.js';

describe('a broker endpoint accepts only plain calls of broker methods', () => {
  it('answers an APPLY of a broker method and ignores a SET that would pollute prototypes', async () => {
    const { port1, port2 } = new MessageChannel();
    const exposed = { readFile: async (path: string) => ({ ok: true, value: `read ${path}` }) };
    Comlink.expose(exposed, filterEndpoint(nodeEndpoint(port1), isBrokerRequest));
    const replies: unknown[] = [];
    port2.on('message', (message) => replies.push(message));
    port2.postMessage({ id: 'a', type: 'SET', path: ['__proto__', 'polluted'], value: { type: 'RAW', value: 'yes' } });
    port2.postMessage({ id: 'b', type: 'GET', path: ['constructor'] });
    port2.postMessage({ id: 'c', type: 'APPLY', path: ['readFile'], argumentList: [{ type: 'RAW', value: 'x.txt' }] });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ id: 'c', value: { ok: true, value: 'read x.txt' } });
    port1.close();
    port2.close();
  });
});
