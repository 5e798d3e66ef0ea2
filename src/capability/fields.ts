import type { PlatformPath } from 'node:path';
import { DEFAULT_LIMITS } from '../limits.js';
import { narrowCredentials, parseCredentials } from '../net/egress/credentials.js';
import { DEFAULT_BLOCKLIST, type BlockedEntry } from '../path-guard/blocklist.js';
import { applyBlockedPathsOption, type BlockedPathsOption } from '../path-guard/blocklist-option.js';
import { validatePermissionSpec } from '../policy/validate-spec.js';
import { SANDBOX_MODES } from '../sandbox/types.js';
import type { Capability, PermissionSpec, SandboxMode } from './capability.js';
import { normalizeExcludedPath } from './excluded-paths.js';
import { narrowBlocklist } from './narrow-blocklist.js';
import type { PathFields } from './narrow-paths.js';
import type { NarrowRequest } from './narrow-request.js';
import { atLeast, narrowEnv, narrowLimits, narrowNet, unchanged, type Escalate } from './narrow-values.js';
import { parseLimits } from './parse-limits.js';
import { oneOf, parseEnv, requireBoolean, requireNonEmpty, stringArray } from './parse-values.js';

/** Defaults the runtime applies to sessions. */
export interface CapabilityDefaults {
  sandbox: SandboxMode;
  toolModules: readonly string[];
  /** The runtime's blocklist, which a session's `blockedPaths` edits. @default DEFAULT_BLOCKLIST */
  blocklist?: readonly BlockedEntry[];
}

/** What parsing an option sees: the runtime's defaults, and the filesystem look-up that makes a root canonical. */
export interface ParseContext {
  defaults: CapabilityDefaults;
  /** The canonical absolute path of an existing directory (realpath), else INVALID_OPTIONS naming `name`. */
  canonicalDirectory(value: unknown, name: string): string;
  /** Whether credentials may be references without a value (minting for other nodes). @default false */
  credentialReferences?: boolean;
}

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
export interface FieldContext {
  parent: Capability;
  request: NarrowRequest;
  paths: PathFields;
  deps: NarrowDeps;
  escalate: Escalate;
}

/**
 * One capability field: its value when the option is absent, how a given option parses, how a child's request for it
 * is shape-checked (once, at the `attenuate` boundary), and how a child narrows it.
 */
export interface FieldSpec<K extends CapabilityField> {
  default(ctx: ParseContext): Capability[K];
  parse(value: unknown, ctx: ParseContext): Capability[K];
  /** A child's requested value, shape-checked and parsed for `narrow` (INVALID_OPTIONS naming `attenuate <field>`). */
  request(value: unknown): NonNullable<NarrowRequest[K]>;
  /** The child's value; `'paths'` for the path fields, which narrow together in `narrowPaths`. */
  narrow: ((ctx: FieldContext) => Capability[K]) | 'paths';
}

/** Every field of a capability but its id. */
export type CapabilityField = Exclude<keyof Capability, 'sid'>;

const SANDBOX_STRICTNESS: Readonly<Record<SandboxMode, number>> = { off: 0, auto: 1, required: 2 };
const ISOLATIONS = ['worker', 'process'] as const;
const ISOLATION_STRENGTH: Readonly<Record<Capability['isolation'], number>> = { worker: 0, process: 1 };

/**
 * The one table of capability fields (Deno's per-kind descriptors): for each, `default`, `parse` (options to the
 * canonical value, INVALID_OPTIONS naming the field), `request` (a child's request, shape-checked once at the
 * boundary) and `narrow` (a child's value, or ESCALATION naming what would widen). `buildCapability`,
 * `parseNarrowRequest` and `narrowCapability` all walk it, so a new field cannot miss any of them.
 */
export const CAPABILITY_FIELDS: { readonly [K in CapabilityField]-?: FieldSpec<K> } = {
  workspaceRoot: {
    default: (ctx) => ctx.canonicalDirectory(undefined, 'workspaceRoot'),
    parse: (value, ctx) => ctx.canonicalDirectory(value, 'workspaceRoot'),
    request: (value) => requireNonEmpty(value, 'attenuate workspaceRoot'),
    narrow: 'paths',
  },
  readRoots: {
    default: () => [],
    parse: (value, ctx) => [...new Set(stringArray(value, 'readRoots').map((root, i) => ctx.canonicalDirectory(root, `readRoots[${i}]`)))],
    request: (value) => stringArray(value, 'attenuate readRoots'),
    narrow: 'paths',
  },
  allowOutsideWorkspace: {
    default: () => false,
    parse: (value) => requireBoolean(value, 'allowOutsideWorkspace'),
    request: (value) => requireBoolean(value, 'attenuate allowOutsideWorkspace'),
    narrow: 'paths',
  },
  excludedPaths: {
    default: () => ['.git'],
    parse: (value) => [...new Set(stringArray(value, 'excludedPaths').map((p, i) => normalizeExcludedPath(p, `excludedPaths[${i}]`)))],
    request: (value) => stringArray(value, 'attenuate excludedPaths').map((p, i) => normalizeExcludedPath(p, `excludedPaths[${i}]`)),
    narrow: 'paths',
  },
  tools: {
    default: () => [],
    parse: (value) => [...new Set(stringArray(value, 'tools'))],
    request: (value) => stringArray(value, 'attenuate tools'),
    narrow: ({ parent, request, escalate }) => {
      const tools = [...new Set(request.tools ?? parent.tools)];
      for (const tool of tools) if (!parent.tools.includes(tool)) escalate(`tool '${tool}' is not allowed to the parent`);
      return tools;
    },
  },
  mcpServers: {
    default: () => [],
    parse: (value) => stringArray(value, 'mcpServers'),
    request: (value) => stringArray(value, 'attenuate mcpServers'),
    narrow: ({ parent, request, deps }) => (request.mcpServers ? deps.narrowMcp(parent.mcpServers, request.mcpServers) : [...parent.mcpServers]),
  },
  limits: {
    default: () => ({ ...DEFAULT_LIMITS }),
    parse: (value) => ({ ...DEFAULT_LIMITS, ...parseLimits(value, 'limits') }),
    request: (value) => parseLimits(value, 'attenuate limits'),
    narrow: ({ parent, request, escalate }) => narrowLimits(parent.limits, request.limits, escalate),
  },
  permissions: {
    default: () => [],
    parse: (value) => [validatePermissionSpec(value, 'permissions')],
    // Checked against the runtime's known tools by the runtime, which alone knows them.
    request: (value) => value as PermissionSpec,
    narrow: ({ parent, request, deps }) => deps.narrowPermissions(parent.permissions, request.permissions),
  },
  sandbox: {
    default: (ctx) => ctx.defaults.sandbox,
    parse: (value) => oneOf(value, SANDBOX_MODES, 'sandbox'),
    request: (value) => oneOf(value, SANDBOX_MODES, 'attenuate sandbox'),
    narrow: ({ parent, request, escalate }) => atLeast('sandbox', SANDBOX_STRICTNESS, parent.sandbox, request.sandbox, escalate),
  },
  net: {
    default: () => false,
    parse: (value) => (value === false ? false : stringArray(value, 'net')),
    request: (value) => (value === false ? false : stringArray(value, 'attenuate net')),
    narrow: ({ parent, request, escalate }) => narrowNet(parent.net, request.net, escalate),
  },
  credentials: {
    default: () => undefined,
    parse: (value, ctx) => parseCredentials(value, ctx.credentialReferences === true),
    request: (value) => stringArray(value, 'attenuate credentials'),
    narrow: ({ parent, request, escalate }) => narrowCredentials(parent.credentials, request.credentials, escalate),
  },
  env: {
    default: () => [],
    parse: (value) => parseEnv(value),
    request: (value) => stringArray(value, 'attenuate env'),
    narrow: ({ parent, request, escalate }) => narrowEnv(parent.env, request.env, escalate),
  },
  isolation: {
    default: () => 'worker',
    parse: (value) => oneOf(value, ISOLATIONS, 'isolation'),
    request: (value) => oneOf(value, ISOLATIONS, 'attenuate isolation'),
    narrow: ({ parent, request, escalate }) => atLeast('isolation', ISOLATION_STRENGTH, parent.isolation, request.isolation, escalate),
  },
  blockedPaths: {
    default: (ctx) => [...(ctx.defaults.blocklist ?? DEFAULT_BLOCKLIST)],
    parse: (value, ctx) => applyBlockedPathsOption(ctx.defaults.blocklist ?? DEFAULT_BLOCKLIST, value, 'blockedPaths'),
    // Parsed against the parent's blocklist by narrowBlocklist: a removal must name one of the parent's entries.
    request: (value) => value as BlockedPathsOption,
    narrow: ({ parent, request, paths, escalate }) => narrowBlocklist(parent, request.blockedPaths, paths.workspaceRoot !== parent.workspaceRoot, escalate),
  },
  toolModules: {
    default: (ctx) => [...ctx.defaults.toolModules],
    parse: (value, ctx) => [...ctx.defaults.toolModules, ...stringArray(value, 'toolModules')],
    request: (value) => stringArray(value, 'attenuate toolModules'),
    narrow: ({ parent, request, escalate }) => {
      const asked = request.toolModules;
      if (asked !== undefined && (asked.length !== parent.toolModules.length || asked.some((m, i) => m !== parent.toolModules[i]))) {
        escalate("a child runs its parent's toolModules and cannot change them");
      }
      return [...parent.toolModules];
    },
  },
  user: {
    default: () => undefined,
    parse: (value) => requireNonEmpty(value, 'user'),
    request: (value) => requireNonEmpty(value, 'attenuate user'),
    narrow: ({ parent, request, escalate }) => unchanged('user', parent.user, request.user, escalate),
  },
  shellEncoding: {
    default: () => undefined,
    parse: (value) => requireNonEmpty(value, 'shellEncoding'),
    request: (value) => requireNonEmpty(value, 'attenuate shellEncoding'),
    narrow: ({ parent, request, escalate }) => unchanged('shellEncoding', parent.shellEncoding, request.shellEncoding, escalate),
  },
};

/** The fields of a capability without its id, from options (`undefined` options take the default). */
export function parseCapabilityFields(options: Readonly<Partial<Record<CapabilityField, unknown>>>, ctx: ParseContext): Omit<Capability, 'sid'> {
  const entries = (Object.keys(CAPABILITY_FIELDS) as CapabilityField[]).map((key) => {
    const spec = CAPABILITY_FIELDS[key] as FieldSpec<CapabilityField>;
    const value = options[key];
    return [key, value === undefined ? spec.default(ctx) : spec.parse(value, ctx)] as const;
  });
  return Object.fromEntries(entries.filter(([, value]) => value !== undefined)) as unknown as Omit<Capability, 'sid'>;
}
