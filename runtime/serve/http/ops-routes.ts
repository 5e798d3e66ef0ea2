import type { IncomingMessage, ServerResponse } from 'node:http';
import { createBearerAuth, bearerChallenge } from './bearer-auth.js';
import { sendJson } from './http-replies.js';
import type { ServeMetrics } from './serve-metrics.js';

/** Paths served beside MCP for operators: liveness, readiness and Prometheus metrics. */
export const OPS_PATHS = { health: '/healthz', ready: '/readyz', metrics: '/metrics' } as const;

/** What the operations routes read. */
export interface OpsState {
  /** False once shutdown has begun: readiness fails so a balancer stops sending new sessions. */
  readonly accepting: () => boolean;
  readonly sessions: () => number;
  readonly metrics: ServeMetrics;
  /** The admin bearer token `/metrics` requires; undefined serves no metrics. */
  readonly adminToken: string | undefined;
}

/**
 * Answers `/healthz` (200 while the process serves), `/readyz` (200 while accepting, 503 while draining) and
 * `/metrics` (the admin token only). Returns false for any other path, which the caller routes.
 */
export function createOpsRoutes(state: OpsState): (req: IncomingMessage, res: ServerResponse, pathname: string) => Promise<boolean> {
  const admin = state.adminToken === undefined ? undefined : createBearerAuth({ [state.adminToken]: 'admin' });
  return async (req, res, pathname) => {
    if (pathname === OPS_PATHS.health) {
      sendJson(res, 200, { status: 'ok' });
      return true;
    }
    if (pathname === OPS_PATHS.ready) {
      if (state.accepting()) sendJson(res, 200, { status: 'ready', sessions: state.sessions() });
      else sendJson(res, 503, { status: 'draining' });
      return true;
    }
    if (pathname !== OPS_PATHS.metrics) return false;
    if (admin === undefined) {
      sendJson(res, 404, { error: 'not_found', message: 'metrics are off: set "admin": { "token": ... } in the config to serve /metrics' });
      return true;
    }
    const check = admin(req.headers.authorization);
    if (!check.ok) {
      sendJson(res, 401, { error: 'unauthorized', message: `${check.message} (the admin token, not a user's)` }, { 'www-authenticate': bearerChallenge(check) });
      return true;
    }
    const text = await state.metrics.scrape();
    res.writeHead(200, { 'content-type': state.metrics.contentType, 'cache-control': 'no-store' }).end(text);
    return true;
  };
}
