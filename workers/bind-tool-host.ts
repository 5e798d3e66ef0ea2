import type { BrokerRequest } from '../src/protocol/broker.js';
import type { ToolHostApi, ToolHostReply } from '../src/protocol/tool-host.js';
import type { Transport } from '../src/protocol/transport.js';
import type { BoundSessionInfo } from '../src/protocol/worker-bind.js';
import type { ToolInfo } from '../src/tools/tool-info.js';
import { createBrokerClient } from './broker-client.js';
import { serveToolHost } from './tool-host-server.js';
import type { createToolHost } from './tool-host.js';

/** The two channels of a bound tool host, whatever carries them (ports, IPC channels, an in-memory pair). */
export interface HostChannels {
  /** To the main thread's broker. */
  readonly broker: Transport<BrokerRequest>;
  /** From the main thread's tool host client. */
  readonly host: Transport<ToolHostReply>;
}

/** The tool host module, loaded while the host waits for its bind (it is most of a host's start-up). */
export type ToolHostModule = Promise<{ createToolHost: typeof createToolHost }>;

/**
 * The tool host side of a bind, the same in a worker, a tool process or an in-memory test: the broker client and
 * the tool host server go on their channels, and calls run once the tool host (and its session's host tool modules)
 * have loaded. `loadRestriction` is createToolHost's (what narrows host code before it loads). Returns the host's
 * listing of its host tools, for the control plane (serve-control.ts).
 */
export function bindToolHost(session: BoundSessionInfo, channels: HostChannels, module: ToolHostModule, loadRestriction?: () => Promise<() => void>): () => Promise<ToolInfo[]> {
  const brokerFor = createBrokerClient(channels.broker);
  const host = module.then(({ createToolHost }) => createToolHost(brokerFor, session, loadRestriction));
  // Once loaded, calls go straight to the host: awaiting the settled promise costs each call a few microtask turns.
  let ready: ToolHostApi | undefined;
  host.then((loaded) => (ready = loaded), () => undefined);
  const api: ToolHostApi = {
    callTool: (name, args, callId, prefetched, control) => (ready ? ready.callTool(name, args, callId, prefetched, control) : host.then((loaded) => loaded.callTool(name, args, callId, prefetched, control))),
    describeHostTools: async () => (await host).describeHostTools(),
  };
  serveToolHost(api, channels.host);
  return api.describeHostTools;
}
