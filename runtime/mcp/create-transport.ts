import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { StdioServerParameters } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from '../../src/mcp/server-config.js';
import { createSecretFetch } from './secret-fetch.js';
import { StderrTail } from './stderr-tail.js';

/** A client transport for one server config, with the stderr of a stdio server captured. */
export interface CreatedTransport {
  transport: Transport;
  stderr: StderrTail | undefined;
}

/**
 * Builds the SDK transport for a server config. Stdio children get the SDK's minimal default env (HOME, PATH, ...)
 * plus the config's (filled-in) `env`, never the host's whole environment. An HTTP server's headers may still hold
 * `${user.<secret>}` placeholders: with `secrets`, they are filled per request, for the server's origin only.
 */
export function createTransport(config: McpServerConfig, secrets: Readonly<Record<string, string>> = {}): CreatedTransport {
  if ('command' in config) {
    const params: StdioServerParameters = { command: config.command, stderr: 'pipe' };
    if (config.args) params.args = config.args;
    if (config.env) params.env = config.env;
    if (config.cwd !== undefined) params.cwd = config.cwd;
    const transport = new StdioClientTransport(params);
    const stderr = new StderrTail();
    transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk));
    return { transport, stderr };
  }
  const url = new URL(config.url);
  const requestInit: RequestInit = config.headers ? { headers: config.headers } : {};
  const fetch = Object.keys(secrets).length > 0 ? { fetch: createSecretFetch(url, secrets) } : {};
  return { transport: new StreamableHTTPClientTransport(url, { requestInit, ...fetch }), stderr: undefined };
}
