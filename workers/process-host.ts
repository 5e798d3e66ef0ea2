/**
 * Entry of a process-isolated tool host: a child Node process the runtime starts under Node's permission model
 * (read access to its own code and the session's tool modules only; no fs write, child processes or workers). It
 * speaks the session worker's protocols over IPC, the broker, tool host and control channels multiplexed as tagged
 * envelopes.
 *
 * The worker's import hooks are not installed here: `module.register` runs hooks on a worker thread, which the
 * permission model (rightly) refuses. The permission model is the boundary in this process; what it does not cover
 * on Node before 25 (the network) is narrowed only casually, by removing the network globals as a worker does.
 */
import { IpcChannels } from '../src/protocol/ipc-channels.js';
import type { ProcessIpcMessage } from '../src/protocol/process-ipc.js';
import { transportEndpoint } from '../src/protocol/tool-host-control.js';
import { bindToolHost } from './bind-tool-host.js';
import { serveToolHostControl } from './serve-control.js';

const send = process.send?.bind(process);
if (!send) throw new Error('process-host must run as a forked child with an IPC channel');
const post = (message: ProcessIpcMessage): void => {
  if (process.connected) send(message);
};
// The runtime went away (closed the channel, or died): nothing may outlive it.
process.on('disconnect', () => process.exit(0));

const toolHost = import('./tool-host.js');
// A failed load surfaces in every call; keep it from being an unhandled rejection meanwhile.
toolHost.catch(() => undefined);

const channels = new IpcChannels(post);
process.on('message', (message: unknown) => void channels.deliver(message));
serveToolHostControl(transportEndpoint(channels.transport('control')), (session) =>
  bindToolHost(session, { broker: channels.transport('broker'), host: channels.transport('host') }, toolHost, loadProcessRestriction),
);

async function loadProcessRestriction(): Promise<() => void> {
  return () => {
    const global = globalThis as unknown as Record<string, unknown>;
    for (const name of ['fetch', 'WebSocket', 'EventSource']) delete global[name];
  };
}

post({ type: 'ready' });
