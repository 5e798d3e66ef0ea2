import type { BrokerServer } from '../../runtime/broker/broker-server.js';
import { ToolHostConnection, type ToolHostLink, type WorkerEnd } from '../../runtime/tool-hosts/tool-host-connection.js';
import { createLinkedPair } from '../../src/protocol/in-memory-transport.js';
import type { Transport } from '../../src/protocol/transport.js';
import type { BoundSessionInfo } from '../../src/protocol/worker-bind.js';
import { bindToolHost } from '../../workers/bind-tool-host.js';
import { serveToolHostControl } from '../../workers/serve-control.js';
import { transportEndpoint } from '../../src/protocol/tool-host-control.js';

/** A tool host connection whose host runs in this thread over in-memory transports: the real client, server and tool host. */
export interface InMemoryHost {
  readonly connection: ToolHostConnection;
  /** The host side's end of the broker channel: what tool code in the host could post to the main thread. */
  readonly hostBroker: Transport;
  /** The host side's end of the tool host channel. */
  readonly hostChannel: Transport;
  /** Ends the host as a crash would (the link reports an exit). */
  crash(detail: string): void;
  /** The order in which the link was stopped and results were seen, for tests of that order. */
  readonly events: string[];
  readonly ends: WorkerEnd[];
}

/** A tool host link whose host runs in this thread: what a worker link is, over in-memory pairs. */
export interface InMemoryLink {
  readonly link: ToolHostLink;
  readonly hostBroker: Transport;
  readonly hostChannel: Transport;
  crash(detail: string): void;
  readonly events: string[];
}

/**
 * A link to a tool host in this thread (the real tool host, its control plane, its broker client). With `bound: false`
 * nothing answers on the host side (a host that never finishes starting).
 */
export function inMemoryLink(options: { bound?: boolean } = {}): InMemoryLink {
  const brokerPair = createLinkedPair();
  const hostPair = createLinkedPair();
  const controlPair = createLinkedPair();
  const events: string[] = [];
  let exited: ((detail: string) => void) | undefined;
  const link: ToolHostLink = {
    kind: 'in-memory host',
    broker: brokerPair.a,
    host: hostPair.a,
    control: transportEndpoint(controlPair.a),
    onExit: (listener) => void (exited = listener),
    stop: async () => {
      await new Promise((resolve) => setTimeout(resolve, 5));
      events.push('stopped');
    },
    release: () => {
      brokerPair.close();
      hostPair.close();
      controlPair.close();
    },
    output: [],
  };
  if (options.bound !== false) serveToolHostControl(transportEndpoint(controlPair.b), (info) => bindToolHost(info, { broker: brokerPair.b, host: hostPair.b }, import('../../workers/tool-host.js')));
  return { link, hostBroker: brokerPair.b, hostChannel: hostPair.b, crash: (detail) => exited?.(detail), events };
}

/**
 * Binds `session` to a tool host in this thread. With `bound: false` nothing answers on the host side (a host that
 * never finishes starting), so calls stay pending until the connection ends.
 */
export function inMemoryHost(broker: BrokerServer, session: BoundSessionInfo, options: { bound?: boolean } = {}): InMemoryHost {
  const { link, hostBroker, hostChannel, crash, events } = inMemoryLink(options);
  const ends: WorkerEnd[] = [];
  const connection = new ToolHostConnection(link, broker, session, (end) => ends.push(end));
  return { connection, hostBroker, hostChannel, crash, events, ends };
}
