import { ToolwardenError, toPlainError } from '../../src/errors.js';
import type { Limits } from '../../src/limits.js';
import type { BrokerApi, BrokerReply, GrepArgs } from '../../src/protocol.js';
import { errorResult, type ToolResult } from '../../src/tool-result.js';
import type { WalkPool } from '../walk/index.js';
import type { CallTracker } from './call-tracker.js';
import { createCtxHandlers, type CtxServices } from './ctx-requests.js';
import { applyChangeSet, listDirectory, readExistingTextFile, readTextFile, writeTextFile } from './file-ops.js';
import type { SessionPaths } from './session-paths.js';
import type { WriteQuota } from './write-quota.js';

/** The session services the broker answers with; built by the session from its verified capability. */
export interface BrokerServices extends CtxServices {
  readonly paths: SessionPaths;
  readonly quota: WriteQuota;
  readonly limits: Readonly<Limits>;
  readonly walk: WalkPool;
  readonly calls: CallTracker;
  bash(args: Record<string, unknown>): Promise<ToolResult>;
}

// Which admitted tool calls each built-in broker operation serves.
const READERS = ['read_file', 'edit_file', 'apply_patch'];
const WRITERS = ['write_file', 'edit_file'];

/**
 * Builds the broker a session's worker talks to. Each method resolves its path arguments through the session's
 * guard and returns plain data; it trusts nothing the worker sends: types are re-checked, and an operation is
 * answered only while the runtime has admitted a call that needs it.
 */
export function createBroker(services: BrokerServices): BrokerApi {
  const { paths, quota, limits, walk, calls } = services;
  const during = <T>(tools: readonly string[], op: string, work: () => T | Promise<T>): Promise<BrokerReply<T>> =>
    answer(() => {
      if (!calls.serving(tools)) throw outsideCall(op, tools);
      return work();
    });
  return {
    readFile: (path) => during(READERS, 'readFile', () => readTextFile(paths, requireString(path, 'path'))),
    readFileStrict: (path) => during(READERS, 'readFileStrict', () => readExistingTextFile(paths, requireString(path, 'path'))),
    writeFile: (path, content) => during(WRITERS, 'writeFile', () => writeTextFile(paths, quota, requireString(path, 'path'), requireString(content, 'content'))),
    listDir: (path) => during(['list_dir'], 'listDir', () => listDirectory(paths, optionalString(path, 'path'), limits.maxResults)),
    glob: (pattern, path) => during(['glob'], 'glob', () => {
      const root = paths.readable(optionalString(path, 'path') ?? '.');
      return walk.glob({ root, pattern: requireString(pattern, 'pattern'), maxResults: limits.maxResults, scope: walkScope(paths) }, limits.toolTimeoutMs);
    }),
    grep: (request: GrepArgs) => during(['grep'], 'grep', () => runGrep(services, request)),
    applyChanges: (steps) => during(['apply_patch'], 'applyChanges', () => {
      if (!Array.isArray(steps)) throw new ToolwardenError('INVALID_ARGS', 'steps must be an array');
      return applyChangeSet(paths, quota, steps);
    }),
    bash: async (args) => (calls.serving(['bash']) ? services.bash(args) : errorResult('TOOL_NOT_ALLOWED', outsideCall('bash', ['bash']).message)),
    ...createCtxHandlers(services, (grepArgs) => runGrep(services, grepArgs)),
  };
}

/** grep through the walk pool, capped by the session's maxResults. */
function runGrep(services: BrokerServices, request: GrepArgs): ReturnType<WalkPool['grep']> {
  const { paths, limits, walk } = services;
  const root = paths.readable(optionalString(request.path, 'path') ?? '.');
  const asked = request.maxResults === undefined ? limits.maxResults : Number(request.maxResults);
  const maxResults = Math.max(1, Math.min(asked, limits.maxResults));
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
}

/** Runs a broker operation, turning any failure into plain data with its code. */
export async function answer<T>(work: () => T | Promise<T>): Promise<BrokerReply<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    return { ok: false, error: toPlainError(error) };
  }
}

function outsideCall(op: string, tools: readonly string[]): ToolwardenError {
  return new ToolwardenError('TOOL_NOT_ALLOWED', `broker operation ${op} is only served during an admitted call of ${tools.join(' or ')}`);
}

function walkScope(paths: SessionPaths): { roots: string[] } {
  return { roots: [paths.scope.workspaceRoot, ...paths.scope.readRoots] };
}

/** A string argument from the worker, or INVALID_ARGS naming it. */
function requireString(value: unknown, name: string): string {
  if (typeof value !== 'string') throw new ToolwardenError('INVALID_ARGS', `${name} must be a string`);
  return value;
}

/** An optional string argument from the worker. */
function optionalString(value: unknown, name: string): string | undefined {
  return value === undefined || value === null ? undefined : requireString(value, name);
}
