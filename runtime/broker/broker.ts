import { ToolwardenError, toPlainError } from '../../src/errors.js';
import type { Limits } from '../../src/limits.js';
import type { BrokerApi, BrokerReply, GrepArgs } from '../../src/protocol.js';
import type { ToolResult } from '../../src/tool-result.js';
import type { WalkPool } from '../walk/index.js';
import { timeLeftMs, type CallContext } from '../calls/call-context.js';
import { createCtxHandlers, type CtxAdmission, type CtxServices } from './ctx-requests.js';
import { applyChangeSet, listDirectory, readExistingTextFile, readTextFile, writeTextFile } from './file-ops.js';
import type { SessionPaths } from './session-paths.js';
import type { WriteQuota } from './write-quota.js';

/** The session services the broker answers with; built by the session from its verified capability. */
export interface BrokerServices extends CtxServices {
  readonly paths: SessionPaths;
  readonly quota: WriteQuota;
  readonly limits: Readonly<Limits>;
  readonly walk: WalkPool;
  /** bash for a host tool's `ctx.exec`, within the requesting call's context; `report` learns what admit() decided. */
  bash(args: Record<string, unknown>, context: CallContext, report: (admitted: CtxAdmission) => void): Promise<ToolResult>;
}

/** A session's broker for the work of one call: walks stop at its deadline and with its signal. */
export type BrokerFor = (context: CallContext) => BrokerApi;

/**
 * Builds a session's broker: the operations the main thread does for the session's tools, each for one call (its
 * context). Each method resolves its path arguments through the session's guard and returns plain data, and re-checks
 * the types it is given. It is reached from a worker or tool process only through the broker server
 * (broker-server.ts), which serves a request only within the admission of the call it names, in that call's context.
 */
export function createBroker(services: BrokerServices): BrokerFor {
  return (context) => brokerFor(services, context);
}

function brokerFor(services: BrokerServices, context: CallContext): BrokerApi {
  const { paths, quota, limits, walk } = services;
  return {
    readFile: (path) => answer(() => readTextFile(paths, requireString(path, 'path'))),
    readFileStrict: (path) => answer(() => readExistingTextFile(paths, requireString(path, 'path'))),
    writeFile: (path, content) => answer(() => writeTextFile(paths, quota, requireString(path, 'path'), requireString(content, 'content'))),
    listDir: (path) => answer(() => listDirectory(paths, optionalString(path, 'path'), limits.maxResults)),
    glob: (pattern, path) =>
      answer(() => {
        const root = paths.readable(optionalString(path, 'path') ?? '.');
        return walk.glob({ root, pattern: requireString(pattern, 'pattern'), maxResults: limits.maxResults, scope: walkScope(paths) }, timeLeftMs(context, 'glob'), context.signal);
      }),
    grep: (request: GrepArgs) => answer(() => runGrep(services, request, context)),
    applyChanges: (steps) =>
      answer(() => {
        if (!Array.isArray(steps)) throw new ToolwardenError('INVALID_ARGS', 'steps must be an array');
        return applyChangeSet(paths, quota, steps);
      }),
    ...createCtxHandlers(services, context, (grepArgs) => runGrep(services, grepArgs, context)),
  };
}

/** grep through the walk pool, capped by the session's maxResults, stopped by the walk itself at the call's deadline. */
function runGrep(services: BrokerServices, request: GrepArgs, context: CallContext): ReturnType<WalkPool['grep']> {
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
    timeLeftMs(context, 'grep'),
    context.signal,
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
