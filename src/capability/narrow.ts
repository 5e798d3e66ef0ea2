import type { PlatformPath } from 'node:path';
import { ToolwardenError } from '../errors.js';
import type { Limits } from '../limits.js';
import type { Capability, PermissionSpec, SandboxMode } from './capability.js';
import { narrowBlocklist } from './narrow-blocklist.js';
import { narrowPaths, type PathFields } from './narrow-paths.js';
import type { NarrowRequest } from './narrow-request.js';
import { parseLimits } from './parse-limits.js';

export { NARROW_REQUEST_KEYS, parseNarrowRequest, type NarrowRequest } from './narrow-request.js';

/** Path and MCP decisions the narrowing needs, injected so this stays pure. */
export interface NarrowDeps {
  /** The host's path flavour (`node:path`, or `path.win32` / `path.posix` in tests). */
  flavour: PlatformPath;
  /** Narrows MCP entries, throwing ESCALATION when asking for more. */
  narrowMcp(parent: readonly string[], requested: readonly string[]): string[];
  /** The rule layers of a child: all of the parent's plus its own. */
  narrowPermissions(parent: readonly PermissionSpec[], requested: PermissionSpec | undefined): PermissionSpec[];
}

/** What a field's narrowing sees: the parent, the (shape-checked) request, the path fields already narrowed. */
interface FieldContext {
  parent: Capability;
  request: NarrowRequest;
  paths: PathFields;
  deps: NarrowDeps;
  escalate: (what: string) => never;
}

type NarrowedField = Exclude<keyof Capability, 'sid' | keyof PathFields>;

const SANDBOX_STRICTNESS: Readonly<Record<SandboxMode, number>> = { off: 0, auto: 1, required: 2 };
const ISOLATION_STRENGTH: Readonly<Record<Capability['isolation'], number>> = { worker: 0, process: 1 };

/**
 * How each capability field narrows, one row per field: the child's value from the parent's and the request's,
 * or ESCALATION naming what would widen. The path fields (`workspaceRoot`, `readRoots`, `allowOutsideWorkspace`,
 * `excludedPaths`) depend on each other and narrow together in {@link narrowPaths}.
 */
export const FIELD_NARROWING: { readonly [K in NarrowedField]: (ctx: FieldContext) => Capability[K] } = {
  tools: ({ parent, request, escalate }) => {
    const tools = [...new Set(request.tools ?? parent.tools)];
    for (const tool of tools) if (!parent.tools.includes(tool)) escalate(`tool '${tool}' is not allowed to the parent`);
    return tools;
  },
  mcpServers: ({ parent, request, deps }) => (request.mcpServers ? deps.narrowMcp(parent.mcpServers, request.mcpServers) : [...parent.mcpServers]),
  limits: ({ parent, request, escalate }) => narrowLimits(parent.limits, request.limits, escalate),
  permissions: ({ parent, request, deps }) => deps.narrowPermissions(parent.permissions, request.permissions),
  sandbox: ({ parent, request, escalate }) => {
    const sandbox = request.sandbox ?? parent.sandbox;
    if (SANDBOX_STRICTNESS[sandbox] < SANDBOX_STRICTNESS[parent.sandbox]) escalate(`sandbox '${sandbox}' is weaker than '${parent.sandbox}'`);
    return sandbox;
  },
  net: ({ parent, request, escalate }) => narrowNet(parent.net, request.net, escalate),
  env: ({ parent, request, escalate }) => narrowEnv(parent.env, request.env, escalate),
  isolation: ({ parent, request, escalate }) => {
    const isolation = request.isolation ?? parent.isolation;
    if (ISOLATION_STRENGTH[isolation] < ISOLATION_STRENGTH[parent.isolation]) escalate(`isolation '${isolation}' is weaker than '${parent.isolation}'`);
    return isolation;
  },
  blockedPaths: ({ parent, request, paths, escalate }) => narrowBlocklist(parent, request.blockedPaths, paths.workspaceRoot !== parent.workspaceRoot, escalate),
  user: ({ parent, request, escalate }) => unchanged('user', parent.user, request.user, escalate),
  shellEncoding: ({ parent, request, escalate }) => unchanged('shellEncoding', parent.shellEncoding, request.shellEncoding, escalate),
  toolModules: ({ parent, request, escalate }) => {
    const asked = request.toolModules;
    if (asked !== undefined && (asked.length !== parent.toolModules.length || asked.some((m, i) => m !== parent.toolModules[i]))) {
      escalate('a child runs its parent\'s toolModules and cannot change them');
    }
    return [...parent.toolModules];
  },
};

/**
 * Computes a child capability that is at most its parent, field by field ({@link FIELD_NARROWING}). Asking for
 * anything more throws `ESCALATION` naming it; a malformed request throws `INVALID_OPTIONS`. Paths in `request`
 * must already be canonical absolute paths.
 */
export function narrowCapability(parent: Capability, request: NarrowRequest, sid: string, deps: NarrowDeps): Capability {
  const escalate = (what: string): never => {
    throw new ToolwardenError('ESCALATION', `cannot widen the parent capability: ${what}`);
  };
  const paths = narrowPaths(parent, request, deps.flavour, escalate);
  const ctx: FieldContext = { parent, request, paths, deps, escalate };
  const fields = Object.fromEntries(Object.entries(FIELD_NARROWING).map(([key, narrow]) => [key, narrow(ctx)]));
  const defined = Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  return { sid, ...paths, ...defined } as unknown as Capability;
}

function unchanged<T>(name: string, parent: T | undefined, requested: T | undefined, escalate: (what: string) => never): T | undefined {
  if (requested !== undefined && requested !== parent) escalate(`a child cannot change ${name} (the parent's is ${parent === undefined ? 'unset' : JSON.stringify(parent)})`);
  return parent;
}

function narrowLimits(parent: Readonly<Limits>, requested: unknown, escalate: (what: string) => never): Limits {
  const limits: Limits = { ...parent };
  if (requested === undefined) return limits;
  for (const [key, value] of Object.entries(parseLimits(requested, 'attenuate limits')) as [keyof Limits, number][]) {
    const ceiling = parent[key];
    // 0 means unlimited for the write quota: a child of a quota'd parent cannot ask for unlimited.
    const parentUnlimited = key === 'writeQuotaBytes' && ceiling === 0;
    const unlimited = key === 'writeQuotaBytes' && value === 0;
    if (!parentUnlimited && (unlimited || value > ceiling)) escalate(`limit ${key}=${value} exceeds the parent's ${ceiling}`);
    limits[key] = value;
  }
  return limits;
}

function narrowNet(parent: false | readonly string[], requested: false | readonly string[] | undefined, escalate: (what: string) => never): false | string[] {
  if (requested === undefined) return parent === false ? false : [...parent];
  if (requested === false) return false;
  if (parent === false) return escalate('network access is not allowed to the parent');
  for (const host of requested) if (!parent.includes(host)) escalate(`network host '${host}' is not allowed to the parent`);
  return [...new Set(requested)];
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
  return Object.fromEntries(requested.map((name) => [name, Object.hasOwn(map, name) ? map[name]! : '']));
}
