import { ToolwardenError, toPlainError } from '../../src/errors.js';
import type { Limits } from '../../src/limits.js';
import type { BrokerApi, BrokerReply, GrepArgs } from '../../src/protocol.js';
import type { ToolResult } from '../../src/tool-result.js';
import type { WalkPool } from '../walk/index.js';
import { applyChangeSet, listDirectory, readExistingTextFile, readTextFile, statPath, writeTextFile } from './file-ops.js';
import type { SessionPaths } from './session-paths.js';
import type { WriteQuota } from './write-quota.js';

/** The session services the broker answers with; built by the session from its verified capability. */
export interface BrokerServices {
  readonly paths: SessionPaths;
  readonly quota: WriteQuota;
  readonly limits: Readonly<Limits>;
  readonly walk: WalkPool;
  bash(args: Record<string, unknown>): Promise<ToolResult>;
  webFetch(args: Record<string, unknown>): Promise<ToolResult>;
  mcpCall(tool: string, args: Record<string, unknown>): Promise<ToolResult>;
  log(level: 'info' | 'warn' | 'error', message: string, data?: unknown): void;
}

/**
 * Builds the broker a session's worker talks to. Each method resolves its path arguments through the session's
 * guard and returns plain data; it trusts nothing the worker sends (types are re-checked here too).
 */
export function createBroker(services: BrokerServices): BrokerApi {
  const { paths, quota, limits, walk } = services;
  return {
    readFile: (path) => answer(() => readTextFile(paths, requireString(path, 'path'))),
    readFileStrict: (path) => answer(() => readExistingTextFile(paths, requireString(path, 'path'))),
    writeFile: (path, content) => answer(() => writeTextFile(paths, quota, requireString(path, 'path'), requireString(content, 'content'))),
    listDir: (path) => answer(() => {
      const listing = listDirectory(paths, optionalString(path, 'path'), limits.maxResults);
      return { path: listing.path, entries: listing.entries };
    }),
    stat: (path) => answer(() => statPath(paths, requireString(path, 'path'))),
    glob: (pattern, path) => answer(async () => {
      const root = paths.readable(optionalString(path, 'path') ?? '.');
      const found = await walk.glob({ root, pattern: requireString(pattern, 'pattern'), maxResults: limits.maxResults, scope: walkScope(paths) }, limits.toolTimeoutMs);
      return found;
    }),
    grep: (request: GrepArgs) => answer(async () => {
      const root = paths.readable(optionalString(request.path, 'path') ?? '.');
      const maxResults = Math.min(request.maxResults ?? limits.maxResults, limits.maxResults);
      return walk.grep(
        {
          root,
          pattern: requireString(request.pattern, 'pattern'),
          maxResults,
          scope: walkScope(paths),
          ...(request.ignoreCase === undefined ? {} : { ignoreCase: Boolean(request.ignoreCase) }),
          ...(request.glob === undefined ? {} : { glob: requireString(request.glob, 'glob') }),
        },
        limits.toolTimeoutMs,
      );
    }),
    applyChanges: (steps) => answer(() => {
      if (!Array.isArray(steps)) throw new ToolwardenError('INVALID_ARGS', 'steps must be an array');
      return applyChangeSet(paths, quota, steps);
    }),
    bash: (args) => services.bash(args),
    webFetch: (args) => services.webFetch(args),
    mcpCall: (tool, args) => services.mcpCall(requireString(tool, 'tool'), args),
    log: async (level, message, data) => services.log(level, String(message), data),
  };
}

async function answer<T>(work: () => T | Promise<T>): Promise<BrokerReply<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, error: toPlainError(error) };
  }
}

function walkScope(paths: SessionPaths): { roots: string[] } {
  return { roots: [paths.scope.workspaceRoot, ...paths.scope.readRoots] };
}

function requireString(value: unknown, name: string): string {
  if (typeof value !== 'string') throw new ToolwardenError('INVALID_ARGS', `${name} must be a string`);
  return value;
}

function optionalString(value: unknown, name: string): string | undefined {
  return value === undefined || value === null ? undefined : requireString(value, name);
}
