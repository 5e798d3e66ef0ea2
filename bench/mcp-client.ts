import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

/** An SDK client connected to a server started over stdio. */
export interface StdioPeer {
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
export async function connectStdio(args: readonly string[], cwd: string): Promise<StdioPeer> {
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
