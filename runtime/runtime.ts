import { randomBytes, randomUUID } from 'node:crypto';
import { ZygoteSlots, zygoteSettingsOf } from './sandbox/zygote-slots.js';
import path from 'node:path';
import { ToolwardenError, toPlainError } from '../src/errors.js';
import type { Capability } from '../src/capability/capability.js';
import { narrowCapability, parseNarrowRequest, type NarrowRequest } from '../src/capability/narrow.js';
import { childExpiry, DEFAULT_TOKEN_TTL_SECONDS } from '../src/capability/expiry.js';
import { nowSeconds, signCapability, verifyCapability, type TokenSigner } from '../src/capability/token.js';
import { parseTokenKeys, publicJwks, type TokenKeys } from '../src/capability/token-keys.js';
import { bindTokenToNode, type NodeFloor } from '../src/capability/token-bound.js';
import { parseTokenBounds } from '../src/capability/token-bounds-option.js';
import type { JSONWebKeySet } from 'jose';
import { DEFAULT_BLOCKLIST, type BlockedEntry } from '../src/path-guard/index.js';
import { applyBlockedPathsOption } from '../src/path-guard/blocklist-option.js';
import { errorResult } from '../src/tool-result.js';
import { deepFreeze } from '../src/deep-freeze.js';
import { BUILTIN_TOOL_NAMES, builtinTool, isBuiltinTool } from '../src/tools/builtin-schemas.js';
import { describeBuiltinTool, type ToolInfo } from '../src/tools/tool-info.js';
import { DEFAULT_LIMITS } from '../src/limits.js';
import { narrowMcpEntries, parseMcpEntries, validateMcpServers, formatMcpEntry } from '../src/mcp/index.js';
import { checkRuleTools, narrowPermissions, preRuleRule, validatePermissionSpec, type KnownTools } from '../src/policy/index.js';
import { bindSessionToTenant, resolveTenant, validateTenants, type TenantConfig, type TenantsOption } from '../src/tenants/index.js';
import { auditOutcome } from '../src/audit/index.js';
import { createAuditSink } from './audit/index.js';
import { planCall } from './call-plan.js';
import { assertMcpConfigured } from './mcp-access.js';
import { McpHub } from './mcp/index.js';
import { PolicyGate, refusalResult, type Approver } from './policy/policy-gate.js';
import { describeRequest } from './policy/admission-request.js';
import { createHostCharsetProbe, resolveShell, warmProcessLauncher } from './processes/index.js';
import { createSandbox, featuresOf, withoutZygote, type SandboxChoice } from './sandbox/create-sandbox.js';
import { detectSandbox, type SandboxDetection } from './sandbox/detect-sandbox.js';
import { runSandboxSelfTest, runZygoteSelfTest, zygoteUsable } from './sandbox/run-self-test.js';
import type { SelfTestCheck } from '../src/sandbox/self-test.js';
import { WalkPool } from './walk/index.js';
import { assertCapabilityWithinTenant } from './tenant-bound.js';
import { Session, type Admission, type SessionHost } from './session.js';
import { createSessionServices, type RuntimeServices, type SessionServices } from './session-services.js';
import { inspectionOf, type SessionInspection } from './session-inspection.js';
import { buildCapability, checkOptionKeys, canonicalDirectory, type SessionOptions } from './session-options.js';
import { checkRuntimeOptions, type RuntimeOptions, type RuntimeStats, type TokenInfo } from './runtime-options.js';
import { WorkerPool } from './workers/worker-pool.js';
import { probeToolModules, toModuleUrls } from './host-tools/probe-tool-modules.js';
import { startToolProcess, type ToolProcess } from './isolation/start-tool-process.js';
import type { CallContext } from './call-context.js';
import { checkPidNamespace } from '../src/isolation/pid-namespace.js';

export type { RuntimeOptions, RuntimeStats, TokenInfo } from './runtime-options.js';
export type { SessionInspection } from './session-inspection.js';

/**
 * The toolwarden runtime: it signs capabilities, keeps a warm pool of workers, owns every session's broker and
 * every MCP connection, and applies the host's rules, approvals and audit.
 * @example
 * const rt = await createRuntime();
 * const s = await rt.openSession({ workspaceRoot: '.', tools: ['read_file'] });
 */
export class Runtime {
  readonly #key: Uint8Array;
  readonly #tokenKeys: TokenKeys | undefined;
  /** What signs the tokens of sessions this runtime opens: the Ed25519 key when given, else the HS256 key. */
  readonly #signer: TokenSigner;
  readonly #options: RuntimeOptions;
  readonly #pool: WorkerPool;
  readonly #services: RuntimeServices;
  readonly #sessions = new Map<string, { session: Session; services: SessionServices }>();
  /** Sessions being opened, by id, with their user: they count against the quotas already. */
  readonly #opening = new Map<string, string | undefined>();
  readonly #runtimeModules: readonly string[];
  readonly #tenants: TenantsOption | undefined;
  /** The blocklist sessions start from (`DEFAULT_BLOCKLIST` edited by the runtime's `blockedPaths`). */
  readonly #blocklist: readonly BlockedEntry[];
  /** The node's bound on network, limits and credentials for tokens signed by another party (`tokenBounds`). */
  readonly #tokenBounds: Pick<NodeFloor, 'net' | 'limits' | 'credentials'>;
  /** Host tool listings per module set (the runtime's modules plus a session's own). */
  readonly #hostToolSets = new Map<string, Promise<Map<string, ToolInfo>>>();
  #sandboxDetection: Promise<SandboxDetection> | undefined;
  #sandboxSelfTest: Promise<SelfTestCheck[]> | undefined;
  #zygoteSelfTest: Promise<boolean> | undefined;
  #closed = false;
  #pendingApprovals = 0;

  /** @internal use {@link createRuntime} */
  constructor(options: RuntimeOptions) {
    checkRuntimeOptions(options);
    this.#options = options;
    this.#key = normalizeKey(options.key);
    this.#tokenKeys = options.tokenKeys === undefined ? undefined : parseTokenKeys(options.tokenKeys);
    this.#signer = this.#tokenKeys?.signer ?? this.#key;
    this.#tokenBounds = parseTokenBounds(options.tokenBounds);
    this.#blocklist = applyBlockedPathsOption(DEFAULT_BLOCKLIST, options.blockedPaths, 'createRuntime blockedPaths');
    const mcpServers = options.mcpServers === undefined ? undefined : validateMcpServers(options.mcpServers);
    const given = options.tenants ?? options.tenantOf;
    const tenants = given === undefined ? undefined : typeof given === 'function' ? given : validateTenants(given, Object.keys(mcpServers ?? {}));
    this.#tenants = tenants;
    const permissions = options.permissions === undefined ? undefined : validatePermissionSpec(options.permissions, 'createRuntime permissions');
    this.#runtimeModules = toModuleUrls(options.toolModules ?? []);
    const zygoteSettings = zygoteSettingsOf(options.sandboxZygote);
    this.#services = {
      gate: new PolicyGate(permissions, options.approve === undefined ? undefined : this.#countingApprovals(options.approve)),
      audit: createAuditSink(options.audit),
      walk: new WalkPool(),
      mcp: mcpServers ? new McpHub(mcpServers, tenants) : undefined,
      shell: resolveShell(process.platform, options.shell),
      charsetProbe: createHostCharsetProbe(),
      sandboxFor: (mode) => this.#sandboxFor(mode),
      zygoteSlots: zygoteSettings === undefined ? undefined : new ZygoteSlots(zygoteSettings),
    };
    this.#pool = new WorkerPool({ size: options.idleWorkers ?? 2, heapMb: DEFAULT_LIMITS.workerHeapMb });
    this.#services.mcp?.onToolsChanged((serverId, user) => {
      for (const { session, services } of this.#sessions.values()) {
        if (services.mcp.uses(serverId, user)) session.notifyToolsChanged();
      }
    });
  }

  /** @internal loads the runtime's host tool modules once, so a bad module fails createRuntime. */
  async init(): Promise<void> {
    // Commands are spawned by a small launcher process: start it while this process is still small to fork.
    warmProcessLauncher();
    const hostTools = await this.#hostTools(this.#runtimeModules, 'worker');
    if (this.#options.permissions !== undefined) checkRuleTools(this.#options.permissions, 'createRuntime permissions', this.#knownTools(hostTools));
  }

  /** The tools rules may name for a module set: built-in, its host tools, and tools of the configured MCP servers. */
  #knownTools(hostTools: ReadonlyMap<string, ToolInfo>): KnownTools {
    return { names: [...BUILTIN_TOOL_NAMES, ...hostTools.keys()], mcpServerIds: this.#services.mcp?.serverIds ?? [] };
  }

  /** Number of open sessions. */
  get sessionCount(): number {
    return this.#sessions.size;
  }

  /** What is live now, for metrics and dashboards: sessions (per user), running background processes, pending approvals, idle workers. */
  stats(): RuntimeStats {
    const sessionsByUser: Record<string, number> = {};
    let processes = 0;
    for (const { session, services } of this.#sessions.values()) {
      const user = session.user ?? '';
      sessionsByUser[user] = (sessionsByUser[user] ?? 0) + 1;
      processes += services.bash.runningProcesses;
    }
    return { sessions: this.#sessions.size, sessionsByUser, processes, pendingApprovals: this.#pendingApprovals, idleWorkers: this.#pool.idleCount, zygotes: this.#services.zygoteSlots?.used ?? 0 };
  }

  /** An operator's view of an open session (its background processes, its write quota); undefined once it closed. */
  inspectSession(sessionId: string): SessionInspection | undefined {
    const services = this.#sessions.get(sessionId)?.services;
    return services === undefined ? undefined : inspectionOf(services);
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

  /**
   * Signs a capability token for the given options, to open a session with later in a runtime sharing the key (or,
   * with `tokenKeys.privateKey`, in any runtime holding its public key). A runtime whose `tokenKeys` has public keys
   * only mints nothing: INVALID_OPTIONS.
   */
  async mintToken(options: SessionOptions): Promise<string> {
    this.#assertOpen();
    if (options.token !== undefined) throw new ToolwardenError('INVALID_OPTIONS', 'mintToken takes capability options, not a token');
    if (this.#tokenKeys !== undefined && this.#tokenKeys.signer === undefined) {
      throw new ToolwardenError('INVALID_OPTIONS', 'mintToken: this runtime verifies tokens only (tokenKeys has publicKeys and no privateKey)');
    }
    // Only a token for other nodes may name a credential without its value: the node opening it fills it in.
    const capability = await this.#capabilityFrom(options, !(this.#signer instanceof Uint8Array));
    return signCapability(capability, this.#signer, options.ttlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS);
  }

  /**
   * Checks a token as {@link openSession} would (signature, expiry, the user's tenant) without opening anything, and
   * says whose it is. Throws TOKEN_INVALID or ESCALATION like openSession.
   */
  async verifyToken(token: string): Promise<TokenInfo> {
    this.#assertOpen();
    const verified = await verifyCapability(token, this.#key, this.#tokenKeys);
    const capability = this.#boundToken(verified.capability, verified.signedBy);
    const { expiresAt } = verified;
    return { sid: capability.sid, ...(capability.user === undefined ? {} : { user: capability.user }), expiresAt, tools: [...capability.tools], workspaceRoot: capability.workspaceRoot };
  }

  /**
   * A verified token's capability within its user's tenant and, when another party signed it, within this node, its
   * credential references filled with the node's values.
   */
  #boundToken(capability: Capability, signedBy: 'hs256' | 'ed25519'): Capability {
    assertCapabilityWithinTenant(capability, resolveTenant(this.#tenants, capability.user));
    if (signedBy === 'hs256') return capability;
    return bindTokenToNode(capability, {
      sandbox: this.#options.sandbox ?? 'auto',
      toolModules: this.#runtimeModules,
      blocklist: this.#blocklist,
      ...this.#tokenBounds,
      mcpServerIds: this.#services.mcp?.serverIds ?? [],
    });
  }

  /** The Ed25519 public keys this runtime accepts, as a JWKS to hand to serving nodes; empty without `tokenKeys`. */
  get tokenPublicKeys(): JSONWebKeySet {
    return this.#tokenKeys === undefined ? { keys: [] } : publicJwks(this.#tokenKeys);
  }

  /**
   * Opens a session from options or from a token. A tampered, expired or foreign token throws TOKEN_INVALID;
   * a user asking for more than their tenant allows throws ESCALATION.
   * @example await rt.openSession({ workspaceRoot: '/repo', tools: ['read_file', 'grep'] })
   */
  async openSession(options: SessionOptions): Promise<Session> {
    this.#assertOpen();
    checkOptionKeys(options);
    let capability: Capability;
    // Signed when first read (session.token): most hosts never read it, and signing costs a warm open a tenth of a ms.
    let token: string | (() => string);
    let expiresAt: number;
    if (options.token !== undefined) {
      const verified = await verifyCapability(options.token, this.#key, this.#tokenKeys);
      capability = this.#boundToken(verified.capability, verified.signedBy);
      expiresAt = verified.expiresAt;
      if (this.#sessions.has(capability.sid) || this.#opening.has(capability.sid)) {
        throw new ToolwardenError('TOKEN_INVALID', `token ${capability.sid} is already bound to an open session; mint a new one`);
      }
      token = options.token;
    } else {
      capability = await this.#capabilityFrom(options);
      const ttl = options.ttlSeconds ?? DEFAULT_TOKEN_TTL_SECONDS;
      const minted = capability;
      const issuedAt = nowSeconds();
      expiresAt = issuedAt + ttl;
      token = () => signCapability(minted, this.#signer, ttl, issuedAt);
    }
    return this.#open(capability, token, expiresAt);
  }

  /** Closes every session (killing their processes), the worker pools and the MCP connections. Idempotent. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await Promise.all([...this.#sessions.values()].map(({ session }) => session.close()));
    await Promise.all([this.#pool.close(), this.#services.walk.close(), this.#services.mcp?.close()]);
    await this.#services.audit.close();
  }

  /** Validates options against the user's tenant and builds the capability (`credentialReferences`: see buildCapability). */
  async #capabilityFrom(options: SessionOptions, credentialReferences = false): Promise<Capability> {
    const tenant = resolveTenant(this.#tenants, options.user);
    const bound = bindSessionToTenant(
      { ...(options.tools ? { tools: [...options.tools] } : {}), ...(options.mcpServers ? { mcpServers: [...options.mcpServers] } : {}) },
      tenant,
      options.user,
    );
    const capability = buildCapability(
      {
        ...options,
        ...(bound.tools ? { tools: bound.tools } : {}),
        mcpServers: bound.mcpServers,
        ...(options.workspaceRoot === undefined && tenant?.workspaceRoot ? { workspaceRoot: tenant.workspaceRoot } : {}),
        ...(options.readRoots === undefined && tenant?.readRoots ? { readRoots: tenant.readRoots } : {}),
        ...(options.toolModules ? { toolModules: toModuleUrls(options.toolModules) } : {}),
        ...(options.permissions ? { permissions: validatePermissionSpec(options.permissions, 'openSession permissions') } : {}),
      },
      { sandbox: this.#options.sandbox ?? 'auto', toolModules: this.#runtimeModules, blocklist: this.#blocklist },
      credentialReferences,
    );
    assertCapabilityWithinTenant(capability, tenant);
    assertMcpConfigured(this.#services.mcp, capability);
    parseMcpEntries(capability.mcpServers, this.#services.mcp?.serverIds ?? []);
    const hostTools = await this.#hostTools(capability.toolModules, capability.isolation);
    for (const tool of capability.tools) {
      if (!isBuiltinTool(tool) && !hostTools.has(tool)) {
        const known = [...BUILTIN_TOOL_NAMES, ...hostTools.keys()].join(', ');
        throw new ToolwardenError('INVALID_OPTIONS', `unknown tool '${tool}' in tools; known: ${known}`);
      }
    }
    for (const layer of capability.permissions) checkRuleTools(layer, 'openSession permissions', this.#knownTools(hostTools));
    return capability;
  }

  /** Listings of the host tools a module set defines; a name may not shadow a built-in tool. */
  #hostTools(moduleUrls: readonly string[], isolation: Capability['isolation']): Promise<Map<string, ToolInfo>> {
    const key = [isolation, ...moduleUrls].join('\n');
    let pending = this.#hostToolSets.get(key);
    if (!pending) {
      pending = moduleUrls.length === 0 ? Promise.resolve(new Map()) : probeToolModules(moduleUrls, DEFAULT_LIMITS.workerHeapMb, this.#options.moduleLoadTimeoutMs ?? 30_000, isolation, (urls, heapMb) => this.#startToolProcess(urls, heapMb, this.#options.sandbox ?? 'auto')).then((infos) => {
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

  async #open(given: Capability, token: string | (() => string), expiresAt: number): Promise<Session> {
    // A session's capability is read for its whole life, and its rule layers are shared with its children: frozen,
    // so no holder of the session or of a child can widen it afterwards. Every capability is built from copies (the
    // options are parsed, tokens decoded, children narrowed), so no object of the host's is frozen with it.
    const capability = deepFreeze(given);
    // The slot is taken before the first await, so concurrent opens cannot all pass the same check.
    this.#reserveSlot(capability);
    let services: SessionServices | undefined;
    try {
      services = await createSessionServices(this.#services, capability);
      const session = new Session(capability, token, this.#sessionHost, services.brokerServer, services.calls, expiresAt);
      // From here the session counts as open, not as opening.
      this.#opening.delete(capability.sid);
      this.#sessions.set(session.id, { session, services });
      await session.start();
      return session;
    } catch (error) {
      this.#sessions.delete(capability.sid);
      await services?.bash.close();
      throw error;
    } finally {
      this.#opening.delete(capability.sid);
    }
  }

  /** Checks the session quotas, counting opens in progress, and holds a slot for this one. */
  #reserveSlot(capability: Capability): void {
    const maxSessions = this.#options.maxSessions ?? 1024;
    if (this.#sessions.size + this.#opening.size >= maxSessions) {
      throw new ToolwardenError('SESSION_LIMIT', `the runtime already has ${maxSessions} open sessions (maxSessions)`);
    }
    const user = capability.user;
    if (user !== undefined) {
      const tenant: TenantConfig | undefined = resolveTenant(this.#tenants, user);
      const perUser = tenant?.maxSessions ?? this.#options.maxSessionsPerUser;
      const open = [...this.#sessions.values()].filter(({ session }) => session.user === user).length + [...this.#opening.values()].filter((u) => u === user).length;
      if (perUser !== undefined && open >= perUser) {
        throw new ToolwardenError('SESSION_LIMIT', `user '${user}' already has ${open} open sessions (maxSessions per user is ${perUser})`);
      }
    }
    this.#opening.set(capability.sid, user);
  }

  readonly #sessionHost: SessionHost = {
    takeWorker: (heapMb) => this.#pool.take(heapMb),
    startToolProcess: (moduleUrls, heapMb, sandbox) => this.#startToolProcess(moduleUrls, heapMb, sandbox),
    listTools: (capability) => this.#listTools(capability),
    admit: (session, name, args, context) => this.#admit(session, name, args, context),
    record: (session, name, args, result, durationMs, admission) => {
      if (this.#options.audit === undefined) return;
      const { decision, rule } = auditOutcome(admission, result);
      this.#services.audit.emit({
        time: new Date(Date.now() - durationMs).toISOString(),
        sessionId: session.id,
        ...(session.user === undefined ? {} : { user: session.user }),
        tool: name,
        args,
        decision,
        ...(rule === undefined ? {} : { rule }),
        ...(result.code === undefined ? {} : { code: result.code }),
        durationMs: Math.round(durationMs * 1000) / 1000,
        result: result.content.map((c) => c.text).join('\n'),
      });
    },
    attenuate: (parent, request) => this.#attenuate(parent, request),
    closed: async (session) => {
      const record = this.#sessions.get(session.id);
      this.#sessions.delete(session.id);
      record?.services.mcp.close();
      await record?.services.bash.close();
      const user = session.user;
      const stillOpen = user !== undefined && [...this.#sessions.values()].some((other) => other.session.user === user);
      if (user !== undefined && !stillOpen && !this.#closed) await this.#services.mcp?.releaseUser(user);
    },
  };

  async #listTools(capability: Capability): Promise<ToolInfo[]> {
    const hostTools = await this.#hostTools(capability.toolModules, capability.isolation);
    const local = capability.tools.flatMap((name) => {
      if (isBuiltinTool(name)) return [describeBuiltinTool(name)];
      const info = hostTools.get(name);
      return info ? [info] : [];
    });
    const services = this.#sessions.get(capability.sid)?.services;
    const remote = services
      ? await services.mcp.listTools((serverId, error) => {
          this.#services.audit.emit({ time: new Date().toISOString(), sessionId: capability.sid, tool: 'toolwarden', args: { event: 'mcp-list', serverId }, decision: 'error', code: toPlainError(error).code, durationMs: 0, result: toPlainError(error).message });
        })
      : [];
    return [...local, ...remote];
  }

  /**
   * Visibility, argument validation, the path guard and the rules, all decided by one admit() (bash is admitted per
   * command in the broker, where it is parsed); the refusal's tool result is made here, from admit()'s data.
   */
  async #admit(session: Session, name: string, args: Record<string, unknown>, context: CallContext): Promise<Admission> {
    const services = this.#sessions.get(session.id)?.services;
    if (!services) return { decision: 'deny', refusal: errorResult('SESSION_CLOSED', `session ${session.id} is closed`) };
    const visible = name.startsWith('mcp__') ? services.mcp.allows(name) : session.capability.tools.includes(name);
    // What the capability does expose is told only in a refusal, so it is listed only for one.
    const allowed = visible ? [] : [...session.capability.tools, ...session.capability.mcpServers.map((entry) => `MCP ${entry}`)];
    const exposure = { visible, allowed };
    if (visible && builtinTool(name)?.subject === 'commands') {
      // A tool admitted per command (bash) is admitted in the broker, where its commands are parsed and run.
      return { decision: 'allow', ...(await planCall(services, name, args, context)) };
    }
    const gate = this.#services.gate;
    const request = describeRequest(services.paths, name, args, { exposure, validateArgs: true, rulesMention: gate.hasRulesFor(services.gateSession, name) });
    const outcome = await gate.enforce(services.gateSession, request, args, context);
    if (outcome.decision === 'deny') return { decision: 'deny', rule: outcome.rule, reason: outcome.reason, refusal: refusalResult(outcome) };
    try {
      return { decision: 'allow', rule: outcome.rule, reason: outcome.reason, ...(await planCall(services, name, args, context)) };
    } catch (error) {
      const plain = toPlainError(error);
      return { decision: 'deny', rule: preRuleRule(plain.code), reason: plain.message, refusal: errorResult(plain.code, plain.message) };
    }
  }

  /** A child of `parent`: the request shape-checked, its paths canonical, every field narrowed, its token bounded by the parent's. */
  async #attenuate(parent: Session, given: NarrowRequest): Promise<Session> {
    this.#assertOpen();
    const request = parseNarrowRequest(given);
    const now = nowSeconds();
    const expiresAt = childExpiry(parent.tokenExpiresAt, request.ttlSeconds, now);
    const canonical: NarrowRequest = { ...request };
    if (request.workspaceRoot !== undefined) canonical.workspaceRoot = canonicalDirectory(request.workspaceRoot, 'workspaceRoot');
    if (request.readRoots !== undefined) canonical.readRoots = request.readRoots.map((root, i) => canonicalDirectory(root, `readRoots[${i}]`));
    if (request.permissions !== undefined) {
      const hostTools = await this.#hostTools(parent.capability.toolModules, parent.capability.isolation);
      canonical.permissions = validatePermissionSpec(request.permissions, 'attenuate permissions', this.#knownTools(hostTools));
    }
    const child = narrowCapability(parent.capability, canonical, randomUUID(), {
      flavour: path,
      narrowMcp: (parentEntries, requested) => {
        const configured = this.#services.mcp?.serverIds ?? [];
        return narrowMcpEntries(parseMcpEntries(parentEntries, configured), requested).map(formatMcpEntry);
      },
      narrowPermissions: (parentLayers, requested) => narrowPermissions(parentLayers, requested),
    });
    return this.#open(child, () => signCapability(child, this.#signer, expiresAt - now, now), expiresAt);
  }

  /** An isolated tool host process, confined by bubblewrap too unless the sandbox is off or unavailable in 'auto'. */
  async #startToolProcess(moduleUrls: readonly string[], heapMb: number, mode: Capability['sandbox']): Promise<ToolProcess> {
    const choice = await this.#sandboxFor(mode);
    const detection = choice.sandbox.kind === 'bubblewrap' ? await this.#sandboxDetection : undefined;
    checkPidNamespace(detection?.path !== undefined, mode, this.#options.allowSharedPidNamespace === true);
    const sandbox = detection?.path === undefined ? undefined : { bwrapPath: detection.path, features: featuresOf(detection) };
    return startToolProcess(moduleUrls, heapMb, sandbox);
  }

  #sandboxFor(mode: Capability['sandbox']): Promise<SandboxChoice> {
    if (mode === 'off') return Promise.resolve(createSandbox('off', { available: false }));
    this.#sandboxDetection ??= detectSandbox();
    return this.#sandboxDetection.then(async (detection) => {
      // Proven once per runtime, before the first sandboxed command: a property that does not hold fails closed.
      const checks = detection.available ? await (this.#sandboxSelfTest ??= runSandboxSelfTest(detection)) : [];
      const choice = createSandbox(mode, detection, checks);
      if (choice.sandbox.zygote === undefined) return choice;
      // A session zygote is used only where the same properties hold for the commands it spawns; never weaker.
      const settings = this.#services.zygoteSlots?.settings;
      const zygoteOk = settings !== undefined && (await (this.#zygoteSelfTest ??= runZygoteSelfTest(detection).then((checks) => zygoteUsable(checks, settings.allowZygoteMemoryWrites))));
      return zygoteOk ? choice : { ...choice, sandbox: withoutZygote(choice.sandbox) };
    });
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

function normalizeKey(key: Uint8Array | string | undefined): Uint8Array {
  if (key === undefined) return new Uint8Array(randomBytes(32));
  const bytes = typeof key === 'string' ? new TextEncoder().encode(key) : key;
  if (bytes.length < 32) throw new ToolwardenError('INVALID_OPTIONS', 'key must be at least 32 bytes');
  return bytes;
}
