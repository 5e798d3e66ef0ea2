import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { DEFAULT_APPROVAL_TIMEOUT_MS, type ServeConfig } from '../../src/serve/serve-config.js';
import { createRuntime } from '../runtime.js';
import type { SessionOptions } from '../session/session-options.js';
import { runtimeOptionsFrom, userSessionOptions } from './runtime-from-config.js';
import { answerUnparsableMessages } from './parse-errors.js';
import { createMcpServer } from './session-mcp-server.js';
import { ServedApprovals } from './approvals/served-approvals.js';

/** What `toolwarden serve` (stdio) exposes: one session's options, and the config file's runtime settings. */
export interface StdioServeOptions {
  session: SessionOptions;
  config?: ServeConfig | undefined;
  /** Where log lines go; never stdout, which carries the protocol. @default stderr */
  log?: (line: string) => void;
}

/** A running stdio server. */
export interface StdioServeHandle {
  /** Resolves once the server has shut down (the client closed stdin, or {@link close} was called). */
  readonly done: Promise<void>;
  /** Closes the MCP connection, the session and the runtime. Idempotent. */
  close(): Promise<void>;
}

/**
 * Serves one session as an MCP server on stdin/stdout, until the client closes stdin.
 * @example const { done } = await serveStdio({ session: { workspaceRoot: '.', tools: ['read_file'] } }); await done;
 */
export async function serveStdio(options: StdioServeOptions): Promise<StdioServeHandle> {
  const log = options.log ?? ((line: string) => process.stderr.write(`toolwarden: ${line}\n`));
  const approvals = new ServedApprovals(options.config?.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS, log);
  const rt = await createRuntime({ ...runtimeOptionsFrom(options.config, { idleWorkers: 1 }), approve: approvals.approve });
  const session = await rt.openSession({ ...userSessionOptions(options.config, options.session.user), ...options.session }).catch(async (error: unknown) => {
    await rt.close();
    throw error;
  });
  const server = createMcpServer(session);
  approvals.attach(session.id, server);
  let closing: Promise<void> | undefined;
  let markDone = (): void => undefined;
  const done = new Promise<void>((resolve) => {
    markDone = resolve;
  });
  const close = (): Promise<void> => {
    closing ??= (async () => {
      // Set before the first await: server.close() calls onclose, which must not start a second shutdown.
      server.onclose = () => undefined;
      process.stdin.off('end', onEnd);
      await server.close().catch(() => undefined);
      await rt.close();
      // Closed by a signal while the client still holds the pipe open: stdin would keep the process alive.
      process.stdin.destroy();
      log(`session ${session.id} closed`);
      markDone();
    })();
    return closing;
  };
  const onEnd = (): void => void close();
  process.stdin.once('end', onEnd);
  server.onclose = onEnd;
  const transport = new StdioServerTransport();
  await server.connect(transport);
  answerUnparsableMessages(transport);
  const tools = session.capability.tools.join(', ') || 'none';
  log(`serving session ${session.id} over stdio (workspace ${session.capability.workspaceRoot}, tools: ${tools})`);
  return { done, close };
}
