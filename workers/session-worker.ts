/**
 * Entry of a session worker. It boots with the bare minimum and posts "ready" at once (so a cold session open costs
 * little more than a bare Worker start), then loads the tool code in the background while it waits for the one
 * `bind` message that tells it its session. Its two ports (broker and tool host) come with it in `workerData`, so
 * binding it costs the main thread one small message. Everything outside the worker goes through the broker.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { PROTOCOL_VERSION, type BindMessage, type ToolHostApi, type WorkerPorts } from '../src/protocol.js';
import { createBrokerClient } from './broker-client.js';
import { serveToolHost } from './tool-host-server.js';

if (!parentPort) throw new Error('session-worker must run in a worker thread');
const port = parentPort;
const toolHost = import('./tool-host.js');
// A failed load surfaces in every call; keep it from being an unhandled rejection meanwhile.
toolHost.catch(() => undefined);

port.once('message', (message: BindMessage) => {
  if (message.type !== 'bind' || message.version !== PROTOCOL_VERSION) {
    port.postMessage({ type: 'bind-refused', reason: `expected bind v${PROTOCOL_VERSION}` });
    return;
  }
  const ports = workerData as WorkerPorts;
  const brokerPort = ports.brokerPort as MessagePort;
  const brokerFor = createBrokerClient({ post: (request) => brokerPort.postMessage(request), listen: (listener) => brokerPort.on('message', listener) });
  const host = toolHost.then(({ createToolHost }) => createToolHost(brokerFor, message.session));
  // Once loaded, calls go straight to the host: awaiting the settled promise costs each call a few microtask turns.
  let ready: ToolHostApi | undefined;
  host.then((loaded) => (ready = loaded), () => undefined);
  const api: ToolHostApi = {
    callTool: (name, args, callId, prefetched) => (ready ? ready.callTool(name, args, callId, prefetched) : host.then((loaded) => loaded.callTool(name, args, callId, prefetched))),
    describeHostTools: async () => (await host).describeHostTools(),
  };
  const hostPort = ports.hostPort as MessagePort;
  serveToolHost(api, { post: (reply) => hostPort.postMessage(reply), listen: (listener) => hostPort.on('message', listener) });
  port.postMessage({ type: 'bound' });
});

port.postMessage({ type: 'ready' });
