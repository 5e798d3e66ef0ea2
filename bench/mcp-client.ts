import { spawn } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** An SDK client connected to a server it started (over stdio, or over HTTP with {@link connectHttp}). */
export interface McpPeer {
  client: Client;
  /** The server's process id, to count its CPU (see bench/cpu.ts). */
  pid: number | null;
  /** What the server wrote to stderr so far (for a failure message). */
  stderr(): string;
  close(): Promise<void>;
}

const STDERR_KEPT = 4000;

/**
 * Starts `node <args>` and connects the MCP SDK client to it over stdio; the server's stderr is captured, not shown.
 * @example const peer = await connectStdio(['server.js', '/dir']); await peer.client.ping();
 */
export async function connectStdio(args: readonly string[], cwd: string): Promise<McpPeer> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [...args], cwd, stderr: 'pipe' });
  let captured = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    captured = (captured + chunk.toString('utf8')).slice(-STDERR_KEPT);
  });
  const client = new Client({ name: 'toolwarden-bench', version: '0.1.0' });
  try {
    await client.connect(transport);
  } catch (error) {
    await client.close().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`could not connect to node ${args.join(' ')}: ${reason}${captured ? `; its stderr: ${captured.trim()}` : ''}`);
  }
  return { client, pid: transport.pid, stderr: () => captured, close: () => client.close() };
}

const LISTENING = /(http:\/\/127\.0\.0\.1:\d+\/mcp)\b/;
const START_TIMEOUT_MS = 30_000;

/**
 * Starts `node <args>`, a server that says on stderr where it listens (`http://127.0.0.1:PORT/mcp`, as
 * `toolwarden serve --http` does), and connects the SDK client to it over Streamable HTTP with `bearer` as its token.
 * Closing deletes the MCP session, closes the client and ends the server.
 * @example const peer = await connectHttp(['server.mjs'], dir, 'token'); await peer.client.ping();
 */
export async function connectHttp(args: readonly string[], cwd: string, bearer: string): Promise<McpPeer> {
  const child = spawn(process.execPath, [...args], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
  let captured = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`node ${args.join(' ')} did not say where it listens within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    child.stderr.on('data', (chunk: Buffer) => {
      captured = (captured + chunk.toString('utf8')).slice(-STDERR_KEPT);
      const match = LISTENING.exec(captured);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`node ${args.join(' ')} exited before listening; its stderr: ${captured.trim()}`));
    });
  }).catch((error: unknown) => {
    child.kill('SIGKILL');
    throw error;
  });
  const transport = new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { authorization: `Bearer ${bearer}` } } });
  const client = new Client({ name: 'toolwarden-bench', version: '0.1.0' });
  const end = async (): Promise<void> => {
    child.kill('SIGTERM');
    await exited;
  };
  try {
    await client.connect(transport);
  } catch (error) {
    await end();
    throw new Error(`could not connect to node ${args.join(' ')} at ${url}: ${error instanceof Error ? error.message : String(error)}`);
  }
  return {
    client,
    pid: child.pid ?? null,
    stderr: () => captured,
    close: async () => {
      await transport.terminateSession().catch(() => undefined);
      await client.close();
      await end();
    },
  };
}
