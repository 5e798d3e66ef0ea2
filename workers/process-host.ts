/**
 * Entry of a process-isolated tool host: a child Node process the runtime starts under Node's permission model
 * (read access to its own code and the session's tool modules only; no fs write, child processes or workers). It
 * speaks the session worker's protocol over IPC, the broker and tool host channels multiplexed as tagged envelopes.
 *
 * The worker's import hooks are not installed here: `module.register` runs hooks on a worker thread, which the
 * permission model (rightly) refuses. The permission model is the boundary in this process; what it does not cover
 * on Node before 25 (the network) is narrowed only casually, by removing the network globals as a worker does.
 */
import type { ToolHostApi } from '../src/protocol.js';
import { createBrokerClient } from './broker-client.js';
import { serveToolHost } from './tool-host-server.js';
import { IpcChannels } from '../runtime/isolation/ipc-channels.js';
import { isProcessBind, type ProcessControlMessage } from '../src/protocol/process-ipc.js';

const send = process.send?.bind(process);
if (!send) throw new Error('process-host must run as a forked child with an IPC channel');
const post = (message: unknown): void => {
  if (process.connected) send(message);
};
// The runtime went away (closed the channel, or died): nothing may outlive it.
process.on('disconnect', () => process.exit(0));

const toolHost = import('./tool-host.js');
// A failed load surfaces in every call; keep it from being an unhandled rejection meanwhile.
toolHost.catch(() => undefined);

const channels = new IpcChannels(post);
let bound = false;
process.on('message', (message: unknown) => {
  if (channels.deliver(message) || bound || !isProcessBind(message)) return;
  bound = true;
  const brokerFor = createBrokerClient(channels.transport('broker'));
  const host = toolHost.then(({ createToolHost }) => createToolHost(brokerFor, message.session, loadProcessRestriction));
  const api: ToolHostApi = {
    callTool: async (name, args, callId, prefetched) => (await host).callTool(name, args, callId, prefetched),
    describeHostTools: async () => (await host).describeHostTools(),
  };
  serveToolHost(api, channels.transport('host'));
  post({ type: 'bound' } satisfies ProcessControlMessage);
});

async function loadProcessRestriction(): Promise<() => void> {
  return () => {
    const global = globalThis as unknown as Record<string, unknown>;
    for (const name of ['fetch', 'WebSocket', 'EventSource']) delete global[name];
  };
}

post({ type: 'ready' } satisfies ProcessControlMessage);
