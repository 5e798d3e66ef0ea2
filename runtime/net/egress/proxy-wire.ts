import type { IncomingHttpHeaders, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { toPlainError, ToolwardenError } from '../../../src/errors.js';

// The egress proxy's small HTTP wire helpers: hop-by-hop headers, refusals and error descriptions.

const HOP_BY_HOP: ReadonlySet<string> = new Set(['connection', 'proxy-connection', 'keep-alive', 'proxy-authorization', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);

/** Headers without the hop-by-hop ones, including those the `connection` header lists. */
export function withoutHopByHop(headers: IncomingHttpHeaders | OutgoingHttpHeaders): OutgoingHttpHeaders {
  const connectionListed = String(headers['connection'] ?? '').toLowerCase().split(',').map((name) => name.trim());
  return Object.fromEntries(Object.entries(headers).filter(([name, value]) => value !== undefined && !HOP_BY_HOP.has(name) && !connectionListed.includes(name)));
}

/** Answers a refused request with its status, `x-toolwarden-code` and a one-line reason, and closes. */
export function refuseResponse(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'text/plain', 'x-toolwarden-code': code, connection: 'close' });
  res.end(`${message}\n`);
}

/** An error as a code and a message for a refusal and its audit event (unknown errors are IO_ERROR). */
export function describe(error: unknown): { code: string; message: string } {
  if (error instanceof ToolwardenError) return { code: error.code, message: error.message };
  const plain = toPlainError(error);
  return { code: plain.code === 'INTERNAL' ? 'IO_ERROR' : plain.code, message: `egress: ${plain.message}` };
}
