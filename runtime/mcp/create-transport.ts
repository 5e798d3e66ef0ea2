import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from '../../src/mcp/server-config.js';
import type { PlacedCredential } from '../../src/net/egress/credentials.js';
import { createBoundedFetch } from './bounded-fetch.js';
import { createCredentialFetch } from './credential-fetch.js';
import { StderrTail } from './stderr-tail.js';

/** A client transport for one server config, with the stderr of a stdio server captured. */
export interface CreatedTransport {
  transport: Transport;
  stderr: StderrTail | undefined;
  /** Whether an error the transport reported means a message passed `maxMessageBytes` (the transport then closes). */
  isOverflow(error: unknown): boolean;
}

/** How big one message of the server may be, and the error a body past it fails with. */
export interface MessageBound {
  maxMessageBytes: number;
  /** Called once a message passes the bound; returns the error that names it. */
  overflow(): Error;
}

/**
 * Builds the SDK transport for a server config. Stdio children get the SDK's minimal default env (HOME, PATH, ...)
 * plus the config's (filled-in) `env`, never the host's whole environment. An HTTP server's headers may still hold
 * placeholders: with `credentials`, each is filled per request, for its credential's hosts only. No message may pass
 * `bound.maxMessageBytes`: the stdio read buffer and every HTTP body stop there.
 */
export function createTransport(config: McpServerConfig, credentials: readonly PlacedCredential[], bound: MessageBound): CreatedTransport {
  if ('command' in config) {
    const params: StdioServerParameters = { command: config.command, stderr: 'pipe', maxBufferSize: bound.maxMessageBytes };
    if (config.args) params.args = config.args;
    if (config.env) params.env = config.env;
    if (config.cwd !== undefined) params.cwd = config.cwd;
    const transport = new StdioClientTransport(params);
    const stderr = new StderrTail();
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    return { transport, stderr, isOverflow: isReadBufferOverflow };
  }
  const url = new URL(config.url);
  const requestInit: RequestInit = config.headers ? { headers: config.headers } : {};
  const base = credentials.length > 0 ? createCredentialFetch(credentials) : fetch;
  const transport = new StreamableHTTPClientTransport(url, { requestInit, fetch: createBoundedFetch(base, bound.maxMessageBytes, bound.overflow) });
  return { transport, stderr: undefined, isOverflow: () => false };
}

// The SDK's stdio read buffer reports a line past `maxBufferSize` only by this message, then closes the transport.
function isReadBufferOverflow(error: unknown): boolean {
  return error instanceof Error && error.message.startsWith('ReadBuffer exceeded maximum size');
}
