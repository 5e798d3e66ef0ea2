import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { ToolwardenError, toPlainError } from '../src/errors.js';
import { validateBuiltinArgs } from '../src/tools/validate-args.js';
import type { Capability } from '../src/capability/capability.js';
import { narrowCapability, type NarrowRequest } from '../src/capability/narrow.js';
import { signCapability, verifyCapability } from '../src/capability/token.js';
import { isInside } from '../src/path-guard/index.js';
import { errorResult, type ToolResult } from '../src/tool-result.js';
import { BUILTIN_TOOL_NAMES, isBuiltinTool } from '../src/tools/builtin-schemas.js';
import { describeBuiltinTool, type ToolInfo } from '../src/tools/tool-info.js';
import { DEFAULT_LIMITS } from '../src/limits.js';
import { WalkPool } from './walk/index.js';
import { createBroker } from './broker/broker.js';
import { SessionPaths } from './broker/session-paths.js';
import { WriteQuota } from './broker/write-quota.js';
import { Session, type SessionHost } from './session.js';
import { buildCapability, checkOptionKeys, canonicalDirectory, type SessionOptions } from './session-options.js';
import { WorkerPool } from './workers/worker-pool.js';
import { probeToolModules, toModuleUrls } from './host-tools/probe-tool-modules.js';
import type { WorkerEnd } from './workers/bound-worker.js';

/** Options of {@link createRuntime}. */
export interface RuntimeOptions {
  /** Key that signs capability tokens (32+ bytes). @default 32 random bytes, so tokens are valid in this runtime only */
  key?: Uint8Array | string;
  /** Idle workers kept started for fast session opens. @default 2 */
  idleWorkers?: number;
  /** Sessions open at once in this runtime. @default 1024 */
  maxSessions?: number;
  /** Default OS sandbox mode for sessions. @default 'auto' */
  sandbox?: 'auto' | 'required' | 'off';
  /** Host tool modules (paths relative to the process cwd, or file URLs) loaded in every session worker. */
  toolModules?: readonly string[];
}

const DEFAULT_TOKEN_TTL_SECONDS = 3600;

/** Per-session state the runtime keeps beside the session object. */
interface SessionRecord {
  session: Session;
}

/**
 * The toolwarden runtime: it signs capabilities, keeps a warm pool of workers and owns every session's broker.
 * @example
 * const rt = await createRuntime();
 * const s = await rt.openSession({ workspaceRoot: '.', tools: ['read_file'] });
 */
export class Runtime {
  readonly #key: Uint8Array;
  readonly #pool: WorkerPool;
  readonly #walk: WalkPool;
  readonly #sessions = new Map<string, SessionRecord>();
  readonly #options: RuntimeOptions;
  readonly #runtimeModules: readonly string[];
  /** Host tool listings per module set (the runtime's modules plus a session's own). */
  readonly #hostToolSets = new Map<string, Promise<Map<string, ToolInfo>>>();
  #closed = false;

  /** @internal use {@link createRuntime} */
  constructor(options: RuntimeOptions) {
    this.#options = options;
    this.#key = normalizeKey(options.key);
    this.#pool = new WorkerPool({ size: options.idleWorkers ?? 2, heapMb: DEFAULT_LIMITS.workerHeapMb });
    this.#walk = new WalkPool();
    this.#runtimeModules = toModuleUrls(options.toolModules ?? []);
  }

  /** @internal loads the runtime's host tool modules once, so a bad module fails createRuntime. */
  async init(): Promise<void> {
    await this.#hostTools(this.#runtimeModules);
  }

  /** Number of open sessions. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** Signs a capability token for the given options, to open a session with later (or elsewhere in this runtime). */
  async mintToken(options: SessionOptions): Promise<string> {
    this.#assertOpen();
    if (options.token !== undefined) throw new ToolwardenError('INVALID_OPTIONS', 'mintToken takes capability options, not a token');
    const capability = await this.#capabilityFrom(options);
    return signCapability(capability, this.#key, options.ttlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS);
  }

  /**
   * Opens a session from options or from a token. A tampered, expired or foreign token throws TOKEN_INVALID.
   * @example await rt.openSession({ workspaceRoot: '/repo', tools: ['read_file', 'grep'] })
   */
  async openSession(options: SessionOptions): Promise<Session> {
    this.#assertOpen();
    checkOptionKeys(options);
    let capability: Capability;
    let token: string;
    if (options.token !== undefined) {
      capability = await verifyCapability(options.token, this.#key);
      if (this.#sessions.has(capability.sid)) {
        throw new ToolwardenError('TOKEN_INVALID', `token ${capability.sid} is already bound to an open session; mint a new one`);
      }
      token = options.token;
    } else {
      capability = await this.#capabilityFrom(options);
      token = await signCapability(capability, this.#key, options.ttlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS);
    }
    return this.#open(capability, token);
  }

  /** Closes every session and the worker pools. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#sessions.values()].map((record) => record.session.close()));
    await Promise.all([this.#pool.close(), this.#walk.close()]);
  }

  async #capabilityFrom(options: SessionOptions): Promise<Capability> {
    const capability = buildCapability(
      { ...options, ...(options.toolModules ? { toolModules: toModuleUrls(options.toolModules) } : {}) },
      { sandbox: this.#options.sandbox ?? 'auto', toolModules: this.#runtimeModules },
    );
    const hostTools = await this.#hostTools(capability.toolModules);
    for (const tool of capability.tools) {
      if (!isBuiltinTool(tool) && !hostTools.has(tool)) {
        const known = [...BUILTIN_TOOL_NAMES, ...hostTools.keys()].join(', ');
        throw new ToolwardenError('INVALID_OPTIONS', `unknown tool '${tool}' in tools; known: ${known}`);
      }
    }
    return capability;
  }

  /** Listings of the host tools a module set defines; a name may not shadow a built-in or MCP tool. */
  #hostTools(moduleUrls: readonly string[]): Promise<Map<string, ToolInfo>> {
    const key = moduleUrls.join('\n');
    let pending = this.#hostToolSets.get(key);
    if (!pending) {
      pending = moduleUrls.length === 0 ? Promise.resolve(new Map()) : probeToolModules(moduleUrls, DEFAULT_LIMITS.workerHeapMb, 30_000).then((infos) => {
        for (const info of infos) {
          if (isBuiltinTool(info.name)) throw new ToolwardenError('INVALID_OPTIONS', `host tool '${info.name}' would shadow the built-in tool of that name`);
        }
        return new Map(infos.map((info) => [info.name, info]));
      });
      pending.catch(() => this.#hostToolSets.delete(key));
      this.#hostToolSets.set(key, pending);
    }
    return pending;
  }

  async #open(capability: Capability, token: string): Promise<Session> {
    const maxSessions = this.#options.maxSessions ?? 1024;
    if (this.#sessions.size >= maxSessions) {
      throw new ToolwardenError('LIMIT_EXCEEDED', `the runtime already has ${maxSessions} open sessions (maxSessions)`);
    }
    const paths = new SessionPaths(capability);
    const broker = createBroker({
      paths,
      quota: new WriteQuota(capability.limits.writeQuotaBytes),
      limits: capability.limits,
      walk: this.#walk,
      bash: async () => errorResult('TOOL_NOT_ALLOWED', 'bash is not available in this runtime'),
      webFetch: async () => errorResult('TOOL_NOT_ALLOWED', 'web_fetch is not available in this runtime'),
      mcpCall: async (tool) => errorResult('TOOL_NOT_ALLOWED', `MCP tool '${tool}' is not available in this runtime`),
      log: () => undefined,
    });
    const session = new Session(capability, token, this.#sessionHost, broker);
    this.#sessions.set(session.id, { session });
    try {
      await session.start();
    } catch (error) {
      this.#sessions.delete(session.id);
      throw error;
    }
    return session;
  }

  readonly #sessionHost: SessionHost = {
    takeWorker: (heapMb) => this.#pool.take(heapMb),
    listTools: async (capability) => this.#listTools(capability),
    admit: async (session, name, args) => this.#admit(session, name, args),
    record: () => undefined,
    attenuate: async (parent, request) => this.#attenuate(parent, request),
    workerEnded: async (_session: Session, _end: WorkerEnd) => undefined,
    closed: async (session) => {
      this.#sessions.delete(session.id);
    },
  };

  async #listTools(capability: Capability): Promise<ToolInfo[]> {
    const hostTools = await this.#hostTools(capability.toolModules);
    return capability.tools.flatMap((name) => {
      if (isBuiltinTool(name)) return [describeBuiltinTool(name)];
      const info = hostTools.get(name);
      return info ? [info] : [];
    });
  }

  #admit(session: Session, name: string, args: Record<string, unknown>): ToolResult | undefined {
    if (!session.capability.tools.includes(name)) {
      return errorResult('TOOL_NOT_ALLOWED', `tool '${name}' is not in this session's capability (allowed: ${session.capability.tools.join(', ') || 'none'})`);
    }
    if (isBuiltinTool(name)) {
      try {
        validateBuiltinArgs(name, args);
      } catch (error) {
        const plain = toPlainError(error);
        return errorResult(plain.code, plain.message);
      }
    }
    return undefined;
  }

  async #attenuate(parent: Session, request: NarrowRequest): Promise<Session> {
    const canonical: NarrowRequest = { ...request };
    if (request.workspaceRoot !== undefined) canonical.workspaceRoot = canonicalDirectory(request.workspaceRoot, 'workspaceRoot');
    if (request.readRoots !== undefined) canonical.readRoots = request.readRoots.map((root, i) => canonicalDirectory(root, `readRoots[${i}]`));
    const child = narrowCapability(parent.capability, canonical, randomUUID(), {
      isInside: (child, root) => isInside(child, root, path),
      narrowMcp: (parentEntries, requested) => {
        for (const entry of requested) if (!parentEntries.includes(entry)) throw new ToolwardenError('ESCALATION', `MCP entry '${entry}' is not allowed to the parent`);
        return [...requested];
      },
    });
    const token = await signCapability(child, this.#key, DEFAULT_TOKEN_TTL_SECONDS);
    return this.#open(child, token);
  }

  #assertOpen(): void {
    if (this.#closed) throw new ToolwardenError('SESSION_CLOSED', 'the runtime is closed');
  }
}

/** Creates a runtime; see {@link RuntimeOptions}. */
export async function createRuntime(options: RuntimeOptions = {}): Promise<Runtime> {
  const runtime = new Runtime(options);
  try {
    await runtime.init();
  } catch (error) {
    await runtime.close();
    throw error;
  }
  return runtime;
}

function normalizeKey(key: Uint8Array | string | undefined): Uint8Array {
  if (key === undefined) return new Uint8Array(randomBytes(32));
  const bytes = typeof key === 'string' ? new TextEncoder().encode(key) : key;
  if (bytes.length < 32) throw new ToolwardenError('INVALID_OPTIONS', 'key must be at least 32 bytes');
  return bytes;
}
