/**
 * Entry of a session worker. It boots with the bare minimum and posts "ready" at once (so a cold session open costs
 * little more than a bare Worker start), then loads the tool code in the background while it waits to be bound to its
 * session through its control port (comlink). Its three ports (broker, tool host, control) come with it in
 * `workerData`, so binding it costs the main thread one small message. Everything outside the worker goes through the
 * broker.
 */
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import type { Transport } from '../src/protocol/transport.js';
import type { HostStateMessage, WorkerPorts } from '../src/protocol/worker-bind.js';
import { bindToolHost } from './bind-tool-host.js';
import { serveToolHostControl } from './serve-control.js';

if (!parentPort) throw new Error('session-worker must run in a worker thread');
const port = parentPort;
const toolHost = import('./tool-host.js');
// A failed load surfaces in every call; keep it from being an unhandled rejection meanwhile.
toolHost.catch(() => undefined);
const ports = workerData as WorkerPorts;

serveToolHostControl(nodeEndpoint(ports.controlPort as MessagePort), (session) =>
  bindToolHost(session, { broker: portTransport(ports.brokerPort as MessagePort), host: portTransport(ports.hostPort as MessagePort) }, toolHost),
);

function portTransport(channel: MessagePort): Transport<never> {
  return { post: (data) => channel.postMessage(data), listen: (listener) => void channel.on('message', listener) };
}

port.postMessage({ type: 'ready' } satisfies HostStateMessage);
