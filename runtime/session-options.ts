import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { ToolwardenError } from '../src/errors.js';
import { DEFAULT_LIMITS, type Limits } from '../src/limits.js';
import type { Capability, PermissionSpec, SandboxMode } from '../src/capability/capability.js';
import { normalizeExcludedPath } from '../src/capability/excluded-paths.js';
import { parseLimits } from '../src/capability/parse-limits.js';
import { rejectUnknownKeys, requirePlainObject } from '../src/capability/plain-object.js';
import { DEFAULT_BLOCKLIST, type BlockedEntry } from '../src/path-guard/blocklist.js';
import { applyBlockedPathsOption, type BlockedPathsOption } from '../src/path-guard/blocklist-option.js';
import { SANDBOX_MODES } from '../src/sandbox/types.js';

/** Options of {@link Runtime.openSession} and {@link Runtime.mintToken}. */
export interface SessionOptions {
  /** Workspace root, absolute or relative to the process cwd; must exist. Required unless `token` is given. */
  workspaceRoot?: string;
  /** Tools the session may see and call. Closed by default: omitted or [] exposes nothing. */
  tools?: readonly string[];
  /** Extra read-only roots. @default [] */
  readRoots?: readonly string[];
  /** Let paths outside the workspace through the boundary check (the blocklist still applies). @default false */
  allowOutsideWorkspace?: boolean;
  /** Workspace-relative paths refused for writing. @default ['.git'] */
  excludedPaths?: readonly string[];
  /** Per-session limits; see {@link Limits}. */
  limits?: Partial<Limits>;
  /** A token from {@link Runtime.mintToken}; when given, no other capability option may be. */
  token?: string;
  /** The user the session acts for (tenants, MCP credentials, audit). */
  user?: string;
  /** MCP entries: `'id'`, `'id:tool'`, `'id:pattern*'`. Closed by default. */
  mcpServers?: readonly string[];
  /** This session's permission rules (a second gate after the host's). */
  permissions?: PermissionSpec;
  /** OS sandbox for shell commands. @default the runtime's default, 'auto' */
  sandbox?: SandboxMode;
  /** Network permission: false or allowed hosts. @default false */
  net?: false | readonly string[];
  /** Host environment variables commands may see (names or `PREFIX_*`), or an explicit map. @default [] */
  env?: readonly string[] | Readonly<Record<string, string>>;
  /** Charset of shell output, overriding detection. */
  shellEncoding?: string;
  /** Host tool modules to load in this session's worker, in addition to the runtime's. */
  toolModules?: readonly string[];
  /** Where host tools run. @default 'worker' */
  isolation?: 'worker' | 'process';
  /**
   * Edits the blocklist of paths never written (see README, "Blocklist"): `add` blocks more names, `remove` lifts
   * entries of the runtime's list by name (e.g. `['.vscode']`). @default the runtime's list, `DEFAULT_BLOCKLIST`
   */
  blockedPaths?: BlockedPathsOption;
  /** Lifetime of a minted token, in seconds. @default 3600 */
  ttlSeconds?: number;
}

const CAPABILITY_KEYS = ['workspaceRoot', 'tools', 'readRoots', 'allowOutsideWorkspace', 'excludedPaths', 'limits', 'user', 'mcpServers', 'permissions', 'sandbox', 'net', 'env', 'shellEncoding', 'toolModules', 'isolation', 'blockedPaths'] as const satisfies readonly (keyof SessionOptions)[];
const KNOWN_KEYS = new Set<string>([...CAPABILITY_KEYS, 'token', 'ttlSeconds']);

/** Throws INVALID_OPTIONS when a token is combined with capability options, or an option is unknown. */
export function checkOptionKeys(options: SessionOptions): void {
  rejectUnknownKeys(requirePlainObject(options, 'session options'), KNOWN_KEYS, 'session');
  if (options.token !== undefined) {
    const extra = CAPABILITY_KEYS.filter((key) => options[key] !== undefined);
    if (extra.length > 0) {
      throw new ToolwardenError('INVALID_OPTIONS', `openSession({ token }) takes its capability from the token; drop ${extra.join(', ')}`);
    }
  }
}

/** Defaults the runtime applies to sessions. */
export interface CapabilityDefaults {
  sandbox: SandboxMode;
  toolModules: readonly string[];
  /** The runtime's blocklist, which a session's `blockedPaths` edits. @default DEFAULT_BLOCKLIST */
  blocklist?: readonly BlockedEntry[];
}

/** Validates session options and builds the canonical capability (roots realpath'ed, limits filled in). */
export function buildCapability(options: SessionOptions, defaults: CapabilityDefaults): Capability {
  checkOptionKeys(options);
  const workspaceRoot = canonicalDirectory(options.workspaceRoot, 'workspaceRoot');
  const readRoots = stringArray(options.readRoots ?? [], 'readRoots').map((root, i) => canonicalDirectory(root, `readRoots[${i}]`));
  const tools = [...new Set(stringArray(options.tools ?? [], 'tools'))];
  const excludedPaths = [...new Set(stringArray(options.excludedPaths ?? ['.git'], 'excludedPaths').map((p, i) => normalizeExcludedPath(p, `excludedPaths[${i}]`)))];
  const limits = buildLimits(options.limits);
  const sandbox = options.sandbox ?? defaults.sandbox;
  if (!SANDBOX_MODES.includes(sandbox)) throw new ToolwardenError('INVALID_OPTIONS', `sandbox must be 'auto', 'required' or 'off', got '${String(sandbox)}'`);
  const isolation = options.isolation ?? 'worker';
  if (isolation !== 'worker' && isolation !== 'process') throw new ToolwardenError('INVALID_OPTIONS', `isolation must be 'worker' or 'process'`);
  if (options.allowOutsideWorkspace !== undefined && typeof options.allowOutsideWorkspace !== 'boolean') {
    throw new ToolwardenError('INVALID_OPTIONS', 'allowOutsideWorkspace must be a boolean');
  }
  return {
    sid: randomUUID(),
    tools,
    workspaceRoot,
    readRoots,
    allowOutsideWorkspace: options.allowOutsideWorkspace ?? false,
    excludedPaths,
    mcpServers: stringArray(options.mcpServers ?? [], 'mcpServers'),
    limits,
    permissions: options.permissions ? [options.permissions] : [],
    sandbox,
    net: options.net === undefined || options.net === false ? false : stringArray(options.net, 'net'),
    env: Array.isArray(options.env) ? stringArray(options.env, 'env') : { ...(options.env ?? {}) },
    toolModules: [...defaults.toolModules, ...stringArray(options.toolModules ?? [], 'toolModules')],
    isolation,
    blockedPaths: applyBlockedPathsOption(defaults.blocklist ?? DEFAULT_BLOCKLIST, options.blockedPaths, 'blockedPaths'),
    ...(options.user === undefined ? {} : { user: requireNonEmpty(options.user, 'user') }),
    ...(options.shellEncoding === undefined ? {} : { shellEncoding: requireNonEmpty(options.shellEncoding, 'shellEncoding') }),
  };
}

/** Fills in default limits, refusing unknown keys and values that are not integers at or above the limit's minimum. */
export function buildLimits(requested: Partial<Limits> | undefined): Limits {
  return { ...DEFAULT_LIMITS, ...(requested === undefined ? {} : parseLimits(requested, 'limits')) };
}

/** Resolves a directory option to its canonical absolute path, which must exist. */
export function canonicalDirectory(value: unknown, name: string): string {
  const raw = requireNonEmpty(value, name);
  let real: string;
  try {
    real = fs.realpathSync.native(path.resolve(raw));
  } catch {
    throw new ToolwardenError('INVALID_OPTIONS', `${name} '${raw}' does not exist`);
  }
  if (!fs.statSync(real).isDirectory()) throw new ToolwardenError('INVALID_OPTIONS', `${name} '${raw}' is not a directory`);
  return real;
}

function stringArray(value: unknown, name: string): string[] {
  if (!Array.isArray(value) || value.some((item) => typeof item !== 'string' || item.length === 0 || item.includes('\0'))) {
    throw new ToolwardenError('INVALID_OPTIONS', `${name} must be an array of non-empty strings`);
  }
  return [...(value as string[])];
}

function requireNonEmpty(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length === 0 || value.includes('\0')) {
    throw new ToolwardenError('INVALID_OPTIONS', `${name} must be a non-empty string`);
  }
  return value;
}
