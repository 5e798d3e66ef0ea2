import { ToolwardenError } from '../errors.js';
import type { Limits } from '../limits.js';
import type { Capability, PermissionSpec, SandboxMode } from './capability.js';

/** What a child session asks for; every field is optional and defaults to the parent's value. */
export interface NarrowRequest {
  tools?: readonly string[];
  workspaceRoot?: string;
  readRoots?: readonly string[];
  allowOutsideWorkspace?: boolean;
  excludedPaths?: readonly string[];
  mcpServers?: readonly string[];
  limits?: Partial<Limits>;
  permissions?: PermissionSpec;
  sandbox?: SandboxMode;
  net?: false | readonly string[];
  env?: readonly string[];
}

/** Path and MCP decisions the narrowing needs, injected so this stays pure. */
export interface NarrowDeps {
  /** Whether `child` is `root` or inside it (by segments). */
  isInside(child: string, root: string): boolean;
  /** Narrows MCP entries, throwing ESCALATION when asking for more. */
  narrowMcp(parent: readonly string[], requested: readonly string[]): string[];
  /** The rule layers of a child: all of the parent's plus its own. */
  narrowPermissions(parent: readonly PermissionSpec[], requested: PermissionSpec | undefined): PermissionSpec[];
}

const SANDBOX_STRICTNESS: Record<SandboxMode, number> = { off: 0, auto: 1, required: 2 };

/**
 * Computes a child capability that is at most its parent. Asking for anything more throws `ESCALATION` naming it.
 * Paths in `request` must already be canonical absolute paths.
 */
export function narrowCapability(parent: Capability, request: NarrowRequest, sid: string, deps: NarrowDeps): Capability {
  const escalate = (what: string): never => {
    throw new ToolwardenError('ESCALATION', `cannot widen the parent capability: ${what}`);
  };
  const tools = request.tools ?? parent.tools;
  for (const tool of tools) if (!parent.tools.includes(tool)) escalate(`tool '${tool}' is not allowed to the parent`);

  const workspaceRoot = request.workspaceRoot ?? parent.workspaceRoot;
  if (!deps.isInside(workspaceRoot, parent.workspaceRoot)) {
    escalate(`workspaceRoot '${workspaceRoot}' is outside the parent's '${parent.workspaceRoot}'`);
  }
  const parentReadable = [parent.workspaceRoot, ...parent.readRoots];
  const readRoots = request.readRoots ?? parent.readRoots;
  for (const root of readRoots) {
    if (!parentReadable.some((r) => deps.isInside(root, r))) escalate(`read root '${root}' is not readable to the parent`);
  }
  const allowOutsideWorkspace = request.allowOutsideWorkspace ?? parent.allowOutsideWorkspace;
  if (allowOutsideWorkspace && !parent.allowOutsideWorkspace) escalate('allowOutsideWorkspace is false for the parent');

  // A child keeps every exclusion of its parent (re-expressed relative to a narrower root) and may add more.
  const excludedPaths = [...new Set([...parent.excludedPaths, ...(request.excludedPaths ?? [])])];

  const mcpServers = request.mcpServers ? deps.narrowMcp(parent.mcpServers, request.mcpServers) : [...parent.mcpServers];
  const limits = narrowLimits(parent.limits, request.limits ?? {}, escalate);

  const sandbox = request.sandbox ?? parent.sandbox;
  if (SANDBOX_STRICTNESS[sandbox] < SANDBOX_STRICTNESS[parent.sandbox]) escalate(`sandbox '${sandbox}' is weaker than '${parent.sandbox}'`);

  const net = narrowNet(parent.net, request.net, escalate);
  const env = narrowEnv(parent.env, request.env, escalate);
  const permissions = deps.narrowPermissions(parent.permissions, request.permissions);

  const child: Capability = {
    sid,
    tools: [...tools],
    workspaceRoot,
    readRoots: [...readRoots],
    allowOutsideWorkspace,
    excludedPaths,
    mcpServers,
    limits,
    permissions,
    sandbox,
    net,
    env,
    toolModules: [...parent.toolModules],
    isolation: parent.isolation,
    ...(parent.user === undefined ? {} : { user: parent.user }),
    ...(parent.shellEncoding === undefined ? {} : { shellEncoding: parent.shellEncoding }),
  };
  return child;
}

function narrowLimits(parent: Readonly<Limits>, requested: Partial<Limits>, escalate: (what: string) => never): Limits {
  const limits: Limits = { ...parent };
  for (const [key, value] of Object.entries(requested) as [keyof Limits, number | undefined][]) {
    if (value === undefined) continue;
    if (!(key in parent)) throw new ToolwardenError('INVALID_OPTIONS', `unknown limit '${key}'`);
    const ceiling = parent[key];
    // 0 means unlimited for the write quota: a child of a quota'd parent cannot ask for unlimited.
    const unlimited = key === 'writeQuotaBytes' && value === 0;
    const parentUnlimited = key === 'writeQuotaBytes' && ceiling === 0;
    if ((unlimited && !parentUnlimited) || (!parentUnlimited && value > ceiling)) {
      escalate(`limit ${key}=${value} exceeds the parent's ${ceiling}`);
    }
    limits[key] = value;
  }
  return limits;
}

function narrowNet(parent: false | readonly string[], requested: false | readonly string[] | undefined, escalate: (what: string) => never): false | string[] {
  if (requested === undefined) return parent === false ? false : [...parent];
  if (requested === false) return false;
  if (parent === false) return escalate('network access is not allowed to the parent');
  for (const host of requested) if (!parent.includes(host)) escalate(`network host '${host}' is not allowed to the parent`);
  return [...requested];
}

function narrowEnv(
  parent: readonly string[] | Readonly<Record<string, string>>,
  requested: readonly string[] | undefined,
  escalate: (what: string) => never,
): readonly string[] | Readonly<Record<string, string>> {
  if (requested === undefined) return Array.isArray(parent) ? [...parent] : { ...parent };
  const allowed = Array.isArray(parent) ? parent : Object.keys(parent);
  for (const name of requested) if (!allowed.includes(name)) escalate(`environment variable '${name}' is not allowed to the parent`);
  if (Array.isArray(parent)) return [...requested];
  const map = parent as Readonly<Record<string, string>>;
  return Object.fromEntries(requested.map((name) => [name, map[name] ?? '']));
}
