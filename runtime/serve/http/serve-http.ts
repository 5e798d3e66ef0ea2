import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { toPlainError } from '../../../src/errors.js';
import type { SandboxMode } from '../../../src/capability/capability.js';
import { assertHttpServable, DEFAULT_SHUTDOWN_GRACE_MS, type ServeConfig } from '../../../src/serve/serve-config.js';
import { createRuntime, type Runtime } from '../../runtime.js';
import { runtimeOptionsFrom } from '../runtime-from-config.js';
import { bearerChallenge } from './bearer-auth.js';
import { createHttpIdentity, openIdentitySession } from './http-identity.js';
import { assertTenantRootsServable } from './check-tenant-roots.js';
import { readJsonBody, sendJson, sendJsonRpcError, statusForOpenFailure } from './http-replies.js';
import { createOriginGuard, normalizeOrigin, type OriginCheck } from './origin-guard.js';
import { ServedSessions } from './served-sessions.js';
import { createOpsRoutes } from './ops-routes.js';
import { createServeMetrics } from './serve-metrics.js';
import { ServedApprovals } from '../approvals/served-approvals.js';
import { ApprovalInbox } from '../approvals/approval-inbox.js';
import { createDashboard } from '../dashboard/dashboard.js';

/** Where MCP is served. */
export const MCP_PATH = '/mcp';
/** Largest JSON body accepted on an `initialize` POST (the others are bounded by the config's `maxBodyBytes`). */
const MAX_INITIALIZE_BYTES = 1024 * 1024;

/** Options of {@link startHttpServer}. */
export interface HttpServeOptions {
  config: ServeConfig;
  /** TCP port; 0 picks a free one. @default 3333 */
  port?: number;
  /** Interface to bind. @default '127.0.0.1' */
  host?: string;
  /** Overrides the config file's sandbox mode. */
  sandbox?: SandboxMode | undefined;
  /**
   * Browser origins allowed besides the server's own (`http://localhost:<port>`... when bound to loopback); a
   * request with any other `Origin` gets 403. A request without `Origin` (a non-browser client) is not refused.
   * @default []
   */
  allowedOrigins?: readonly string[];
  /** Where log lines go. @default stderr */
  log?: (line: string) => void;
  /**
   * How long {@link HttpServeHandle.close} lets requests in flight finish before it ends their calls.
   * @default the config's `shutdownGraceMs`, else DEFAULT_SHUTDOWN_GRACE_MS (10000)
   */
  shutdownGraceMs?: number;
}

/** A running HTTP server. */
export interface HttpServeHandle {
  /** The MCP endpoint, e.g. `http://127.0.0.1:3333/mcp`. */
  readonly url: string;
  /** Open MCP sessions. */
  readonly sessionCount: number;
  /**
   * Shuts down: stops accepting (new connections refused, `/readyz` 503, new MCP requests 503), lets requests in
   * flight finish for up to `shutdownGraceMs`, then closes every session (ending calls still running and killing
   * their processes), the runtime and the listener. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * Serves MCP over Streamable HTTP for the users of a config file: a bearer token (or a capability token verified
 * by the config's `tokenPublicKeys`) maps to a user, each MCP
 * session gets its own toolwarden session bound to that user's tenant, closed when the client deletes it, the
 * transport closes, or it sits idle for `idleTimeoutMs`.
 * @example const server = await startHttpServer({ config: loadServeConfig('serve.json'), port: 0 });
 */
export async function startHttpServer(options: HttpServeOptions): Promise<HttpServeHandle> {
  const { config } = options;
  assertHttpServable(config);
  assertTenantRootsServable(config);
  const allowedOrigins = (options.allowedOrigins ?? []).map((origin) => normalizeOrigin(origin));
  const log = options.log ?? ((line: string) => process.stderr.write(`toolwarden: ${line}\n`));
  const runtimeOptions = runtimeOptionsFrom(config, { sandbox: options.sandbox });
  let rt: Runtime | undefined;
  let sessions: ServedSessions | undefined;
  const metrics = createServeMetrics(
    () => rt?.stats() ?? { sessions: 0, sessionsByUser: {}, processes: 0, pendingApprovals: 0, idleWorkers: 0, zygotes: 0 },
    () => sessions?.size ?? 0,
  );
  const inbox = config.dashboard?.enabled === true && config.admin !== undefined ? new ApprovalInbox() : undefined;
  const dashboard = inbox === undefined || config.dashboard === undefined || config.admin === undefined
    ? undefined
    : createDashboard({ settings: config.dashboard, adminToken: config.admin.token, runtime: () => rt, sessions: () => sessions, inbox, maxSessionsOf: (user) => config.tenants[user]?.maxSessions, log });
  const observers = dashboard === undefined ? [metrics.record] : [metrics.record, dashboard.record];
  const audit = runtimeOptions.audit === undefined ? observers : [...(Array.isArray(runtimeOptions.audit) ? runtimeOptions.audit : [runtimeOptions.audit]), ...observers];
  const approvals = new ServedApprovals(config.approvalTimeoutMs, log, inbox);
  rt = await createRuntime({ ...runtimeOptions, audit, approve: approvals.approve });
  sessions = new ServedSessions(config.idleTimeoutMs, log, (sessionId, server) => approvals.attach(sessionId, server));
  let accepting = true;
  let inFlight = 0;
  let drained: (() => void) | undefined;
  // Set once listening: the guard needs the bound address and port (port 0 picks one).
  let checkOrigin: ((headers: { host?: string | undefined; origin?: string | undefined }) => OriginCheck) | undefined;
  const opsRoutes = createOpsRoutes({ accepting: () => accepting, sessions: () => sessions?.size ?? 0, metrics, adminToken: config.admin?.token });
  const ops: typeof opsRoutes = async (req, res, pathname) => (await opsRoutes(req, res, pathname)) || (dashboard !== undefined && (await dashboard.route(req, res, pathname)));
  const route = createRoute(config, rt, sessions, (headers) => checkOrigin?.(headers) ?? { ok: false, message: 'the server is not listening yet' }, ops, () => accepting);
  const server = http.createServer((req, res) => {
    inFlight += 1;
    res.once('close', () => {
      inFlight -= 1;
      // A standing GET stream never ends by itself: the drain is over when only those are left.
      if (inFlight <= (sessions?.streams ?? 0)) drained?.();
    });
    route(req, res).catch((error: unknown) => {
      log(`request failed: ${toPlainError(error).message}`);
      if (res.headersSent) res.end();
      else sendJsonRpcError(res, 500, -32603, 'internal error');
    });
  });
  const runtime = rt;
  const served = sessions;
  try {
    await listen(server, options.port ?? 3333, options.host ?? '127.0.0.1');
  } catch (error) {
    dashboard?.close();
    await runtime.close();
    throw error;
  }
  const address = server.address() as AddressInfo;
  checkOrigin = createOriginGuard({ address: address.address, port: address.port }, allowedOrigins);
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}${MCP_PATH}`,
    get sessionCount() {
      return served.size;
    },
    close: () => {
      closing ??= (async () => {
        accepting = false;
        // Dashboard event streams never end by themselves: they do not hold the drain up.
        dashboard?.close();
        // New connections are refused from here; requests on open keep-alive connections get a 503 with
        // `Connection: close` (not a reset) until the grace ends.
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        // A standing GET stream never ends by itself: it does not hold the drain up.
        const grace = options.shutdownGraceMs ?? config.shutdownGraceMs ?? DEFAULT_SHUTDOWN_GRACE_MS;
        if (inFlight > served.streams) {
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, grace);
            drained = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
        await served.closeAll('the server is shutting down');
        server.closeAllConnections();
        await Promise.all([stopped, runtime.close()]);
      })();
      return closing;
    },
  };
}

function createRoute(
  config: ServeConfig,
  rt: Runtime,
  sessions: ServedSessions,
  checkOrigin: (headers: { host?: string | undefined; origin?: string | undefined }) => OriginCheck,
  ops: ReturnType<typeof createOpsRoutes>,
  accepting: () => boolean,
) {
  const authenticate = createHttpIdentity(config, rt);
  return async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    // Before anything else, so a rebinding page learns nothing, not even which paths exist.
    const origin = checkOrigin({ host: req.headers.host, origin: req.headers.origin });
    if (!origin.ok) return sendJsonRpcError(res, 403, -32000, `Forbidden: ${origin.message}`);
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (await ops(req, res, pathname)) return undefined;
    if (pathname !== MCP_PATH) return sendJson(res, 404, { error: 'not_found', message: `nothing at ${pathname}; MCP is served at ${MCP_PATH}` });
    if (!accepting()) return sendJsonRpcError(res, 503, -32000, 'Service Unavailable: the server is shutting down', null, { 'retry-after': '1', connection: 'close' });
    const auth = await authenticate(req.headers.authorization);
    if (!auth.ok) return sendJsonRpcError(res, 401, -32000, `Unauthorized: ${auth.message}`, null, { 'www-authenticate': bearerChallenge(auth) });
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const served = sessions.find(sessionId, auth.user, auth.credential);
      if (served === undefined) return sendJsonRpcError(res, 404, -32001, 'Session not found');
      if (req.method !== 'POST') return served.handle(req, res);
      // Read here rather than by the SDK, whose own bound (4 MiB) is not configurable.
      const posted = await readJsonBody(req, config.maxBodyBytes);
      if (!posted.ok) return sendJsonRpcError(res, posted.status, posted.status === 413 ? -32000 : -32700, posted.message);
      return served.handle(req, res, posted.value);
    }
    if (req.method !== 'POST') return sendJsonRpcError(res, 400, -32000, 'Bad Request: no mcp-session-id header; start with an initialize POST');
    const read = await readJsonBody(req, MAX_INITIALIZE_BYTES);
    if (!read.ok) return sendJsonRpcError(res, read.status, -32700, read.message);
    const body = read.value;
    if (!isInitializeRequest(body)) return sendJsonRpcError(res, 400, -32000, 'Bad Request: no mcp-session-id header and not an initialize request');
    let opened;
    try {
      opened = await openIdentitySession(rt, config, auth);
    } catch (error) {
      const plain = toPlainError(error);
      return sendJsonRpcError(res, statusForOpenFailure(plain.code), -32000, `${plain.code}: ${plain.message}`, (body as { id?: unknown }).id);
    }
    const { session, owner } = opened;
    const served = await sessions.open(auth.user, auth.credential, session, owner).catch(async (error: unknown) => {
      await session.close();
      await owner?.close();
      throw error;
    });
    try {
      await served.handle(req, res, body);
    } finally {
      if (served.id === undefined) await served.close('initialize failed');
    }
  };
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
