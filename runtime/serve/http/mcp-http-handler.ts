import type { IncomingMessage, ServerResponse } from 'node:http';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { toPlainError } from '../../../src/errors.js';
import { DEFAULT_MAX_BODY_BYTES } from '../../../src/serve/serve-config.js';
import type { Session } from '../../session/session.js';
import { readJsonBody, sendJsonRpcError, statusForOpenFailure } from './http-replies.js';
import { ServedSessions, type ServedSession } from './served-sessions.js';


/** Options of {@link createMcpHttpHandler}. */
export interface McpHttpHandlerOptions {
  /**
   * Opens the toolwarden session of a new MCP session (an `initialize` POST). The handler closes it when the client
   * deletes the MCP session, the transport closes, it sits idle, or {@link McpHttpHandler.close} is called. A throw
   * answers the `initialize` with a JSON-RPC error (429 for SESSION_LIMIT, 403 for ESCALATION or TOKEN_INVALID).
   */
  openSession: (req: IncomingMessage) => Promise<Session>;
  /** Largest POST body accepted, in bytes; a larger one gets 413. @default 16 MiB */
  maxBodyBytes?: number;
  /** An MCP session with no request open for this long is closed. @default 30 minutes */
  idleTimeoutMs?: number;
  /** Where log lines go. @default nowhere */
  log?: (line: string) => void;
}

/** A Streamable HTTP request handler; see {@link createMcpHttpHandler}. */
export interface McpHttpHandler {
  /**
   * Handles one request (POST, GET or DELETE) at the MCP endpoint. `parsedBody` is a body a framework already parsed
   * (express.json()); without it the handler reads the body itself, up to `maxBodyBytes`.
   */
  (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void>;
  /** Open MCP sessions. */
  readonly sessionCount: number;
  /** Closes every MCP session and its toolwarden session. */
  close(): Promise<void>;
}

/**
 * A Streamable HTTP MCP endpoint for a host's own HTTP server: each MCP session gets a toolwarden session from
 * `openSession`. Authentication, `Host` and `Origin` checks are the host's (put them in front); MCP session ids are
 * random UUIDs. Works with node:http, express (`app.all('/mcp', (req, res) => handler(req, res, req.body))`),
 * fastify (`handler(request.raw, reply.raw, request.body)`) and hono on node (`handler(c.env.incoming, c.env.outgoing)`).
 * @example const handler = createMcpHttpHandler({ openSession: () => rt.openSession({ workspaceRoot: '.', tools: ['read_file'] }) });
 * http.createServer((req, res) => void handler(req, res)).listen(3000);
 */
export function createMcpHttpHandler(options: McpHttpHandlerOptions): McpHttpHandler {
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const log = options.log ?? (() => undefined);
  const sessions = new ServedSessions(options.idleTimeoutMs ?? 30 * 60 * 1000, log);
  /** The sessions by id, whatever their user or credential: the host authenticated the request. */
  const owner = '';
  const handle = async (req: IncomingMessage, res: ServerResponse, parsedBody?: unknown): Promise<void> => {
    let body = parsedBody;
    if (req.method === 'POST' && body === undefined) {
      const read = await readJsonBody(req, maxBodyBytes);
      if (!read.ok) return sendJsonRpcError(res, read.status, read.status === 413 ? -32000 : -32700, read.message);
      body = read.value;
    }
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const served = sessions.find(sessionId, owner, owner);
      if (served === undefined) return sendJsonRpcError(res, 404, -32001, 'Session not found');
      return served.handle(req, res, body);
    }
    if (req.method !== 'POST') return sendJsonRpcError(res, 400, -32000, 'Bad Request: no mcp-session-id header; start with an initialize POST');
    if (!isInitializeRequest(body)) return sendJsonRpcError(res, 400, -32000, 'Bad Request: no mcp-session-id header and not an initialize request');
    let session: Session;
    try {
      session = await options.openSession(req);
    } catch (error) {
      const plain = toPlainError(error);
      return sendJsonRpcError(res, statusForOpenFailure(plain.code), -32000, `${plain.code}: ${plain.message}`, (body as { id?: unknown }).id);
    }
    const served: ServedSession = await sessions.open(owner, owner, session).catch(async (error: unknown) => {
      await session.close();
      throw error;
    });
    try {
      await served.handle(req, res, body);
    } finally {
      if (served.id === undefined) await served.close('initialize failed');
    }
  };
  return Object.defineProperties(handle, {
    sessionCount: { get: () => sessions.size },
    close: { value: () => sessions.closeAll('the handler is closing') },
  }) as McpHttpHandler;
}
