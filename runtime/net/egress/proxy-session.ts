import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import tls from 'node:tls';
import { authorityOf, formatAuthority, isRefusal, parseAuthority, type Authority, type AuthorityRefusal } from '../../../src/net/authority.js';
import { parseAbsoluteTarget } from '../../../src/net/url-authority.js';
import { systemLookup, vetAuthority, type VettedTarget } from '../resolve-vetted.js';
import { auditAttempt, newAttempt, refusalDetail, type Attempt, type AttemptDetail, type Via } from './egress-audit.js';
import type { EgressBudget, EgressLimit } from './egress-budget.js';
import type { EgressProxyOptions } from './egress-proxy.js';
import { forwardRequest } from './http-forward.js';
import { describe, refuseResponse } from './proxy-wire.js';
import { readSocksRequest } from './socks-handshake.js';

const VET_TIMEOUT_MS = 10_000;

/**
 * The egress proxy of one session: its entry points (CONNECT, absolute-URI requests, SOCKS4/4a/5, intercepted TLS),
 * each reading its target by the one authority grammar and connecting only to what `net` allowed, within the
 * session's budget, audited.
 */
export class ProxySession {
  /** Takes the connections whose first byte is not a SOCKS version. */
  readonly http: http.Server;
  readonly options: EgressProxyOptions;
  readonly budget: EgressBudget;
  readonly track: (socket: Duplex) => void;
  readonly #intercepted: http.Server;
  readonly #overConnections: (socket: object) => boolean;

  constructor(options: EgressProxyOptions, budget: EgressBudget, track: (socket: Duplex) => void, overConnections: (socket: object) => boolean) {
    this.options = options;
    this.budget = budget;
    this.track = track;
    this.#overConnections = overConnections;
    this.http = http.createServer();
    this.http.on('request', (req: IncomingMessage, res: ServerResponse) => this.#plainRequest(req, res));
    this.http.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => this.#connect(req, socket, head));
    this.#intercepted = http.createServer((req, res) => this.#interceptedRequest(req, res));
  }

  /** One SOCKS5 (no authentication) or SOCKS4/4a connection, CONNECT only. */
  socks(socket: Duplex, version: 4 | 5): void {
    readSocksRequest(socket, version, (request) => {
      const { replies } = request;
      const authority = authorityOf(request.host, request.port);
      const attempt = this.#attempt('socks', authority, request.host, request.port);
      if (isRefusal(authority)) {
        socket.end(replies.notAllowed);
        this.#malformed(attempt, `egress: SOCKS${version} destination ${JSON.stringify(request.host)} port ${request.port} is refused: ${authority.reason}`);
        return;
      }
      const limit = this.#limitReached(socket);
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
        (target) => this.#tunnel(attempt, target, socket, request.rest, () => socket.write(replies.succeeded), () => socket.end(replies.hostUnreachable), () => socket.end(replies.notAllowed)),
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
    const attempt = this.#attempt('connect', authority, written, 0);
    if (isRefusal(authority)) {
      const message = `egress: CONNECT target ${JSON.stringify(written)} is not host:port: ${authority.reason}`;
      socket.end(rawRefusal(400, 'Bad Request', 'INVALID_ARGS', message));
      this.#malformed(attempt, message);
      return;
    }
    const limit = this.#limitReached(socket);
    if (limit !== undefined) {
      socket.end(rawRefusal(429, 'Too Many Requests', 'EGRESS_LIMIT', this.budget.message(limit)));
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
        this.#tunnel(
          attempt, target, socket, head,
          () => socket.write('HTTP/1.1 200 Connection Established\r\n\r\n'),
          () => socket.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\n'),
          () => socket.end(rawRefusal(429, 'Too Many Requests', 'EGRESS_LIMIT', this.budget.message('egressMaxConnections'))),
        );
      },
      (error: unknown) => {
        const { code, message } = describe(error);
        socket.end(code === 'NET_DENIED' ? rawRefusal(403, 'Forbidden', code, message) : rawRefusal(502, 'Bad Gateway', code, message));
        this.#refused(attempt, error);
      },
    );
  }

  /** Bytes pass through untouched: the proxy sees only the host, the port and the byte counts. */
  #tunnel(attempt: Attempt, target: VettedTarget, client: Duplex, head: Uint8Array, onOpen: () => void, onFail: () => void, onLimit: () => void): void {
    const opened = this.budget.openUpstream(target);
    if (opened === undefined) {
      onLimit();
      this.limitRefused(attempt, 'egressMaxConnections');
      return;
    }
    const upstream = opened.socket;
    this.track(upstream);
    upstream.once('connect', () => {
      onOpen();
      if (head.length > 0) upstream.write(head);
      client.pipe(upstream);
      upstream.pipe(client);
      client.resume();
    });
    upstream.once('close', () => {
      client.destroy();
      const bytes = { address: target.address, bytesOut: upstream.bytesOut, bytesIn: upstream.bytesIn };
      if (upstream.cut) this.limitRefused(attempt, 'egressMaxBytes', bytes);
      else if (upstream.connected) this.audit(attempt, 'allow', { rule: target.rule, ...bytes });
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
    const attempt = this.#attempt('http', isRefusal(parsed) ? parsed : parsed.authority, written, 0);
    if (isRefusal(parsed)) {
      const message = `egress: request target ${JSON.stringify(written)} is refused: ${parsed.reason}`;
      refuseResponse(res, 400, 'INVALID_ARGS', message);
      this.#malformed(attempt, message);
      return;
    }
    const limit = this.#limitReached(req.socket);
    if (limit !== undefined) {
      refuseResponse(res, 429, 'EGRESS_LIMIT', this.budget.message(limit));
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
    const attempt: Attempt = { ...found.attempt, via: 'https-intercepted', started: Date.now(), commands: this.#commands() };
    const path = req.url ?? '';
    if (!path.startsWith('/')) {
      const message = `egress: a request inside a tunnel to ${formatAuthority(target.authority)} must have a path starting with /, got ${JSON.stringify(path)}`;
      refuseResponse(res, 400, 'INVALID_ARGS', message);
      this.#malformed(attempt, message);
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
    const limit = this.#limitReached(req.socket);
    if (limit !== undefined) {
      refuseResponse(res, 429, 'EGRESS_LIMIT', this.budget.message(limit));
      this.limitRefused(attempt, limit);
      return;
    }
    forwardRequest(this, attempt, target, req, res, 'https', path);
  }

  #attempt(via: Via, authority: Authority | AuthorityRefusal, written: string, writtenPort: number): Attempt {
    return newAttempt(via, authority, written, writtenPort, this.#commands());
  }

  #commands(): readonly string[] {
    return this.options.commands?.() ?? [];
  }

  #vet(authority: Authority): Promise<VettedTarget> {
    return vetAuthority(authority, this.options.net, this.options.lookup ?? systemLookup, AbortSignal.timeout(VET_TIMEOUT_MS), 'egress');
  }

  /** Which limit refuses a new request on `socket`: its connection is past the cap, or the session's bytes are spent. */
  #limitReached(socket: object): EgressLimit | undefined {
    if (this.#overConnections(socket)) return 'egressMaxConnections';
    return this.budget.bytesSpent ? 'egressMaxBytes' : undefined;
  }

  limitRefused(attempt: Attempt, limit: EgressLimit, bytes: { bytesOut?: number; bytesIn?: number; address?: string } = {}): void {
    this.audit(attempt, 'deny', { code: 'EGRESS_LIMIT', message: this.budget.message(limit), rule: `limits.${limit}`, ...bytes });
  }

  #malformed(attempt: Attempt, message: string): void {
    this.audit(attempt, 'deny', { code: 'INVALID_ARGS', message });
  }

  #refused(attempt: Attempt, error: unknown): void {
    const { decision, detail } = refusalDetail(error);
    this.audit(attempt, decision, detail);
  }

  audit(attempt: Attempt, decision: 'allow' | 'deny' | 'error', detail: AttemptDetail): void {
    auditAttempt(this.options, attempt, decision, detail);
  }
}

/** A refusal written straight to a connection the HTTP server has handed over (CONNECT). */
function rawRefusal(status: number, reason: string, code: string, message: string): string {
  return `HTTP/1.1 ${status} ${reason}\r\ncontent-type: text/plain\r\nx-toolwarden-code: ${code}\r\nconnection: close\r\n\r\n${message}\n`;
}

// Which CONNECT an intercepted TLS socket came from (the http server hands requests their socket only).
const intercepts = new WeakMap<object, { attempt: Attempt; target: VettedTarget }>();
