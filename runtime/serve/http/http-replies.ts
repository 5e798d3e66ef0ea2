import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ErrorCode } from '../../../src/errors.js';

/** Ends a response with a JSON body. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers }).end(text);
}

/** Ends a response with a JSON-RPC error, the form MCP clients expect from the endpoint. */
export function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string, id: unknown = null, headers: Record<string, string> = {}): void {
  sendJson(res, status, { jsonrpc: '2.0', error: { code, message }, id }, headers);
}

/** The HTTP status for a session that could not be opened: a quota is 429, a refusal 403, the rest a server fault. */
export function statusForOpenFailure(code: ErrorCode): number {
  if (code === 'SESSION_LIMIT') return 429;
  if (code === 'ESCALATION' || code === 'TOKEN_INVALID') return 403;
  return 500;
}

/** A parsed JSON body, or the status and message to answer with. */
export type JsonBody = { ok: true; value: unknown } | { ok: false; status: 400 | 413; message: string };

/** Reads a JSON request body of at most `maxBytes`: 413 past the bound, 400 for a body that is not JSON. */
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<JsonBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) return { ok: false, status: 413, message: `request body is larger than ${maxBytes} bytes` };
    chunks.push(chunk as Buffer);
  }
  try {
    return { ok: true, value: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch (error) {
    return { ok: false, status: 400, message: `request body is not JSON: ${(error as Error).message}` };
  }
}
