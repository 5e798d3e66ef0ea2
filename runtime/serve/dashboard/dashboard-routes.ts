import type { IncomingMessage, ServerResponse } from 'node:http';
import { toPlainError, type ErrorCode } from '../../../src/errors.js';
import { checkWrite } from '../../../src/serve/dashboard-write-rule.js';
import type { ApprovalOption } from '../../../src/policy/types.js';
import { readJsonBody, sendJson } from '../http/http-replies.js';
import { loginCookie, type AdminAuth } from './admin-auth.js';
import type { DashboardAsset } from './dashboard-assets.js';

/** Where the dashboard is served. */
export const DASHBOARD_PATH = '/ui';
/** Largest body a dashboard POST may send. */
const MAX_BODY_BYTES = 16 * 1024;
const DECISIONS: readonly string[] = ['allow', 'deny', 'allow-always'];

/**
 * Headers of every dashboard response: a CSP that runs only the page's own script and style (no inline code, no
 * other origin, no framing), no sniffing, no referrer, no caching.
 */
export const DASHBOARD_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};

/** What the dashboard routes act on. */
export interface DashboardActions {
  /** The snapshot and the kept audit events. */
  state(): unknown;
  /** Starts an event stream; false when too many are open. */
  openStream(res: ServerResponse, headers: Record<string, string>): boolean;
  /** The options an approval offers, or undefined when it is not pending. */
  approvalOptions(id: string): readonly ApprovalOption[] | undefined;
  answer(id: string, decision: ApprovalOption): boolean;
  /** False when no served session has that toolwarden session id. */
  closeSession(sessionId: string): Promise<boolean>;
  /** Undefined when no served session has that id; throws PROCESS_NOT_FOUND for an unknown process. */
  stopProcess(sessionId: string, processId: string): Promise<unknown>;
}

type Reply = (status: number, body: unknown, headers?: Record<string, string>) => void;

/** Answers the dashboard's paths (`/ui`, its files, its API); returns false for any other path. */
export function createDashboardRoutes(auth: AdminAuth, assets: ReadonlyMap<string, DashboardAsset>, actions: DashboardActions): (req: IncomingMessage, res: ServerResponse, pathname: string) => Promise<boolean> {
  return async (req, res, pathname) => {
    if (pathname !== DASHBOARD_PATH && !pathname.startsWith(`${DASHBOARD_PATH}/`)) return false;
    await handle(req, res, pathname, auth, assets, actions);
    return true;
  };
}

async function handle(req: IncomingMessage, res: ServerResponse, pathname: string, auth: AdminAuth, assets: ReadonlyMap<string, DashboardAsset>, actions: DashboardActions): Promise<void> {
  const reply: Reply = (status, body, headers = {}) => sendJson(res, status, body, { ...DASHBOARD_HEADERS, ...headers });
  // The page's own files hold no data: anyone may load them; every API path below needs the admin.
  const asset = assets.get(pathname === `${DASHBOARD_PATH}/` ? DASHBOARD_PATH : pathname);
  if (asset !== undefined) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return reply(405, { code: 'INVALID_ARGS', message: `${pathname} is a file of the page: GET it` });
    res.writeHead(200, { ...DASHBOARD_HEADERS, 'content-type': asset.contentType, 'content-length': asset.body.length }).end(req.method === 'HEAD' ? undefined : asset.body);
    return undefined;
  }
  if (pathname === `${DASHBOARD_PATH}/login`) return login(req, auth, reply);
  // The login key rides in a header; an EventSource cannot send one, so the event stream may carry it as ?key=.
  const key = header(req, 'x-tw-login-key') ?? (pathname === `${DASHBOARD_PATH}/api/events` ? queryKey(req) : undefined);
  const who = auth.check({ authorization: req.headers.authorization, cookie: req.headers.cookie, loginKey: key });
  if (!who.ok) return reply(401, { error: 'unauthorized', message: who.message }, { 'www-authenticate': 'Bearer realm="toolwarden-admin"' });
  const api = pathname.slice(DASHBOARD_PATH.length);
  if (req.method === 'GET' || req.method === 'HEAD') {
    if (api === '/api/state') return reply(200, actions.state());
    if (api !== '/api/events') return notFound(reply, pathname);
    if (!actions.openStream(res, { ...DASHBOARD_HEADERS })) reply(503, { code: 'SESSION_LIMIT', message: 'too many dashboard event streams are open' }, { 'retry-after': '5' });
    return undefined;
  }
  const write = checkWrite({ method: req.method ?? '', proof: who.proof, host: req.headers.host, origin: req.headers.origin, secFetchSite: header(req, 'sec-fetch-site'), contentType: req.headers['content-type'] });
  if (!write.ok) return reply(write.status, { error: 'forbidden', message: write.message });
  const body = await readJsonBody(req, MAX_BODY_BYTES);
  if (!body.ok) return reply(body.status, { code: 'INVALID_ARGS', message: body.message });
  if (api === '/logout') {
    auth.logout(req.headers.cookie);
    return reply(200, { ok: true }, { 'set-cookie': loginCookie('', false) });
  }
  return act(api, body.value, actions, reply, pathname);
}

async function act(api: string, body: unknown, actions: DashboardActions, reply: Reply, pathname: string): Promise<void> {
  const approval = /^\/api\/approvals\/([\w-]{1,64})$/.exec(api);
  if (approval?.[1] !== undefined) return answer(approval[1], body, actions, reply);
  const close = /^\/api\/sessions\/([\w-]{1,64})\/close$/.exec(api);
  if (close?.[1] !== undefined) {
    if (!(await actions.closeSession(close[1]))) return sessionNotFound(reply, close[1]);
    return reply(200, { ok: true, closed: close[1] });
  }
  const stop = /^\/api\/sessions\/([\w-]{1,64})\/processes\/([\w-]{1,64})\/stop$/.exec(api);
  if (stop?.[1] !== undefined && stop[2] !== undefined) {
    try {
      const snapshot = await actions.stopProcess(stop[1], stop[2]);
      return snapshot === undefined ? sessionNotFound(reply, stop[1]) : reply(200, { ok: true, process: snapshot });
    } catch (error) {
      const plain = toPlainError(error);
      return reply(plain.code === 'PROCESS_NOT_FOUND' ? 404 : 500, { code: plain.code, message: plain.message });
    }
  }
  return notFound(reply, pathname);
}

function answer(id: string, body: unknown, actions: DashboardActions, reply: Reply): void {
  const decision = typeof body === 'object' && body !== null ? (body as { decision?: unknown }).decision : undefined;
  if (typeof decision !== 'string' || !DECISIONS.includes(decision)) {
    return reply(400, { code: 'INVALID_ARGS', message: `decision must be one of ${DECISIONS.join(', ')}, got ${JSON.stringify(decision)}` });
  }
  const options = actions.approvalOptions(id);
  if (options === undefined) return approvalNotFound(reply, id);
  // A decision not offered for this call is still the operator's answer: the call is denied at once, naming it.
  if (!actions.answer(id, decision as ApprovalOption)) return approvalNotFound(reply, id);
  if (!options.includes(decision as ApprovalOption)) {
    return reply(200, { ok: true, decision: 'deny', message: `decision '${decision}' is not offered for this call (offered: ${options.join(', ')}; a dangerous removal can only be allowed once), so the call is denied` });
  }
  return reply(200, { ok: true, decision });
}

async function login(req: IncomingMessage, auth: AdminAuth, reply: Reply): Promise<void> {
  const write = checkWrite({ method: req.method ?? '', proof: 'cookie', host: req.headers.host, origin: req.headers.origin, secFetchSite: header(req, 'sec-fetch-site'), contentType: req.headers['content-type'] });
  if (!write.ok) return reply(write.status, { error: 'forbidden', message: write.message });
  const body = await readJsonBody(req, MAX_BODY_BYTES);
  const token = body.ok && typeof body.value === 'object' && body.value !== null ? (body.value as { token?: unknown }).token : undefined;
  const value = auth.login(token);
  if (value === undefined) return reply(401, { error: 'unauthorized', message: "that is not the admin token (a user's token never opens the dashboard)" });
  return reply(200, { ok: true, key: auth.keyOf(value) }, { 'set-cookie': loginCookie(value, req.headers.origin?.startsWith('https:') === true) });
}

function queryKey(req: IncomingMessage): string | undefined {
  return new URL(req.url ?? '/', 'http://dashboard.invalid').searchParams.get('key') ?? undefined;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return typeof value === 'string' ? value : undefined;
}

function notFound(reply: Reply, pathname: string): void {
  reply(404, { error: 'not_found', message: `nothing at ${pathname}` });
}

function sessionNotFound(reply: Reply, id: string): void {
  reply(404, { code: 'SESSION_NOT_FOUND' satisfies ErrorCode, message: `no open served session ${id} (closed already, or never opened)` });
}

function approvalNotFound(reply: Reply, id: string): void {
  reply(404, { code: 'APPROVAL_NOT_FOUND' satisfies ErrorCode, message: `no pending approval ${id}: it was answered elsewhere, its wait ended, or its call ended` });
}
