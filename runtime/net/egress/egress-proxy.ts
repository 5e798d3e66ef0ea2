import http, { type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import net, { type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import tls, { type SecureContext } from 'node:tls';
import type { AuditEvent } from '../../../src/audit/audit-event.js';
import { ToolwardenError } from '../../../src/errors.js';
import { authorityOf, formatAuthority, isRefusal, parseAuthority, type Authority } from '../../../src/net/authority.js';
import { DEFAULT_LIMITS } from '../../../src/limits.js';
import type { NetPermission } from '../../../src/net/net-permission.js';
import { parseAbsoluteTarget } from '../../../src/net/url-authority.js';
import type { BodySubstitution } from '../../../src/net/egress/credential-places.js';
import type { CredentialMask } from '../../../src/net/egress/credential-mask.js';
import { describe, refuseResponse } from './proxy-wire.js';
import { forwardRequest } from './http-forward.js';
import { readSocksRequest } from './socks-handshake.js';
import { systemLookup, vetAuthority, type HostLookup, type VettedTarget } from '../resolve-vetted.js';

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
  /** CAs that upstream TLS of intercepted hosts is verified against. @default Node's roots */
  readonly upstreamCa?: string | readonly string[];
  /** Client connections open at once (`limits.egressMaxConnections`); one more is refused with EGRESS_LIMIT. @default 64 */
  readonly maxConnections?: number;
  /** Bytes moved in all, both ways (`limits.egressMaxBytes`); the connection passing it is cut, EGRESS_LIMIT. 0: unlimited. @default 0 */
  readonly maxBytes?: number;
}

/** The limit a refusal or a cut connection names. */
export type EgressLimit = 'egressMaxConnections' | 'egressMaxBytes';

/** A running proxy; `close()` stops it and ends its connections. */
export interface EgressProxy {
  readonly socketPath: string;
  close(): Promise<void>;
}

export type Via = 'connect' | 'http' | 'socks' | 'https-intercepted';

/** One connection or request as the audit names it: the authority it asked for (as written when it did not parse). */
export interface Attempt {
  readonly via: Via;
  readonly host: string;
  readonly port: number;
  readonly started: number;
  readonly commands: readonly string[];
}

/** What the audit records of an attempt beyond its authority. */
export interface AttemptDetail {
  rule?: string;
  code?: string;
  message?: string;
  address?: string;
  bytesOut?: number;
  bytesIn?: number;
}

const VET_TIMEOUT_MS = 10_000;
// A connection that sends nothing this long after it opens is closed, so idle sockets cannot pile up.
const FIRST_BYTE_TIMEOUT_MS = 30_000;
// How much of an unparsable authority the audit keeps.
const AUDITED_HOST_CHARS = 256;

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
  const proxy = new ProxySession(options, track, (socket) => overLimit.has(socket), { egressMaxConnections: maxConnections, egressMaxBytes: maxBytes });
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

/** The proxy's state for one session: its limits, byte count and audit, shared by every connection. */
export class ProxySession {
  readonly http: http.Server;
  readonly options: EgressProxyOptions;
  readonly track: (socket: Duplex) => void;
  readonly #intercepted: http.Server;
  readonly #overConnections: (socket: object) => boolean;
  readonly #limits: Readonly<Record<EgressLimit, number>>;
  /** Bytes moved so far, both ways, by every connection of the session. */
  #bytes = 0;

  constructor(options: EgressProxyOptions, track: (socket: Duplex) => void, overConnections: (socket: object) => boolean, limits: Readonly<Record<EgressLimit, number>>) {
    this.options = options;
    this.track = track;
    this.#overConnections = overConnections;
    this.#limits = limits;
    this.http = http.createServer();
    this.http.on('request', (req: IncomingMessage, res: ServerResponse) => this.#plainRequest(req, res));
    this.http.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.#connect(req, socket, head));
    this.#intercepted = http.createServer((req, res) => this.#interceptedRequest(req, res));
  }

  /** One SOCKS5 (no authentication) or SOCKS4/4a connection, CONNECT only. */
  socks(socket: Socket, version: 4 | 5): void {
    readSocksRequest(socket, version, (request) => {
      const { replies } = request;
      const authority = authorityOf(request.host, request.port);
      const attempt = this.attempt('socks', authority, request.host, request.port);
      if (isRefusal(authority)) {
        socket.end(replies.notAllowed);
        this.#malformed(attempt, `egress: SOCKS${version} destination ${JSON.stringify(request.host)} port ${request.port} is refused: ${authority.reason}`);
        return;
      }
      const limit = this.limitReached(socket);
      if (limit !== undefined) {
        socket.end(replies.notAllowed);
        this.limitRefused(attempt, limit);
        return;
      }
      if (request.command !== 1) {
        socket.end(replies.commandNotSupported);
        this.#malformed(attempt, `egress: SOCKS command ${request.command} is not supported (CONNECT only)`);
        return;
      }
      this.#vet(authority).then(
        (target) => this.#tunnel(attempt, target, socket, request.rest, () => socket.write(replies.succeeded), () => socket.end(replies.hostUnreachable)),
        (error: unknown) => {
          socket.end(replies.notAllowed);
          this.#refused(attempt, error);
        },
      );
    });
  }

  #connect(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const written = req.url ?? '';
    const authority = parseAuthority(written);
    const attempt = this.attempt('connect', authority, written, 0);
    if (isRefusal(authority)) {
      const message = `egress: CONNECT target ${JSON.stringify(written)} is not host:port: ${authority.reason}`;
      socket.end(`HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain\r\nx-toolwarden-code: INVALID_ARGS\r\nconnection: close\r\n\r\n${message}\n`);
      this.#malformed(attempt, message);
      return;
    }
    const limit = this.limitReached(socket);
    if (limit !== undefined) {
      socket.end(`HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/plain\r\nx-toolwarden-code: EGRESS_LIMIT\r\nconnection: close\r\n\r\n${this.limitMessage(limit)}\n`);
      this.limitRefused(attempt, limit);
      return;
    }
    this.#vet(authority).then(
      (target) => {
        if (this.options.interceptor?.covers(authority.host, authority.port) === true) {
          socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          this.#intercept(attempt, target, socket, head);
          return;
        }
        this.#tunnel(attempt, target, socket, head, () => socket.write('HTTP/1.1 200 Connection Established\r\n\r\n'), () => socket.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\n'));
      },
      (error: unknown) => {
        const { code, message } = describe(error);
        socket.end(`HTTP/1.1 ${code === 'NET_DENIED' ? '403 Forbidden' : '502 Bad Gateway'}\r\ncontent-type: text/plain\r\nx-toolwarden-code: ${code}\r\nconnection: close\r\n\r\n${message}\n`);
        this.#refused(attempt, error);
      },
    );
  }

  /** Bytes pass through untouched: the proxy sees only the host, the port and the byte counts. */
  #tunnel(attempt: Attempt, target: VettedTarget, client: Duplex, head: Uint8Array, onOpen: () => void, onFail: () => void): void {
    const upstream = net.connect({ host: target.address, port: target.authority.port });
    this.track(upstream);
    let opened = false;
    let cut = false;
    const meter = (chunk: Buffer): void => {
      if (this.spend(chunk.byteLength) || cut) return;
      cut = true;
      client.destroy();
      upstream.destroy();
    };
    upstream.once('connect', () => {
      opened = true;
      onOpen();
      if (head.length > 0) upstream.write(head);
      client.on('data', meter);
      upstream.on('data', meter);
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
    upstream.once('close', () => {
      client.destroy();
      const bytes = { address: target.address, bytesOut: upstream.bytesWritten, bytesIn: upstream.bytesRead };
      if (cut) this.limitRefused(attempt, 'egressMaxBytes', bytes);
      else if (opened) this.audit(attempt, 'allow', { rule: target.rule, ...bytes });
      else {
        onFail();
        this.audit(attempt, 'error', { rule: target.rule, address: target.address, code: 'IO_ERROR', message: `egress: cannot connect to ${target.address}:${target.authority.port}` });
      }
    });
    client.once('close', () => upstream.destroy());
  }

  /** A request in absolute form (`GET http://host/ HTTP/1.1`): read, vetted, credentials substituted, sent to the vetted address. */
  #plainRequest(req: IncomingMessage, res: ServerResponse): void {
    const written = req.url ?? '';
    const parsed = parseAbsoluteTarget(written);
    const attempt = this.attempt('http', isRefusal(parsed) ? parsed : parsed.authority, written, 0);
    if (isRefusal(parsed)) {
      const message = `egress: request target ${JSON.stringify(written)} is refused: ${parsed.reason}`;
      refuseResponse(res, 400, 'INVALID_ARGS', message);
      this.#malformed(attempt, message);
      return;
    }
    const limit = this.limitReached(req.socket);
    if (limit !== undefined) {
      refuseResponse(res, 429, 'EGRESS_LIMIT', this.limitMessage(limit));
      this.limitRefused(attempt, limit);
      return;
    }
    this.#vet(parsed.authority).then(
      (target) => forwardRequest(this, attempt, target, req, res, 'http', parsed.path),
      (error: unknown) => {
        const { code, message } = describe(error);
        refuseResponse(res, code === 'NET_DENIED' ? 403 : 502, code, message);
        this.#refused(attempt, error);
      },
    );
  }

  /** TLS is terminated with the session CA; each request inside is then handled like a plain one. */
  #intercept(attempt: Attempt, target: VettedTarget, client: Duplex, head: Buffer): void {
    if (head.length > 0) client.unshift(head);
    const secure = new tls.TLSSocket(client, { isServer: true, secureContext: this.options.interceptor?.secureContext(target.authority.host) });
    this.track(secure);
    intercepts.set(secure, { attempt, target });
    this.#intercepted.emit('connection', secure);
  }

  #interceptedRequest(req: IncomingMessage, res: ServerResponse): void {
    const found = intercepts.get(req.socket);
    if (found === undefined) {
      refuseResponse(res, 500, 'INTERNAL', 'egress: an intercepted request lost its connection');
      return;
    }
    const { target } = found;
    const attempt: Attempt = { ...found.attempt, via: 'https-intercepted', started: Date.now(), commands: this.commands() };
    const path = req.url ?? '';
    if (!path.startsWith('/')) {
      refuseResponse(res, 400, 'INVALID_ARGS', `egress: a request inside a tunnel to ${formatAuthority(target.authority)} must have a path starting with /, got ${JSON.stringify(path)}`);
      this.#malformed(attempt, `egress: request target ${JSON.stringify(path)} inside a tunnel is refused`);
      return;
    }
    // Inside a tunnel the Host header names the origin: it must be the one the tunnel was checked for.
    const host = req.headers.host;
    const named = host === undefined ? undefined : parseAuthority(host, 443);
    if (named !== undefined && (isRefusal(named) || named.host !== target.authority.host || named.port !== target.authority.port)) {
      const message = `egress: Host ${JSON.stringify(host)} is not ${formatAuthority(target.authority, 443)}, the host this tunnel was opened and checked for`;
      refuseResponse(res, 421, 'INVALID_ARGS', message);
      this.#malformed(attempt, message);
      return;
    }
    forwardRequest(this, attempt, target, req, res, 'https', path);
  }

  /** An attempt to audit: the authority when it parsed, else what the client wrote. */
  attempt(via: Via, authority: Authority | { reason: string }, written: string, writtenPort: number): Attempt {
    const { host, port } = isRefusal(authority) ? { host: written.slice(0, AUDITED_HOST_CHARS), port: writtenPort } : authority;
    return { via, host, port, started: Date.now(), commands: this.commands() };
  }

  commands(): readonly string[] {
    return this.options.commands?.() ?? [];
  }

  #vet(authority: Authority): Promise<VettedTarget> {
    return vetAuthority(authority, this.options.net, this.options.lookup ?? systemLookup, AbortSignal.timeout(VET_TIMEOUT_MS), 'egress');
  }

  /** Which limit refuses a new request on `socket`: its connection is past the cap, or the session's bytes are spent. */
  limitReached(socket: object): EgressLimit | undefined {
    if (this.#overConnections(socket)) return 'egressMaxConnections';
    return this.#bytesSpent() ? 'egressMaxBytes' : undefined;
  }

  #bytesSpent(): boolean {
    return this.#limits.egressMaxBytes > 0 && this.#bytes > this.#limits.egressMaxBytes;
  }

  /** Counts `n` bytes moved; false once the session has moved more than `limits.egressMaxBytes`. */
  spend(n: number): boolean {
    this.#bytes += n;
    return !this.#bytesSpent();
  }

  limitMessage(limit: EgressLimit): string {
    return limit === 'egressMaxConnections'
      ? `egress: the session already has ${this.#limits.egressMaxConnections} connections open (limits.egressMaxConnections)`
      : `egress: the session has moved its ${this.#limits.egressMaxBytes} bytes (limits.egressMaxBytes)`;
  }

  limitRefused(attempt: Attempt, limit: EgressLimit, bytes: { bytesOut?: number; bytesIn?: number; address?: string } = {}): void {
    this.audit(attempt, 'deny', { code: 'EGRESS_LIMIT', message: this.limitMessage(limit), rule: `limits.${limit}`, ...bytes });
  }

  #malformed(attempt: Attempt, message: string): void {
    this.audit(attempt, 'deny', { code: 'INVALID_ARGS', message });
  }

  #refused(attempt: Attempt, error: unknown): void {
    const { code, message } = describe(error);
    this.audit(attempt, code === 'NET_DENIED' ? 'deny' : 'error', { code, message, ...(code === 'NET_DENIED' ? { rule: 'net' } : {}) });
  }

  audit(attempt: Attempt, decision: 'allow' | 'deny' | 'error', detail: AttemptDetail): void {
    const { sessionId, user } = this.options;
    const durationMs = Date.now() - attempt.started;
    this.options.audit({
      time: new Date(attempt.started).toISOString(),
      sessionId,
      ...(user === undefined ? {} : { user }),
      tool: 'egress',
      args: {
        via: attempt.via,
        host: attempt.host,
        port: attempt.port,
        ...(detail.address === undefined ? {} : { address: detail.address }),
        commands: [...attempt.commands],
        bytesOut: detail.bytesOut ?? 0,
        bytesIn: detail.bytesIn ?? 0,
      },
      decision,
      ...(detail.rule === undefined ? {} : { rule: detail.rule }),
      ...(detail.code === undefined ? {} : { code: detail.code }),
      durationMs,
      result: detail.message ?? `${attempt.via} ${attempt.host}:${attempt.port}`,
    });
  }
}

// Which CONNECT an intercepted TLS socket came from (the http server hands requests their socket only).
const intercepts = new WeakMap<object, { attempt: Attempt; target: VettedTarget }>();
