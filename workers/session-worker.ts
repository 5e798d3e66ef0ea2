/**
 * Entry of a session worker. It boots idle (so the runtime can keep a warm pool), waits for one `bind` message that
 * hands it the two ports of its session, then serves tool calls. Everything outside the worker goes through the broker.
 */
import { parentPort, type MessagePort } from 'node:worker_threads';
import * as Comlink from 'comlink/dist/esm/comlink.mjs';
import nodeEndpoint from 'comlink/dist/esm/node-adapter.mjs';
import { PROTOCOL_VERSION, type BindMessage, type BrokerApi, type ToolHostApi } from '../src/protocol.js';
import { dispatchTool } from './tool-dispatch.js';

if (!parentPort) throw new Error('session-worker must run in a worker thread');
const port = parentPort;

port.once('message', (message: BindMessage) => {
  if (message.type !== 'bind' || message.version !== PROTOCOL_VERSION) {
    port.postMessage({ type: 'bind-refused', reason: `expected bind v${PROTOCOL_VERSION}` });
    return;
  }
  const broker = Comlink.wrap<BrokerApi>(nodeEndpoint(message.brokerPort as MessagePort)) as unknown as BrokerApi;
  const ctx = { broker, readMaxChars: message.session.readMaxChars };
  const host: ToolHostApi = {
    callTool: (name, args) => dispatchTool(name, args, ctx),
  };
  Comlink.expose(host, nodeEndpoint(message.hostPort as MessagePort));
  port.postMessage({ type: 'bound' });
});

port.postMessage({ type: 'ready' });
