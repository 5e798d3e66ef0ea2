import http, { type IncomingHttpHeaders, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';
import https from 'node:https';
import net, { type Socket } from 'node:net';
import { Transform, type Duplex } from 'node:stream';
import tls, { type SecureContext } from 'node:tls';
import type { AuditEvent } from '../../../src/audit/audit-event.js';
import { ToolwardenError } from '../../../src/errors.js';
import { describe, formatAuthority, parseAuthority, refuseResponse, withoutHopByHop } from './proxy-wire.js';
import { DEFAULT_LIMITS } from '../../../src/limits.js';
import { matchingNetEntry, type NetPermission } from '../../../src/net/net-permission.js';
import { parseSocksGreeting, parseSocksRequest, SOCKS_REPLY, socksReply } from '../../../src/net/egress/socks5.js';
import type { BodySubstitution } from '../../../src/net/egress/credential-places.js';
import { resolveVettedAddress, systemLookup, type HostLookup } from '../resolve-vetted.js';

/** How the proxy treats the hosts of a session's credentials (see credential-broker.ts). */
export interface EgressInterceptor {
  /** Whether requests to host:port carry credentials: such hosts get their TLS terminated by the session CA. */
  covers(host: string, port: number): boolean;
  /** The request headers with each placeholder replaced by its value when host:port is one of its credential's hosts. */
  substitute(headers: IncomingHttpHeaders, host: string, port: number): OutgoingHttpHeaders;
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
type EgressLimit = 'egressMaxConnections' | 'egressMaxBytes';

/** A running proxy; `close()` stops it and ends its connections. */
export interface EgressProxy {
  readonly socketPath: string;
  close(): Promise<void>;
}

type Via = 'connect' | 'http' | 'socks' | 'https-intercepted';

interface Attempt {
  readonly via: Via;
  readonly host: string;
  readonly port: number;
  readonly started: number;
  readonly commands: readonly string[];
}

interface Vetted {
  readonly address: string;
  readonly rule: string;
}

const VET_TIMEOUT_MS = 10_000;
// A connection that sends nothing this long after it opens is closed, so idle sockets cannot pile up.
const FIRST_BYTE_TIMEOUT_MS = 30_000;

/**
 * Starts a session's egress proxy on a unix socket: HTTP CONNECT, absolute-URI HTTP requests and SOCKS5 CONNECT
 * (told apart by the first byte). Each target is checked against the session's `net` list and its resolved
 * address vetted (loopback, link-local and private ranges only when listed exactly); the proxy connects to the
 * address it checked. Every connection and request is audited with its bytes, decision and rule. The socket a
 * connection arrives on is the session's identity: proxy credentials a client sends are ignored.
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
      if (chunk[0] === 5) proxy.socks(socket);
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

class ProxySession {
  readonly http: http.Server;
  readonly #options: EgressProxyOptions;
  readonly #intercepted: http.Server;
  readonly #track: (socket: Duplex) => void;
  readonly #overConnections: (socket: object) => boolean;
  readonly #limits: Readonly<Record<EgressLimit, number>>;
  /** Bytes moved so far, both ways, by every connection of the session. */
  #bytes = 0;

  constructor(options: EgressProxyOptions, track: (socket: Duplex) => void, overConnections: (socket: object) => boolean, limits: Readonly<Record<EgressLimit, number>>) {
    this.#options = options;
    this.#track = track;
    this.#overConnections = overConnections;
    this.#limits = limits;
    this.http = http.createServer();
    this.http.on('request', (req: IncomingMessage, res: ServerResponse) => this.#plainRequest(req, res));
    this.http.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.#connect(req, socket, head));
    this.#intercepted = http.createServer((req, res) => this.#interceptedRequest(req, res));
  }

  /** One SOCKS5 connection: no authentication, CONNECT only. */
  socks(socket: Socket): void {
    let buffered = Buffer.alloc(0);
    let greeted = false;
    const onData = (chunk: Buffer): void => {
      buffered = Buffer.concat([buffered, chunk]);
      if (!greeted) {
        const greeting = parseSocksGreeting(buffered);
        if (greeting === undefined) return;
        if ('malformed' in greeting || !greeting.noAuthOffered) {
          socket.end(Uint8Array.from([5, 0xff]));
          return;
        }
        socket.write(Uint8Array.from([5, 0]));
        buffered = buffered.subarray(greeting.length);
        greeted = true;
      }
      const request = parseSocksRequest(buffered);
      if (request === undefined) return;
      socket.off('data', onData);
      socket.pause();
      if ('malformed' in request) {
        socket.end(socksReply(SOCKS_REPLY.addressNotSupported));
        return;
      }
      const attempt = this.#attempt('socks', request.host, request.port);
      const limit = this.#limitReached(socket);
      if (limit !== undefined) {
        socket.end(socksReply(SOCKS_REPLY.notAllowed));
        this.#limitRefused(attempt, limit);
        return;
      }
      if (request.command !== 1) {
        socket.end(socksReply(SOCKS_REPLY.commandNotSupported));
        this.#audit(attempt, 'deny', { code: 'INVALID_ARGS', message: `egress: SOCKS command ${request.command} is not supported (CONNECT only)` });
        return;
      }
      const rest = buffered.subarray(request.length);
      this.#vet(attempt).then(
        (vetted) => this.#tunnel(attempt, vetted, socket, rest, () => socket.write(socksReply(SOCKS_REPLY.succeeded)), () => socket.end(socksReply(SOCKS_REPLY.hostUnreachable))),
        (error: unknown) => {
          socket.end(socksReply(SOCKS_REPLY.notAllowed));
          this.#refused(attempt, error);
        },
      );
    };
    socket.on('data', onData);
  }

  #connect(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const target = parseAuthority(req.url ?? '');
    if (target === undefined) {
      socket.end(`HTTP/1.1 400 Bad Request\r\ncontent-type: text/plain\r\nconnection: close\r\n\r\negress: CONNECT needs host:port, got ${JSON.stringify(req.url)}\n`);
      return;
    }
    const attempt = this.#attempt('connect', target.host, target.port);
    const limit = this.#limitReached(socket);
    if (limit !== undefined) {
      socket.end(`HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/plain\r\nx-toolwarden-code: EGRESS_LIMIT\r\nconnection: close\r\n\r\n${this.#limitMessage(limit)}\n`);
      this.#limitRefused(attempt, limit);
      return;
    }
    this.#vet(attempt).then(
      (vetted) => {
        if (this.#options.interceptor?.covers(attempt.host, attempt.port) === true) {
          socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
          this.#intercept(attempt, vetted, socket, head);
          return;
        }
        this.#tunnel(attempt, vetted, socket, head, () => socket.write('HTTP/1.1 200 Connection Established\r\n\r\n'), () => socket.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\n'));
      },
      (error: unknown) => {
        const { code, message } = describe(error);
        socket.end(`HTTP/1.1 ${code === 'NET_DENIED' ? '403 Forbidden' : '502 Bad Gateway'}\r\ncontent-type: text/plain\r\nx-toolwarden-code: ${code}\r\nconnection: close\r\n\r\n${message}\n`);
        this.#refused(attempt, error);
      },
    );
  }

  /** Bytes pass through untouched: the proxy sees only the host, the port and the byte counts. */
  #tunnel(attempt: Attempt, vetted: Vetted, client: Duplex, head: Uint8Array, onOpen: () => void, onFail: () => void): void {
    const upstream = net.connect({ host: vetted.address, port: attempt.port });
    this.#track(upstream);
    let opened = false;
    let cut = false;
    const meter = (chunk: Buffer): void => {
      if (this.#spend(chunk.byteLength) || cut) return;
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
      const bytes = { address: vetted.address, bytesOut: upstream.bytesWritten, bytesIn: upstream.bytesRead };
      if (cut) this.#limitRefused(attempt, 'egressMaxBytes', bytes);
      else if (opened) this.#audit(attempt, 'allow', { rule: vetted.rule, ...bytes });
      else {
        onFail();
        this.#audit(attempt, 'error', { rule: vetted.rule, address: vetted.address, code: 'IO_ERROR', message: `egress: cannot connect to ${vetted.address}:${attempt.port}` });
      }
    });
    client.once('close', () => upstream.destroy());
  }

  /** A request in absolute form (`GET http://host/ HTTP/1.1`): vetted, credentials substituted, sent to the vetted address. */
  #plainRequest(req: IncomingMessage, res: ServerResponse): void {
    let url: URL;
    try {
      url = new URL(req.url ?? '');
    } catch {
      refuseResponse(res, 400, 'INVALID_ARGS', `egress: a proxy request needs an absolute http:// URL, got ${JSON.stringify(req.url)}`);
      return;
    }
    if (url.protocol !== 'http:') {
      refuseResponse(res, 400, 'INVALID_ARGS', `egress: only http:// URLs are proxied in absolute form; use CONNECT for ${url.protocol}`);
      return;
    }
    const attempt = this.#attempt('http', url.hostname, url.port === '' ? 80 : Number(url.port));
    const limit = this.#limitReached(req.socket);
    if (limit !== undefined) {
      refuseResponse(res, 429, 'EGRESS_LIMIT', this.#limitMessage(limit));
      this.#limitRefused(attempt, limit);
      return;
    }
    this.#vet(attempt).then(
      (vetted) => this.#forward(attempt, vetted, req, res, http, `${url.pathname}${url.search}`),
      (error: unknown) => {
        const { code, message } = describe(error);
        refuseResponse(res, code === 'NET_DENIED' ? 403 : 502, code, message);
        this.#refused(attempt, error);
      },
    );
  }

  /** TLS is terminated with the session CA; each request inside is then handled like a plain one. */
  #intercept(attempt: Attempt, vetted: Vetted, client: Duplex, head: Buffer): void {
    if (head.length > 0) client.unshift(head);
    const secure = new tls.TLSSocket(client, { isServer: true, secureContext: this.#options.interceptor?.secureContext(attempt.host) });
    this.#track(secure);
    intercepts.set(secure, { attempt, vetted });
    this.#intercepted.emit('connection', secure);
  }

  #interceptedRequest(req: IncomingMessage, res: ServerResponse): void {
    const found = intercepts.get(req.socket);
    if (found === undefined) {
      refuseResponse(res, 500, 'INTERNAL', 'egress: an intercepted request lost its connection');
      return;
    }
    const attempt: Attempt = { ...found.attempt, via: 'https-intercepted', started: Date.now(), commands: this.#commands() };
    this.#forward(attempt, found.vetted, req, res, https, req.url ?? '/');
  }

  #forward(attempt: Attempt, vetted: Vetted, req: IncomingMessage, res: ServerResponse, transport: typeof http | typeof https, path: string): void {
    const interceptor = this.#options.interceptor;
    const headers = withoutHopByHop(interceptor === undefined ? req.headers : interceptor.substitute(req.headers, attempt.host, attempt.port));
    headers['host'] = formatAuthority(attempt.host, attempt.port, transport === https ? 443 : 80);
    const target = interceptor === undefined ? path : interceptor.substituteTarget(path, attempt.host, attempt.port);
    const hasBody = req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    const substitution = hasBody ? interceptor?.bodyFor(attempt.host, attempt.port) : undefined;
    // A value need not be as long as its placeholder: such a body goes out chunked.
    if (substitution !== undefined) delete headers['content-length'];
    let bytesOut = 0;
    let bytesIn = 0;
    const upstream = transport.request({
      host: vetted.address,
      port: attempt.port,
      method: req.method,
      path: target,
      headers,
      setHost: false,
      agent: false,
      ...(transport === https ? { servername: attempt.host.replace(/^\[|\]$/g, ''), ...(this.#options.upstreamCa === undefined ? {} : { ca: this.#options.upstreamCa as string | string[] }) } : {}),
    });
    let finished = false;
    const done = (decision: 'allow' | 'error' | 'cut', message?: string): void => {
      if (finished) return;
      finished = true;
      if (decision === 'cut') this.#limitRefused(attempt, 'egressMaxBytes', { address: vetted.address, bytesOut, bytesIn });
      else this.#audit(attempt, decision, { rule: vetted.rule, address: vetted.address, bytesOut, bytesIn, ...(message === undefined ? {} : { code: 'IO_ERROR', message }) });
    };
    const meter = (chunk: Buffer): void => {
      if (this.#spend(chunk.byteLength) || finished) return;
      done('cut');
      upstream.destroy();
      res.destroy();
    };
    req.on('data', (chunk: Buffer) => {
      bytesOut += chunk.byteLength;
      meter(chunk);
    });
    if (substitution === undefined) req.pipe(upstream);
    else {
      const replacing = new Transform({ transform: (chunk: Buffer, _encoding, done) => done(null, substitution.push(chunk)), flush: (done) => done(null, substitution.end()) });
      req.pipe(replacing).pipe(upstream);
    }
    upstream.once('response', (response) => {
      const responseHeaders = withoutHopByHop(response.headers);
      res.writeHead(response.statusCode ?? 502, responseHeaders);
      response.on('data', (chunk: Buffer) => {
        bytesIn += chunk.byteLength;
        meter(chunk);
      });
      response.pipe(res);
      response.once('end', () => done('allow'));
      response.once('error', () => res.destroy());
    });
    upstream.once('error', (error) => {
      if (!res.headersSent) refuseResponse(res, 502, 'IO_ERROR', `egress: ${attempt.host}:${attempt.port} failed: ${error.message}`);
      else res.destroy();
      done('error', `egress: ${attempt.host}:${attempt.port} failed: ${error.message}`);
    });
  }

  #attempt(via: Via, host: string, port: number): Attempt {
    return { via, host, port, started: Date.now(), commands: this.#commands() };
  }

  #commands(): readonly string[] {
    return this.#options.commands?.() ?? [];
  }

  async #vet(attempt: Attempt): Promise<Vetted> {
    let url: URL;
    try {
      url = new URL(`http://${formatAuthority(attempt.host, attempt.port, 0)}/`);
    } catch {
      throw new ToolwardenError('NET_DENIED', `egress: ${JSON.stringify(attempt.host)} is not a valid host name`);
    }
    const port = attempt.port;
    const address = await resolveVettedAddress(url, this.#options.net, this.#options.lookup ?? systemLookup, AbortSignal.timeout(VET_TIMEOUT_MS), 'egress');
    return { address, rule: `net '${matchingNetEntry(this.#options.net, url.hostname, port) ?? '?'}'` };
  }

  /** Which limit refuses a new request on `socket`: its connection is past the cap, or the session's bytes are spent. */
  #limitReached(socket: object): EgressLimit | undefined {
    if (this.#overConnections(socket)) return 'egressMaxConnections';
    return this.#bytesSpent() ? 'egressMaxBytes' : undefined;
  }

  #bytesSpent(): boolean {
    return this.#limits.egressMaxBytes > 0 && this.#bytes > this.#limits.egressMaxBytes;
  }

  /** Counts `n` bytes moved; false once the session has moved more than `limits.egressMaxBytes`. */
  #spend(n: number): boolean {
    this.#bytes += n;
    return !this.#bytesSpent();
  }

  #limitMessage(limit: EgressLimit): string {
    return limit === 'egressMaxConnections'
      ? `egress: the session already has ${this.#limits.egressMaxConnections} connections open (limits.egressMaxConnections)`
      : `egress: the session has moved its ${this.#limits.egressMaxBytes} bytes (limits.egressMaxBytes)`;
  }

  #limitRefused(attempt: Attempt, limit: EgressLimit, bytes: { bytesOut?: number; bytesIn?: number; address?: string } = {}): void {
    this.#audit(attempt, 'deny', { code: 'EGRESS_LIMIT', message: this.#limitMessage(limit), rule: `limits.${limit}`, ...bytes });
  }

  #refused(attempt: Attempt, error: unknown): void {
    const { code, message } = describe(error);
    this.#audit(attempt, code === 'NET_DENIED' ? 'deny' : 'error', { code, message, ...(code === 'NET_DENIED' ? { rule: 'net' } : {}) });
  }

  #audit(attempt: Attempt, decision: 'allow' | 'deny' | 'error', detail: { rule?: string; code?: string; message?: string; address?: string; bytesOut?: number; bytesIn?: number }): void {
    const { sessionId, user } = this.#options;
    const durationMs = Date.now() - attempt.started;
    this.#options.audit({
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
const intercepts = new WeakMap<object, { attempt: Attempt; vetted: Vetted }>();
