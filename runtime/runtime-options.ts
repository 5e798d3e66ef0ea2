import type { PermissionSpec } from '../src/policy/index.js';
import type { McpServersOption } from '../src/mcp/index.js';
import type { TenantConfig, TenantsOption } from '../src/tenants/index.js';
import type { SandboxMode } from '../src/capability/capability.js';
import type { AuditOption } from './audit/index.js';
import type { Approver } from './policy/policy-gate.js';
import { ToolwardenError } from '../src/errors.js';
import type { BlockedPathsOption } from '../src/path-guard/blocklist-option.js';
import type { TokenKeysOption } from '../src/capability/token-keys.js';
import type { TokenBoundsOption } from '../src/capability/token-bounds-option.js';

/** Options of {@link createRuntime}. */
export interface RuntimeOptions {
  /** Key that signs capability tokens (32+ bytes). @default 32 random bytes: tokens are valid in this runtime only */
  key?: Uint8Array | string;
  /**
   * Ed25519 token keys (see docs/tokens.md): with `privateKey` this runtime mints tokens that
   * any runtime holding the public key accepts; with `publicKeys` only it verifies such tokens and mints none.
   * HS256 tokens of `key` are accepted either way.
   */
  tokenKeys?: TokenKeysOption;
  /**
   * What an Ed25519 token (signed by another party) may have at most on this node: `net`, `limits`, and the node's
   * own `credentials`, which such a token names without their values (see docs/tokens.md).
   * @default no network, the default limits, no credentials
   */
  tokenBounds?: TokenBoundsOption;
  /** Idle workers kept started so opening a session does not wait for a boot. @default 2 */
  idleWorkers?: number;
  /** Sessions open at once in this runtime. @default 1024 */
  maxSessions?: number;
  /** Sessions open at once per user (a tenant's `maxSessions` overrides it). @default unlimited */
  maxSessionsPerUser?: number;
  /** Default OS sandbox mode for sessions. @default 'auto' */
  sandbox?: SandboxMode;
  /** Shell for the bash tool. @default 'bash' on POSIX ('sh' where bash is missing), 'cmd' on Windows */
  shell?: 'bash' | 'sh' | 'cmd' | 'powershell';
  /** Host tool modules (paths relative to the process cwd, or file URLs) loaded in every session worker. */
  toolModules?: readonly string[];
  /** Time host tool modules may take to load when they are listed. @default 30000 */
  moduleLoadTimeoutMs?: number;
  /** Host-wide permission rules: the first gate every call passes. */
  permissions?: PermissionSpec;
  /** Answers `ask` decisions; without it, ask means deny. */
  approve?: Approver;
  /** Where audit events go: a callback, `{ file }` (JSON lines), or `{ logger }` (pino-style). */
  audit?: AuditOption;
  /** MCP servers the broker may connect to, by id. */
  mcpServers?: McpServersOption;
  /** What each user may ever have (MCP entries, tools, secrets, quotas). */
  tenants?: TenantsOption;
  /** The same as `tenants` given as a function: what a user may ever have, or undefined for an unknown user. */
  tenantOf?: (user: string) => TenantConfig | undefined;
  /**
   * Edits the default blocklist for every session (see docs/paths.md, "The blocklist"): `add` blocks more names,
   * `remove` lifts default entries by name (e.g. `['.vscode']`); a session's own `blockedPaths` edits the result.
   * @default DEFAULT_BLOCKLIST unchanged
   */
  blockedPaths?: BlockedPathsOption;
  /**
   * Let `isolation: 'process'` sessions run their tool process without a pid namespace of its own (sandbox off or
   * unavailable): tool code can then signal, even SIGKILL, any process of the runtime's user on the host. Without
   * it such a session is refused with INVALID_OPTIONS. @default false
   */
  allowSharedPidNamespace?: boolean;
  /**
   * Run each session's sandboxed exec commands in one standing sandbox per session (a zygote, docs/sandbox.md,
   * "A standing sandbox per session") instead of one bwrap per command: same mounts, namespaces, filter and
   * per-command limits, but the session's commands share a pid namespace and /tmp. `false` gives every command a
   * bwrap of its own. An object sets `max` (zygotes alive at once across sessions; past it a session's commands get
   * a bwrap each, default 32) and `idleMs` (a zygote with no command running this long is closed, default 30000).
   * Zygotes are used only where the self-test proves a command cannot write its zygote's memory, unless
   * `allowZygoteMemoryWrites: true` accepts that a command could then escape the per-command rlimits
   * (docs/sandbox.md). @default true
   */
  sandboxZygote?: boolean | { max?: number; idleMs?: number; allowZygoteMemoryWrites?: boolean };
  /**
   * CA certificates (PEM text, one or more per string) trusted, besides Node's bundled roots, when the egress proxy
   * and web_fetch connect to a credential's host (the hosts whose requests they fill in and whose TLS the proxy
   * terminates), e.g. a private CA of an internal API. Not used for any other host, nor put in the sandbox's CA
   * bundle; verification stays on. Each must be a CA certificate; anything else is INVALID_OPTIONS.
   * @default Node's default trust
   */
  upstreamCa?: string | readonly string[];
}

const RUNTIME_OPTION_KEYS: ReadonlySet<string> = new Set([
  'key', 'tokenKeys', 'tokenBounds', 'idleWorkers', 'maxSessions', 'maxSessionsPerUser', 'sandbox', 'shell', 'toolModules', 'moduleLoadTimeoutMs',
  'permissions', 'approve', 'audit', 'mcpServers', 'tenants', 'tenantOf', 'blockedPaths', 'allowSharedPidNamespace', 'sandboxZygote',
  'upstreamCa',
] satisfies (keyof RuntimeOptions)[]);

/** Throws INVALID_OPTIONS naming an unknown option (a typo must not silently drop a setting) or a bad number. */
export function checkRuntimeOptions(options: RuntimeOptions): void {
  if (typeof options !== 'object' || options === null) throw new ToolwardenError('INVALID_OPTIONS', 'createRuntime takes an options object');
  for (const key of Object.keys(options)) {
    if (!RUNTIME_OPTION_KEYS.has(key)) throw new ToolwardenError('INVALID_OPTIONS', `unknown createRuntime option '${key}'`);
  }
  for (const key of ['idleWorkers', 'maxSessions', 'maxSessionsPerUser', 'moduleLoadTimeoutMs'] as const) {
    const value = options[key];
    const min = key === 'idleWorkers' ? 0 : 1;
    if (value !== undefined && !(Number.isInteger(value) && value >= min)) {
      throw new ToolwardenError('INVALID_OPTIONS', `${key} must be an integer >= ${min}, got ${String(value)}`);
    }
  }
  if (options.sandbox !== undefined && !['auto', 'required', 'off'].includes(options.sandbox)) {
    throw new ToolwardenError('INVALID_OPTIONS', `sandbox must be 'auto', 'required' or 'off', got '${String(options.sandbox)}'`);
  }
  if (options.allowSharedPidNamespace !== undefined && typeof options.allowSharedPidNamespace !== 'boolean') {
    throw new ToolwardenError('INVALID_OPTIONS', `allowSharedPidNamespace must be a boolean, got ${typeof options.allowSharedPidNamespace}`);
  }
  if (options.approve !== undefined && typeof options.approve !== 'function') throw new ToolwardenError('INVALID_OPTIONS', 'approve must be a function');
  if (options.tenantOf !== undefined && typeof options.tenantOf !== 'function') throw new ToolwardenError('INVALID_OPTIONS', 'tenantOf must be a function of the user');
  if (options.tenantOf !== undefined && options.tenants !== undefined) throw new ToolwardenError('INVALID_OPTIONS', 'give tenants or tenantOf, not both');
}

/** Whose a token is, as {@link Runtime.verifyToken} found it. */
export interface TokenInfo {
  /** The session id the token opens (one live session per token). */
  sid: string;
  user?: string;
  /** Expiry, epoch seconds. */
  expiresAt: number;
  tools: string[];
  workspaceRoot: string;
}

/** A runtime's live figures, from {@link Runtime.stats}. */
export interface RuntimeStats {
  sessions: number;
  /** Open sessions per user; sessions without a user count under ''. */
  sessionsByUser: Record<string, number>;
  /** Background processes running across every session. */
  processes: number;
  /** `ask` decisions the approver has not answered yet. */
  pendingApprovals: number;
  /** Pre-started workers waiting for a session. */
  idleWorkers: number;
  /** Session sandboxes (zygotes) alive or starting, against `sandboxZygote.max`. */
  zygotes: number;
}
