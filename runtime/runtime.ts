import { ToolwardenError } from '../src/errors.js';
import type { Capability } from '../src/capability/capability.js';
import type { JSONWebKeySet } from 'jose';
import { DEFAULT_BLOCKLIST } from '../src/path-guard/index.js';
import { applyBlockedPathsOption } from '../src/path-guard/blocklist-option.js';
import { parseTokenBounds } from '../src/capability/token-bounds-option.js';
import { deepFreeze } from '../src/deep-freeze.js';
import { DEFAULT_LIMITS } from '../src/limits.js';
import { validateMcpServers } from '../src/mcp/index.js';
import { checkRuleTools, validatePermissionSpec } from '../src/policy/index.js';
import { validateTenants } from '../src/tenants/index.js';
import type { NarrowRequest } from '../src/capability/narrow.js';
import { createAuditSink } from './audit/index.js';
import { CapabilityAuthority, type IssuedCapability } from './capability/capability-authority.js';
import { SessionSlots } from './capability/session-slots.js';
import { McpHub } from './mcp/index.js';
import { PolicyGate, type Approver } from './policy/policy-gate.js';
import { createHostCharsetProbe, resolveShell, warmProcessLauncher } from './processes/index.js';
import { SandboxProvider } from './sandbox/sandbox-provider.js';
import { ZygoteSlots, zygoteSettingsOf } from './sandbox/zygote-slots.js';
import { WalkPool } from './walk/index.js';
import { Session } from './session/session.js';
import { createSessionServices, type RuntimeServices } from './session/session-services.js';
import { createUpstreamTrust } from './net/upstream-trust.js';
import { parseUpstreamCa } from '../src/net/upstream-ca.js';
import { inspectionOf, type SessionInspection } from './session/session-inspection.js';
import { checkOptionKeys, type SessionOptions } from './session/session-options.js';
import { checkRuntimeOptions, type RuntimeOptions, type RuntimeStats, type TokenInfo } from './runtime-options.js';
import { HostToolCatalog } from './tool-hosts/host-tool-catalog.js';
import { toModuleUrls } from './tool-hosts/probe-tool-modules.js';
import { processLink } from './tool-hosts/process-link.js';
import { workerLink } from './tool-hosts/worker-link.js';
import { WorkerPool } from './tool-hosts/worker-pool.js';
import type { ToolHostLink } from './tool-hosts/tool-host-connection.js';

export type { RuntimeOptions, RuntimeStats, TokenInfo } from './runtime-options.js';
export type { SessionInspection } from './session/session-inspection.js';

/**
 * The toolwarden runtime: a registry of sessions. It issues their capabilities, counts them against the quotas, keeps
 * a warm pool of workers and the services sessions share (rules and approvals, audit, walks, MCP connections, the
 * OS sandbox). Each session then runs its own calls.
 * @example
 * const rt = await createRuntime();
 * const s = await rt.openSession({ workspaceRoot: '.', tools: ['read_file'] });
 */
export class Runtime {
  readonly #options: RuntimeOptions;
  readonly #pool: WorkerPool;
  readonly #services: RuntimeServices;
  readonly #sandbox: SandboxProvider;
  readonly #hostTools: HostToolCatalog;
  readonly #authority: CapabilityAuthority;
  readonly #slots: SessionSlots;
  readonly #sessions = new Map<string, Session>();
  readonly #runtimeModules: readonly string[];
  #closed = false;
  #pendingApprovals = 0;

  /** @internal use {@link createRuntime} */
  constructor(options: RuntimeOptions) {
    checkRuntimeOptions(options);
    this.#options = options;
    const mcpServers = options.mcpServers === undefined ? undefined : validateMcpServers(options.mcpServers);
    const given = options.tenants ?? options.tenantOf;
    const tenants = given === undefined ? undefined : typeof given === 'function' ? given : validateTenants(given, Object.keys(mcpServers ?? {}));
    const permissions = options.permissions === undefined ? undefined : validatePermissionSpec(options.permissions, 'createRuntime permissions');
    this.#runtimeModules = toModuleUrls(options.toolModules ?? []);
    const zygoteSettings = zygoteSettingsOf(options.sandboxZygote);
    const zygoteSlots = zygoteSettings === undefined ? undefined : new ZygoteSlots(zygoteSettings);
    const sandbox = (this.#sandbox = new SandboxProvider({ zygoteSlots, allowSharedPidNamespace: options.allowSharedPidNamespace === true }));
    const defaultMode = options.sandbox ?? 'auto';
    const mcp = mcpServers ? new McpHub(mcpServers, tenants) : undefined;
    const upstreamTrust = options.upstreamCa === undefined ? undefined : createUpstreamTrust(parseUpstreamCa(options.upstreamCa));
    this.#services = {
      gate: new PolicyGate(permissions, options.approve === undefined ? undefined : this.#countingApprovals(options.approve)),
      audit: createAuditSink(options.audit),
      walk: new WalkPool(),
      mcp,
      shell: resolveShell(process.platform, options.shell),
      charsetProbe: createHostCharsetProbe(),
      sandboxFor: (mode) => sandbox.sandboxFor(mode),
      zygoteSlots,
      upstreamTrust,
    };
    this.#hostTools = new HostToolCatalog({
      loadTimeoutMs: options.moduleLoadTimeoutMs ?? 30_000,
      startProcess: (urls, heapMb) => sandbox.startToolProcess(urls, heapMb, defaultMode),
      mcpServerIds: mcp?.serverIds ?? [],
    });
    this.#authority = new CapabilityAuthority({
      key: options.key,
      tokenKeys: options.tokenKeys,
      tokenBounds: parseTokenBounds(options.tokenBounds),
      blocklist: applyBlockedPathsOption(DEFAULT_BLOCKLIST, options.blockedPaths, 'createRuntime blockedPaths'),
      tenants,
      sandbox: defaultMode,
      runtimeModules: this.#runtimeModules,
      mcp,
      hostTools: this.#hostTools,
    });
    this.#slots = new SessionSlots({ maxSessions: options.maxSessions ?? 1024, maxSessionsPerUser: options.maxSessionsPerUser, tenants });
    this.#pool = new WorkerPool({ size: options.idleWorkers ?? 2, heapMb: DEFAULT_LIMITS.workerHeapMb });
    mcp?.onToolsChanged((serverId, user) => {
      for (const session of this.#sessions.values()) {
        if (session.services.permissions.mcp.uses(serverId, user)) session.notifyToolsChanged();
      }
    });
  }

  /** @internal loads the runtime's host tool modules once, so a bad module fails createRuntime. */
  async init(): Promise<void> {
    // Commands are spawned by a small launcher process: start it while this process is still small to fork.
    warmProcessLauncher();
    const hostTools = await this.#hostTools.tools(this.#runtimeModules, 'worker');
    if (this.#options.permissions !== undefined) checkRuleTools(this.#options.permissions, 'createRuntime permissions', this.#hostTools.known(hostTools));
  }

  /** Number of open sessions. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** What is live now, for metrics and dashboards: sessions (per user), running background processes, pending approvals, idle workers. */
  stats(): RuntimeStats {
    const sessionsByUser: Record<string, number> = {};
    let processes = 0;
    for (const session of this.#sessions.values()) {
      const user = session.user ?? '';
      sessionsByUser[user] = (sessionsByUser[user] ?? 0) + 1;
      processes += session.services.bash.runningProcesses;
    }
    return { sessions: this.#sessions.size, sessionsByUser, processes, pendingApprovals: this.#pendingApprovals, idleWorkers: this.#pool.idleCount, zygotes: this.#services.zygoteSlots?.used ?? 0 };
  }

  /** An operator's view of an open session (its background processes, its write quota); undefined once it closed. */
  inspectSession(sessionId: string): SessionInspection | undefined {
    const session = this.#sessions.get(sessionId);
    return session === undefined ? undefined : inspectionOf(session.services);
  }

  /**
   * Signs a capability token for the given options, to open a session with later in a runtime sharing the key (or,
   * with `tokenKeys.privateKey`, in any runtime holding its public key). A runtime whose `tokenKeys` has public keys
   * only mints nothing: INVALID_OPTIONS.
   */
  async mintToken(options: SessionOptions): Promise<string> {
    this.#assertOpen();
    return this.#authority.mint(options);
  }

  /**
   * Checks a token as {@link openSession} would (signature, expiry, the user's tenant) without opening anything, and
   * says whose it is. Throws TOKEN_INVALID or ESCALATION like openSession.
   */
  async verifyToken(token: string): Promise<TokenInfo> {
    this.#assertOpen();
    const { capability, expiresAt } = await this.#authority.verify(token);
    return { sid: capability.sid, ...(capability.user === undefined ? {} : { user: capability.user }), expiresAt, tools: [...capability.tools], workspaceRoot: capability.workspaceRoot };
  }

  /** The Ed25519 public keys this runtime accepts, as a JWKS to hand to serving nodes; empty without `tokenKeys`. */
  get tokenPublicKeys(): JSONWebKeySet {
    return this.#authority.publicKeys;
  }

  /**
   * Opens a session from options or from a token. A tampered, expired or foreign token throws TOKEN_INVALID;
   * a user asking for more than their tenant allows throws ESCALATION.
   * @example await rt.openSession({ workspaceRoot: '/repo', tools: ['read_file', 'grep'] })
   */
  async openSession(options: SessionOptions): Promise<Session> {
    this.#assertOpen();
    checkOptionKeys(options);
    const fromToken = options.token !== undefined;
    const issued = options.token !== undefined ? await this.#authority.verify(options.token) : await this.#authority.issue(options);
    return this.#open(issued, fromToken);
  }

  /** Closes every session (killing their processes), the worker pools and the MCP connections. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#sessions.values()].map((session) => session.close()));
    await Promise.all([this.#pool.close(), this.#services.walk.close(), this.#services.mcp?.close()]);
    await this.#services.audit.close();
  }

  /** The host's approver, counted while it is deciding. */
  #countingApprovals(approve: Approver): Approver {
    return async (request) => {
      this.#pendingApprovals += 1;
      try {
        return await approve(request);
      } finally {
        this.#pendingApprovals -= 1;
      }
    };
  }

  async #open(issued: IssuedCapability, fromToken: boolean): Promise<Session> {
    // A session's capability is read for its whole life, and its rule layers are shared with its children: frozen,
    // so no holder of the session or of a child can widen it afterwards. Every capability is built from copies (the
    // options are parsed, tokens decoded, children narrowed), so no object of the host's is frozen with it.
    const capability = deepFreeze(issued.capability);
    // The slot is taken before the first await, so concurrent opens cannot all pass the same check.
    this.#slots.take({ sid: capability.sid, user: capability.user, fromToken });
    let session: Session | undefined;
    try {
      const services = await createSessionServices(this.#services, capability);
      session = new Session({
        capability,
        token: issued.token,
        tokenExpiresAt: issued.expiresAt,
        services,
        startHost: () => this.#startHost(capability),
        hostTools: () => this.#hostTools.tools(capability.toolModules, capability.isolation),
        audit: this.#options.audit === undefined ? undefined : this.#services.audit,
        openChild: (parent, request) => this.#openChild(parent, request),
        onClose: (closed) => this.#forget(closed),
      });
      this.#sessions.set(session.id, session);
      await session.start();
      return session;
    } catch (error) {
      if (session !== undefined) await session.close();
      else this.#slots.release(capability.sid);
      throw error;
    }
  }

  /** A child of `parent`, narrowed by the authority and opened here, so it counts against the same quotas. */
  async #openChild(parent: Session, request: NarrowRequest): Promise<Session> {
    this.#assertOpen();
    return this.#open(await this.#authority.narrow(parent.capability, parent.tokenExpiresAt, request), false);
  }

  /** A closed session leaves the registry; its user's MCP connections go with their last session. */
  async #forget(session: Session): Promise<void> {
    this.#sessions.delete(session.id);
    this.#slots.release(session.id);
    const { user } = session;
    if (user !== undefined && !this.#slots.holdsUser(user) && !this.#closed) await this.#services.mcp?.releaseUser(user);
  }

  /** A tool host for a capability: a pooled worker thread, or a tool process for `isolation: 'process'`. */
  async #startHost(capability: Capability): Promise<ToolHostLink> {
    const heapMb = capability.limits.workerHeapMb;
    if (capability.isolation === 'process') return processLink(await this.#sandbox.startToolProcess([...capability.toolModules], heapMb, capability.sandbox));
    return workerLink(await this.#pool.take(heapMb));
  }

  #assertOpen(): void {
    if (this.#closed) throw new ToolwardenError('SESSION_CLOSED', 'the runtime is closed');
  }
}

/** Creates a runtime; see {@link RuntimeOptions}. A bad option or tool module fails here, naming itself. */
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
