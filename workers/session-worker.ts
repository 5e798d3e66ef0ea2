/**
 * Entry of a session worker. It boots with the bare minimum and posts "ready" at once (so a cold session open costs
 * little more than a bare Worker start), then loads the tool code in the background while it waits for the one
 * `bind` message that tells it its session. Its two ports (broker and tool host) come with it in `workerData`, so
 * binding it costs the main thread one small message. Everything outside the worker goes through the broker.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import type { Transport } from '../src/protocol/transport.js';
import { isBindMessage, PROTOCOL_VERSION, type HostStateMessage, type WorkerPorts } from '../src/protocol/worker-bind.js';
import { bindToolHost } from './bind-tool-host.js';

if (!parentPort) throw new Error('session-worker must run in a worker thread');
const port = parentPort;
const toolHost = import('./tool-host.js');
// A failed load surfaces in every call; keep it from being an unhandled rejection meanwhile.
toolHost.catch(() => undefined);
const post = (message: HostStateMessage): void => port.postMessage(message);

port.once('message', (message: unknown) => {
  if (!isBindMessage(message)) {
    post({ type: 'bind-refused', reason: `expected bind v${PROTOCOL_VERSION}` });
    return;
  }
  const ports = workerData as WorkerPorts;
  bindToolHost(message.session, { broker: portTransport(ports.brokerPort as MessagePort), host: portTransport(ports.hostPort as MessagePort) }, toolHost);
  post({ type: 'bound' });
});

function portTransport(channel: MessagePort): Transport<never> {
  return { post: (data) => channel.postMessage(data), listen: (listener) => void channel.on('message', listener) };
}

post({ type: 'ready' });
