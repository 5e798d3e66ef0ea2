import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { clientLabel } from '../../../src/serve/client-label.js';
import type { Session } from '../../session/session.js';
import { createMcpServer } from '../session-mcp-server.js';

/** Hears of each served session's MCP server (for approvals by elicitation); returns what undoes it. */
export type OnServer = (sessionId: string, server: Server) => () => void;

/** One MCP session (the SDK's session id) bound to one toolwarden session of one user. */
export class ServedSession {
  readonly user: string;
  /** Digest of the bearer credential that opened it: only the same credential reaches it. */
  readonly credential: string;
  readonly session: Session;
  /** When it was opened, epoch milliseconds. */
  readonly openedAt = Date.now();
  readonly #transport: StreamableHTTPServerTransport;
  readonly #server: Server;
  readonly #registry: ServedSessions;
  /** A session this one was narrowed from, closed with it. */
  readonly #owner: Session | undefined;
  readonly #detach: () => void;
  #id: string | undefined;
  #active = 0;
  #idleTimer: NodeJS.Timeout | undefined;
  #closing: Promise<void> | undefined;

  /** @internal created by {@link ServedSessions.open} */
  constructor(user: string, credential: string, session: Session, registry: ServedSessions, owner?: Session) {
    this.user = user;
    this.credential = credential;
    this.session = session;
    this.#registry = registry;
    this.#owner = owner;
    this.#transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        this.#id = id;
        registry.register(id, this);
      },
      // Awaited by the SDK before it answers the DELETE, so the session is gone when the client hears back.
      onsessionclosed: () => this.close('the client deleted the session'),
    });
    this.#server = createMcpServer(session);
    this.#detach = registry.onServer(session.id, this.#server);
    // The SDK closes the server when the client deletes the session or the transport closes.
    this.#server.onclose = () => void this.close('the transport closed');
  }

  /** The client's name and version from its `initialize` (see {@link clientLabel}); undefined before it. */
  get client(): string | undefined {
    return clientLabel(this.#server.getClientVersion());
  }

  /** The MCP session id, once `initialize` has been answered. */
  get id(): string | undefined {
    return this.#id;
  }

  /** @internal */
  async connect(): Promise<void> {
    await this.#server.connect(this.#transport);
  }

  /**
   * Handles one HTTP request of this session. The idle clock stops while a POST or DELETE is open; a standing
   * GET stream (server-to-client notifications) does not count, or a vanished client would never time out.
   */
  async handle(req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void> {
    if (req.method === 'GET') {
      this.#registry.streams += 1;
      res.once('close', () => (this.#registry.streams -= 1));
      return this.#transport.handleRequest(req, res, parsedBody);
    }
    this.#active += 1;
    clearTimeout(this.#idleTimer);
    res.once('close', () => {
      this.#active -= 1;
      if (this.#active === 0 && this.#closing === undefined) this.#armIdleTimer();
    });
    await this.#transport.handleRequest(req, res, parsedBody);
  }

  /** Closes the MCP transport and the toolwarden session. Idempotent. */
  close(reason: string): Promise<void> {
    this.#closing ??= (async () => {
      // Before the first await: server.close() calls onclose, which must not start a second close.
      this.#server.onclose = () => undefined;
      clearTimeout(this.#idleTimer);
      if (this.#id !== undefined) this.#registry.unregister(this.#id);
      this.#detach();
      // The session first: calls in flight end with SESSION_CLOSED and their answers still reach the client over the
      // open transport (for up to a second), rather than the client waiting on a request that was cut off.
      await this.session.close();
      await this.#owner?.close();
      await this.#answered(1_000);
      await this.#server.close().catch(() => undefined);
      this.#registry.log(`session ${this.#id ?? '(uninitialized)'} of ${this.user} closed: ${reason}`);
    })();
    return this.#closing;
  }

  /** Resolves once no POST of this session is open, or after `ms`. */
  #answered(ms: number): Promise<void> {
    if (this.#active === 0) return Promise.resolve();
    return new Promise((resolve) => {
      const started = Date.now();
      const poll = setInterval(() => {
        if (this.#active === 0 || Date.now() - started >= ms) {
          clearInterval(poll);
          resolve();
        }
      }, 10);
    });
  }

  #armIdleTimer(): void {
    const ms = this.#registry.idleTimeoutMs;
    this.#idleTimer = setTimeout(() => void this.close(`idle for ${ms} ms`), ms).unref();
  }
}

/** The open MCP sessions of an HTTP server, by MCP session id. */
export class ServedSessions {
  readonly idleTimeoutMs: number;
  readonly log: (line: string) => void;
  readonly #byId = new Map<string, ServedSession>();

  /** @internal */
  readonly onServer: OnServer;

  constructor(idleTimeoutMs: number, log: (line: string) => void, onServer: OnServer = () => () => undefined) {
    this.idleTimeoutMs = idleTimeoutMs;
    this.log = log;
    this.onServer = onServer;
  }

  /** Number of initialized MCP sessions. */
  get size(): number {
    return this.#byId.size;
  }

  /** Standing GET streams open now (server-to-client notifications): they never end by themselves. */
  streams = 0;

  /** The session with that MCP id, if it is open and was opened by this credential of `user` (any other is as good as unknown). */
  find(id: string, user: string, credential: string): ServedSession | undefined {
    const served = this.#byId.get(id);
    return served?.user === user && served.credential === credential ? served : undefined;
  }

  /** Binds a new MCP transport to a freshly opened toolwarden session (and `owner`, the session it was narrowed from). */
  async open(user: string, credential: string, session: Session, owner?: Session): Promise<ServedSession> {
    const served = new ServedSession(user, credential, session, this, owner);
    await served.connect();
    return served;
  }

  /** @internal */
  register(id: string, served: ServedSession): void {
    this.#byId.set(id, served);
    this.log(`session ${id} opened for ${served.user} (toolwarden session ${served.session.id})`);
  }

  /** @internal */
  unregister(id: string): void {
    this.#byId.delete(id);
  }

  /** The initialized sessions, oldest first. */
  list(): ServedSession[] {
    return [...this.#byId.values()];
  }

  /** Closes every session. */
  async closeAll(reason: string): Promise<void> {
    await Promise.all([...this.#byId.values()].map((served) => served.close(reason)));
  }
}
