import net from 'node:net';
import type { IncomingHttpHeaders, OutgoingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import type { SecureContext } from 'node:tls';
import type { AuditEvent } from '../../../src/audit/audit-event.js';
import { ToolwardenError } from '../../../src/errors.js';
import { DEFAULT_LIMITS } from '../../../src/limits.js';
import type { NetPermission } from '../../../src/net/net-permission.js';
import type { BodySubstitution } from '../../../src/net/egress/credential-places.js';
import type { CredentialMask } from '../../../src/net/egress/credential-mask.js';
import type { HostLookup } from '../resolve-vetted.js';
import { EgressBudget } from './egress-budget.js';
import { ProxySession } from './proxy-session.js';

/** How the proxy treats the hosts of a session's credentials (see credential-broker.ts). */
export interface EgressInterceptor {
  /** Whether requests to host:port carry credentials: such hosts get their TLS terminated by the session CA. */
  covers(host: string, port: number): boolean;
  /** The request headers with each placeholder replaced by its value when host:port is one of its credential's hosts. */
  substitute(headers: IncomingHttpHeaders, host: string, port: number): OutgoingHttpHeaders;
  /**
   * The mask for answers from host:port when it is one of a credential's hosts: every form of every value becomes
   * its placeholder before it flows back to the client.
   */
  responseMask(host: string, port: number): CredentialMask | undefined;
  /** The server-side TLS context for `host`: a leaf certificate signed by the session CA. */
  secureContext(host: string): SecureContext;
  /** What TLS to an intercepted host is verified against (`upstreamCa`); undefined: Node's default trust. */
  readonly upstreamTrust: SecureContext | undefined;
  /** The request target (`/path?query`) with placeholders of credentials that opted in to queries replaced, for host:port. */
  substituteTarget(target: string, host: string, port: number): string;
  /** A streaming replacement for the body of a request to host:port (credentials that opted in to bodies), if any. */
  bodyFor(host: string, port: number): BodySubstitution | undefined;
}

/** What a session's egress proxy is built from. */
export interface EgressProxyOptions {
  readonly sessionId: string;
  readonly user?: string;
  /** The session's network permission: the same matcher and address checks as web_fetch. */
  readonly net: NetPermission;
  /** The unix socket to listen on; its directory should be private to the runtime. */
  readonly socketPath: string;
  /** Receives one event per connection or request (the runtime's audit sink). */
  readonly audit: (event: AuditEvent) => void;
  /** The commands running in the session when a connection arrives, for the audit. */
  readonly commands?: () => readonly string[];
  readonly interceptor?: EgressInterceptor;
  /** @default the system resolver */
  readonly lookup?: HostLookup;
  /**
   * Client connections open at once, and connections out open at once (`limits.egressMaxConnections`); one more is
   * refused with EGRESS_LIMIT. @default 64
   */
  readonly maxConnections?: number;
  /**
   * Bytes exchanged with the outside in all, both ways, every byte (`limits.egressMaxBytes`); the connection whose
   * next chunk would pass it is cut before that chunk moves, EGRESS_LIMIT. 0: unlimited. @default 0
   */
  readonly maxBytes?: number;
}

/** A running proxy; `close()` stops it and ends its connections. */
export interface EgressProxy {
  readonly socketPath: string;
  close(): Promise<void>;
}

// A connection that sends nothing this long after it opens is closed, so idle sockets cannot pile up.
const FIRST_BYTE_TIMEOUT_MS = 30_000;

/**
 * Starts a session's egress proxy on a unix socket: HTTP CONNECT, absolute-URI HTTP requests, SOCKS5 CONNECT and
 * SOCKS4/4a CONNECT (told apart by the first byte). Every target is read by the one authority grammar
 * (src/net/authority.ts), checked against the session's `net` list and its resolved address vetted (loopback,
 * link-local and private ranges only when listed exactly); the proxy connects to the address and port it checked and
 * nothing else. Every connection and request is audited with its bytes, decision and rule. The socket a connection
 * arrives on is the session's identity: proxy credentials a client sends are ignored.
 *
 * @example const proxy = await startEgressProxy({ sessionId, net: ['registry.npmjs.org'], socketPath, audit: sink.emit });
 */
export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const maxConnections = options.maxConnections ?? DEFAULT_LIMITS.egressMaxConnections;
  if (!Number.isSafeInteger(maxConnections) || maxConnections < 1) {
    throw new ToolwardenError('INVALID_OPTIONS', `egress maxConnections must be an integer >= 1, got ${String(maxConnections)}`);
  }
  const maxBytes = options.maxBytes ?? DEFAULT_LIMITS.egressMaxBytes;
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) throw new ToolwardenError('INVALID_OPTIONS', `egress maxBytes must be an integer >= 0, got ${String(maxBytes)}`);
  const sockets = new Set<Duplex>();
  const track = (socket: Duplex): void => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  // Client connections holding a slot; one past the cap is answered (and audited) at its first request, then closed.
  let admitted = 0;
  const overLimit = new WeakSet<object>();
  const budget = new EgressBudget({ egressMaxConnections: maxConnections, egressMaxBytes: maxBytes });
  const proxy = new ProxySession(options, budget, track, (socket) => overLimit.has(socket));
  const server = net.createServer((socket) => {
    track(socket);
    if (admitted >= maxConnections) overLimit.add(socket);
    else {
      admitted += 1;
      socket.once('close', () => (admitted -= 1));
    }
    socket.setTimeout(FIRST_BYTE_TIMEOUT_MS, () => socket.destroy());
    socket.once('data', (chunk: Buffer) => {
      socket.setTimeout(0);
      socket.pause();
      socket.unshift(chunk);
      if (chunk[0] === 5 || chunk[0] === 4) proxy.socks(socket, chunk[0]);
      else proxy.http.emit('connection', socket);
      socket.resume();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.socketPath, () => resolve());
  });
  return {
    socketPath: options.socketPath,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

