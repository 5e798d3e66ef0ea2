import { SANDBOX_MODES } from '../../src/sandbox/types.js';
import { MAX_SHUTDOWN_GRACE_MS } from '../../src/serve/serve-config.js';
import { loadServeConfig } from '../../runtime/serve/load-serve-config.js';
import { serveStdio } from '../../runtime/serve/serve-stdio.js';
import { startHttpServer } from '../../runtime/serve/http/serve-http.js';
import type { SessionOptions } from '../../runtime/session/session-options.js';
import { EXIT, type CliIo } from '../cli-io.js';
import { HELP_OPTION, parseCommandArgs, requireChoice, requireWholeNumber, toolList, usageError } from '../parse-command-args.js';
import { USAGE } from '../usage.js';

const OPTIONS = {
  ...HELP_OPTION,
  http: { type: 'boolean' },
  port: { type: 'string' },
  host: { type: 'string' },
  'allow-origin': { type: 'string', multiple: true },
  'shutdown-grace-ms': { type: 'string' },
  config: { type: 'string' },
  sandbox: { type: 'string' },
  workspace: { type: 'string' },
  tools: { type: 'string' },
  'read-root': { type: 'string', multiple: true },
  mcp: { type: 'string', multiple: true },
  user: { type: 'string' },
} as const;

const STDIO_ONLY = ['workspace', 'tools', 'read-root', 'mcp', 'user'] as const;
const HTTP_ONLY = ['port', 'host', 'allow-origin', 'shutdown-grace-ms'] as const;

/**
 * `toolwarden serve`: one session over stdio, or many users' sessions over Streamable HTTP with `--http`.
 * Runs until stdin closes (stdio) or SIGINT/SIGTERM, then closes the sessions, the runtime and the server.
 * @returns the exit code
 */
export async function runServe(argv: readonly string[], io: CliIo): Promise<number> {
  const flags = parseCommandArgs(argv, OPTIONS).values;
  if (flags.help) {
    io.stdout(USAGE.serve);
    return EXIT.ok;
  }
  const misplaced = (flags.http ? STDIO_ONLY : HTTP_ONLY).find((flag) => flags[flag] !== undefined);
  if (misplaced !== undefined) {
    throw usageError(`--${misplaced} is only for ${flags.http ? 'stdio serving (without --http)' : 'HTTP serving (--http)'}`);
  }
  const sandbox = requireChoice('sandbox', flags.sandbox, SANDBOX_MODES);
  const port = requireWholeNumber('port', flags.port, 0, 65535) ?? 3333;
  const shutdownGraceMs = requireWholeNumber('shutdown-grace-ms', flags['shutdown-grace-ms'], 0, MAX_SHUTDOWN_GRACE_MS);
  const tools = toolList(flags.tools);
  const config = flags.config === undefined ? undefined : loadServeConfig(flags.config);
  const log = (line: string): void => io.stderr(`toolwarden: ${line}\n`);
  if (flags.http) {
    if (config === undefined) throw usageError('--config FILE is required with --http (tokens and tenants come from it)');
    const server = await startHttpServer({
      config,
      port,
      host: flags.host ?? '127.0.0.1',
      sandbox,
      log,
      allowedOrigins: flags['allow-origin'] ?? [],
      ...(shutdownGraceMs === undefined ? {} : { shutdownGraceMs }),
    });
    log(`serving MCP over Streamable HTTP at ${server.url}`);
    if (config.dashboard?.enabled === true) log(`dashboard (admin token only) at ${server.url.replace(/\/mcp$/, '/ui')}`);
    await untilSignal(() => server.close(), log);
    return EXIT.ok;
  }
  if (flags.workspace === undefined && flags.user === undefined) {
    throw usageError('--workspace DIR is required (or --user with a tenant workspace in --config)');
  }
  const session: SessionOptions = {
    ...(flags.workspace === undefined ? {} : { workspaceRoot: flags.workspace }),
    ...(tools === undefined ? {} : { tools }),
    ...(flags['read-root'] === undefined ? {} : { readRoots: flags['read-root'] }),
    ...(flags.mcp === undefined ? {} : { mcpServers: flags.mcp }),
    ...(flags.user === undefined ? {} : { user: flags.user }),
    ...(sandbox === undefined ? {} : { sandbox }),
  };
  // Anything a library prints with console.log would corrupt the protocol on stdout.
  console.log = console.error;
  const server = await serveStdio({ session, config, log });
  await Promise.race([server.done, untilSignal(() => server.close(), log)]);
  return EXIT.ok;
}

/** Resolves after the first SIGINT or SIGTERM has run `close`. */
function untilSignal(close: () => Promise<void>, log: (line: string) => void): Promise<void> {
  return new Promise((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
      log(`${signal}: shutting down`);
      void close().then(resolve, (error: unknown) => {
        log(`shutdown failed: ${(error as Error).message}`);
        resolve();
      });
    };
    process.on('SIGINT', onSignal).on('SIGTERM', onSignal);
  });
}
